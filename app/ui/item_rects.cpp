// Widget rectangles for the GUI tests.
#include "ui/item_rects.h"

#include <imgui.h>

namespace primlab::ui {
namespace {
std::map<std::string, std::array<float, 4>>& rects() {
  static std::map<std::string, std::array<float, 4>> r;
  return r;
}
}  // namespace

void note_item(const char* name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  rects()[name] = {a.x, a.y, b.x, b.y};
}

const std::map<std::string, std::array<float, 4>>& item_rects() { return rects(); }

}  // namespace primlab::ui
