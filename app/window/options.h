// The window's command line: the step options every tool takes, plus the first tab, a race, a
// Performance sweep, and the smoke-test switches that the GUI tests use.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/step_choice.h"
#include "ui/app_ui.h"

namespace primlab::window {

struct Options {
  ui::StepOptions step;
  int first_step = 0;
  std::string tab;                // step, race or perf
  std::string race_a, race_b;     // --race A,B
  bool perf_sweep = false;
  int smoke_frames = 0;           // > 0: run this many frames, then exit
  std::string screenshot;         // with smoke_frames: the last frame's PNG
  std::string state_file;         // write what each frame showed here (GUI tests)
  bool frame_stats = false;       // print the frame times at the end (FrameTimes)
};

// The durations of the frames, or with --perf-sweep of those drawn while the sweep ran: the UI
// thread's own work (poll the sweep, lay out and build the draw lists) and the whole frame (with
// the OpenGL rendering and the swap, which a software renderer makes long).
struct FrameTimes {
  std::vector<double> ui_ms, frame_ms;
  void add(double ui, double frame) { ui_ms.push_back(ui), frame_ms.push_back(frame); }
  // "412 frames; UI thread: median 2.1 ms, p99 6.3 ms, max 9.8 ms; whole frame: ..." (one line).
  std::string summary() const;
};

// Parses argv and puts the step choice into `state`. Returns the exit code when the program
// should stop now (after --help, or a one-line error); nullopt to go on.
std::optional<int> parse_options(int argc, char** argv, Options& o, ui::AppState& state);
// After init_app(): shows the first step and tab, starts the race and the sweep. Returns 0, or
// the exit code of a one-line error.
int start(const Options& o, ui::AppState& state);
// True when a smoke run has drawn its frames (and a --perf-sweep's sweep has finished).
bool smoke_run_done(const Options& o, ui::AppState& state, int frames_drawn);

}  // namespace primlab::window
