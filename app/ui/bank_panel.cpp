// The shared-memory bank panel: see bank_panel.h. The facts come from model/bank_view.h.
#include "ui/bank_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/bank_view.h"
#include "ui/labels.h"
#include "ui/widgets.h"

namespace primlab::ui {
namespace {

const ImU32 kCellEmpty = IM_COL32(44, 48, 56, 255);
const ImU32 kCellElement = IM_COL32(62, 72, 92, 255);
const ImU32 kCellPadding = IM_COL32(120, 120, 120, 255);
const ImU32 kHitFree = IM_COL32(70, 190, 90, 255);
const ImU32 kHitConflict = IM_COL32(235, 80, 60, 255);
const ImU32 kHitBroadcast = IM_COL32(80, 150, 240, 255);
const ImU32 kGrid = IM_COL32(20, 22, 26, 255);
// The lanes' rows shrink to this height in a short panel (their numbers then every 8 lanes).
constexpr float kMinLaneH = 3.f;

// The wavefront (1-based) that serves a lane: its word's rank among the distinct words of its
// bank, in lane order (the order is a convention; the count of wavefronts is the degree).
int wavefront(const BankView& v, int lane) {
  const LaneHit& h = v.lanes[std::size_t(lane)];
  std::vector<std::int32_t> seen;
  for (int l = 0; l <= lane; ++l) {
    const LaneHit& o = v.lanes[std::size_t(l)];
    if (o.active() && o.bank() == h.bank() && std::find(seen.begin(), seen.end(), o.word) == seen.end())
      seen.push_back(o.word);
  }
  return int(std::find(seen.begin(), seen.end(), h.word) - seen.begin()) + 1;
}

ImU32 hit_colour(const BankView& v, std::int32_t word) {
  if (v.bank_words[std::size_t(word % kBanks)] > 1) return kHitConflict;
  return v.lanes_on_word(word) > 1 ? kHitBroadcast : kHitFree;
}

// What a word holds, as the trace knows it: with a layout, an element or padding; without, the
// shared array is unpadded and word i is its index i.
std::string element_text(const Trace& t, std::int32_t element) {
  if (element == kPaddingWord) return "a padding word (no element)";
  return (t.shared_layout.empty() ? "index " : "element ") + std::to_string(element) + " of the shared array";
}

// The colours' key, wrapped to the width: a swatch and its name each.
struct Swatch {
  ImU32 colour;
  const char* name;
};
const Swatch kSwatches[] = {{kHitFree, "one word a bank"},
                            {kHitConflict, "conflict (n: wavefront)"},
                            {kHitBroadcast, "broadcast (one word)"},
                            {kCellPadding, "padding"},
                            {kCellElement, "element"}};

float swatch_width(const Swatch& w) {
  return ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(w.name).x + 12.f;
}

// Lines the key takes in `width`.
int swatch_lines(float width) {
  int lines = 1;
  float x = 0;
  for (const Swatch& w : kSwatches) {
    if (x > 0 && x + swatch_width(w) > width) ++lines, x = 0;
    x += swatch_width(w);
  }
  return lines;
}

void swatches() {
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool first = true;
  for (const Swatch& w : kSwatches) {
    if (!first && ImGui::GetCursorScreenPos().x + swatch_width(w) > right) ImGui::NewLine();
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float s = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + s, p.y + s), w.colour);
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine();
    text(w.name);
    ImGui::SameLine(0, 12);
  }
  ImGui::NewLine();
}

struct Grid {
  ImVec2 origin;  // top-left of cell (0, 0)
  float cw, ch;
  ImVec2 cell(int col, int row) const { return ImVec2(origin.x + col * cw, origin.y + row * ch); }
  bool hovered(int col, int row) const {
    const ImVec2 a = cell(col, row);
    return ImGui::IsMouseHoveringRect(a, ImVec2(a.x + cw, a.y + ch), false);
  }
};

// True when each bank's degree needs two lines, staggered, to fit its column: a two-digit degree
// wider than a cell.
bool staggered_degrees(const BankView& v, float cw) {
  const int most = *std::max_element(v.bank_words.begin(), v.bank_words.end());
  return ImGui::CalcTextSize(std::to_string(most).c_str()).x + 2.f > cw;
}

// Bank numbers every 4 columns and each bank's distinct words (on two lines, odd banks on the
// second, when they are wider than a column), above a grid.
void bank_header(ImDrawList* dl, const Grid& g, const BankView& v, float y_numbers, float y_degree) {
  const bool two = staggered_degrees(v, g.cw);
  for (int b = 0; b < kBanks; ++b) {
    const float x = g.origin.x + b * g.cw;
    if (b % 4 == 0) draw_text(dl, ImVec2(x, y_numbers), ImGui::GetColorU32(kDim), std::to_string(b));
    const int k = v.bank_words[std::size_t(b)];
    if (k > 0)
      draw_text(dl, ImVec2(x + 1, y_degree + (two && b % 2 ? ImGui::GetTextLineHeight() : 0.f)),
                k > 1 ? kHitConflict : IM_COL32(200, 200, 200, 255), std::to_string(k));
  }
}

