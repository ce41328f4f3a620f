// The Step tab: controls beside the transport, the trace view, the code listing and the counters.
#include "ui/step_tab.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "interop/interop.h"
#include "lab/run/backend.h"
#include "ui/bank_panel.h"
#include "ui/choice_widgets.h"
#include "ui/code_panel.h"

namespace primlab::ui {
namespace {

// [SECTION] Controls
void controls_panel(StepPane& pane) {
  StepSession& ss = pane.session;
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
  if (changed) rebuild(pane);
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

}  // namespace

// [SECTION] Layout
void draw_step_tab(StepPane& pane, ViewPrograms& programs) {
  StepSession& ss = pane.session;
  if (controls_beside_view("step_layout", [&] { controls_panel(pane); })) {
    if (ss.has_trace()) {
      transport_bar(ss.transport, ss.last_step());
      const Trace& t = ss.trace();
      const Step& st = t.steps[std::size_t(ss.transport.step)];
      ImGui::Text("Step %d / %d:", ss.transport.step, int(t.steps.size()) - 1);
      flow_text(kHighlight, st.label);
      flow_text(kDim, "[" + t.title + ", n=" + std::to_string(t.n) +
                          (element_extent(t) > t.n ? ", padded to " + std::to_string(element_extent(t)) : std::string()) + ", " +
                          elem_type_name(t.type) + "]");
      if (!st.explain.empty()) ImGui::TextWrapped("%s", st.explain.c_str());
      legend(&t);
      if (ImGui::CollapsingHeader("Shared-memory banks")) {
        ImGui::BeginChild("banks", ImVec2(0, std::max(250.f, ImGui::GetContentRegionAvail().y * 0.45f)));
        bank_panel(t, ss.transport.step);
        ImGui::EndChild();
      }
      const float bottom_h = std::max(180.f, ImGui::GetContentRegionAvail().y * 0.34f);
      trace_image(programs, pane, ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y - bottom_h));
      if (ImGui::BeginTable("bottom", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("code", ImGuiTableColumnFlags_WidthStretch, 0.6f);
        ImGui::TableSetupColumn("counters", ImGuiTableColumnFlags_WidthStretch, 0.4f);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        pane.code = code_panel("code", t, ss.transport.step, ImVec2(0, bottom_h - 8));
        ImGui::TableNextColumn();
        ImGui::BeginChild("counters", ImVec2(0, bottom_h - 8), false);
        const LaunchShape& launch = st.launch;
        ImGui::Text("launch: %d block(s) x %d threads, %d active of %lld", launch.blocks, launch.threads, launch.active,
                    (long long)launch.launched());
        counters_table("counters", {{"", &t, ss.transport.step}});
        ImGui::EndChild();
        ImGui::EndTable();
      }
    } else {
      ImGui::TextColored(kError, "%s", ss.message.c_str());
    }
    ImGui::EndTable();
  }
}

}  // namespace primlab::ui
