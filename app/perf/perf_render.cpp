// Offscreen rendering of the Performance tab and of its plots, and PNG writing.
#include "perf/perf_render.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>

#include "perf/perf_tab.h"
#include "view/trace_view.h"

namespace primlab::perf {

std::vector<unsigned char> render_perf_tab(PerfState& s, int w, int h, int frames) {
  view::Framebuffer fb;
  fb.resize(w, h);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(w), float(h));
  io.DeltaTime = 1.f / 60.f;
  for (int f = 0; f < frames; ++f) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(float(w), float(h)));
    ImGui::Begin("primlab performance", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
    if (ImGui::BeginTabBar("tabs")) {
      if (ImGui::BeginTabItem("Performance")) {
        draw_perf_tab(s);
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
    ImGui::End();
    ImGui::Render();
    fb.bind();
    glClearColor(0.08f, 0.08f, 0.09f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  glFinish();
  return fb.read_rgba();
}

std::vector<unsigned char> render_plot(const PerfState& s, int view, int w, int h) {
  GLint prev_fb = 0, prev_viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fb);
  glGetIntegerv(GL_VIEWPORT, prev_viewport);
  ImGuiContext* prev = ImGui::GetCurrentContext();
  // Its own font atlas: the backend's Init/Shutdown create and free the atlas texture.
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(float(w), float(h));
  io.DeltaTime = 1.f / 60.f;
  std::vector<unsigned char> px;
  if (ImGui_ImplOpenGL3_Init("#version 330 core")) {
    view::Framebuffer fb;
    fb.resize(w, h);
    for (int f = 0; f < 2; ++f) {
      ImGui_ImplOpenGL3_NewFrame();
      ImGui::NewFrame();
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(float(w), float(h)));
      ImGui::Begin("plot", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
      draw_view_plot(s, view, ImVec2(-1, -1));
      ImGui::End();
      ImGui::Render();
      fb.bind();
      glClearColor(0.08f, 0.08f, 0.09f, 1.f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
    glFinish();
    px = fb.read_rgba();
    ImGui_ImplOpenGL3_Shutdown();
  }
  ImGui::DestroyContext(ctx);
  ImGui::SetCurrentContext(prev);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fb));
  glViewport(prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);
  return px;
}

bool export_plot_png(const PerfState& s, int view, const std::string& path, int w, int h, std::string* error) {
  const std::vector<unsigned char> px = render_plot(s, view, w, h);
  if (px.size() < std::size_t(w) * std::size_t(h) * 4) {
    if (error) *error = "the plot could not be drawn (no OpenGL context?)";
    return false;
  }
  if (!stbi_write_png(path.c_str(), w, h, 4, px.data(), w * 4)) {
    if (error) *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace primlab::perf
