// The window's command line and its start-up state.
#include "window/options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "tools/command_line.h"

namespace primlab::window {

std::optional<int> parse_options(int argc, char** argv, Options& o, ui::AppState& state) {
  CLI::App app{"primlab: step and measure GPU parallel primitives"};
  add_step_options(app, o.step);
  app.add_option("--tab", o.tab, "open this tab first: step, race or perf")
      ->check(CLI::IsMember({"step", "race", "perf"}));
  app.add_flag("--perf-sweep", o.perf_sweep, "start a Performance sweep at launch (with --smoke-frames: sizes up to 2^16, "
                                             "and the screenshot waits for it)");
  std::string race;
  app.add_option("--race", race, "open the Race tab with two algorithms, e.g. scan-naive,scan-blelloch");
  app.add_option("--step", o.first_step, "the step to show first")->check(CLI::NonNegativeNumber);
  auto* smoke = app.add_option("--smoke-frames", o.smoke_frames, "run this many frames, then exit (tests)")
                    ->check(CLI::NonNegativeNumber);
  app.add_option("--screenshot", o.screenshot, "with --smoke-frames: save the last frame to this PNG")->needs(smoke);
  app.add_option("--state-file", o.state_file, "write what each frame shows to this JSON file (GUI tests)");
  app.add_flag("--frame-stats", o.frame_stats, "print the frame times at exit (with --perf-sweep: of the frames drawn while the sweep ran)");
  bool list = false;
  app.add_flag("--list", list, "list the algorithms and presets and exit");
  if (auto code = ui::parse_command_line(app, "primlab", argc, argv)) return *code;
  if (list) {
    cli::print_list(stdout, ui::step_list());
    return 0;
  }
  Result r = ui::resolve_step_options(o.step, state.step.session.choice);
  if (r.ok()) r = ui::check_backend(o.step.backend);
  if (r.ok() && !race.empty()) r = ui::parse_race(race, o.race_a, o.race_b);
  if (!r.ok()) return ui::fail("primlab", r.message());
  if (!o.screenshot.empty()) r = ui::check_output_file(o.screenshot);
  if (!r.ok()) return ui::fail("primlab", "--screenshot: " + r.message());
  return std::nullopt;
}

int start(const Options& o, ui::AppState& state) {
  state.step.session.go(o.first_step);
  if (o.tab == "race") state.request_tab = ui::kRaceTab;
  if (o.tab == "perf") state.request_tab = ui::kPerfTab;
  if (o.perf_sweep) {
    if (o.smoke_frames > 0 && !o.frame_stats) state.perf.plan.log2_max = 16;
    perf::start_sweep(state.perf);
    state.request_tab = ui::kPerfTab;
  }
  int code = 0;
  if (!o.race_a.empty()) {
    ui::RaceState& r = state.race;
    r.a.session.choice = state.step.session.choice;
    if (!o.step.n_given && !o.step.input && r.a.session.choice.input == InputKind::Random)
      r.a.session.choice.cfg.n = ui::kRaceDefaultN;
    if (!ui::start_race(r, o.race_a, o.race_b))
      code = ui::fail("primlab", "--race needs two algorithms that run on the same input: " + ui::race_error(r));
    state.request_tab = ui::kRaceTab;
    r.transport.step = o.first_step;
  }
  return code;
}

bool smoke_run_done(const Options& o, ui::AppState& state, int frames_drawn) {
  // The screenshot shows the finished sweep. Polled here as well: the Performance tab, which
  // polls it, is not drawn while another tab is shown (--race).
  if (o.perf_sweep) perf::poll_sweep(state.perf);
  return o.smoke_frames > 0 && frames_drawn >= o.smoke_frames && !(o.perf_sweep && state.perf.progress.running);
}

std::string FrameTimes::summary() const {
  if (frame_ms.empty()) return "frame times: no frame (a sweep ended before the first frame)";
  auto stats = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    char buf[96];
    std::snprintf(buf, sizeof buf, "median %.1f ms, p99 %.1f ms, max %.1f ms", v[v.size() / 2],
                  v[std::min(v.size() - 1, v.size() * 99 / 100)], v.back());
    return std::string(buf);
  };
  return std::to_string(frame_ms.size()) + " frames; UI thread: " + stats(ui_ms) + "; whole frame: " + stats(frame_ms);
}

}  // namespace primlab::window
