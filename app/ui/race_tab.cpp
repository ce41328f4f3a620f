// The Race tab: two variants in lockstep on one input.
#include "ui/race_tab.h"

#include <imgui.h>

#include <algorithm>

#include "ui/choice_widgets.h"
#include "ui/code_panel.h"

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

// The whole traces' work and depth, then both sides' counters at the shared step.
void race_counters(const RaceState& r) {
  const Trace& ta = r.a.session.trace();
  const Trace& tb = r.b.session.trace();
  const Counters alla = ta.totals(ta.steps.size()), allb = tb.totals(tb.steps.size());
  ImGui::Text("Whole trace: work (adds + atomics) %lld vs %lld, depth %d vs %d steps (%lld vs %lld launches)",
              (long long)(alla.adds + alla.atomics), (long long)(allb.adds + allb.atomics), int(ta.steps.size()) - 1,
              int(tb.steps.size()) - 1, (long long)alla.launches, (long long)allb.launches);
  counters_table("race_counters", {{"A", &ta, r.a.session.transport.step}, {"B", &tb, r.b.session.transport.step}});
}

// The pairs, each side's algorithm and options, and the shared input.
void race_controls(RaceState& r) {
  ImGui::TextUnformatted("Race two variants on one input");
  for (const RacePair& p : kRacePairs) {
    const bool have = find_algorithm(p.a) && find_algorithm(p.b);
    if (!have) continue;
    if (ImGui::Button(p.label, ImVec2(-1, 0))) start_race(r, p.a, p.b);
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

}  // namespace

bool start_race(RaceState& r, const std::string& algo_a, const std::string& algo_b) {
  StepChoice& a = r.a.session.choice;
  r.started = true;
  a.algo = algo_a;
  r.b.session.choice.algo = algo_b;
  share_input(a, r.b.session.choice);
  for (StepPane* p : {&r.a, &r.b})
    if (const Algorithm* alg = find_algorithm(p->session.choice.algo)) fit_config(*alg, p->session.choice.cfg);
  const bool ok = rebuild(r.a) & rebuild(r.b);
  r.transport.step = 0;
  sync_race(r);
  return ok;
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
    r.a.session.choice.cfg.n = kRaceDefaultN;
    start_race(r, kRacePairs[0].a, kRacePairs[0].b);
  }
  if (controls_beside_view("race_layout", [&] { race_controls(r); })) {
    if (r.a.session.has_trace() && r.b.session.has_trace()) {
      transport_bar(r.transport, race_last_step(r));
      sync_race(r);
      const float code_h = std::max(110.f, ImGui::GetContentRegionAvail().y * 0.22f);
      const float view_h = std::max(120.f, (ImGui::GetContentRegionAvail().y - 230.f - code_h) / 2.f);
      for (StepPane* p : {&r.a, &r.b}) {
        const StepSession& s = p->session;
        const Step& st = s.trace().steps[std::size_t(s.transport.step)];
        ImGui::TextColored(kHighlight, "%s  %s (block %d): step %d/%d  %s", p == &r.a ? "A" : "B",
                           s.trace().title.c_str(), s.trace().block, s.transport.step, s.last_step(), st.label.c_str());
        trace_image(programs, *p, ImVec2(ImGui::GetContentRegionAvail().x, view_h));
      }
      if (ImGui::BeginTable("race_code", 2, ImGuiTableFlags_BordersInnerV)) {
        for (StepPane* p : {&r.a, &r.b}) {
          ImGui::TableNextColumn();
          p->code = code_panel(p == &r.a ? "code_a" : "code_b", p->session.trace(), p->session.transport.step,
                               ImVec2(0, code_h));
        }
        ImGui::EndTable();
      }
      race_counters(r);
    }
    ImGui::EndTable();
  }
}

}  // namespace primlab::ui
