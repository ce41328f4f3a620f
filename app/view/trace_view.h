// TraceView: draws one step of a trace from its GL buffers with the shaders in shaders/ (an
// overview of the whole row at large n, block bands and warp outlines, bars of the focus row,
// strips for the other rows, the step's operations as arrows, value labels). The window of
// elements shown (zoom and pan) and the level of detail follow ViewOptions::window. Used by the
// window and by headless `render` alike.
#pragma once
#include <string>
#include <vector>

#include "lab/model/trace.h"
#include "view/gl_object.h"
#include "view/trace_buffers.h"
#include "view/view_window.h"

namespace primlab::view {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;  // px, y down
};

struct ViewOptions {
  bool arrows = true;     // drawn where an element gets kMinArrowPx or more
  bool labels = true;     // drawn only where they fit
  bool bands = true;
  bool scale_per_step = true;  // bar heights from this step's values, else the whole trace's
  int highlight_row = -1, highlight_index = -1;  // the arrows that touch this index of this row are kHovered
  ViewWindow window;      // the elements shown (zoom and pan)
  float name_w = 0;       // px left of the bars for the row names (0: a fifth of the width, at most 120)
};

// The element rows' axis: n real elements and the padding after them (squeezed when it outnumbers
// them, view_window.h), or every place one unit where the padding moves with the keys
// (Trace::has_pad_key).
Axis element_axis(const Trace& meta);
// The axis of a row: an element row's n real elements and its padding (squeezed when it outnumbers
// them, view_window.h), or a row of bins or sums one unit a cell.
Axis row_axis(const Trace& meta, std::size_t row);
// True when row `row` shows the window of step `step`'s focus row: the focus row, and the rows of
// its index space (element rows under element bars; rows of as many cells as the focus's bins).
bool follows_window(const Trace& meta, int step, std::size_t row);

// Where things are, for overlays drawn by the UI (row names, hover readouts).
struct ViewLayout {
  Axis axis;              // the focus row's axis: ViewOptions::window is in its units
  ViewWindow window;      // the window shown (clamped)
  Rect padding;           // the focus row's padding over the bars (w = 0: none in view)
  Rect overview;          // the whole row and the visible window (h = 0: not drawn)
  float arcs_y = 0;       // top of the room for the arrows above the bars
  Rect bars;
  float label_y = 0, label_h = 0;
  float strip_h = 0;
  std::vector<float> row_y;  // per row; < 0 when the row is not drawn as a strip
  int hidden_rows = 0;       // strips left out of a view too short for them (the last rows)
  float hidden_y = -1.f;     // where the line that says so goes (< 0: no room for it)
  float bottom = 0;
  Rect network;              // [SECTION] Sorting network: the passes of the comparator panel, under its title line (h = 0: none)
};

// The layout of `step` in `rect`. A short rect squeezes the gaps, the strips, the arrows' room and
// the overview, then leaves out the last strips (hidden_rows) so that the bars keep some height and
// nothing lies below the rect.
ViewLayout layout_view(const Trace& meta, int step, Rect rect, const ViewOptions& opt);

// The horizontal geometry of one row in a layout, as shaders/common.glsl computes it (its axis, the
// window it shows, the pixels of a cell): the host's copy, for hit tests, labels and tests.
struct RowGeometry {
  bool padded = false;    // an element row with squeezed padding after n real cells
  int real = 0, cells = 0;
  float pad_k = 1.f;      // units of one padding cell
  ViewWindow win;         // the units shown across the bars
  float bars_x = 0, bars_w = 1;
  float unit_of(float i) const;
  float cell_of(float u) const;
  float unit_w() const { return bars_w / win.count; }  // px of one unit: a real cell's width
  float cell_w(int i) const { return unit_w() * (padded && i >= real ? pad_k : 1.f); }
  float cell_left(int i) const { return bars_x + (unit_of(float(i)) - win.first) * unit_w(); }
  float index_at(float x) const { return cell_of(win.first + (x - bars_x) / unit_w()); }
};
RowGeometry row_geometry(const Trace& meta, int step, const ViewLayout& l, std::size_t row);

// The cell of row `row` under pixel column x of a layout (-1: none).
int cell_at(const Trace& meta, int step, const ViewLayout& l, std::size_t row, float x);

// A value label as the view draws it (shaders/labels.*, common.glsl's label_of): its glyphs' box in
// the view's pixels, its row, index and text.
struct ValueLabel {
  Rect box;
  std::string text;
  int row = 0, index = 0;
};
// The value labels `draw` draws for layout `l` (under the bars and in the strips, the visible
// window's), from the prepared step's label texels (TraceBuffers::step_label_texels). A row draws
// all its labels that are in view at one scale, from its longest label, or none: each needs its
// glyphs and a gap of two glyph columns and 2 px in its cell.
std::vector<ValueLabel> value_labels(const Trace& meta, int step, const ViewLayout& l, const ViewOptions& opt,
                                     const TraceBuffers& buf);

// The value range the bars of row `row` are scaled to at a prepared step (see
// TraceBuffers::prepare_step): this step's or the whole trace's, as the options say.
RowRange bar_range(const TraceBuffers& buf, std::size_t row, const ViewOptions& opt);

// [SECTION] Sorting network
// The comparator panel (Trace::network) under the strips: a title line, then one row a compare-swap
// pass in step order (time runs down), the current pass kNetworkMagnify rows high.
inline constexpr float kNetworkTitleH = 16.f;
inline constexpr float kNetworkMagnify = 4.f;  // shaders/network.vert's kMagnify
inline constexpr int kMaxNetworkPasses = 128;
struct NetworkPass {
  int step = 0;
  std::string stage;  // "size 4", "final merge": the step label's stage
  std::string pass;   // "stride 2"
  bool stage_start = false, global = false, current = false;
  float y = 0, h = 0;  // the pass's row in the panel, px
};
std::vector<NetworkPass> network_passes(const Trace& meta, int step, const Rect& panel);

// Owns its shader programs and vertex array: move-only.
class TraceView {
 public:
  Result init();
  // Draws `step`; prepares it in `buf` first (labels and ranges, once per step shown).
  void draw(const Trace& meta, TraceBuffers& buf, int step, const ViewOptions& opt, float fb_w, float fb_h, Rect rect);

 private:
  Result build(GlObject& p, const char* vert, const char* frag);
  void set_common(GLuint prog, const Trace& meta, const TraceBuffers& buf, int step, const ViewLayout& l,
                  const ViewOptions& opt, float fb_w, float fb_h);
  GlObject bands_, bars_, ops_, labels_;  // bands and bars share shaders/quad.vert
  GlObject network_;  // [SECTION] Sorting network (Trace::network)
  void draw_network(const Trace& meta, const TraceBuffers& buf, int step, const ViewLayout& l, const ViewOptions& opt,
                    float fb_w, float fb_h);
  GlObject vao_;
};

// An offscreen colour target (the app shows it as an ImGui image; `render` reads it back). Owns its
// GL framebuffer and texture: move-only.
class Framebuffer {
 public:
  bool resize(int w, int h);
  void bind() const;
  GLuint texture() const { return tex_; }
  int width() const { return w_; }
  int height() const { return h_; }
  std::vector<unsigned char> read_rgba() const;  // top row first

 private:
  GlObject fbo_, tex_;
  int w_ = 0, h_ = 0;
};

// The pixels of the bound read framebuffer's w x h, as RGBA, top row first.
std::vector<unsigned char> read_rgba(int w, int h);

// Embedded shader sources (generated from shaders/ at build time).
const char* shader_source(const std::string& name);

}  // namespace primlab::view
