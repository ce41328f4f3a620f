// The app frame: the Step tab's controls, transport, trace view, code panel and counters.
#include "ui/app_ui.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/presets.h"
#include "interop/interop.h"
#include "lab/run/backend.h"
#include "lab/model/trace_io.h"

namespace primlab::ui {
namespace {

const ImVec4 kError(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);

// [SECTION] Controls
bool algorithm_combo(StepChoice& c) {
  const Algorithm* cur = find_algorithm(c.algo);
  bool changed = false;
  if (ImGui::BeginCombo("Algorithm", cur ? cur->title : c.algo.c_str(), ImGuiComboFlags_HeightLarge)) {
    std::string family;
    for (const Algorithm& a : algorithms()) {
      if (family != a.family) {
        family = a.family;
        ImGui::TextDisabled("%s", a.family);
      }
      ImGui::PushID(a.name);
      if (ImGui::Selectable(a.title, c.algo == a.name)) {
        c.algo = a.name;
        if (a.block_pow2 && (c.cfg.block & (c.cfg.block - 1))) c.cfg.block = 8;
        if (c.cfg.type == ElemType::F32 && !(a.options & kOptFloat)) c.cfg.type = ElemType::I32;
        changed = true;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool type_choice(StepChoice& c, const Algorithm& a) {
  bool changed = false;
  int t = int(c.cfg.type);
  changed |= ImGui::RadioButton("int32", &t, int(ElemType::I32));
  if (a.options & kOptU32) {
    ImGui::SameLine();
    changed |= ImGui::RadioButton("uint32", &t, int(ElemType::U32));
  }
  if (a.options & kOptFloat) {
    ImGui::SameLine();
    changed |= ImGui::RadioButton("float", &t, int(ElemType::F32));
  }
  c.cfg.type = ElemType(t);
  return changed;
}

bool block_choice(StepChoice& c, const Algorithm& a) {
  bool changed = false;
  if (a.block_pow2) {
    int lg = 0;
    while ((1 << (lg + 1)) <= c.cfg.block) ++lg;
    char label[32];
    std::snprintf(label, sizeof label, "%d threads", 1 << lg);
    const int lo = int(std::log2(double(a.min_block))), hi = int(std::log2(double(a.max_block)));
    if (ImGui::SliderInt("Block size", &lg, lo, hi, label)) {
      c.cfg.block = 1 << lg;
      changed = true;
    }
  } else {
    int b = c.cfg.block;
    if (ImGui::InputInt("Block size", &b, 1, 32, ImGuiInputTextFlags_EnterReturnsTrue) || (b != c.cfg.block && ImGui::IsItemDeactivatedAfterEdit())) {
      c.cfg.block = b;
      changed = true;
    }
  }
  return changed;
}

bool options(StepChoice& c, const Algorithm& a) {
  bool changed = false;
  StepConfig& cfg = c.cfg;
  if (a.options & kOptInclusive) {
    int inc = cfg.inclusive;
    changed |= ImGui::RadioButton("exclusive", &inc, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("inclusive", &inc, 1);
    cfg.inclusive = inc;
  }
  changed |= type_choice(c, a);
  if (a.options & kOptConflictOffsets) changed |= ImGui::Checkbox("Bank-conflict offsets (GPU Gems 3)", &cfg.conflict_offsets);
  if (a.options & kOptVariant && a.variant_names) changed |= ImGui::Combo("Variant", &cfg.variant, a.variant_names);
  if (a.options & kOptDigitBits) changed |= ImGui::SliderInt("Digit bits", &cfg.digit_bits, 1, 8);
  if (a.options & kOptBins) changed |= ImGui::SliderInt("Bins", &cfg.bins, 2, 4096, "%d", ImGuiSliderFlags_Logarithmic);
  if (a.options & kOptDigitStart) changed |= ImGui::SliderInt("Digit starts at bit", &cfg.digit_start, 0, 31);
  if (a.options & kOptPredicate) {
    changed |= ImGui::Combo("Keep", &cfg.predicate, "non-zero\0even\0greater than threshold\0\0");
    if (cfg.predicate == 2) changed |= ImGui::InputInt("Threshold", &cfg.threshold);
  }
  if (a.options & kOptDescending) changed |= ImGui::Checkbox("Descending", &cfg.descending);
  if (a.options & kOptKeyValue) changed |= ImGui::Checkbox("Key-value pairs", &cfg.key_value);
  return changed;
}

bool input_controls(StepChoice& c) {
  bool changed = false;
  int kind = int(c.input);
  if (ImGui::Combo("Input", &kind, "random\0sorted\0reversed\0all-equal\0few distinct\0typed list\0\0")) {
    c.input = InputKind(kind);
    changed = true;
  }
  if (c.input == InputKind::Typed) {
    ImGui::InputTextMultiline("##typed", &c.typed, ImVec2(-1, ImGui::GetTextLineHeight() * 3));
    changed |= ImGui::Button("Apply list");
  } else {
    int n = c.cfg.n;
    ImGui::InputInt("n", &n, 1, 64);
    if (ImGui::IsItemDeactivatedAfterEdit() || (n != c.cfg.n && !ImGui::IsItemActive())) {
      c.cfg.n = n;
      changed = true;
    }
    if (c.input != InputKind::AllEqual) {
      int seed = int(c.seed);
      ImGui::InputInt("Seed", &seed);
      if (ImGui::IsItemDeactivatedAfterEdit() || (seed != int(c.seed) && !ImGui::IsItemActive())) {
        c.seed = std::uint32_t(seed);
        changed = true;
      }
    }
  }
  return changed;
}

// Loads a named example (assets/presets.json); its description shows as a tooltip.
bool preset_combo(StepChoice& c, std::string& message) {
  bool changed = false;
  if (ImGui::BeginCombo("Preset", "load an example...")) {
    for (const Preset& p : presets()) {
      if (ImGui::Selectable(p.name.c_str())) {
        StepOptions o;
        o.preset = p.name;
        StepChoice loaded;
        std::string error;
        if (resolve_step_options(o, loaded, error)) {
          loaded.prefer_cuda = c.prefer_cuda;
          c = loaded;
          changed = true;
        } else {
          message = error;
        }
      }
      if (ImGui::IsItemHovered() && !p.description.empty()) ImGui::SetTooltip("%s", p.description.c_str());
    }
    ImGui::EndCombo();
  }
  return changed;
}

void controls_panel(StepSession& ss) {
  StepChoice& c = ss.choice;
  bool changed = preset_combo(c, ss.message);
  changed |= algorithm_combo(c);
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
  if (changed) ss.rebuild();
  if (!ss.message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kError);
    ImGui::TextWrapped("%s", ss.message.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::Checkbox("Arrows", &ss.view.arrows);
  ImGui::SameLine();
  ImGui::Checkbox("Labels", &ss.view.labels);
  ImGui::SameLine();
  ImGui::Checkbox("Blocks", &ss.view.bands);
}

// [SECTION] Transport
void transport_bar(StepSession& ss) {
  const int last = std::max(0, int(ss.trace().steps.size()) - 1);
  Transport& t = ss.transport;
  if (ImGui::Button("|<")) ss.go(0);
  ImGui::SameLine();
  if (ImGui::Button("<")) ss.go(t.step - 1);
  ImGui::SameLine();
  if (ImGui::Button(t.playing ? "Pause" : "Play", ImVec2(56, 0))) {
    if (!t.playing && t.step >= last) ss.go(0);
    t.playing = !t.playing;
    t.accum = 0;
  }
  ImGui::SameLine();
  if (ImGui::Button(">")) ss.go(t.step + 1);
  ImGui::SameLine();
  if (ImGui::Button(">|")) ss.go(last);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(140);
  ImGui::SliderFloat("##speed", &t.speed, 0.5f, 20.f, "%.1f steps/s", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  int s = t.step;
  if (ImGui::SliderInt("##scrub", &s, 0, last, "step %d")) ss.go(s);
}

// [SECTION] View
void view_panel(AppState& app, StepSession& ss, view::Framebuffer& fb, ImVec2 size) {
  const Trace& t = ss.trace();
  const int w = std::max(16, int(size.x)), h = std::max(16, int(size.y));
  if (!app.view_ready || !ss.has_trace()) {
    ImGui::TextColored(kError, "%s", app.view_error.empty() ? "no trace" : app.view_error.c_str());
    return;
  }
  fb.resize(w, h);
  GLint prev_fb = 0, vp[4];
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fb);
  glGetIntegerv(GL_VIEWPORT, vp);
  fb.bind();
  glClearColor(0.10f, 0.105f, 0.12f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  const view::Rect rect{0, 0, float(w), float(h)};
  app.view.draw(t, ss.buffers(), ss.transport.step, ss.view, float(w), float(h), rect);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fb));
  glViewport(vp[0], vp[1], vp[2], vp[3]);

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(fb.texture())), ImVec2(float(w), float(h)),
               ImVec2(0, 1), ImVec2(1, 0));
  // Row names beside the bars and strips.
  const Step& st = t.steps[std::size_t(ss.transport.step)];
  const view::ViewLayout l = view::layout_view(t, ss.transport.step, rect);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 ink = IM_COL32(220, 222, 230, 255);
  // Names are clipped to the name column; the full name is in the tooltip of the strip.
  auto name = [&](float y, const std::string& text) {
    const ImVec4 clip(origin.x, origin.y + y, origin.x + l.bars.x - 4, origin.y + y + l.strip_h);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(origin.x + 6, origin.y + y), ink, text.c_str(), nullptr,
                0.f, &clip);
  };
  name(l.bars.y, t.rows[std::size_t(st.focus_row)].name);
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (l.row_y[r] >= 0) name(l.row_y[r] + 3, t.rows[r].name);
  // Hover: which element, thread, warp and block.
  ss.view.highlight_thread = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetMousePos();
    const float x = m.x - origin.x - l.bars.x;
    for (std::size_t r = 0; x < 0 && r < t.rows.size(); ++r)
      if (l.row_y[r] >= 0 && m.y - origin.y >= l.row_y[r] && m.y - origin.y < l.row_y[r] + l.strip_h)
        ImGui::SetTooltip("%s", t.rows[r].name.c_str());
    if (x >= 0 && x < l.bars.w) {
      const int i = std::min(t.width - 1, int(x / l.bars.w * float(t.width)));
      const int thread = i / std::max(1, t.elems_per_thread);
      ss.view.highlight_thread = thread;
      ImGui::BeginTooltip();
      ImGui::Text("element %d%s", i, i >= t.n ? " (padding)" : "");
      ImGui::Text("home thread %d: block %d, warp %d, lane %d", thread, thread / t.block, (thread % t.block) / 32,
                  (thread % t.block) % 32);
      if (ss.has_trace() && !ss.trace().values.empty()) {
        const std::uint32_t word = t.row(std::size_t(ss.transport.step), std::size_t(st.focus_row))[i];
        ImGui::Text("value %s", format_word(word, t.rows[std::size_t(st.focus_row)].type).c_str());
      }
      ImGui::EndTooltip();
    }
  }
}

void legend() {
  auto swatch = [](ImU32 col, const char* text) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float s = ImGui::GetTextLineHeight();
    dl->AddRectFilled(p, ImVec2(p.x + s, p.y + s), col);
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
    ImGui::SameLine(0, 14);
  };
  swatch(IM_COL32(92, 140, 204, 255), "idle");
  swatch(IM_COL32(250, 194, 56, 255), "read");
  swatch(IM_COL32(240, 92, 66, 255), "written");
  swatch(IM_COL32(90, 90, 90, 255), "padding");
  swatch(IM_COL32(77, 230, 102, 255), "add");
  swatch(IM_COL32(89, 178, 255, 255), "move");
  swatch(IM_COL32(204, 140, 255, 255), "write");
  swatch(IM_COL32(255, 102, 102, 255), "compare-swap");
  swatch(IM_COL32(255, 115, 217, 255), "atomic");
  ImGui::NewLine();
}

// [SECTION] Code and counters
void code_panel(const Trace& t, const Step& st) {
  for (std::size_t i = 0; i < t.code.size(); ++i) {
    const bool cur = int(i) == st.code_line;
    if (cur) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(
          p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y + ImGui::GetTextLineHeightWithSpacing()),
          IM_COL32(90, 70, 20, 255));
    }
    ImGui::TextColored(cur ? ImVec4(1, 0.9f, 0.5f, 1) : ImVec4(0.8f, 0.82f, 0.86f, 1), "%3zu  %s", i + 1,
                       t.code[i].c_str());
    if (cur && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
  }
}

void counters_panel(const Trace& t, int step) {
  const Step& st = t.steps[std::size_t(step)];
  const Counters c = st.counters, tot = t.totals(std::size_t(step));
  ImGui::Text("launch: %d block(s) x %d threads, %d active of %lld", st.launch.blocks, st.launch.threads,
              st.launch.active, (long long)st.launch.launched());
  if (ImGui::BeginTable("counters", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("counter");
    ImGui::TableSetupColumn("this step");
    ImGui::TableSetupColumn("total so far");
    ImGui::TableHeadersRow();
    auto row = [](const char* name, long long a, long long b) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      ImGui::TableNextColumn();
      ImGui::Text("%lld", a);
      ImGui::TableNextColumn();
      ImGui::Text("%lld", b);
    };
    row("adds", c.adds, tot.adds);
    row("global bytes read", c.global_read_bytes, tot.global_read_bytes);
    row("global bytes written", c.global_write_bytes, tot.global_write_bytes);
    row("shared accesses", c.shared_accesses, tot.shared_accesses);
    row("worst bank conflict (n-way)", c.bank_conflict, tot.bank_conflict);
    row("divergent warps", c.divergent_warps, tot.divergent_warps);
    long long idle_total = 0;
    for (int s = 0; s <= step; ++s) idle_total += t.steps[std::size_t(s)].launch.launched() - t.steps[std::size_t(s)].launch.active;
    row("idle threads", st.launch.launched() - st.launch.active, idle_total);
    row("atomics", c.atomics, tot.atomics);
    row("launches", c.launches, tot.launches);
    ImGui::EndTable();
  }
}

void step_tab(AppState& app) {
  StepSession& ss = app.step;
  if (ImGui::BeginTable("step_layout", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("controls", ImGuiTableColumnFlags_WidthFixed, 300.f);
    ImGui::TableSetupColumn("view", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::BeginChild("controls_child", ImVec2(0, 0), false);
    controls_panel(ss);
    ImGui::EndChild();
    ImGui::TableNextColumn();
    if (ss.has_trace()) {
      const Trace& t = ss.trace();
      const Step& st = t.steps[std::size_t(ss.transport.step)];
      transport_bar(ss);
      ImGui::Text("Step %d / %d:", ss.transport.step, int(t.steps.size()) - 1);
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1, 0.9f, 0.5f, 1), "%s", st.label.c_str());
      ImGui::SameLine();
      ImGui::TextColored(kDim, " [%s, n=%d%s, %s]", t.title.c_str(), t.n,
                         t.width != t.n ? (", padded to " + std::to_string(t.width)).c_str() : "",
                         elem_type_name(t.type));
      legend();
      const float bottom_h = std::max(180.f, ImGui::GetContentRegionAvail().y * 0.34f);
      view_panel(app, ss, app.view_fb, ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y - bottom_h));
      if (ImGui::BeginTable("bottom", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::BeginChild("code", ImVec2(0, bottom_h - 8), false, ImGuiWindowFlags_HorizontalScrollbar);
        code_panel(t, st);
        ImGui::EndChild();
        ImGui::TableNextColumn();
        ImGui::BeginChild("counters", ImVec2(0, bottom_h - 8), false);
        counters_panel(t, ss.transport.step);
        ImGui::EndChild();
        ImGui::EndTable();
      }
    } else {
      ImGui::TextColored(kError, "%s", ss.message.c_str());
    }
    ImGui::EndTable();
  }
}

// [SECTION] Race mode
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

// Copies the shared input of the race (input, n, type, block, seed) from a to b.
void share_input(const StepChoice& from, StepChoice& to) {
  to.input = from.input;
  to.typed = from.typed;
  to.seed = from.seed;
  to.cfg.n = from.cfg.n;
  to.cfg.type = from.cfg.type;
  to.cfg.block = from.cfg.block;
  to.prefer_cuda = from.prefer_cuda;
}

void sync_race(RaceState& r) {
  for (StepSession* s : {&r.a, &r.b}) s->go(r.transport.step);
}

void race_counters(RaceState& r) {
  const Trace& ta = r.a.trace();
  const Trace& tb = r.b.trace();
  const int sa = r.a.transport.step, sb = r.b.transport.step;
  const Counters ca = ta.steps[std::size_t(sa)].counters, cb = tb.steps[std::size_t(sb)].counters;
  const Counters tota = ta.totals(std::size_t(sa)), totb = tb.totals(std::size_t(sb));
  const Counters alla = ta.totals(ta.steps.size()), allb = tb.totals(tb.steps.size());
  ImGui::Text("Whole trace: work (adds + atomics) %lld vs %lld, depth %d vs %d steps (%lld vs %lld launches)",
              (long long)(alla.adds + alla.atomics), (long long)(allb.adds + allb.atomics), int(ta.steps.size()) - 1,
              int(tb.steps.size()) - 1, (long long)alla.launches, (long long)allb.launches);
  if (ImGui::BeginTable("race_counters", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("counter");
    ImGui::TableSetupColumn("A this step");
    ImGui::TableSetupColumn("B this step");
    ImGui::TableSetupColumn("A so far");
    ImGui::TableSetupColumn("B so far");
    ImGui::TableHeadersRow();
    auto row = [](const char* name, long long a, long long b, long long ta, long long tb) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      for (long long v : {a, b, ta, tb}) {
        ImGui::TableNextColumn();
        ImGui::Text("%lld", v);
      }
    };
    row("adds", ca.adds, cb.adds, tota.adds, totb.adds);
    row("global bytes read", ca.global_read_bytes, cb.global_read_bytes, tota.global_read_bytes, totb.global_read_bytes);
    row("global bytes written", ca.global_write_bytes, cb.global_write_bytes, tota.global_write_bytes,
        totb.global_write_bytes);
    row("shared accesses", ca.shared_accesses, cb.shared_accesses, tota.shared_accesses, totb.shared_accesses);
    row("worst bank conflict", ca.bank_conflict, cb.bank_conflict, tota.bank_conflict, totb.bank_conflict);
    row("divergent warps", ca.divergent_warps, cb.divergent_warps, tota.divergent_warps, totb.divergent_warps);
    row("atomics", ca.atomics, cb.atomics, tota.atomics, totb.atomics);
    row("launches", ca.launches, cb.launches, tota.launches, totb.launches);
    ImGui::EndTable();
  }
}

void race_tab(AppState& app) {
  RaceState& r = app.race;
  if (!r.started) start_race(app, kRacePairs[0].a, kRacePairs[0].b);
  if (ImGui::BeginTable("race_layout", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("race_controls", ImGuiTableColumnFlags_WidthFixed, 300.f);
    ImGui::TableSetupColumn("race_views", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::BeginChild("race_controls_child", ImVec2(0, 0), false);
    ImGui::TextUnformatted("Race two variants on one input");
    for (const RacePair& p : kRacePairs) {
      const bool have = find_algorithm(p.a) && find_algorithm(p.b);
      if (!have) continue;
      if (ImGui::Button(p.label, ImVec2(-1, 0))) start_race(app, p.a, p.b);
    }
    ImGui::Separator();
    bool changed = false;
    ImGui::PushID("A");
    ImGui::TextUnformatted("A");
    changed |= algorithm_combo(r.a.choice);
    if (const Algorithm* a = find_algorithm(r.a.choice.algo)) changed |= options(r.a.choice, *a);
    ImGui::PopID();
    ImGui::PushID("B");
    ImGui::TextUnformatted("B");
    changed |= algorithm_combo(r.b.choice);
    if (const Algorithm* b = find_algorithm(r.b.choice.algo)) changed |= options(r.b.choice, *b);
    ImGui::PopID();
    ImGui::Separator();
    ImGui::TextUnformatted("Shared input");
    if (const Algorithm* a = find_algorithm(r.a.choice.algo)) changed |= block_choice(r.a.choice, *a);
    changed |= input_controls(r.a.choice);
    if (changed) start_race(app, r.a.choice.algo, r.b.choice.algo);
    for (StepSession* s : {&r.a, &r.b})
      if (!s->message.empty()) ImGui::TextColored(kError, "%s: %s", s == &r.a ? "A" : "B", s->message.c_str());
    ImGui::EndChild();
    ImGui::TableNextColumn();
    if (r.a.has_trace() && r.b.has_trace()) {
      const int last = std::max(int(r.a.trace().steps.size()), int(r.b.trace().steps.size())) - 1;
      Transport& t = r.transport;
      if (ImGui::Button("|<")) t.step = 0;
      ImGui::SameLine();
      if (ImGui::Button("<")) t.step = std::max(0, t.step - 1);
      ImGui::SameLine();
      if (ImGui::Button(t.playing ? "Pause" : "Play", ImVec2(56, 0))) {
        if (!t.playing && t.step >= last) t.step = 0;
        t.playing = !t.playing;
      }
      ImGui::SameLine();
      if (ImGui::Button(">")) t.step = std::min(last, t.step + 1);
      ImGui::SameLine();
      if (ImGui::Button(">|")) t.step = last;
      ImGui::SameLine();
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##race_scrub", &t.step, 0, last, "step %d");
      sync_race(r);
      const float view_h = std::max(120.f, (ImGui::GetContentRegionAvail().y - 230.f) / 2.f);
      for (StepSession* s : {&r.a, &r.b}) {
        const Step& st = s->trace().steps[std::size_t(s->transport.step)];
        ImGui::TextColored(ImVec4(1, 0.9f, 0.5f, 1), "%s  %s: step %d/%d  %s", s == &r.a ? "A" : "B",
                           s->trace().title.c_str(), s->transport.step, int(s->trace().steps.size()) - 1,
                           st.label.c_str());
        view_panel(app, *s, s == &r.a ? r.fb_a : r.fb_b, ImVec2(ImGui::GetContentRegionAvail().x, view_h));
      }
      race_counters(r);
    }
    ImGui::EndTable();
  }
}

}  // namespace

bool start_race(AppState& s, const std::string& algo_a, const std::string& algo_b) {
  RaceState& r = s.race;
  r.started = true;
  r.a.choice.algo = algo_a;
  r.b.choice.algo = algo_b;
  if (r.a.choice.input == InputKind::Random && r.a.choice.cfg.n == StepConfig{}.n) r.a.choice.cfg.n = 32;
  // A power-of-two block suits every variant of a pair.
  int b = 1;
  while (b * 2 <= r.a.choice.cfg.block) b *= 2;
  r.a.choice.cfg.block = b;
  share_input(r.a.choice, r.b.choice);
  const bool ok = r.a.rebuild() & r.b.rebuild();
  r.transport.step = 0;
  sync_race(r);
  return ok;
}

bool init_app(AppState& s) {
  if (!s.perf.worker) perf::init_perf(s.perf, perf::make_default_backend());
  s.view_ready = s.view.init(s.view_error);
  if (!s.step.has_trace()) s.step.rebuild();
  return s.view_ready;
}

void handle_keys(AppState& s) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  StepSession& ss = s.step;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) {
    if (!ss.transport.playing && ss.transport.step + 1 >= int(ss.trace().steps.size())) ss.go(0);
    ss.transport.playing = !ss.transport.playing;
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) ss.go(ss.transport.step + 1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) ss.go(ss.transport.step - 1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) ss.go(0);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) ss.go(int(ss.trace().steps.size()) - 1);
}

void draw_frame(AppState& s, float width, float height, double dt) {
  s.step.tick(dt);
  if (s.race.transport.playing) {
    // Lockstep: advance the shared step at the race's speed until both sides are done.
    Transport& t = s.race.transport;
    t.accum += dt;
    const int last = std::max(int(s.race.a.trace().steps.size()), int(s.race.b.trace().steps.size())) - 1;
    while (t.accum >= 1.0 / t.speed && t.playing) {
      t.accum -= 1.0 / t.speed;
      if (t.step >= last) t.playing = false;
      else ++t.step;
    }
  }
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::Begin("primlab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (ImGui::BeginTabBar("tabs")) {
    auto flags = [&](int tab) { return s.request_tab == tab ? ImGuiTabItemFlags_SetSelected : 0; };
    if (ImGui::BeginTabItem("Step", nullptr, flags(0))) {
      s.tab = 0;
      step_tab(s);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Race", nullptr, flags(1))) {
      s.tab = 1;
      race_tab(s);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Performance", nullptr, flags(2))) {
      s.tab = 2;
      perf::draw_perf_tab(s.perf);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  if (s.request_tab == s.tab) s.request_tab = -1;
  ImGui::End();
}

}  // namespace primlab::ui
