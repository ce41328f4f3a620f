// Offscreen frames of the trace view.
#include "headless/frame.h"

namespace primlab::headless {

std::vector<unsigned char> render_view(view::TraceView& view, const Trace& meta, view::TraceBuffers& buf, int step,
                                       const view::ViewOptions& options, int w, int h) {
  view::Framebuffer fb;
  fb.resize(w, h);
  fb.bind();
  glClearColor(0.10f, 0.105f, 0.12f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  view.draw(meta, buf, step, options, float(w), float(h), view::Rect{0, 0, float(w), float(h)});
  glFinish();
  return fb.read_rgba();
}

}  // namespace primlab::headless
