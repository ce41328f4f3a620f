// Offscreen rendering of app frames and views.
#include "headless/frame.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace primlab::headless {

std::vector<unsigned char> render_app(ui::AppState& s, int w, int h, int frames) {
  view::Framebuffer fb;
  fb.resize(w, h);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(w), float(h));
  io.DeltaTime = 1.f / 60.f;
  for (int f = 0; f < frames; ++f) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    ui::draw_frame(s, float(w), float(h), 0.0);
    ImGui::Render();
    fb.bind();
    glClearColor(0.08f, 0.08f, 0.09f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  glFinish();
  return fb.read_rgba();
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
