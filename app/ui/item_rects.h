// Where some widgets were drawn in the last frame, by name, for the GUI tests that click them
// (written to the --state-file).
#pragma once
#include <array>
#include <map>
#include <string>

namespace primlab::ui {

// Records the last ImGui item's rectangle (min x, min y, max x, max y) under `name`.
void note_item(const char* name);
const std::map<std::string, std::array<float, 4>>& item_rects();

}  // namespace primlab::ui
