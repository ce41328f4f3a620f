// The app frame: the tab bar over the Step, Race and Performance tabs, the keys and the clocks.
#include "ui/app_ui.h"

#include <imgui.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "headless/frame.h"
#include "headless/imgui_offscreen.h"
#include "ui/item_rects.h"
#include "ui/step_tab.h"

namespace primlab::ui {

bool init_app(AppState& s) {
  if (!s.perf.worker) perf::init_perf(s.perf, perf::make_default_backend());
  const Result view = s.view.view.init();
  s.view.ready = view.ok();
  if (!view.ok()) s.view.error = view.message();
  if (!s.step.session.has_trace()) {
    // The first algorithm starts from the defaults fitted to its limits, as a picked one does.
    if (const Algorithm* a = find_algorithm(s.step.session.choice.algo)) fit_config(*a, s.step.session.choice.cfg);
    rebuild(s.step);
  }
  return s.view.ready;
}

void handle_keys(AppState& s) {
  const std::vector<StepKey> keys = std::move(s.keys);
  s.keys.clear();
  if (ImGui::GetIO().WantTextInput || s.tab == kPerfTab) return;
  const bool race = s.tab == kRaceTab;
  Transport& t = race ? s.race.transport : s.step.session.transport;
  const int last = race ? race_last_step(s.race) : s.step.session.last_step();
  for (StepKey k : keys) {
    switch (k) {
      case StepKey::Play: t.toggle_play(last); break;
      case StepKey::Next: t.go(t.step + 1, last); break;
      case StepKey::Previous: t.go(t.step - 1, last); break;
      case StepKey::First: t.go(0, last); break;
      case StepKey::Last: t.go(last, last); break;
    }
  }
  if (race) sync_race(s.race);
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
    const bool step_open = ImGui::BeginTabItem("Step", nullptr, flags(kStepTab));
    note_item("tab step");
    if (step_open) {
      s.tab = kStepTab;
      draw_step_tab(s.step, s.view);
      ImGui::EndTabItem();
    }
    const bool race_open = ImGui::BeginTabItem("Race", nullptr, flags(kRaceTab));
    note_item("tab race");
    if (race_open) {
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

void write_state(const AppState& s, const std::string& path) {
  using nlohmann::json;
  auto code = [](const CodeShown& c) { return json{{"first", c.first}, {"last", c.last}, {"lit", c.lit}}; };
  auto pane = [&](const StepPane& p) {
    const StepSession& ss = p.session;
    return json{{"algo", ss.trace().algo},   {"block", ss.trace().block},      {"step", ss.transport.step},
                {"last_step", ss.last_step()}, {"playing", ss.transport.playing}, {"typed", ss.choice.typed},
                {"input", input_kind_name(ss.choice.input)}, {"message", ss.message}, {"code", code(p.code)}};
  };
  const char* tabs[] = {"step", "race", "perf"};
  json rects = json::object();
  for (const auto& [name, r] : item_rects()) rects[name] = r;
  // The Performance tab: its sweep, and every text it drew this frame ([x0, y0, x1, y1, text] in
  // window pixels) with the hover readout's lines (only while the tab is shown).
  const perf::PerfState& p = s.perf;
  json labels = json::array(), readout = json::array();
  if (s.tab == kPerfTab) {
    for (const perf::TextLabel& l : perf::drawn_texts().labels) labels.push_back({l.x0, l.y0, l.x1, l.y1, l.text});
    for (const std::string& line : perf::drawn_texts().readout) readout.push_back(line);
  }
  const ImVec2 window = ImGui::GetIO().DisplaySize;
  const json perf = {{"running", p.progress.running}, {"done", p.progress.done}, {"total", p.progress.total},
                     {"view", p.view}, {"rows", p.results.rows.size()}, {"baseline_rows", p.baseline.rows.size()},
                     {"message", p.message}, {"labels", labels}, {"readout", readout}};
  static long frame = 0;  // the frames written so far: a test waits for a frame drawn after its input
  const json j = {{"tab", tabs[s.tab]},
                  {"frame", ++frame},
                  {"window", {window.x, window.y}},
                  {"items", rects},
                  {"step", pane(s.step)},
                  {"race", {{"step", s.race.transport.step}, {"playing", s.race.transport.playing},
                            {"a", pane(s.race.a)}, {"b", pane(s.race.b)}}},
                  {"perf", perf}};
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    f << j.dump() << "\n";
    if (!f) return;
  }
  std::rename(tmp.c_str(), path.c_str());
}

std::vector<unsigned char> render_app(AppState& s, int w, int h, int frames) {
  return headless::render_imgui(w, h, frames, [&] { draw_frame(s, float(w), float(h), 0.0); });
}

std::vector<unsigned char> render_step_view(AppState& s, int w, int h) {
  const StepSession& ss = s.step.session;
  return headless::render_view(s.view.view, ss.trace(), s.step.buffers, ss.transport.step, s.step.options, w, h);
}

}  // namespace primlab::ui
