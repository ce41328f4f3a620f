// render: draws one step, or every step, of a trace to PNG through EGL with no display and no
// GLFW: the same UI and view as the window (or the view alone with --view-only). On a machine
// with a CUDA device the trace is written by the CUDA steppers straight into the GL buffers.
#include <CLI/CLI.hpp>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>
#include <iostream>

#include "cli/step_choice.h"
#include "headless/egl_context.h"
#include "headless/frame.h"
#include "headless/gif.h"
#include "headless/png.h"
#include "ui/app_ui.h"

int main(int argc, char** argv) {
  using namespace primlab;
  CLI::App app{"render: draw steps of a trace to PNG, headless"};
  ui::StepOptions opt;
  add_step_options(app, opt);
  std::string out = "step.png", size = "1280x800", gif;
  int step = -1, delay = 60;
  bool all = false, view_only = false;
  app.add_option("--out", out, "PNG path; with --all a pattern with %d or a folder");
  std::string race;
  app.add_option("--race", race, "open the Race tab with two algorithms, e.g. scan-naive,scan-blelloch");
  app.add_option("--step", step, "the step to draw (default: the last)");
  app.add_flag("--all", all, "draw every step");
  app.add_option("--size", size, "WIDTHxHEIGHT in pixels");
  app.add_flag("--view-only", view_only, "draw the trace view without the UI around it");
  app.add_option("--gif", gif, "also write every step as an animated GIF to this path");
  app.add_option("--delay", delay, "GIF frame delay in hundredths of a second");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  int w = 0, h = 0;
  if (!ui::parse_size(size, 64, 64, w, h)) {
    std::cerr << "render: --size must be WIDTHxHEIGHT between 64 and 8192 (got '" << size << "')\n";
    return 2;
  }
  ui::AppState state;
  std::string error;
  if (!ui::resolve_step_options(opt, state.step.choice, error)) {
    std::cerr << "render: " << error << "\n";
    return 2;
  }
  headless::EglContext egl;
  if (!egl.create(error)) {
    std::cerr << "render: " << error << "\n";
    return 1;
  }
  std::cerr << "render: " << egl.description() << "\n";
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  if (!view_only && !ImGui_ImplOpenGL3_Init("#version 330 core")) {
    std::cerr << "render: the ImGui OpenGL3 backend could not start; drawing the view only\n";
    view_only = true;
  }
  if (!ui::init_app(state) || !state.step.has_trace()) {
    std::cerr << "render: " << (state.view_error.empty() ? state.step.message : state.view_error) << "\n";
    return 1;
  }
  std::cerr << "render: backend " << state.step.backend << "\n";
  if (!race.empty()) {
    const auto comma = race.find(',');
    state.race.a.choice = state.step.choice;
    if (comma == std::string::npos || !ui::start_race(state, race.substr(0, comma), race.substr(comma + 1))) {
      std::cerr << "render: --race needs two algorithms A,B that run on the same input"
                << (state.race.a.message.empty() ? "" : ": " + state.race.a.message) << "\n";
      return 2;
    }
    state.request_tab = 1;
    state.race.transport.step = step < 0 ? 0 : step;
    auto px = headless::render_app(state, w, h, 3);
    if (!headless::write_png(out, w, h, px, error)) {
      std::cerr << "render: " << error << "\n";
      return 1;
    }
    std::cout << out << "\n";
    return 0;
  }
  const int steps = int(state.step.trace().steps.size());
  if (step >= steps || step < -1) {
    std::cerr << "render: --step must be between 0 and " << steps - 1 << "\n";
    return 2;
  }
  if (!gif.empty()) {
    std::vector<std::vector<unsigned char>> frames;
    for (int s = 0; s < steps; ++s) {
      state.step.go(s);
      frames.push_back(view_only ? headless::render_view(state, w, h) : headless::render_app(state, w, h));
    }
    if (!headless::write_gif(gif, w, h, frames, delay, error)) {
      std::cerr << "render: " << error << "\n";
      return 1;
    }
    std::cout << gif << "\n";
    if (!all && step < 0) return 0;
  }
  std::vector<int> which;
  if (all)
    for (int s = 0; s < steps; ++s) which.push_back(s);
  else
    which.push_back(step < 0 ? steps - 1 : step);
  for (int s : which) {
    state.step.go(s);
    auto px = view_only ? headless::render_view(state, w, h) : headless::render_app(state, w, h);
    std::string path = out;
    if (all) {
      char buf[1024];
      if (out.find("%d") != std::string::npos || out.find("%0") != std::string::npos)
        std::snprintf(buf, sizeof buf, out.c_str(), s);
      else
        std::snprintf(buf, sizeof buf, "%s/step_%03d.png", out.c_str(), s);
      path = buf;
    }
    if (!headless::write_png(path, w, h, px, error)) {
      std::cerr << "render: " << error << "\n";
      return 1;
    }
    std::cout << path << "\n";
  }
  if (!view_only) ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
  return 0;
}
