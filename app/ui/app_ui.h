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
// The transport's keys: space, the arrows, Home and End.
enum class StepKey { Play, Next, Previous, First, Last };

struct AppState {
  StepPane step;
  RaceState race;
  perf::PerfState perf;
  ViewPrograms view;
  int tab = kStepTab;
  int request_tab = -1;  // select this tab on the next frame
  std::vector<StepKey> keys;  // pressed since the last frame, in order (the window's key callback)
};

// Builds the view's shaders, starts the Performance tab's worker and the first trace. False with
// state.view.error set when the shaders do not build.
bool init_app(AppState& s);
// Lays out one frame into the current ImGui context (between NewFrame and Render), drawing the
// trace views into their framebuffers on the way. dt: seconds since the last frame.
void draw_frame(AppState& s, float width, float height, double dt);
// The keys pressed since the last frame (state.keys), for the tab shown (Step or Race): space
// play/pause, arrows step, Home/End first/last; none while a text field has the keyboard. Every
// press counts, however short and however slow the frame.
void handle_keys(AppState& s);
// How long the window may sleep waiting for input: until the next automatic step of whichever
// tab plays.
double idle_wait_seconds(const AppState& s);

// Writes what the frame showed as JSON (the frame's number, the tab, the window's size, each
// transport's step, the code panels' visible and lit lines, the typed list, the preset and the
// message, the race's figures that differ, whether a sweep runs, the places of the widgets that
// note_item names, and every text the frame laid out: "labels" and "clipped", ui/labels.h) to
// `path`, replacing it whole: the GUI tests read it while they drive the window.
void write_state(const AppState& s, const std::string& path);

// Offscreen frames (a current GL context, the ImGui OpenGL3 backend initialised), RGBA top row
// first: the whole app `frames` times (the first frames settle ImGui's layout), or the Step
// tab's trace view alone, without ImGui.
std::vector<unsigned char> render_app(AppState& s, int w, int h, int frames = 2);
std::vector<unsigned char> render_step_view(AppState& s, int w, int h);

}  // namespace primlab::ui