// The lanes x banks grid: a cell where a lane's word lies in a bank, numbered with its wavefront
// when the bank is in conflict.
void lanes_grid(ImDrawList* dl, const Grid& g, const BankView& v, const Trace& t) {
  const int label_every = 4 * int(std::ceil(ImGui::GetFontSize() / (4.f * g.ch)));  // lane numbers a line apart
  for (int l = 0; l < 32; ++l) {
    if (l % label_every == 0)
      draw_text(dl, ImVec2(g.origin.x - 22, g.origin.y + l * g.ch - 3), ImGui::GetColorU32(kDim), std::to_string(l));
    const LaneHit& h = v.lanes[std::size_t(l)];
    for (int b = 0; b < kBanks; ++b) {
      const ImVec2 a = g.cell(b, l);
      const bool hit = h.active() && h.bank() == b;
      dl->AddRectFilled(a, ImVec2(a.x + g.cw - 1, a.y + g.ch - 1), hit ? hit_colour(v, h.word) : kCellEmpty);
      if (hit && v.bank_words[std::size_t(b)] > 1 && g.ch >= ImGui::GetFontSize() - 1)
        draw_text(dl, ImVec2(a.x + 2, a.y - 1), IM_COL32(255, 255, 255, 255), std::to_string(wavefront(v, l)));
      if (!g.hovered(b, l)) continue;
      ImGui::BeginTooltip();
      if (h.active()) {
        ImGui::Text("lane %d: word %d = bank %d, row %d", l, h.word, h.bank(), h.row());
        ImGui::Text("holds %s", element_text(t, h.element).c_str());
        ImGui::Text("bank %d serves %d distinct word(s): this lane in wavefront %d", h.bank(),
                    v.bank_words[std::size_t(h.bank())], wavefront(v, l));
      } else {
        ImGui::Text("lane %d: idle in this access", l);
      }
      ImGui::EndTooltip();
    }
  }
}

// Shared memory as 32 banks x rows (word = row * 32 + bank), the given rows top to bottom; a
// row's label is its first word, a gap in the rows is marked with a line.
void memory_grid(ImDrawList* dl, const Grid& g, const BankView& v, const Trace& t, const std::vector<int>& rows) {
  const int label_every = std::max(1, int(ImGui::GetFontSize() / g.ch + 0.999f));
  for (int r = 0; r < int(rows.size()); ++r) {
    const int row = rows[std::size_t(r)];
    if (r % label_every == 0)
      draw_text(dl, ImVec2(g.origin.x - 34, g.origin.y + r * g.ch - 3), ImGui::GetColorU32(kDim),
                std::to_string(row * kBanks));
    if (r > 0 && rows[std::size_t(r - 1)] != row - 1)
      dl->AddLine(g.cell(0, r), g.cell(kBanks, r), ImGui::GetColorU32(kHighlight));
    for (int b = 0; b < kBanks; ++b) {
      const std::int32_t w = row * kBanks + b;
      const ImVec2 a = g.cell(b, r), z(a.x + g.cw - 1, a.y + g.ch - 1);
      const int lanes = v.lanes_on_word(w);
      const std::int32_t e = w < v.words ? element_at(t, w) : -2;  // -2: not a word the trace knows
      const ImU32 c = lanes ? hit_colour(v, w) : e == kPaddingWord ? kCellPadding : e >= 0 ? kCellElement : kCellEmpty;
      dl->AddRectFilled(a, z, c);
      if (e == kPaddingWord) dl->AddLine(ImVec2(a.x, z.y), ImVec2(z.x, a.y), kGrid);  // hatch: a padding word
      if (!g.hovered(b, r)) continue;
      ImGui::BeginTooltip();
      ImGui::Text("word %d = bank %d, row %d", w, b, row);
      if (e >= -1) ImGui::Text("holds %s", element_text(t, e).c_str());
      else if (!t.shared_layout.empty()) ImGui::TextUnformatted("past the end of the block's shared memory");
      else ImGui::TextUnformatted("not touched by this access");
      if (lanes) {
        std::string who;
        for (int l = 0; l < 32; ++l)
          if (v.lanes[std::size_t(l)].word == w) who += (who.empty() ? "" : " ") + std::to_string(l);
        ImGui::Text("hit by lane(s) %s%s", who.c_str(), lanes > 1 ? " (one word: counted once in the bank's degree)" : "");
      }
      ImGui::EndTooltip();
    }
  }
}

std::string summary(const Step& st) {
  std::int64_t warps = 0;
  for (const WarpAccess& w : st.accesses) warps += w.warps;
  auto many = [](std::int64_t k, const char* one, const char* more) { return std::to_string(k) + " " + (k == 1 ? one : more); };
  return many(std::int64_t(st.accesses.size()), "distinct warp access", "distinct warp accesses") + " by " +
         many(warps, "warp", "warps") + ": worst " + std::to_string(st.counters.bank_conflict) + "-way, " +
         many(extra_wavefronts(st.accesses), "extra wavefront", "extra wavefronts");
}

