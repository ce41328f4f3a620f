// Offscreen rendering of app frames and views.
#include "headless/frame.h"

#include "headless/imgui_offscreen.h"

namespace primlab::headless {

std::vector<unsigned char> render_app(ui::AppState& s, int w, int h, int frames) {
  return render_imgui(w, h, frames, [&] { ui::draw_frame(s, float(w), float(h), 0.0); });
}

std::vector<unsigned char> render_view(ui::AppState& s, int w, int h) {
  view::Framebuffer fb;
  fb.resize(w, h);
  fb.bind();
  glClearColor(0.10f, 0.105f, 0.12f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  s.view.draw(s.step.trace(), s.step.buffers(), s.step.transport.step, s.step.view, float(w), float(h),
              view::Rect{0, 0, float(w), float(h)});
  glFinish();
  return fb.read_rgba();
}

}  // namespace primlab::headless
