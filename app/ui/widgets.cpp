// The shared widgets of the Step and Race tabs.
#include "ui/widgets.h"

#include <imgui_internal.h>  // SetItemUsingMouseWheel

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>

#include "lab/model/trace_io.h"
#include "model/counter_rows.h"
#include "model/element_access.h"
#include "ui/labels.h"
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
namespace {
std::string count_text(long long v, bool is_max) { return (is_max ? "max " : "") + std::to_string(v); }

std::vector<std::string> counters_headers(const std::vector<CountersColumn>& columns) {
  std::vector<std::string> h = {"counter"};
  for (const CountersColumn& c : columns) h.push_back(*c.name ? std::string(c.name) + " this step" : "this step");
  for (const CountersColumn& c : columns) h.push_back(*c.name ? std::string(c.name) + " so far" : "total so far");
  return h;
}

// Each column as wide as its widest text (header, names or values), so that none is cut.
std::vector<float> counters_widths(const std::vector<CountersColumn>& columns,
                                   const std::vector<std::vector<CounterRow>>& rows) {
  const std::vector<std::string> heads = counters_headers(columns);
  std::vector<float> w;
  for (const std::string& h : heads) w.push_back(ImGui::CalcTextSize(h.c_str()).x);
  const std::size_t k = columns.size();
  for (std::size_t c = 0; c < rows.size(); ++c)
    for (const CounterRow& r : rows[c]) {
      w[0] = std::max(w[0], ImGui::CalcTextSize(r.name).x);
      w[1 + c] = std::max(w[1 + c], ImGui::CalcTextSize(count_text(r.this_step, false).c_str()).x);
      w[1 + k + c] = std::max(w[1 + k + c], ImGui::CalcTextSize(count_text(r.so_far, r.so_far_is_max).c_str()).x);
    }
  return w;
}

std::vector<std::vector<CounterRow>> counters_rows(const std::vector<CountersColumn>& columns) {
  std::vector<std::vector<CounterRow>> rows;
  for (const CountersColumn& c : columns) rows.push_back(counter_rows(*c.trace, c.step));
  return rows;
}
}  // namespace

ImVec2 counters_table_size(const std::vector<CountersColumn>& columns) {
  const std::vector<std::vector<CounterRow>> rows = counters_rows(columns);
  const ImGuiStyle& st = ImGui::GetStyle();
  float w = 0;
  for (float c : counters_widths(columns, rows)) w += c + 2 * st.CellPadding.x + 1;  // padding, inner border
  const float line = ImGui::GetTextLineHeight() + 2 * st.CellPadding.y;
  const std::size_t n = rows.empty() ? 0 : rows[0].size();
  return ImVec2(w, ImGui::GetFrameHeight() + float(n) * line);
}

