// Offscreen rendering of the Performance tab and of its plots, and PNG writing.
#include "ui/perf_render.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "headless/imgui_offscreen.h"
#include "headless/png.h"
#include "ui/perf_tab.h"
#include "view/trace_view.h"

namespace primlab::perf {

std::vector<unsigned char> render_perf_tab(PerfState& s, int w, int h, int frames) {
  return headless::render_imgui(w, h, frames, [&] {
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
  });
}

namespace {
DrawnTexts g_png_texts;
}  // namespace

const DrawnTexts& plot_png_texts() { return g_png_texts; }

std::vector<unsigned char> render_plot(const PerfState& s, int view, int w, int h) {
  DrawnTexts tab = std::move(drawn_texts());  // the tab's frame may be half drawn: its texts stay its own
  drawn_texts() = DrawnTexts{};
  GLint prev_fb = 0, prev_viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fb);
  glGetIntegerv(GL_VIEWPORT, prev_viewport);
  ImGuiContext* prev = ImGui::GetCurrentContext();
  // Its own font atlas: the backend's Init/Shutdown create and free the atlas texture.
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  std::vector<unsigned char> px;
  if (ImGui_ImplOpenGL3_Init("#version 330 core")) {
    px = headless::render_imgui(w, h, 2, [&] {
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(float(w), float(h)));
      ImGui::Begin("plot", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
      drawn_texts() = DrawnTexts{};  // the last of the frames' texts
      draw_view_plot(s, view, ImVec2(-1, -1));
      ImGui::End();
    });
    ImGui_ImplOpenGL3_Shutdown();
  }
  ImGui::DestroyContext(ctx);
  ImGui::SetCurrentContext(prev);
  g_png_texts = std::move(drawn_texts());
  drawn_texts() = std::move(tab);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fb));
  glViewport(prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);
  return px;
}

Result export_plot_png(const PerfState& s, int view, const std::string& path, int w, int h) {
  const std::vector<unsigned char> px = render_plot(s, view, w, h);
  if (px.size() < std::size_t(w) * std::size_t(h) * 4)
    return Result::failure("the plot could not be drawn (no OpenGL context?)");
  return headless::write_png(path, w, h, px);
}

}  // namespace primlab::perf
