// The kernel listing of a stepped trace with the current step's lines lit, used by the Step tab
// and by both sides of the Race tab.
#pragma once
#include <imgui.h>

#include <vector>

#include "lab/model/trace.h"

namespace primlab::ui {

// What a code panel showed in its last frame (for the GUI tests' state file).
struct CodeShown {
  int first = -1, last = -1;  // the listing lines inside the panel, 0-based
  std::vector<int> lit;       // the step's lines
};

// Draws the listing into a child window of `size`; the step's lines are lit, and scrolled into
// view whenever the step or the trace changes. Long lines scroll sideways.
CodeShown code_panel(const char* id, const Trace& t, int step, ImVec2 size);

}  // namespace primlab::ui