// The panel's height above the grids: the summary, the access list, the key and the grids' headings.
float head_height(const Step& st, float width, int degree_lines) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  return ImGui::CalcTextSize(summary(st).c_str(), nullptr, false, width).y + style.ItemSpacing.y +
         ImGui::GetFrameHeight() + style.ItemSpacing.y + float(swatch_lines(width)) * ImGui::GetTextLineHeightWithSpacing() +
         (2.2f + float(degree_lines)) * line;
}

// The lanes' cell width for a panel `width` wide: the two grids and their labels side by side.
float cell_width(float width) { return std::floor(std::clamp((width - 120.f) / (2 * kBanks), 6.f, 18.f)); }

float panel_height(const Trace& t, int step, float width, float cell_h) {
  const Step& st = t.steps[std::size_t(step)];
  if (st.accesses.empty()) return ImGui::GetTextLineHeightWithSpacing();
  return head_height(st, width, 2) + 32.f * cell_h + 4.f + ImGui::GetStyle().ItemSpacing.y;
}

// The two grids side by side, their cells sized to the space left in the panel.
void bank_grids(const Trace& t, const BankView& v) {
  const int total_rows = (v.words + kBanks - 1) / kBanks;
  const std::vector<int> shown = rows_to_draw(v, 40);
  const int rows = int(shown.size());
  const float line = ImGui::GetTextLineHeight();
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const float cw = cell_width(avail_w);
  const float head = (2.2f + (staggered_degrees(v, cw) ? 2.f : 1.f)) * line;
  const float grid_h = std::max(32.f * kMinLaneH, ImGui::GetContentRegionAvail().y - head - 4.f);
  const float ch_lanes = std::floor(std::clamp(grid_h / 32.f, kMinLaneH, line));
  const float ch_mem = std::max(1.f, std::floor(std::clamp(grid_h / float(std::max(rows, 1)), 1.f, line)));
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Grid lanes_g{ImVec2(top.x + 26, top.y + head), cw, ch_lanes};
  const Grid mem_g{ImVec2(lanes_g.origin.x + kBanks * cw + 60, top.y + head), cw, ch_mem};
  const float mem_w = avail_w - (mem_g.origin.x - 34 - top.x);
  draw_text(dl, ImVec2(lanes_g.origin.x - 26, top.y), ImGui::GetColorU32(kHighlight),
            fit_text("lanes x banks: " + std::to_string(v.degree) + "-way", mem_g.origin.x - 34 - lanes_g.origin.x + 16));
  const std::string mem_rows = std::to_string(total_rows) + " rows" + (rows < total_rows ? " (" + std::to_string(rows) + " shown)" : "");
  draw_text(dl, ImVec2(mem_g.origin.x - 34, top.y), ImGui::GetColorU32(kHighlight),
            fit_text("shared memory: 32 banks x " + mem_rows, mem_w, {"shared memory: " + mem_rows, mem_rows}));
  bank_header(dl, lanes_g, v, top.y + line, top.y + 2.1f * line);
  bank_header(dl, mem_g, v, top.y + line, top.y + 2.1f * line);
  lanes_grid(dl, lanes_g, v, t);
  memory_grid(dl, mem_g, v, t, shown);
  ImGui::Dummy(ImVec2(avail_w, head + std::max(32 * ch_lanes, rows * ch_mem) + 4));
}

}  // namespace

float bank_panel_height(const Trace& t, int step, float width) {
  return panel_height(t, step, width, ImGui::GetTextLineHeight());
}

float bank_panel_min_height(const Trace& t, int step, float width) { return panel_height(t, step, width, kMinLaneH); }

void bank_panel(const Trace& t, int step) {
  const Step& st = t.steps[std::size_t(step)];
  if (st.accesses.empty()) {
    text(kDim, "This step makes no shared-memory access.");
    return;
  }
  // The chosen access lives in ImGui's storage; a new step starts at its worst access.
  ImGuiStorage* store = ImGui::GetStateStorage();
  const ImGuiID key_step = ImGui::GetID("bank_step"), key_pick = ImGui::GetID("bank_pick");
  if (store->GetInt(key_step, -1) != step || store->GetInt(key_pick, 0) >= int(st.accesses.size())) {
    store->SetInt(key_step, step);
    store->SetInt(key_pick, std::max(0, worst_access(st)));
  }
  int pick = store->GetInt(key_pick, 0);
  text_wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), summary(st));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("extra wavefronts: the sum over the step's warps of (degree - 1), the shared-memory\n"
                      "passes that bank conflicts add");
  ImGui::SetNextItemWidth(std::min(420.f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("access").x - 8.f));
  if (ImGui::BeginCombo("access", access_summary(st.accesses[std::size_t(pick)]).c_str())) {
    for (int i = 0; i < int(st.accesses.size()); ++i)
      if (ImGui::Selectable((access_summary(st.accesses[std::size_t(i)]) + "##" + std::to_string(i)).c_str(), i == pick))
        store->SetInt(key_pick, pick = i);
    ImGui::EndCombo();
  }
  swatches();
  bank_grids(t, bank_view(t, st.accesses[std::size_t(pick)]));
}

}  // namespace primlab::ui
