// The widgets that edit a StepChoice, shared by the Step and Race tabs.
#include "ui/choice_widgets.h"

#include <imgui.h>
#include <imgui_internal.h>  // TempInputText: the block slider's typed size
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/presets.h"
#include "ui/item_rects.h"
#include "ui/widgets.h"

namespace primlab::ui {

bool algorithm_combo(StepChoice& c) {
  bool changed = false;
  // The combo shows the short name (as --algo takes it) and lists the titles; the title is
  // written out under it, wrapped, so that no title is cut off in the controls column.
  if (ImGui::BeginCombo("Algorithm", c.algo.c_str(), ImGuiComboFlags_HeightLarge)) {
    std::string family;
    for (const Algorithm& a : algorithms()) {
      if (family != a.family) {
        family = a.family;
        ImGui::TextDisabled("%s", a.family);
      }
      ImGui::PushID(a.name);
      if (ImGui::Selectable(a.title, c.algo == a.name)) {
        c.algo = a.name;
        fit_config(a, c.cfg);
        changed = true;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (const Algorithm* a = find_algorithm(c.algo)) ImGui::TextWrapped("%s", a->title);
  return changed;
}

namespace {
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


// Bins (or partitions): 2 to the row's maximum, as powers of two where the row needs them.
bool bins_choice(StepConfig& cfg, const Algorithm& a) {
  if (!a.bins_pow2)
    return ImGui::SliderInt(a.bins_label ? a.bins_label : "Bins", &cfg.bins, 2, a.max_bins, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  int lg = 1, hi = 1;
  while ((2 << lg) <= cfg.bins) ++lg;
  while ((2 << hi) <= a.max_bins) ++hi;
  char label[32];
  std::snprintf(label, sizeof label, "%d partitions", 1 << lg);
  if (!ImGui::SliderInt("Partitions", &lg, 1, hi, label)) return false;
  cfg.bins = 1 << lg;
  return true;
}
}  // namespace

namespace {

// A power-of-two block size on a slider of its exponent. Ctrl+click types a block size into the
// slider's frame (ImGui's own Ctrl+click would take the exponent: 32 would be 2^32, clamped);
// Enter takes it, and a size the algorithm does not take is refused with the reason.
bool block_slider(StepChoice& c, const Algorithm& a) {
  const char* name = "Block size";
  const ImGuiID id = ImGui::GetCurrentWindow()->GetID(name);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const ImRect frame(pos, ImVec2(pos.x + ImGui::CalcItemWidth(), pos.y + ImGui::GetFrameHeight()));
  const ImGuiIO& io = ImGui::GetIO();
  static char typed[16];
  const bool start = io.KeyCtrl && io.MouseClicked[0] && ImGui::IsWindowHovered() &&
                     ImGui::IsMouseHoveringRect(frame.Min, frame.Max);
  if (start) std::snprintf(typed, sizeof typed, "%d", c.cfg.block);
  if (start || ImGui::TempInputIsActive(id)) {
    const bool entered = ImGui::TempInputText(frame, id, name, typed, sizeof typed,
                                              ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_AutoSelectAll |
                                                  ImGuiInputTextFlags_EnterReturnsTrue);
    note_item("block slider");
    int b = 0;
    if (!entered || std::sscanf(typed, "%d", &b) != 1 || b == c.cfg.block) return false;
    c.cfg.block = b;
    return true;
  }
  int lg = 0;
  while ((1 << (lg + 1)) <= c.cfg.block) ++lg;
  char label[32];
  std::snprintf(label, sizeof label, "%d %s", 1 << lg, lg == 0 ? "thread" : "threads");
  const int lo = int(std::log2(double(a.min_block))), hi = int(std::log2(double(a.max_block)));
  const bool moved = ImGui::SliderInt(name, &lg, lo, hi, label, ImGuiSliderFlags_NoInput);
  note_item("block slider");
  if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) ImGui::SetTooltip("threads per block; Ctrl+click to type a size");
  if (!moved) return false;
  c.cfg.block = 1 << lg;
  return true;
}

}  // namespace

bool block_choice(StepChoice& c, const Algorithm& a) {
  if (a.block_pow2) return block_slider(c, a);
  int b = c.cfg.block;
  if (ImGui::InputInt("Block size", &b, 1, 32, ImGuiInputTextFlags_EnterReturnsTrue) ||
      (b != c.cfg.block && ImGui::IsItemDeactivatedAfterEdit())) {
    c.cfg.block = b;
    return true;
  }
  return false;
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
  if (a.options & kOptDigitBits) changed |= ImGui::SliderInt("Digit bits", &cfg.digit_bits, 2, 8);
  if (a.options & kOptBins) changed |= bins_choice(cfg, a);
  if (a.options & kOptDigitStart) {
    int width = 0;  // the digit's bits, log2 of the partitions
    while ((2 << width) <= cfg.bins) ++width;
    cfg.digit_start = std::min(cfg.digit_start, 32 - width);
    changed |= ImGui::SliderInt("Start bit", &cfg.digit_start, 0, 32 - width);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the digit's lowest bit: digit = bfe(key, start bit, digit bits)");
  }
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
    note_item("typed list");
    changed |= ImGui::Button("Apply list");
    note_item("apply list");
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

bool preset_combo(StepChoice& c, std::string& message) {
  bool changed = false;
  // The presets under their families' names; the one loaded is named in the combo, its narrative
  // under it, until the user changes the choice.
  const char* preview = c.preset.empty() ? "load an example..." : c.preset.c_str();
  const bool open = ImGui::BeginCombo("Preset", preview, ImGuiComboFlags_HeightLargest);
  if (!open) note_item("preset combo");  // (when open, the last item is the popup's)
  if (open) {
    for (const PresetGroup& g : presets_by_family()) {
      ImGui::TextDisabled("%s", g.family.c_str());
      for (const Preset* p : g.presets) {
        const bool picked = ImGui::Selectable(("  " + p->name).c_str(), c.preset == p->name);
        note_item(("preset " + p->name).c_str());
        if (ImGui::IsItemHovered() && !p->description.empty()) ImGui::SetTooltip("%s", p->description.c_str());
        if (!picked) continue;
        StepOptions o;
        o.preset = p->name;
        StepChoice loaded;
        if (Result r = resolve_step_options(o, loaded); r.ok()) {
          loaded.prefer_cuda = c.prefer_cuda;
          c = loaded;
          changed = true;
        } else {
          message = r.message();
        }
      }
    }
    ImGui::EndCombo();
  }
  if (const Preset* p = c.preset.empty() ? nullptr : find_preset(c.preset); p && !p->description.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kHighlight);
    ImGui::TextWrapped("%s", p->description.c_str());
    ImGui::PopStyleColor();
  }
  return changed;
}

}  // namespace primlab::ui
