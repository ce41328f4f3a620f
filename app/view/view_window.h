// ViewWindow: which part of the focus row the view shows (zoom and pan), in the units of its axis,
// and the level-of-detail rules that depend on how many pixels one element gets. Plain math, no GL.
#pragma once

namespace primlab::view {

// The horizontal axis of a row: `real` cells of one unit each, then `padding` cells that share
// `pad_units` units between them, so that a small input padded to a large tile keeps most of the
// width for its real elements (the padding is drawn narrower, and named). A row without padding
// (bins, block sums, an input that needs none) is `real` cells of one unit.
struct Axis {
  int real = 1;          // cells [0, real) are one unit wide
  int padding = 0;       // cells [real, real + padding) share pad_units
  float pad_units = 0.f;
  float units() const { return float(real) + (padding > 0 ? pad_units : 0.f); }
  int cells() const { return real + padding; }
  // Units of one padding cell (1 without padding).
  float pad_width() const { return padding > 0 ? pad_units / float(padding) : 1.f; }
  // Where cell edge `i` (fractional) falls, in units, and back.
  float unit_of(float i) const;
  float cell_of(float u) const;
};

// The axis of a row of `real` elements followed by `padding` ones: padding that outnumbers a third
// of the real elements is squeezed into that third (at least half a unit), so that n = 3 padded to
// 128 draws three wide bars and a narrow padding block beside them.
Axis padded_axis(int real, int padding);

struct ViewWindow {
  float first = 0.f;  // units at the left edge (fractional)
  float count = 0.f;  // units across the view; <= 0: the whole row
};

// The smallest window: this many units across the view.
inline constexpr float kMinWindow = 4.f;

// `w` made valid for an axis of `units`: at least kMinWindow (or all) units, at most all, inside
// [0, units]. A count <= 0 becomes the whole row.
ViewWindow clamp_window(ViewWindow w, float units);
// Zooms by `factor` (< 1: in) keeping unit `anchor` (fractional) under the same pixel.
ViewWindow zoom_window(ViewWindow w, float units, float anchor, float factor);
// Moves the window by `delta` units (> 0: to the right).
ViewWindow pan_window(ViewWindow w, float units, float delta);
// True when the window shows the whole row.
bool whole_row(ViewWindow w, float units);

// The unit (fractional) under pixel x of an area that starts at x0 and is `w_px` wide.
float element_at(ViewWindow w, float units, float x0, float w_px, float x);

// Level of detail: lines and bands of a period of `px` pixels are drawn only from this width up,
// so that block and warp boundaries at large n do not alias into moire.
inline constexpr float kMinBandPx = 6.f;
// Arrows are drawn only when one element gets this many pixels.
inline constexpr float kMinArrowPx = 3.f;

}  // namespace primlab::view
