// The Step tab: controls beside the transport, the trace view, the code listing and the counters.
#include "ui/step_tab.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "interop/interop.h"
#include "lab/run/backend.h"
#include "ui/bank_panel.h"
#include "ui/choice_widgets.h"
#include "ui/code_panel.h"
#include "ui/item_rects.h"
#include "ui/labels.h"

namespace primlab::ui {
namespace {

// [SECTION] Controls
void controls_panel(StepPane& pane) {
  StepSession& ss = pane.session;
  StepChoice& c = ss.choice;
  const bool loaded = preset_combo(c, ss.message);
  bool changed = algorithm_combo(c);
  const Algorithm* a = find_algorithm(c.algo);
  if (!a) return;
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  ImGui::TextWrapped("%s", a->description);
  ImGui::PopStyleColor();
  ImGui::Separator();
  changed |= options(c, *a);
  changed |= block_choice(c, *a);
  ImGui::Separator();
  changed |= input_controls(c);
  if (changed) c.preset.clear();  // no longer the preset's choice
  if (changed || loaded) rebuild(pane);
  if (!ss.message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kError);
    ImGui::TextWrapped("%s", ss.message.c_str());
    ImGui::PopStyleColor();
  }
  changed = false;
  ImGui::Separator();
  ImGui::Text("Backend:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", ss.backend.c_str());
  if (interop::cuda_available()) {
    changed |= ImGui::Checkbox("Run on the CUDA device", &c.prefer_cuda);
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("(%s)", backend().reason.c_str());
    ImGui::PopStyleColor();
  }
  if (changed) rebuild(pane);
  ImGui::Separator();
  ImGui::Checkbox("Arrows", &pane.options.arrows);
  ImGui::SameLine();
  ImGui::Checkbox("Labels", &pane.options.labels);
  ImGui::SameLine();
  ImGui::Checkbox("Blocks", &pane.options.bands);
  ImGui::Checkbox("Scale bars per step", &pane.options.scale_per_step);
}

// [SECTION] Header: the step's label, the trace's title, the step's explanation and the colours'
// legend. The explanation ends above `limit` (a screen y): lines that do not fit are left out, the
// last line shown ends in "...", and hovering it shows the whole text.

// The lines `text` wraps into at `width`, as TextWrapped breaks them.
std::vector<std::string> wrapped_lines(const std::string& text, float width) {
  std::vector<std::string> lines;
  const char* p = text.c_str();
  const char* const end = p + text.size();
  while (p < end) {
    const char* cut = ImGui::GetFont()->CalcWordWrapPositionA(1.f, p, end, width);
    if (cut == p) ++cut;  // a word wider than the line: at least one character a line
    const char* next = cut;
    while (next < end && (*next == ' ' || *next == '\n')) ++next;
    lines.emplace_back(p, cut);
    p = next;
  }
  return lines;
}

void explanation(const std::string& explain, float limit) {
  const ImVec4 colour = ImGui::GetStyleColorVec4(ImGuiCol_Text);
  const float width = ImGui::GetContentRegionAvail().x, line = ImGui::GetTextLineHeightWithSpacing();
  const std::vector<std::string> lines = wrapped_lines(explain, width);
  const int room = std::max(1, int((limit - ImGui::GetCursorScreenPos().y + ImGui::GetStyle().ItemSpacing.y) / line));
  if (int(lines.size()) <= room) {
    text_wrapped(colour, explain);
    return;
  }
  ImGui::BeginGroup();
  for (int k = 0; k + 1 < room; ++k) text(colour, lines[std::size_t(k)]);
  std::string rest = lines[std::size_t(room - 1)];
  for (std::size_t k = std::size_t(room); k < lines.size(); ++k) rest += " " + lines[k];
  text(colour, fit_text(rest, width - 1.f));
  ImGui::EndGroup();
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 45.f);
    ImGui::TextUnformatted(explain.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// Returns the legend's height (with the spacing under it).
float step_header(const StepSession& ss, float limit) {
  const Trace& t = ss.trace();
  const Step& st = t.steps[std::size_t(ss.transport.step)];
  text("Step " + std::to_string(ss.transport.step) + " / " + std::to_string(int(t.steps.size()) - 1) + ":");
  flow_text(kHighlight, st.label);
  flow_text(kDim, "[" + t.title + ", n=" + std::to_string(t.n) +
                      (element_extent(t) > t.n ? ", padded to " + std::to_string(element_extent(t)) : std::string()) + ", " +
                      elem_type_name(t.type) + "]");
  if (!st.explain.empty()) explanation(st.explain, limit);
  const float y = ImGui::GetCursorScreenPos().y;
  legend(&t);
  return ImGui::GetCursorScreenPos().y - y;
}

// [SECTION] Bottom: the code listing beside the counters, which get the width and height they take.
// "launch: 8 blocks x 8 threads, 64 active" (of blocks x threads launched: idle threads are a counter).
std::string launch_text(const LaunchShape& l) {
  auto many = [](long long k, const char* one, const char* more) { return std::to_string(k) + " " + (k == 1 ? one : more); };
  return "launch: " + many(l.blocks, "block", "blocks") + " x " + many(l.threads, "thread", "threads") + ", " +
         std::to_string(l.active) + " active";
}

// The counters' width, and their height with the launch line above them wrapped to that width.
ImVec2 counters_size(const StepSession& ss) {
  const Trace& t = ss.trace();
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 table = counters_table_size({{"", &t, ss.transport.step}});
  const std::string launch = launch_text(t.steps[std::size_t(ss.transport.step)].launch);
  const float launch_h = ImGui::CalcTextSize(launch.c_str(), nullptr, false, table.x).y;
  return ImVec2(table.x + 2 * style.WindowPadding.x, table.y + launch_h + 2 * style.ItemSpacing.y + 2 * style.WindowPadding.y);
}

void step_bottom(StepPane& pane, float height) {
  StepSession& ss = pane.session;
  const Trace& t = ss.trace();
  const Step& st = t.steps[std::size_t(ss.transport.step)];
  const float counters_w = counters_size(ss).x;
  if (!ImGui::BeginTable("bottom", 2, ImGuiTableFlags_BordersInnerV)) return;
  ImGui::TableSetupColumn("code", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("counters", ImGuiTableColumnFlags_WidthFixed, counters_w);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  pane.code = code_panel("code", t, ss.transport.step, ImVec2(0, height));
  ImGui::TableNextColumn();
  ImGui::BeginChild("counters", ImVec2(0, height), false, ImGuiWindowFlags_NoScrollbar);
  text_wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), launch_text(st.launch));
  counters_table("counters", {{"", &t, ss.transport.step}});
  ImGui::EndChild();
  ImGui::EndTable();
}

}  // namespace

