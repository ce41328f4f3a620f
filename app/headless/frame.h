// Offscreen frames of the whole app UI (ImGui + the trace view) or of the view alone, into a
// framebuffer, for `render`, the GUI's screenshots and the headless tests.
#pragma once
#include <string>
#include <vector>

#include "ui/app_ui.h"

namespace primlab::headless {

// Draws the app frame `frames` times (the first frames settle ImGui's layout) into an offscreen
// framebuffer of w x h and returns its RGBA pixels (top row first). Needs a current GL context
// with the ImGui OpenGL3 backend initialised.
std::vector<unsigned char> render_app(ui::AppState& s, int w, int h, int frames = 2);
// The trace view alone, without ImGui.
std::vector<unsigned char> render_view(ui::AppState& s, int w, int h);

}  // namespace primlab::headless
