// The whole app frame as immediate-mode UI over plain state: the Step, Race and Performance tabs.
// The window and headless `render` both call draw_frame().
#pragma once
#include <string>
#include <vector>

#include "ui/perf_tab.h"
#include "ui/race_tab.h"
#include "ui/step_pane.h"
#include "ui/widgets.h"

namespace primlab::ui {

enum Tab : int { kStepTab = 0, kRaceTab = 1, kPerfTab = 2 };

struct AppState {
  StepPane step;
  RaceState race;
  perf::PerfState perf;
  ViewPrograms view;
  int tab = kStepTab;
  int request_tab = -1;  // select this tab on the next frame
};

// Builds the view's shaders, starts the Performance tab's worker and the first trace. False with
// state.view.error set when the shaders do not build.
bool init_app(AppState& s);
// Lays out one frame into the current ImGui context (between NewFrame and Render), drawing the
// trace views into their framebuffers on the way. dt: seconds since the last frame.
void draw_frame(AppState& s, float width, float height, double dt);
// Keyboard, for the Step tab: space play/pause, arrows step, Home/End first/last (when no text
// field is active).
void handle_keys(AppState& s);
// How long the window may sleep waiting for input: until the next automatic step of whichever
// tab plays.
double idle_wait_seconds(const AppState& s);

// Offscreen frames (a current GL context, the ImGui OpenGL3 backend initialised), RGBA top row
// first: the whole app `frames` times (the first frames settle ImGui's layout), or the Step
// tab's trace view alone, without ImGui.
std::vector<unsigned char> render_app(AppState& s, int w, int h, int frames = 2);
std::vector<unsigned char> render_step_view(AppState& s, int w, int h);

}  // namespace primlab::ui
