// The recorded texts of a frame: see labels.h.
#include "ui/labels.h"

#include <imgui_internal.h>  // the current table's column for table_headers()

#include <algorithm>

namespace primlab::ui {
namespace {

struct Record {
  std::vector<TextLabel> shown, cut;
};
Record& record() {
  static Record r;
  return r;
}

// Records text whose whole extent is [a, b], seen through `clip` (x0, y0, x1, y1): as cut when the
// clip hides part of it; not at all when it hides all of it inside the window (a scrolling child's
// text scrolled away), but as text that leaves the window when it was laid out past the window's
// edge (a layout taller than the window: it cannot be scrolled to). Half a pixel of slack absorbs
// rounding.
void note(ImVec2 a, ImVec2 b, const ImVec4& clip, const std::string& s) {
  if (s.empty()) return;
  TextLabel l{a.x, a.y, b.x, b.y, s};
  if (b.x <= clip.x || b.y <= clip.y || a.x >= clip.z || a.y >= clip.w) {
    const ImVec2 screen = ImGui::GetIO().DisplaySize;
    if (b.x > screen.x || b.y > screen.y || a.x < 0 || a.y < 0) record().shown.push_back(std::move(l));
    return;
  }
  constexpr float kSlack = 0.5f;
  if (a.x < clip.x - kSlack || a.y < clip.y - kSlack || b.x > clip.z + kSlack || b.y > clip.w + kSlack)
    record().cut.push_back(l);
  record().shown.push_back(std::move(l));
}

ImVec4 current_clip() {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a = dl->GetClipRectMin(), b = dl->GetClipRectMax();
  return ImVec4(a.x, a.y, b.x, b.y);
}

}  // namespace

ImVec2 draw_text(ImDrawList* dl, ImVec2 pos, ImU32 colour, const std::string& text, const ImVec4* clip) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec2 a = dl->GetClipRectMin(), b = dl->GetClipRectMax();
  ImVec4 c(a.x, a.y, b.x, b.y);
  if (clip) c = ImVec4(std::max(c.x, clip->x), std::max(c.y, clip->y), std::min(c.z, clip->z), std::min(c.w, clip->w));
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), pos, colour, text.c_str(), nullptr, 0.f, clip);
  note(pos, ImVec2(pos.x + size.x, pos.y + size.y), c, text);
  return size;
}

void text(const std::string& s) {
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  ImGui::TextUnformatted(s.c_str());
  note_text(pos, s);
}

void text(const ImVec4& colour, const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  text(s);
  ImGui::PopStyleColor();
}

void text_wrapped(const ImVec4& colour, const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextWrapped("%s", s.c_str());
  ImGui::PopStyleColor();
  note(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), current_clip(), s);
}

void note_drawn_text(ImVec2 min, ImVec2 max, const std::string& s, const ImVec4* clip) {
  ImVec4 c = current_clip();
  if (clip) c = ImVec4(std::max(c.x, clip->x), std::max(c.y, clip->y), std::min(c.z, clip->z), std::min(c.w, clip->w));
  note(min, max, c, s);
}

void note_visible_text(const std::string& s) {
  const ImVec4 c = current_clip();
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec2 va(std::max(a.x, c.x), std::max(a.y, c.y)), vb(std::min(b.x, c.z), std::min(b.y, c.w));
  if (s.empty() || vb.x <= va.x || vb.y <= va.y) return;
  record().shown.push_back(TextLabel{va.x, va.y, vb.x, vb.y, s});
}

void note_text(ImVec2 pos, const std::string& s) {
  const ImVec2 size = ImGui::CalcTextSize(s.c_str());
  note(pos, ImVec2(pos.x + size.x, pos.y + size.y), current_clip(), s);
}

void table_headers() {
  ImGuiTable* table = ImGui::GetCurrentTable();
  if (!table) return;
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers, ImGui::GetFrameHeight());
  for (int c = 0; c < table->ColumnsCount; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    const char* name = ImGui::TableGetColumnName(c);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::PushID(c);
    ImGui::TableHeader(name);
    ImGui::PopID();
    note_text(pos, name ? name : "");
  }
}

std::string fit_text(const std::string& text, float width, const std::vector<std::string>& shorter) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  for (const std::string& s : shorter)
    if (ImGui::CalcTextSize(s.c_str()).x <= width) return s;
  std::string s = shorter.empty() ? text : shorter.back();
  while (!s.empty() && ImGui::CalcTextSize((s + "...").c_str()).x > width) s.pop_back();
  return s.empty() ? std::string() : s + "...";
}

void begin_labels() {
  record().shown.clear();
  record().cut.clear();
}

const std::vector<TextLabel>& labels() { return record().shown; }
const std::vector<TextLabel>& clipped_labels() { return record().cut; }

}  // namespace primlab::ui
