// TraceView: draws one step of a trace from its GL buffers with the shaders in shaders/ (block
// bands and warp outlines, bars of the focus row, strips for the other rows, the step's
// operations as arrows, value labels). Used by the window and by headless `render` alike.
#pragma once
#include <string>
#include <vector>

#include "lab/model/trace.h"
#include "view/gl_object.h"
#include "view/trace_buffers.h"

namespace primlab::view {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;  // px, y down
};

struct ViewOptions {
  bool arrows = true;
  bool labels = true;     // drawn only where they fit
  bool bands = true;
  int highlight_thread = -1;
};

// Where things are, for overlays drawn by the UI (row names, hover readouts).
struct ViewLayout {
  Rect bars;
  float label_y = 0, label_h = 0;
  float strip_h = 0;
  std::vector<float> row_y;  // per row; < 0 when the row is not drawn as a strip
  float bottom = 0;
  Rect network;              // [SECTION] Sorting network: the comparator panel under the strips (h = 0: none)
};

ViewLayout layout_view(const Trace& meta, int step, Rect rect);

// Owns its shader programs and vertex array: move-only.
class TraceView {
 public:
  Result init();
  void draw(const Trace& meta, const TraceBuffers& buf, int step, const ViewOptions& opt, float fb_w, float fb_h,
            Rect rect);

 private:
  Result build(GlObject& p, const char* vert, const char* frag);
  void set_common(GLuint prog, const Trace& meta, const TraceBuffers& buf, int step, const ViewLayout& l,
                  float fb_w, float fb_h);
  GlObject bands_, bars_, ops_, labels_;
  GlObject network_;  // [SECTION] Sorting network (Trace::network)
  void draw_network(const Trace& meta, const TraceBuffers& buf, int step, const ViewLayout& l, float fb_w, float fb_h);
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
