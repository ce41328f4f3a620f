// The offscreen ImGui frame loop.
#include "headless/imgui_offscreen.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "view/trace_view.h"

namespace primlab::headless {

std::vector<unsigned char> render_imgui(int w, int h, int frames, const std::function<void()>& layout) {
  view::Framebuffer fb;
  fb.resize(w, h);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(w), float(h));
  io.DeltaTime = 1.f / 60.f;
  for (int f = 0; f < frames; ++f) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    layout();
    ImGui::Render();
    fb.bind();
    glClearColor(0.08f, 0.08f, 0.09f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  glFinish();
  return fb.read_rgba();
}

}  // namespace primlab::headless
