// The Race tab: two variants in lockstep on one input.
#include "ui/race_tab.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ui/choice_widgets.h"
#include "model/race_choice.h"
#include "ui/code_panel.h"
#include "ui/labels.h"

namespace primlab::ui {
namespace {

struct RacePair {
  const char* label;
  const char* a;
  const char* b;
};
const RacePair kRacePairs[] = {
    {"Hillis-Steele vs Blelloch", "scan-naive", "scan-blelloch"},
    {"Blelloch vs shared-memory scan", "scan-blelloch", "scan-shared"},
    {"reduce1 vs reduce5", "reduce1", "reduce5"},
    {"1-bit split vs 4-bit digits", "radix-split", "radix-digits"},
};

// Copies the shared input of the race (input, n, type, seed) from a to b; each side keeps its own
// block size, so that a race can compare block sizes too.
void share_input(const StepChoice& from, StepChoice& to) {
  to.input = from.input;
  to.typed = from.typed;
  to.seed = from.seed;
  to.cfg.n = from.cfg.n;
  to.cfg.type = from.cfg.type;
  to.prefer_cuda = from.prefer_cuda;
}

// [SECTION] Figures: the whole traces side by side, those that differ by more than 10 % first and
// highlighted, flowing over as many lines as the width needs.
struct FlowItem {
  std::string text;
  ImVec4 colour;
};

std::vector<FlowItem> figure_items(const RaceState& r) {
  std::vector<RaceFigure> f = race_figures(r.a.session.trace(), r.b.session.trace());
  std::stable_partition(f.begin(), f.end(), [](const RaceFigure& x) { return x.differs; });
  const bool differ = any_differs(f);
  std::vector<FlowItem> items = {{differ ? "Whole traces, A vs B, differ:" : "Whole traces, A vs B (none differs by 10 %):", kDim}};
  bool same_said = !differ;
  for (const RaceFigure& x : f) {
    if (x.a == 0 && x.b == 0) continue;  // nothing to compare
    std::string item = std::string(x.name) + " " + std::to_string(x.a) + (x.a == x.b ? "" : " vs " + std::to_string(x.b));
    if (!x.differs && !same_said) item = "same: " + item, same_said = true;
    items.push_back({item, x.differs ? kHighlight : kDim});
  }
  return items;
}

constexpr float kFlowGap = 12.f;

// The lines the items take in `width` (each on the line of the last when it fits).
int flow_lines(const std::vector<FlowItem>& items, float width) {
  int lines = 1;
  float x = 0;
  for (const FlowItem& it : items) {
    const float w = ImGui::CalcTextSize(it.text.c_str()).x;
    if (x > 0 && x + kFlowGap + w > width) ++lines, x = 0;
    x += (x > 0 ? kFlowGap : 0.f) + w;
  }
  return lines;
}

void flow_items(const std::vector<FlowItem>& items) {
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k > 0) {
      ImGui::SameLine(0, kFlowGap);
      if (ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(items[k].text.c_str()).x > right) ImGui::NewLine();
    }
    text(items[k].colour, items[k].text);
    if (k == 0 && ImGui::IsItemHovered())
      ImGui::SetTooltip("the whole traces' figures: work = adds + atomics, depth = steps, then the counters' totals;\n"
                        "highlighted where A and B differ by more than 10 %% of the larger");
  }
}

// A side's header: its algorithm, block and step, and the step's label.
std::string side_header(const StepPane& p, const char* side) {
  const StepSession& s = p.session;
  const Step& st = s.trace().steps[std::size_t(s.transport.step)];
  return std::string(side) + "  " + s.trace().title + " (block " + std::to_string(s.trace().block) + "): step " +
         std::to_string(s.transport.step) + "/" + std::to_string(s.last_step()) + "  " + st.label;
}

float wrapped_height(const std::string& s, float width) {
  return ImGui::CalcTextSize(s.c_str(), nullptr, false, width).y + ImGui::GetStyle().ItemSpacing.y;
}

// The pairs, each side's algorithm and options, and the shared input.
void race_controls(RaceState& r) {
  ImGui::TextUnformatted("Race two variants on one input");
  for (const RacePair& p : kRacePairs) {
    const bool have = find_algorithm(p.a) && find_algorithm(p.b);
    if (!have) continue;
    const RaceFixed none;
    if (ImGui::Button(p.label, ImVec2(-1, 0))) start_race(r, p.a, p.b, &none);
  }
  ImGui::Separator();
  bool changed = false;
  for (StepPane* p : {&r.a, &r.b}) {
    const char* side = p == &r.a ? "A" : "B";
    ImGui::PushID(side);
    ImGui::TextUnformatted(side);
    changed |= algorithm_combo(p->session.choice);
    if (const Algorithm* a = find_algorithm(p->session.choice.algo)) {
      changed |= options(p->session.choice, *a);
      changed |= block_choice(p->session.choice, *a);
    }
    ImGui::PopID();
  }
  ImGui::Separator();
  ImGui::TextUnformatted("Shared input");
  changed |= input_controls(r.a.session.choice);
  if (changed) start_race(r, r.a.session.choice.algo, r.b.session.choice.algo);
  for (const StepPane* p : {&r.a, &r.b})
    if (!p->session.message.empty())
      ImGui::TextColored(kError, "%s: %s", p == &r.a ? "A" : "B", p->session.message.c_str());
}

