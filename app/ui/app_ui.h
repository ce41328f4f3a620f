// The whole app frame as immediate-mode UI over plain state: the Step tab (controls, transport,
// the trace view, code and counters). The window and headless `render` both call draw_frame().
#pragma once
#include <string>

#include "ui/perf_tab.h"
#include "model/step_session.h"
#include "view/trace_view.h"

namespace primlab::ui {

// Race mode: two variants stepping in lockstep on the same input.
struct RaceState {
  StepSession a, b;
  view::Framebuffer fb_a, fb_b;
  Transport transport;  // the shared step; each side stops at its own last step
  bool started = false;
};

struct AppState {
  StepSession step;
  RaceState race;
  perf::PerfState perf;
  view::TraceView view;
  view::Framebuffer view_fb;
  bool view_ready = false;
  std::string view_error;
  int tab = 0;           // 0 Step, 1 Race, 2 Performance
  int request_tab = -1;  // select this tab on the next frame
};

// Initialises GL resources (shaders). Returns false with state.view_error set.
bool init_app(AppState& s);
// Lays out one frame into the current ImGui context (between NewFrame and Render), drawing the
// trace view into its framebuffer on the way. dt: seconds since the last frame.
void draw_frame(AppState& s, float width, float height, double dt);
// Starts a race of two algorithms on the same input (names from the registry). False with
// race.a.message set when either cannot run.
bool start_race(AppState& s, const std::string& algo_a, const std::string& algo_b);
// Keyboard: space play/pause, arrows step, Home/End first/last (when no text field is active).
void handle_keys(AppState& s);

}  // namespace primlab::ui