void counters_table(const char* id, const std::vector<CountersColumn>& columns, bool mark_differences) {
  const std::vector<std::vector<CounterRow>> rows = counters_rows(columns);
  if (rows.empty() || !ImGui::BeginTable(id, 1 + 2 * int(columns.size()), ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                                                             ImGuiTableFlags_SizingFixedFit))
    return;
  const std::vector<std::string> heads = counters_headers(columns);
  const std::vector<float> widths = counters_widths(columns, rows);
  for (std::size_t c = 0; c < heads.size(); ++c)
    ImGui::TableSetupColumn(heads[c].c_str(), ImGuiTableColumnFlags_WidthFixed, widths[c]);
  table_headers();
  // In a race, the values of the two sides that differ by more than 10 % are highlighted.
  auto cell = [&](long long v, bool is_max, bool differs) {
    ImGui::TableNextColumn();
    if (differs) text(kHighlight, count_text(v, is_max));
    else text(count_text(v, is_max));
  };
  const bool pair = mark_differences && rows.size() == 2;
  for (std::size_t r = 0; r < rows[0].size(); ++r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text(rows[0][r].name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", rows[0][r].tip);
    const bool step_differs = pair && counters_differ(rows[0][r].this_step, rows[1][r].this_step);
    const bool so_far_differs = pair && counters_differ(rows[0][r].so_far, rows[1][r].so_far);
    for (const auto& col : rows) cell(col[r].this_step, false, step_differs);
    for (const auto& col : rows) cell(col[r].so_far, col[r].so_far_is_max, so_far_differs);
  }
  ImGui::EndTable();
}

void flow_text(const ImVec4& colour, const std::string& text) {
  ImGui::SameLine();
  if (ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  text_wrapped(colour, text);
}

// [SECTION] Legend
void legend(const Trace* t) {
  bool floats = !t, kinds[std::size(view::kOpColours)] = {};
  if (t) {
    for (const RowInfo& r : t->rows) floats |= r.type == ElemType::F32;
    for (const Op& op : t->ops) kinds[std::size_t(kind_of(op.kind)) % std::size(kinds)] = true;
  }
  const bool all_kinds = !t || t->ops.empty();  // the ops live on the device: show every kind
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float s = ImGui::GetTextLineHeight(), right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool first = true;
  // Items flow left to right and wrap, so that none is cut off in a narrow window.
  auto room = [&](float w) {
    if (!first && ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    first = false;
  };
  // A heading stays on the line of its first entry.
  auto heading = [&](const char* text, const view::PaletteEntry& first_entry) {
    room(ImGui::CalcTextSize(text).x + 6 + s + 4 + ImGui::CalcTextSize(first_entry.name).x);
    ui::text(kDim, text);
    ImGui::SameLine(0, 6);
  };
  enum Shape { kBox, kRight, kLeft };
  auto swatch = [&](const view::PaletteEntry& e, Shape shape) {
    room(s + 4 + ImGui::CalcTextSize(e.name).x + 14);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImU32 c = ImGui::ColorConvertFloat4ToU32(ImVec4(e.colour.r, e.colour.g, e.colour.b, 1.f));
    if (shape == kBox) {
      dl->AddRectFilled(p, ImVec2(p.x + s, p.y + s), c);
    } else {
      const float tip = shape == kRight ? p.x + s : p.x, back = shape == kRight ? tip - 6 : tip + 6;
      dl->AddLine(ImVec2(p.x, p.y + s * 0.5f), ImVec2(p.x + s, p.y + s * 0.5f), c, 2.f);
      dl->AddTriangleFilled(ImVec2(tip, p.y + s * 0.5f), ImVec2(back, p.y + s * 0.2f), ImVec2(back, p.y + s * 0.8f), c);
    }
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine(0, 4);
    ui::text(e.name);
    ImGui::SameLine(0, 14);
  };
  heading("bars:", view::kIdle);
  for (const view::PaletteEntry& e : {view::kIdle, view::kRead, view::kWritten}) swatch(e, kBox);
  // Padding that moves with the keys is named by its key.
  const std::string pad_name = !t || !t->has_pad_key ? ""
                               : t->pad_key_in_input ? "padding (" + format_word(t->pad_key, t->type) + "; the input has it too)"
                                                     : "padding (" + format_word(t->pad_key, t->type) + ")";
  if (!t || element_extent(*t) > t->n) swatch({pad_name.empty() ? view::kPadding.name : pad_name.c_str(), view::kPadding.colour}, kBox);
  if (floats) {
    swatch(view::kInf, kBox);
    swatch(view::kNaN, kBox);
  }
  const OpKind arrows[] = {OpKind::Read, OpKind::Add, OpKind::Move, OpKind::Write, OpKind::CompareSwap, OpKind::Atomic};
  bool headed = false;
  for (OpKind k : arrows)
    if (all_kinds || kinds[std::size_t(k)]) {
      if (!headed) heading("arrows:", view::op_colour(k));
      headed = true;
      swatch(view::op_colour(k), kRight);
    }
  if (!headed) heading("arrows:", view::kHovered);
  swatch(view::kHovered, kRight);
  if (!t || t->network) {
    heading("network:", view::kNetUp);
    swatch(view::kNetUp, kRight);
    swatch(view::kNetDown, kLeft);
  }
  ImGui::NewLine();
}

// [SECTION] Trace image
namespace {

// A value of the bars' scale, as the row's type prints.
std::string scale_text(float v, ElemType type) {
  if (type == ElemType::F32) return format_word(to_word(v), type);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", double(v));
  return text;
}

// The row and index under a point of the image (px from its top left); false when none.
bool hit(const Trace& t, int step, const view::ViewLayout& l, ImVec2 p, int& row, int& index) {
  row = -1;
  if (p.y >= l.arcs_y && p.y < l.label_y + l.label_h) row = t.steps[std::size_t(step)].focus_row;
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (l.row_y[r] >= 0 && p.y >= l.row_y[r] && p.y < l.row_y[r] + l.strip_h) row = int(r);
  if (row < 0) return false;
  index = view::cell_at(t, step, l, std::size_t(row), p.x);
  return index >= 0;
}

// The tooltip of one index: its value, and who read or wrote it in this step, from the step's ops.
void element_tooltip(const Trace& t, int step, int row, int index, float elem_px) {
  const RowInfo& ri = t.rows[std::size_t(row)];
  const std::vector<ElementAccess> acc = element_accesses(t, step, row, index);
  ImGui::BeginTooltip();
  const std::uint32_t word = t.row(std::size_t(step), std::size_t(row))[index];
  ImGui::Text("%s = %s%s", row_ref(t, row, index).c_str(), format_cell(word, ri).c_str(),
              !is_padding(t, step, std::size_t(row), index, word) ? ""
              : t.has_pad_key && step >= t.pad_step                 ? "  (padding: the key that sorts last)"
                                                                    : "  (padding)");
  if (ri.element_space && elem_px < 1.f)
    ImGui::TextColored(kDim, "%.0f elements share this pixel column: zoom in (mouse wheel)", 1.f / elem_px);
  if (acc.empty())
    ImGui::TextColored(kDim, step_names_row(t, step, row) ? "not touched in this step"
                                                          : "a value the kernel holds: no op of this step names this row");
  constexpr std::size_t kLines = 8;
  for (std::size_t k = 0; k < acc.size() && k < kLines; ++k) ImGui::TextUnformatted(describe_access(t, acc[k]).c_str());
  if (acc.size() > kLines) ImGui::TextColored(kDim, "... and %zu more", acc.size() - kLines);
  ImGui::EndTooltip();
}

// The texts over the view: the row names in the name column (a name that does not fit loses its
// parenthesis, then its end; the strip's tooltip has it whole), the bars' scale, the overview's
// hint and the strips a short view leaves out. Each is drawn only where it fits.
void view_texts(ImDrawList* dl, ImVec2 origin, const Trace& t, const Step& st, const view::ViewLayout& l,
                const view::ViewOptions& opt, const view::RowRange& range, ImVec2 size) {
  const ImU32 ink = IM_COL32(220, 222, 230, 255), dim = ImGui::ColorConvertFloat4ToU32(kDim);
  const float line = ImGui::GetTextLineHeight(), name_w = l.bars.x - 10.f;
  const ImVec4 image(origin.x, origin.y, origin.x + size.x, origin.y + size.y);  // what runs past the image is cut
  auto put = [&](float x, float y, const std::string& s, ImU32 colour) {
    draw_text(dl, ImVec2(origin.x + x, origin.y + y), colour, s, &image);
  };
  auto name = [&](const std::string& s) {
    const std::size_t paren = s.find(" (");
    return fit_text(s, name_w, paren == std::string::npos ? std::vector<std::string>{} : std::vector<std::string>{s.substr(0, paren)});
  };
  // The focus row's name and scale (it follows the step unless the options fix it to the whole
  // trace), top down, and its minimum at the bars' foot, as many as the bars and their labels
  // leave room for.
  const RowInfo& focus = t.rows[std::size_t(st.focus_row)];
  const float limit = l.label_y + l.label_h;
  float y = l.bars.y;
  std::vector<std::string> stack = {name(focus.name), "max " + scale_text(std::max(range.hi, 0.f), focus.type),
                                    opt.scale_per_step ? "(this step)" : "(all steps)"};
  const std::string hidden = "+" + std::to_string(l.hidden_rows) + (l.hidden_rows == 1 ? " row" : " rows");
  if (l.hidden_rows > 0 && l.hidden_y < 0) stack.insert(stack.begin() + 1, hidden + " hidden");  // no room below
  for (const std::string& s : stack) {
    if (y + line > limit) break;
    put(6, y, fit_text(s, name_w), y == l.bars.y ? ink : dim);
    y += line;
  }
  const float min_y = std::max(y, l.bars.y + l.bars.h - line);
  if (range.lo < 0 && min_y + line <= limit) put(6, min_y, fit_text("min " + scale_text(range.lo, focus.type), name_w), dim);
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (l.row_y[r] >= 0) put(6, l.row_y[r] + std::max(0.f, (l.strip_h - line) * 0.5f), name(t.rows[r].name), ink);
  if (l.hidden_y >= 0)
    put(6, l.hidden_y, fit_text(hidden + " below, hidden: a taller view shows them", size.x - 12.f, {hidden + " hidden"}), dim);
  if (l.overview.h <= 0) return;
  put(6, l.overview.y + std::max(0.f, (l.overview.h - line) * 0.5f), fit_text("overview", name_w), dim);
  // The window is in units of the focus row's axis (squeezed padding is less than a unit a cell).
  const int a = int(l.axis.cell_of(l.window.first)), b = int(std::ceil(l.axis.cell_of(l.window.first + l.window.count))) - 1;
  const std::string shown = (focus.element_space ? "elements " : "cells ") + std::to_string(a) + "-" + std::to_string(b) +
                            " of " + std::to_string(l.axis.cells());
  const std::string arrows = opt.arrows && l.bars.w / l.window.count < view::kMinArrowPx ? "; zoom in for arrows" : "";
  put(l.bars.x + 4, l.overview.y + l.overview.h + 3,
      fit_text(shown + ": wheel zooms, drag pans, double-click shows all" + arrows, l.bars.w - 8.f,
               {shown + ": wheel zooms, drag pans" + arrows, shown + " (wheel zooms)", shown}),
      dim);
}

// The padding after the real elements, named over its part of the bars: how many elements, and
// that a kernel added them (the tooltip of one says "(padding)"). Recorded (ui/labels.h).
void padding_name(ImDrawList* dl, ImVec2 origin, const Trace& t, const view::ViewLayout& l) {
  if (l.padding.w <= 0) return;
  const std::string count = std::to_string(l.axis.padding);
  for (const std::string& s : {"padding: " + count + " past n = " + std::to_string(t.n), "padding " + count, count}) {
    const ImVec2 size = ImGui::CalcTextSize(s.c_str());
    if (size.x + 8 > l.padding.w) continue;
    const ImVec2 p(origin.x + l.padding.x + 0.5f * (l.padding.w - size.x), origin.y + l.padding.y + 2);
    dl->AddRectFilled(ImVec2(p.x - 3, p.y - 1), ImVec2(p.x + size.x + 3, p.y + size.y + 1), IM_COL32(26, 27, 31, 230));
    draw_text(dl, p, ImGui::ColorConvertFloat4ToU32(kDim), s);
    return;
  }
}

// [SECTION] Sorting network
// The comparator panel's words: its title (what a row is, which way time runs), a time arrow down
// its left edge, and beside the rows the current pass and the stages' first passes, as far as
// they have room (the current pass first). Every text is recorded (ui/labels.h).
void network_texts(ImDrawList* dl, ImVec2 origin, const Trace& t, int step, const view::ViewLayout& l) {
  if (!t.network || l.network.h <= 0) return;
  const ImU32 ink = IM_COL32(220, 222, 230, 255), dim = ImGui::ColorConvertFloat4ToU32(kDim);
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 title(origin.x + l.network.x, origin.y + l.network.y - view::kNetworkTitleH);
  for (const char* s : {"comparator network: a row per compare-swap pass, time runs down; the arrow points where the "
                        "larger key goes",
                        "comparator network: a row per pass, time runs down", "network: time runs down"}) {
    if (ImGui::CalcTextSize(s).x > l.network.w) continue;
    draw_text(dl, title, ink, s);
    break;
  }
  draw_text(dl, ImVec2(origin.x + 6, title.y), dim, "passes");
  // The time arrow, just left of the panel.
  const float ax = origin.x + l.network.x - 8, top = origin.y + l.network.y, bottom = top + l.network.h;
  dl->AddLine(ImVec2(ax, top), ImVec2(ax, bottom - 5), dim);
  dl->AddTriangleFilled(ImVec2(ax - 3, bottom - 6), ImVec2(ax + 3, bottom - 6), ImVec2(ax, bottom), dim);
  const std::vector<view::NetworkPass> passes = view::network_passes(t, step, l.network);
  std::vector<std::pair<float, float>> taken;
  const float room = l.network.x - 18;
  // The first of `texts` that fits the name column, beside the pass's row where no other text is.
  auto put = [&](const view::NetworkPass& p, const std::vector<std::string>& texts, ImU32 colour) {
    const float y = std::max(p.y + 0.5f * (p.h - line), l.network.y);
    for (const auto& [a, b] : taken)
      if (y < b && y + line > a) return;
    if (y + line > l.network.y + l.network.h + 2) return;
    std::string s = texts.back();
    for (const std::string& t : texts)
      if (ImGui::CalcTextSize(t.c_str()).x <= room) {
        s = t;
        break;
      }
    const ImVec4 clip(origin.x, origin.y + y, origin.x + l.network.x - 12, origin.y + y + line);
    draw_text(dl, ImVec2(origin.x + 6, origin.y + y), colour, s, &clip);
    taken.push_back({y, y + line});
  };
  for (const view::NetworkPass& p : passes)
    if (p.current) put(p, {"> " + p.stage + (p.pass.empty() ? "" : ", " + p.pass), "> " + (p.pass.empty() ? p.stage : p.pass)}, ink);
  for (const view::NetworkPass& p : passes)
    if (p.stage_start && !p.current) put(p, {p.stage}, dim);
}

}  // namespace

void trace_image(ViewPrograms& programs, StepPane& pane, ImVec2 size) {
  StepSession& ss = pane.session;
  const int step = ss.transport.step;
  const int w = std::max(16, int(size.x)), h = std::max(16, int(size.y));
  if (!programs.ready || !ss.has_trace()) {
    ImGui::TextColored(kError, "%s", programs.error.empty() ? "no trace" : programs.error.c_str());
    return;
  }
  const Trace& t = ss.trace();
  view::ViewOptions& opt = pane.options;
  const float units = view::row_axis(t, std::size_t(t.steps[std::size_t(step)].focus_row)).units();
  // A whole row is kept as "the whole row" (count 0), not as this axis's units: a step whose focus
  // row has another axis (the bins after the keys) shows all of it too, not its first units.
  opt.window = view::whole_row(opt.window, units) ? view::ViewWindow{} : view::clamp_window(opt.window, units);
  // The name column fits the longest row name, up to a third of the view.
  float names = ImGui::CalcTextSize("(this step)").x;
  for (const RowInfo& r : t.rows) names = std::max(names, ImGui::CalcTextSize(r.name.c_str()).x);
  opt.name_w = std::min(names + 16.f, float(w) / 3.f);
  view::Framebuffer& fb = pane.fb;
  fb.resize(w, h);
  GLint prev_fb = 0, vp[4];
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fb);
  glGetIntegerv(GL_VIEWPORT, vp);
  fb.bind();
  glClearColor(0.10f, 0.105f, 0.12f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  const view::Rect rect{0, 0, float(w), float(h)};
  programs.view.draw(t, pane.buffers, step, opt, float(w), float(h), rect);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fb));
  glViewport(vp[0], vp[1], vp[2], vp[3]);

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  pane.image_x = origin.x;
  pane.image_y = origin.y;
  ImGui::PushID(&pane);
  ImGui::InvisibleButton("trace_view", ImVec2(float(w), float(h)));
  ImGui::SetItemUsingMouseWheel();  // the wheel zooms the view, not the window
  ImGui::PopID();
  const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(fb.texture())), origin,
               ImVec2(origin.x + float(w), origin.y + float(h)), ImVec2(0, 1), ImVec2(1, 0));
  const Step& st = t.steps[std::size_t(step)];
  const view::ViewLayout l = view::layout_view(t, step, rect, opt);
  const float elem_px = l.bars.w / l.window.count;
  const view::RowRange range = view::bar_range(pane.buffers, std::size_t(st.focus_row), opt);
  view_texts(dl, origin, t, st, l, opt, range, ImVec2(float(w), float(h)));
  padding_name(dl, origin, t, l);
  network_texts(dl, origin, t, step, l);
  // The value labels the shaders drew, clipped as their scissor clips them to the bars' columns.
  const ImVec4 columns(origin.x + l.bars.x, origin.y, origin.x + l.bars.x + l.bars.w, origin.y + float(h));
  for (const view::ValueLabel& v : view::value_labels(t, step, l, opt, pane.buffers))
    note_drawn_text(ImVec2(origin.x + v.box.x, origin.y + v.box.y),
                    ImVec2(origin.x + v.box.x + v.box.w, origin.y + v.box.y + v.box.h), v.text, &columns);

  // Zoom (wheel, around the mouse), pan (drag on the bars, or click and drag on the overview) and
  // reset (double-click).
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 m(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
  const ImVec2 pressed(io.MouseClickedPos[0].x - origin.x, io.MouseClickedPos[0].y - origin.y);
  const bool on_overview = l.overview.h > 0 && pressed.y >= l.overview.y && pressed.y < l.overview.y + l.overview.h;
  if (hovered && io.MouseWheel != 0.f) {
    const float anchor = view::element_at(opt.window, units, l.bars.x, l.bars.w, m.x);
    opt.window = view::zoom_window(opt.window, units, anchor, std::pow(0.8f, io.MouseWheel));
  }
  if (hovered && ImGui::IsMouseDoubleClicked(0)) opt.window = {};
  if (active && on_overview) {
    const float centre = (m.x - l.overview.x) / l.overview.w * units;
    opt.window = view::pan_window(opt.window, units, centre - (opt.window.first + 0.5f * opt.window.count));
  } else if (active && io.MouseDelta.x != 0.f) {
    opt.window = view::pan_window(opt.window, units, -io.MouseDelta.x / l.bars.w * opt.window.count);
  }

  // Hover: the index under the mouse, and who touched it in this step (from the step's ops); the
  // arrows of those accesses are highlighted.
  opt.highlight_row = opt.highlight_index = -1;
  if (!hovered || active) return;
  for (std::size_t r = 0; m.x < l.bars.x && r < t.rows.size(); ++r)
    if (l.row_y[r] >= 0 && m.y >= l.row_y[r] && m.y < l.row_y[r] + l.strip_h) ImGui::SetTooltip("%s", t.rows[r].name.c_str());
  if (l.overview.h > 0 && m.y >= l.overview.y && m.y < l.overview.y + l.overview.h && m.x >= l.overview.x)
    ImGui::SetTooltip("the whole row: click or drag to move the window there");
  int row = 0, index = 0;
  if (!hit(t, step, l, m, row, index)) return;
  const Trace& host = host_trace(pane);  // the values and ops, read back once when CUDA filled them
  element_tooltip(host, step, row, index, t.rows[std::size_t(row)].element_space ? elem_px : 1.f);
  opt.highlight_row = row;
  opt.highlight_index = index;
}

}  // namespace primlab::ui
