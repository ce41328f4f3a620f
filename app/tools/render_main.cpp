// render: draws one step, or every step, of a trace to PNG through EGL with no display and no
// GLFW: the same UI and view as the window (or the view alone with --view-only). On a machine
// with a CUDA device the trace is written by the CUDA steppers straight into the GL buffers.
#include <CLI/CLI.hpp>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <iostream>

#include "tools/command_line.h"
#include "model/step_choice.h"
#include "headless/egl_context.h"
#include "headless/gif.h"
#include "headless/png.h"
#include "ui/app_ui.h"

namespace {

// With --all, --out is a pattern with one %d, or else a folder for step_000.png, step_001.png, ...
std::string frame_pattern(const std::string& out) {
  return out.find('%') != std::string::npos ? out : out + "/step_%03d.png";
}

// Checks every output path before any drawing, so that a bad path is a one-line error, not a
// failure after the work.
primlab::Result check_outputs(const std::string& out, const std::string& gif, bool all, bool writes_png) {
  using namespace primlab;
  Result r;
  if (!gif.empty()) r = ui::check_output_file(gif);
  if (!r.ok()) return Result::failure("--gif: " + r.message());
  if (!writes_png) return {};
  std::string first = out;
  if (all) r = ui::frame_path(frame_pattern(out), 0, first);
  if (r.ok()) r = ui::check_output_file(first);
  if (!r.ok()) return Result::failure("--out: " + r.message());
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace primlab;
  CLI::App app{"render: draw steps of a trace to PNG, headless"};
  ui::StepOptions opt;
  add_step_options(app, opt);
  std::string out = "step.png", size = "1280x800", gif;
  int step = -1, delay = 60;
  bool all = false, view_only = false, list = false;
  app.add_option("--out", out, "PNG path; with --all a pattern with one %d (or %03d), or a folder");
  std::string race;
  auto* race_opt =
      app.add_option("--race", race, "draw the Race tab with two algorithms, e.g. scan-naive,scan-blelloch");
  app.add_option("--step", step, "the step to draw (default: the last)")->check(CLI::Range(-1, 1 << 30));
  app.add_flag("--all", all, "draw every step");
  app.add_option("--size", size, "WIDTHxHEIGHT in pixels");
  app.add_flag("--view-only", view_only, "draw the trace view without the UI around it")->excludes(race_opt);
  app.add_option("--gif", gif, "also write every step as an animated GIF to this path");
  app.add_option("--delay", delay, "GIF frame delay in hundredths of a second")->check(CLI::Range(0, 65535));
  app.add_flag("--list", list, "list the algorithms and presets and exit");
  if (auto code = ui::parse_command_line(app, "render", argc, argv)) return *code;
  if (list) {
    cli::print_list(stdout, ui::step_list());
    return 0;
  }
  int w = 0, h = 0;
  if (!ui::parse_size(size, 64, 64, w, h))
    return ui::fail("render", "--size must be WIDTHxHEIGHT between 64 and 8192 (got '" + size + "')");
  ui::AppState state;
  std::string race_a, race_b;
  Result r = ui::resolve_step_options(opt, state.step.session.choice);
  if (r.ok()) r = ui::check_backend(opt.backend);
  if (r.ok() && !race.empty()) r = ui::parse_race(race, race_a, race_b);
  const bool writes_png = !race.empty() || all || step >= 0 || gif.empty();
  if (r.ok()) r = check_outputs(out, race.empty() ? gif : "", all && race.empty(), writes_png);
  if (!r.ok()) return ui::fail("render", r.message());
  headless::EglContext egl;
  if (Result made = egl.create(); !made.ok()) return ui::fail("render", made.message(), 1);
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  if (!view_only && !ImGui_ImplOpenGL3_Init("#version 330 core")) {
    if (!race.empty()) return ui::fail("render", "the ImGui OpenGL3 backend could not start (--race draws the UI)", 1);
    std::cerr << "render: the ImGui OpenGL3 backend could not start; drawing the view only\n";
    view_only = true;
  }
  if (!ui::init_app(state) || !state.step.session.has_trace())
    return ui::fail("render", state.view.error.empty() ? state.step.session.message : state.view.error, 1);
  if (!race.empty()) {
    state.race.a.session.choice = state.step.session.choice;
    if (!opt.n_given && !opt.input && state.race.a.session.choice.input == InputKind::Random)
      state.race.a.session.choice.cfg.n = ui::kRaceDefaultN;
    if (!ui::start_race(state.race, race_a, race_b))
      return ui::fail("render", "--race needs two algorithms that run on the same input: " + ui::race_error(state.race));
  }
  const int steps = int(state.step.session.trace().steps.size());
  if (race.empty() && step >= steps)
    return ui::fail("render", "--step must be between 0 and " + std::to_string(steps - 1));
  std::cerr << "render: " << egl.description() << "; backend " << state.step.session.backend << "\n";
  if (!race.empty()) {
    state.request_tab = ui::kRaceTab;
    state.race.transport.step = step < 0 ? 0 : step;
    auto px = ui::render_app(state, w, h, 3);
    if (Result wrote = headless::write_png(out, w, h, px); !wrote.ok()) return ui::fail("render", wrote.message(), 1);
    std::cout << out << "\n";
    return 0;
  }
  if (!gif.empty()) {
    std::vector<std::vector<unsigned char>> frames;
    for (int s = 0; s < steps; ++s) {
      state.step.session.go(s);
      frames.push_back(view_only ? ui::render_step_view(state, w, h) : ui::render_app(state, w, h));
    }
    if (Result wrote = headless::write_gif(gif, w, h, frames, delay); !wrote.ok())
      return ui::fail("render", wrote.message(), 1);
    std::cout << gif << "\n";
    if (!all && step < 0) return 0;
  }
  std::vector<int> which;
  if (all)
    for (int s = 0; s < steps; ++s) which.push_back(s);
  else
    which.push_back(step < 0 ? steps - 1 : step);
  for (int s : which) {
    state.step.session.go(s);
    auto px = view_only ? ui::render_step_view(state, w, h) : ui::render_app(state, w, h);
    std::string path = out;
    if (all) static_cast<void>(ui::frame_path(frame_pattern(out), s, path));  // checked by check_outputs
    if (Result wrote = headless::write_png(path, w, h, px); !wrote.ok())
      return ui::fail("render", wrote.message(), 1);
    std::cout << path << "\n";
  }
  if (!view_only) ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
  return 0;
}