// [SECTION] Layout
// Top down: the transport, the header, the bank panel when open, the view, and the code and
// counters. The counters and the bank panel get the height they need, the view the rest (a short
// view leaves strips out and says so); where even the smallest bank panel and view do not fit
// under the whole header, the step's explanation gives up its last lines.
namespace {

constexpr float kMinView = 110.f;  // the bars, their labels and the line that says what is hidden

// The bottom's height when `avail` is left under the header.
float bottom_height(const StepSession& ss, float avail) {
  return std::max(counters_size(ss).y, std::min(260.f, avail * 0.34f));
}

// The least height under the header: the bank panel at its smallest (when open), the smallest
// view and the bottom (whose height grows with what is left: solved for the least X with
// X >= fixed + bottom_height(X)).
float least_under_header(const StepPane& pane, float width) {
  const StepSession& ss = pane.session;
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  const float banks = pane.banks_open ? bank_panel_min_height(ss.trace(), ss.transport.step, width) + gap : 0.f;
  const float fixed = banks + kMinView + gap;
  return std::max(fixed + counters_size(ss).y, std::min(fixed / 0.66f, fixed + 260.f));
}

}  // namespace

void draw_step_tab(StepPane& pane, ViewPrograms& programs) {
  StepSession& ss = pane.session;
  if (!controls_beside_view("step_layout", [&] { controls_panel(pane); })) return;
  if (!ss.has_trace()) {
    ImGui::TextColored(kError, "%s", ss.message.c_str());
    ImGui::EndTable();
    return;
  }
  transport_bar(ss.transport, ss.last_step());
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::GetContentRegionAvail().x;
  // The legend's height of the last frame (it changes only with the width and the trace).
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID legend_key = ImGui::GetID("legend height");
  const float legend_h = storage->GetFloat(legend_key, 2 * ImGui::GetTextLineHeightWithSpacing());
  const float bottom_y = ImGui::GetCursorScreenPos().y + ImGui::GetContentRegionAvail().y;
  storage->SetFloat(legend_key, step_header(ss, bottom_y - least_under_header(pane, width) -
                                                     ImGui::GetFrameHeightWithSpacing() - legend_h));
  const Trace& t = ss.trace();
  ImGui::SetNextItemOpen(pane.banks_open);
  pane.banks_open = ImGui::CollapsingHeader("Shared-memory banks");
  note_item("banks header");
  const float avail = ImGui::GetContentRegionAvail().y;
  const float bottom_h = bottom_height(ss, avail);
  if (pane.banks_open) {
    const float room = avail - bottom_h - kMinView - 2 * style.ItemSpacing.y;
    const float bank_h = std::clamp(room, bank_panel_min_height(t, ss.transport.step, width),
                                    bank_panel_height(t, ss.transport.step, width));
    ImGui::BeginChild("banks", ImVec2(0, bank_h), false, ImGuiWindowFlags_NoScrollbar);
    bank_panel(t, ss.transport.step);
    ImGui::EndChild();
  }
  const float view_h = ImGui::GetContentRegionAvail().y - bottom_h - style.ItemSpacing.y;
  trace_image(programs, pane, ImVec2(width, std::max(16.f, view_h)));
  step_bottom(pane, bottom_h);
  ImGui::EndTable();
}

}  // namespace primlab::ui
