// The code panel: a listing with the step's lines lit, following the step.
#include "ui/code_panel.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "ui/labels.h"
#include "ui/widgets.h"

namespace primlab::ui {

CodeShown code_panel(const char* id, const Trace& t, int step, ImVec2 size) {
  CodeShown shown;
  ImGui::BeginChild(id, size, false, ImGuiWindowFlags_HorizontalScrollbar);
  if (step >= 0 && std::size_t(step) < t.steps.size()) shown.lit = step_code_lines(t, std::size_t(step));
  // Scroll when what is lit changes: another step, or another trace.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID("lit");
  const int lit_key = int(std::hash<std::string>{}(t.algo + t.title) ^ std::size_t(step * 7919 + t.steps.size()));
  const bool follow = storage->GetInt(key, lit_key ^ 1) != lit_key || ImGui::IsWindowAppearing();
  storage->SetInt(key, lit_key);
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  for (std::size_t i = 0; i < t.code.size(); ++i) {
    const bool lit = std::find(shown.lit.begin(), shown.lit.end(), int(i)) != shown.lit.end();
    if (lit) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float w = std::max(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize(t.code[i].c_str()).x + 60.f);
      ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + line_h), IM_COL32(90, 70, 20, 255));
    }
    char number[16];
    std::snprintf(number, sizeof number, "%3zu  ", i + 1);
    const std::string line = number + t.code[i];
    ImGui::PushStyleColor(ImGuiCol_Text, lit ? kHighlight : ImVec4(0.8f, 0.82f, 0.86f, 1));
    ImGui::TextUnformatted(line.c_str());
    ImGui::PopStyleColor();
    note_visible_text(line);  // a text drawn over the listing overlaps it in the labels
    if (lit && follow && int(i) == shown.lit.front()) ImGui::SetScrollHereY(0.3f);
  }
  const float top = ImGui::GetScrollY(), height = ImGui::GetWindowHeight() - ImGui::GetStyle().ScrollbarSize;
  if (!t.code.empty()) {
    shown.first = std::min(int(t.code.size()) - 1, int(top / line_h + 0.5f));
    shown.last = std::min(int(t.code.size()) - 1, int((top + height) / line_h) - 1);
  }
  ImGui::EndChild();
  return shown;
}

}  // namespace primlab::ui
