// ViewWindow: which elements of the array the view shows (zoom and pan), in element units, and
// the level-of-detail rules that depend on how many pixels one element gets. Plain math, no GL.
#pragma once

namespace primlab::view {

struct ViewWindow {
  float first = 0.f;  // element at the left edge (fractional)
  float count = 0.f;  // elements across the view; <= 0: the whole row
};

// The smallest window: this many elements across the view.
inline constexpr float kMinWindow = 4.f;

// `w` made valid for a row of `width` elements: at least kMinWindow (or width) elements, at most
// width, inside [0, width]. A count <= 0 becomes the whole row.
ViewWindow clamp_window(ViewWindow w, int width);
// Zooms by `factor` (< 1: in) keeping element `anchor` (fractional) under the same pixel.
ViewWindow zoom_window(ViewWindow w, int width, float anchor, float factor);
// Moves the window by `elements` (> 0: to the right).
ViewWindow pan_window(ViewWindow w, int width, float elements);
// True when the window shows the whole row.
bool whole_row(ViewWindow w, int width);

// The element (fractional) under pixel x of an area that starts at x0 and is `w_px` wide.
float element_at(ViewWindow w, int width, float x0, float w_px, float x);

// Level of detail: lines and bands of a period of `px` pixels are drawn only from this width up,
// so that block and warp boundaries at large n do not alias into moire.
inline constexpr float kMinBandPx = 6.f;
// Arrows are drawn only when one element gets this many pixels.
inline constexpr float kMinArrowPx = 3.f;

}  // namespace primlab::view
