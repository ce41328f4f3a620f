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

// Where things are, for overlays drawn by the UI (row names, hover readouts).
struct ViewLayout {
  Rect overview;          // the whole row and the visible window (h = 0: not drawn)
  float arcs_y = 0;       // top of the room for the arrows above the bars
  Rect bars;
  float label_y = 0, label_h = 0;
  float strip_h = 0;
  std::vector<float> row_y;  // per row; < 0 when the row is not drawn as a strip
  int hidden_rows = 0;       // strips left out of a view too short for them (the last rows)
  float hidden_y = -1.f;     // where the line that says so goes (< 0: no room for it)
  float bottom = 0;
  Rect network;              // [SECTION] Sorting network: the comparator panel under the strips (h = 0: none)
};

// The layout of `step` in `rect`. A short rect squeezes the gaps, the strips, the arrows' room and
// the overview, then leaves out the last strips (hidden_rows) so that the bars keep some height and
// nothing lies below the rect.
ViewLayout layout_view(const Trace& meta, int step, Rect rect, const ViewOptions& opt);

// A value label as the view draws it (shaders/labels.*): its glyphs' box in the view's pixels and
// its text. Only labels that fit their cell are drawn.
struct ValueLabel {
  Rect box;
  std::string text;
};
// The value labels `draw` draws for layout `l` (under the bars and in the strips, the visible
// window's), from the prepared step's label texels (TraceBuffers::step_label_texels): the host's
// copy of labels.vert and labels.frag's fitting and placing.
std::vector<ValueLabel> value_labels(const Trace& meta, int step, const ViewLayout& l, const ViewOptions& opt,
                                     const TraceBuffers& buf);

// The value range the bars of row `row` are scaled to at a prepared step (see
// TraceBuffers::prepare_step): this step's or the whole trace's, as the options say.
RowRange bar_range(const TraceBuffers& buf, std::size_t row, const ViewOptions& opt);

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
