// The app frame: the tab bar over the Step, Race and Performance tabs, the keys and the clocks.
#include "ui/app_ui.h"

#include <imgui.h>

#include "headless/frame.h"
#include "headless/imgui_offscreen.h"
#include "ui/step_tab.h"

namespace primlab::ui {

bool init_app(AppState& s) {
  if (!s.perf.worker) perf::init_perf(s.perf, perf::make_default_backend());
  const Result view = s.view.view.init();
  s.view.ready = view.ok();
  if (!view.ok()) s.view.error = view.message();
  if (!s.step.session.has_trace()) rebuild(s.step);
  return s.view.ready;
}

void handle_keys(AppState& s) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  StepSession& ss = s.step.session;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) ss.transport.toggle_play(ss.last_step());
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) ss.go(ss.transport.step + 1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) ss.go(ss.transport.step - 1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) ss.go(0);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) ss.go(ss.last_step());
}

double idle_wait_seconds(const AppState& s) {
  return idle_wait_seconds({&s.step.session.transport, &s.race.transport});
}

void draw_frame(AppState& s, float width, float height, double dt) {
  s.step.session.tick(dt);
  s.race.transport.tick(dt, race_last_step(s.race));  // the Race tab shows the step on both sides
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::Begin("primlab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (ImGui::BeginTabBar("tabs")) {
    auto flags = [&](int tab) { return s.request_tab == tab ? ImGuiTabItemFlags_SetSelected : 0; };
    if (ImGui::BeginTabItem("Step", nullptr, flags(kStepTab))) {
      s.tab = kStepTab;
      draw_step_tab(s.step, s.view);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Race", nullptr, flags(kRaceTab))) {
      s.tab = kRaceTab;
      draw_race_tab(s.race, s.view);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Performance", nullptr, flags(kPerfTab))) {
      s.tab = kPerfTab;
      perf::draw_perf_tab(s.perf);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  if (s.request_tab == s.tab) s.request_tab = -1;
  ImGui::End();
}

std::vector<unsigned char> render_app(AppState& s, int w, int h, int frames) {
  return headless::render_imgui(w, h, frames, [&] { draw_frame(s, float(w), float(h), 0.0); });
}

std::vector<unsigned char> render_step_view(AppState& s, int w, int h) {
  const StepSession& ss = s.step.session;
  return headless::render_view(s.view.view, ss.trace(), s.step.buffers, ss.transport.step, s.step.options, w, h);
}

}  // namespace primlab::ui
