// The shared widgets of the Step and Race tabs.
#include "ui/widgets.h"

#include <algorithm>
#include <cstdint>

#include "lab/model/trace_io.h"
#include "model/counter_rows.h"
#include "view/palette.h"

namespace primlab::ui {

// [SECTION] Layout
bool controls_beside_view(const char* id, const std::function<void()>& controls) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) return false;
  ImGui::TableSetupColumn("controls", ImGuiTableColumnFlags_WidthFixed, 300.f);
  ImGui::TableSetupColumn("view", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::BeginChild("controls_child", ImVec2(0, 0), false);
  controls();
  ImGui::EndChild();
  ImGui::TableNextColumn();
  return true;
}

// [SECTION] Transport
bool transport_bar(Transport& t, int last) {
  const int before = t.step;
  if (ImGui::Button("|<")) t.go(0, last);
  ImGui::SameLine();
  if (ImGui::Button("<")) t.go(t.step - 1, last);
  ImGui::SameLine();
  if (ImGui::Button(t.playing ? "Pause" : "Play", ImVec2(56, 0))) t.toggle_play(last);
  ImGui::SameLine();
  if (ImGui::Button(">")) t.go(t.step + 1, last);
  ImGui::SameLine();
  if (ImGui::Button(">|")) t.go(last, last);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(140);
  ImGui::SliderFloat("##speed", &t.speed, 0.5f, 20.f, "%.1f steps/s", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  int s = t.step;
  if (ImGui::SliderInt("##scrub", &s, 0, last, "step %d")) t.go(s, last);
  return t.step != before;
}

// [SECTION] Counters
void counters_table(const char* id, const std::vector<CountersColumn>& columns) {
  std::vector<std::vector<CounterRow>> rows;
  for (const CountersColumn& c : columns) rows.push_back(counter_rows(*c.trace, c.step));
  if (rows.empty() || !ImGui::BeginTable(id, 1 + 2 * int(columns.size()), ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV))
    return;
  ImGui::TableSetupColumn("counter", ImGuiTableColumnFlags_WidthFixed);  // as wide as the longest name
  auto head = [](const char* name, const char* alone, const char* after_name) {
    return *name ? std::string(name) + " " + after_name : std::string(alone);
  };
  for (const CountersColumn& c : columns) ImGui::TableSetupColumn(head(c.name, "this step", "this step").c_str());
  for (const CountersColumn& c : columns) ImGui::TableSetupColumn(head(c.name, "total so far", "so far").c_str());
  ImGui::TableHeadersRow();
  for (std::size_t r = 0; r < rows[0].size(); ++r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(rows[0][r].name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", rows[0][r].tip);
    for (const auto& col : rows) {
      ImGui::TableNextColumn();
      ImGui::Text("%lld", col[r].this_step);
    }
    for (const auto& col : rows) {
      ImGui::TableNextColumn();
      ImGui::Text(col[r].so_far_is_max ? "max %lld" : "%lld", col[r].so_far);
    }
  }
  ImGui::EndTable();
}

void flow_text(const ImVec4& colour, const std::string& text) {
  ImGui::SameLine();
  if (ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// [SECTION] Legend
void legend() {
  auto swatch = [](const view::PaletteEntry& e) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float s = ImGui::GetTextLineHeight();
    dl->AddRectFilled(p, ImVec2(p.x + s, p.y + s), ImGui::ColorConvertFloat4ToU32(ImVec4(e.colour.r, e.colour.g, e.colour.b, 1.f)));
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine();
    ImGui::TextUnformatted(e.name);
    ImGui::SameLine(0, 14);
  };
  for (const view::PaletteEntry& e : {view::kIdle, view::kRead, view::kWritten, view::kPadding}) swatch(e);
  for (OpKind k : {OpKind::Add, OpKind::Move, OpKind::Write, OpKind::CompareSwap, OpKind::Atomic})
    swatch(view::op_colour(k));
  ImGui::NewLine();
}

// [SECTION] Trace image
void trace_image(ViewPrograms& programs, StepPane& pane, ImVec2 size) {
  const StepSession& ss = pane.session;
  const Trace& t = ss.trace();
  const int step = ss.transport.step;
  const int w = std::max(16, int(size.x)), h = std::max(16, int(size.y));
  if (!programs.ready || !ss.has_trace()) {
    ImGui::TextColored(kError, "%s", programs.error.empty() ? "no trace" : programs.error.c_str());
    return;
  }
  view::Framebuffer& fb = pane.fb;
  fb.resize(w, h);
  GLint prev_fb = 0, vp[4];
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fb);
  glGetIntegerv(GL_VIEWPORT, vp);
  fb.bind();
  glClearColor(0.10f, 0.105f, 0.12f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  const view::Rect rect{0, 0, float(w), float(h)};
  programs.view.draw(t, pane.buffers, step, pane.options, float(w), float(h), rect);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fb));
  glViewport(vp[0], vp[1], vp[2], vp[3]);

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(fb.texture())), ImVec2(float(w), float(h)),
               ImVec2(0, 1), ImVec2(1, 0));
  // Row names beside the bars and strips.
  const Step& st = t.steps[std::size_t(step)];
  const view::ViewLayout l = view::layout_view(t, step, rect);
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
  pane.options.highlight_thread = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetMousePos();
    const float x = m.x - origin.x - l.bars.x;
    for (std::size_t r = 0; x < 0 && r < t.rows.size(); ++r)
      if (l.row_y[r] >= 0 && m.y - origin.y >= l.row_y[r] && m.y - origin.y < l.row_y[r] + l.strip_h)
        ImGui::SetTooltip("%s", t.rows[r].name.c_str());
    if (x >= 0 && x < l.bars.w) {
      const int i = std::min(t.width - 1, int(x / l.bars.w * float(t.width)));
      const int thread = i / std::max(1, t.elems_per_thread);
      pane.options.highlight_thread = thread;
      ImGui::BeginTooltip();
      ImGui::Text("element %d%s", i, i >= t.n ? " (padding)" : "");
      ImGui::Text("home thread %d: block %d, warp %d, lane %d", thread, thread / t.block, (thread % t.block) / 32,
                  (thread % t.block) % 32);
      if (!t.values.empty()) {
        const std::uint32_t word = t.row(std::size_t(step), std::size_t(st.focus_row))[i];
        ImGui::Text("value %s", format_word(word, t.rows[std::size_t(st.focus_row)].type).c_str());
      }
      ImGui::EndTooltip();
    }
  }
}

}  // namespace primlab::ui