// [SECTION] Layout: the transport, the figures, each side's header and view, then the code panels
// and the counters, beside each other where the width allows. The figures, headers, code and
// counters get the height they take; the two views share the rest.
void race_panes(RaceState& r, ViewPrograms& programs) {
  transport_bar(r.transport, race_last_step(r));
  sync_race(r);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::GetContentRegionAvail().x, avail = ImGui::GetContentRegionAvail().y;
  const std::vector<FlowItem> figures = figure_items(r);
  const std::string heads[2] = {side_header(r.a, "A"), side_header(r.b, "B")};
  const std::vector<CountersColumn> columns = {{"A", &r.a.session.trace(), r.a.session.transport.step},
                                               {"B", &r.b.session.trace(), r.b.session.transport.step}};
  const ImVec2 counters = counters_table_size(columns);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const bool beside = width - counters.x - 2 * style.ItemSpacing.x >= 2 * 280.f;
  const float code_h = beside ? std::max(counters.y, std::min(14 * line, avail * 0.3f))
                              : std::clamp(avail * 0.15f, 5 * line, 14 * line);
  const float bottom_h = beside ? code_h : code_h + style.ItemSpacing.y + counters.y;
  const float fixed = float(flow_lines(figures, width)) * line + wrapped_height(heads[0], width) +
                      wrapped_height(heads[1], width) + bottom_h + 4 * style.ItemSpacing.y;
  const float view_h = std::max(60.f, std::floor((avail - fixed) / 2));
  flow_items(figures);
  StepPane* panes[2] = {&r.a, &r.b};
  for (int k = 0; k < 2; ++k) {
    text_wrapped(kHighlight, heads[k]);
    trace_image(programs, *panes[k], ImVec2(width, view_h));
  }
  const int cols = beside ? 3 : 2;
  if (ImGui::BeginTable("race_code", cols, ImGuiTableFlags_BordersInnerV)) {
    if (beside) {
      ImGui::TableSetupColumn("code_a", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableSetupColumn("code_b", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableSetupColumn("counters", ImGuiTableColumnFlags_WidthFixed, counters.x);
    }
    for (StepPane* p : panes) {
      ImGui::TableNextColumn();
      p->code = code_panel(p == &r.a ? "code_a" : "code_b", p->session.trace(), p->session.transport.step, ImVec2(0, code_h));
    }
    if (beside) {
      ImGui::TableNextColumn();
      counters_table("race_counters", columns, true);
    }
    ImGui::EndTable();
  }
  if (!beside) counters_table("race_counters", columns, true);
}

}  // namespace

bool start_race(RaceState& r, const std::string& algo_a, const std::string& algo_b, const RaceFixed* pick) {
  StepChoice& a = r.a.session.choice;
  StepChoice& b = r.b.session.choice;
  // The same two algorithms with other options or blocks keep the step (the last stays the last).
  const bool same = r.started && !pick && r.a.session.trace().algo == algo_a && r.b.session.trace().algo == algo_b;
  r.started = true;
  a.algo = algo_a;
  b.algo = algo_b;
  share_input(a, b);
  for (StepPane* p : {&r.a, &r.b})
    if (const Algorithm* alg = find_algorithm(p->session.choice.algo)) fit_config(*alg, p->session.choice.cfg);
  if (pick && !pick_race_size(a, b, *pick) && !pick->n && a.input != InputKind::Typed) a.cfg.n = kRaceDefaultN;
  share_input(a, b);
  const bool ok = rebuild(r.a) & rebuild(r.b);
  if (same) r.transport.refit(race_last_step(r));
  else r.transport.go(0, race_last_step(r));
  sync_race(r);
  return ok;
}

bool start_race_from(RaceState& r, const StepChoice& choice, const StepOptions& given, const std::string& algo_a,
                     const std::string& algo_b) {
  const RaceFixed fixed = race_fixed_by(given);
  r.a.session.choice = choice;
  r.b.session.choice = choice;  // the same options; start_race gives B its algorithm
  return start_race(r, algo_a, algo_b, &fixed);
}

const std::string& race_error(const RaceState& r) {
  return r.a.session.message.empty() ? r.b.session.message : r.a.session.message;
}

int race_last_step(const RaceState& r) { return std::max(r.a.session.last_step(), r.b.session.last_step()); }

void sync_race(RaceState& r) {
  for (StepPane* p : {&r.a, &r.b}) p->session.go(r.transport.step);
}

void draw_race_tab(RaceState& r, ViewPrograms& programs) {
  if (!r.started) {
    const RaceFixed none;
    start_race(r, kRacePairs[0].a, kRacePairs[0].b, &none);
  }
  if (!controls_beside_view("race_layout", [&] { race_controls(r); })) return;
  if (r.a.session.has_trace() && r.b.session.has_trace()) race_panes(r, programs);
  ImGui::EndTable();
}

}  // namespace primlab::ui
