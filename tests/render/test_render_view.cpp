// The array view's facts, drawn through EGL and checked in the pixels and the GL label buffer:
// labels as `trace` prints them, inf and NaN colours, the per-step scale, zoom with its overview,
// and the level of detail of bands, lines and arrows at large n.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "headless/frame.h"
#include "render_test_util.h"
#include "view/step_labels.h"

using namespace primlab;
using namespace primlab::testing;

namespace {

constexpr int kW = 1200, kH = 600;
const view::Rect kRect{0, 0, float(kW), float(kH)};

ui::AppState& float_app(const std::string& typed) {
  static ui::AppState* s = nullptr;
  delete s;
  s = new ui::AppState;
  ui::StepChoice& c = s->step.session.choice;
  c.algo = "scan-blelloch";
  c.cfg.type = ElemType::F32;
  c.input = InputKind::Typed;
  c.typed = typed;
  EXPECT_TRUE(ui::init_app(*s)) << s->view.error << s->step.session.message;
  return *s;
}

view::ViewLayout layout(ui::AppState& s) {
  return view::layout_view(s.step.session.trace(), s.step.session.transport.step, kRect, s.step.options);
}

std::vector<std::string> main_row_labels(ui::AppState& s) {
  const Trace& t = s.step.session.trace();
  const std::vector<view::LabelTexel> texels = s.step.buffers.read_labels();
  std::vector<std::string> out;
  for (int i = 0; i < t.n; ++i) out.push_back(view::unpack_label(texels.at(std::size_t(kRowMain * t.width + i))));
  return out;
}

TEST(RenderView, LabelsInTheGlBufferAreWhatTracePrints) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = float_app("1e30 0.001 -0.0 inf nan 1e-30 -inf 2.5");
  s.step.session.go(1);  // the copy of the input into buf
  ui::render_step_view(s, kW, kH);
  const std::vector<std::string> want = {"1e+30", "0.001", "-0", "inf", "nan", "1e-30", "-inf", "2.5"};
  EXPECT_EQ(main_row_labels(s), want);
  const Trace& t = s.step.session.trace();
  for (int i = 0; i < t.n; ++i) EXPECT_EQ(want[std::size_t(i)], format_word(t.row(1, kRowMain)[i], ElemType::F32));
  // Scrubbing rewrites the labels: after the first up-sweep level x[1] = 1e30 + 0.001, x[3] = -0 + inf,
  // x[5] = nan + 1e-30, x[7] = -inf + 2.5.
  s.step.session.go(2);
  ui::render_step_view(s, kW, kH);
  const std::vector<std::string> step1 = {"1e+30", "1e+30", "-0", "inf", "nan", "nan", "-inf", "-inf"};
  EXPECT_EQ(main_row_labels(s), step1);
  // Rows that are not drawn have no labels.
  const std::vector<view::LabelTexel> texels = s.step.buffers.read_labels();
  EXPECT_EQ(view::unpack_label(texels.at(std::size_t(kRowTouch * t.width))), "");
}

TEST(RenderView, GlyphsAreNotShearedAtFractionalPositions) {
  ASSERT_TRUE(headless_gl().ok());
  // "0" is a box: every one of its rows has ink in the left column. Widths that put the labels at
  // fractional pixels must not shift some rows of a glyph against the others, in any row: the
  // shared scan's one-block rows put a "0" in the middle of a strip as wide as the view.
  ui::AppState& s = app_for("scan-shared", 64, 32);
  s.step.session.go(3);
  const Trace& t = s.step.session.trace();
  int checked = 0;
  for (int w = 1000; w < 1020; ++w) {
    const view::ViewLayout l = view::layout_view(t, 3, {0, 0, float(w), float(kH)}, s.step.options);
    const auto px = ui::render_step_view(s, w, kH);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const bool bars = int(r) == t.steps[3].focus_row;
      if (!bars && l.row_y[r] < 0) continue;
      const int len = t.rows[r].element_space ? t.width : t.rows[r].length;
      const float y0 = bars ? l.label_y : l.row_y[r], h = bars ? l.label_h : l.strip_h, cell = l.bars.w / float(len);
      for (int i = 0; i < len && cell >= 8.f; ++i) {
        if (t.row(3, r)[i] != 0u || (t.rows[r].element_space && i >= t.n)) continue;
        std::set<int> left;
        for (int y = int(y0); y < int(y0 + h); ++y)
          for (int x = int(l.bars.x + i * cell) + 2; x < int(l.bars.x + (i + 1) * cell) - 2; ++x) {
            const unsigned char* p = &px[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
            // Light ink under the bars, dark in the strips.
            if (bars ? p[0] > 200 && p[1] > 200 : p[0] < 40 && p[1] < 40 && p[2] < 40) {
              left.insert(x);
              break;
            }
          }
        EXPECT_EQ(left.size(), 1u) << "width " << w << ", row " << t.rows[r].name << "[" << i << "]";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 20) << "too few zeros";
}

TEST(RenderView, LabelTexelsRoundTripAndCut) {
  for (const std::string& text : {std::string(), std::string("7"), std::string("-1.17549e-38"), std::string("4294967295")})
    EXPECT_EQ(view::unpack_label(view::pack_label(text)), text);
  EXPECT_EQ(view::unpack_label(view::pack_label("0123456789abcdefXYZ")), "0123456789abcdef");
}

TEST(RenderView, InfAndNaNBarsHaveTheirOwnColours) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = float_app("1e30 0.001 -0.0 inf nan 1e-30 -inf 2.5");
  const auto px = ui::render_step_view(s, kW, kH);
  const view::ViewLayout l = layout(s);
  // Bars 3 and 6 (inf, -inf) and 4 (NaN) fill the bars' height, striped half and half.
  const float cell = l.bars.w / 8.f;
  const float bar_px = (cell - 1.f) * l.bars.h;
  EXPECT_GT(count_in(px, kW, {l.bars.x + 3 * cell, l.bars.y, cell, l.bars.h}, kInf), std::size_t(bar_px * 0.4f));
  EXPECT_GT(count_in(px, kW, {l.bars.x + 6 * cell, l.bars.y, cell, l.bars.h}, kInf), std::size_t(bar_px * 0.4f));
  EXPECT_GT(count_in(px, kW, {l.bars.x + 4 * cell, l.bars.y, cell, l.bars.h}, kNaN), std::size_t(bar_px * 0.4f));
  EXPECT_EQ(count_in(px, kW, {l.bars.x + 4 * cell, l.bars.y, cell, l.bars.h}, kInf), 0u);
  EXPECT_EQ(count_in(px, kW, l.bars, to_rgb(view::op_colour(OpKind::Atomic))), 0u);
  // 1e30 is the tallest bar: it reaches the top of the bars.
  EXPECT_GT(count_in(px, kW, {l.bars.x, l.bars.y + 2, cell, 4}, kIdle), std::size_t(cell * 2));
}

TEST(RenderView, PerStepScaleShowsTheInputStepOfALargeScan) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = app_for("scan-blelloch", 4096, 256);
  s.step.session.go(1);  // the input copied into buf: every bar written
  const view::ViewLayout l = layout(s);
  const view::Rect low{l.bars.x, l.bars.y + l.bars.h * 0.75f, l.bars.w, l.bars.h * 0.25f - 1};
  const std::size_t area = std::size_t(low.w * low.h);
  EXPECT_GT(count_in(ui::render_step_view(s, kW, kH), kW, low, kWritten), area * 6 / 10);
  // On the whole trace's scale (the sums reach ~18000) the inputs 0..9 are a line of one pixel.
  s.step.options.scale_per_step = false;
  EXPECT_LT(count_in(ui::render_step_view(s, kW, kH), kW, low, kWritten), area / 10);
}

TEST(RenderView, BandsAndLinesOnlyWhereWideEnough) {
  ASSERT_TRUE(headless_gl().ok());
  // Block 4 at n = 4096: a block is 8 elements, 2 px. Neither its band nor its boundary is drawn.
  ui::AppState& s = app_for("scan-blelloch", 4096, 4);
  s.step.session.go(0);
  s.step.options.arrows = false;
  const Rgb band{51, 54, 66}, block_line{217, 217, 230};
  view::ViewLayout l = layout(s);
  const view::Rect above{l.bars.x, l.bars.y, l.bars.w, 8};  // the tallest bar is 9 of 9: most of this is background
  auto px = ui::render_step_view(s, kW, kH);
  EXPECT_EQ(count_in(px, kW, l.bars, block_line, 3), 0u);
  EXPECT_EQ(count_in(px, kW, l.bars, band, 2), 0u);
  // Zoomed to 64 elements (8 blocks of 135 px) both are back.
  s.step.options.window = {512.f, 64.f};
  l = layout(s);
  px = ui::render_step_view(s, kW, kH);
  EXPECT_GT(count_in(px, kW, {l.bars.x, l.bars.y, l.bars.w, l.bars.h}, block_line, 3), 7u * 2u * 8u);
  EXPECT_GT(count_in(px, kW, above, band, 2), 100u);
}

TEST(RenderView, ZoomWidensTheBarsAndTheOverviewMarksTheWindow) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = app_for("scan-blelloch", 4096, 256);
  s.step.session.go(0);
  s.step.options.window = {1000.f, 16.f};
  const view::ViewLayout l = layout(s);
  ASSERT_GT(l.overview.h, 0.f);
  const auto px = ui::render_step_view(s, kW, kH);
  // The window's edges in the overview, where elements 1000 and 1016 fall.
  const Rgb edge{242, 242, 255};
  for (float e : {1000.f, 1016.f}) {
    const float x = l.overview.x + e / 4096.f * l.overview.w;
    EXPECT_GT(count_in(px, kW, {x - 2, l.overview.y, 4, l.overview.h}, edge, 4), std::size_t(l.overview.h * 0.8f)) << e;
  }
  // 16 elements across the bars: the bottom pixel row is 16 idle runs of about bars.w / 16 px.
  const float y = l.bars.y + l.bars.h - 1;
  int runs = 0, run = 0, longest = 0;
  for (int x = int(l.bars.x); x < int(l.bars.x + l.bars.w); ++x) {
    const unsigned char* p = &px[(std::size_t(y) * kW + std::size_t(x)) * 4];
    const bool idle = std::abs(p[0] - kIdle.r) <= 6 && std::abs(p[1] - kIdle.g) <= 6 && std::abs(p[2] - kIdle.b) <= 6;
    if (idle && run++ == 0) ++runs;
    if (!idle) run = 0;
    longest = std::max(longest, run);
  }
  EXPECT_EQ(runs, 16);
  EXPECT_GT(longest, int(l.bars.w / 16.f) - 4);
  // And the labels of the window fit: element 1000's label is under its bar.
  EXPECT_GT(count_in(px, kW, {l.bars.x, l.label_y, l.bars.w / 16.f, l.label_h}, {235, 235, 242}, 8), 5u);
}

TEST(RenderView, ArrowsOnlyWhereElementsAreWideEnough) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = app_for("scan-blelloch", 4096, 256);
  s.step.session.go(2);  // up-sweep d=1: 2048 adds
  const Rgb add = to_rgb(view::op_colour(OpKind::Add));
  view::ViewLayout l = layout(s);
  const view::Rect arcs{l.bars.x, l.bars.y - 40, l.bars.w, l.bars.h + 40};
  EXPECT_EQ(count_in(ui::render_step_view(s, kW, kH), kW, arcs, add, 30), 0u);
  s.step.options.window = {0.f, 32.f};
  EXPECT_GT(count_in(ui::render_step_view(s, kW, kH), kW, arcs, add, 30), 400u);
}

TEST(RenderView, BinsWrittenByAtomicsAreDrawnWritten) {
  ASSERT_TRUE(headless_gl().ok());
  // The trace's touch row covers element rows only; the bins' flags come from the step's ops.
  ui::AppState& s = app_for("histogram-atomic", 64, 32);
  s.step.session.go(1);
  const Trace& t = s.step.session.trace();
  const int bins = t.steps[1].focus_row;
  ASSERT_FALSE(t.rows[std::size_t(bins)].element_space);
  const std::vector<std::uint32_t> touch =
      view::step_touch(t, t.row(1, 0), t.ops.data() + t.steps[1].op_begin, std::size_t(t.steps[1].op_count()));
  for (int b = 0; b < t.rows[std::size_t(bins)].length; ++b)
    EXPECT_EQ(touch[std::size_t(bins * t.width + b)], t.row(1, std::size_t(bins))[b] ? 3u : 0u) << "bin " << b;
  const auto px = ui::render_step_view(s, kW, kH);
  const view::ViewLayout l = layout(s);
  EXPECT_GT(count_in(px, kW, l.bars, kWritten), std::size_t(l.bars.w * l.bars.h * 0.2f));
  EXPECT_EQ(l.overview.h, 0.f);  // bins have no window to show
}

TEST(RenderView, HoverHighlightsTheArrowsThatTouchTheElement) {
  ASSERT_TRUE(headless_gl().ok());
  // scan-blelloch n=16 block 4, step 3 (x[k+7] += x[k+3]): thread 0 adds x[3] into x[7], thread 1
  // x[11] into x[15]; nobody touches element 4 (whose "home thread" 4 / 2 = 2 is idle).
  ui::AppState& s = app_for("scan-blelloch", 16, 4);
  s.step.session.go(3);
  ui::render_app(s, 1366, 768);
  ui::StepPane& p = s.step;
  const view::Rect rect{0, 0, float(p.fb.width()), float(p.fb.height())};
  const view::ViewLayout l = view::layout_view(s.step.session.trace(), 3, rect, p.options);
  const float cell = l.bars.w / 16.f;
  // The highlighted arcs' pixels over the bars between two elements (the tooltip opens below the
  // mouse, which stays at the bars' foot).
  auto hover = [&](int element, int from, int to) {
    ImGui::GetIO().MousePos = ImVec2(p.image_x + l.bars.x + (element + 0.5f) * cell, p.image_y + l.bars.y + l.bars.h - 2);
    const auto px = ui::render_app(s, 1366, 768, 3);
    EXPECT_EQ(p.options.highlight_index, element);
    const view::Rect arcs{p.image_x + l.bars.x + from * cell, p.image_y + l.arcs_y, (to - from + 1) * cell,
                          l.bars.y + l.bars.h - 8 - l.arcs_y};
    return count_in(px, 1366, arcs, {213, 213, 213}, 14);  // kHovered at alpha 0.9, through the ImGui image
  };
  EXPECT_GT(hover(7, 3, 7), 50u);
  EXPECT_EQ(hover(7, 11, 15), 0u);  // the other thread's arc stays in its colour
  EXPECT_GT(hover(15, 11, 15), 50u);
  EXPECT_EQ(hover(4, 0, 15), 0u);
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ui::render_app(s, 1366, 768);
}

TEST(RenderView, WheelZoomsAroundTheMouseDragPansDoubleClickShowsAll) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = app_for("scan-blelloch", 4096, 256);
  ui::render_app(s, 1366, 768);
  ui::StepPane& p = s.step;
  const view::Rect rect{0, 0, float(p.fb.width()), float(p.fb.height())};
  const view::ViewLayout l = view::layout_view(s.step.session.trace(), s.step.session.transport.step, rect, p.options);
  ImGuiIO& io = ImGui::GetIO();
  // The wheel over element 1024 zooms in around it.
  const ImVec2 at(p.image_x + l.bars.x + l.bars.w / 4.f, p.image_y + l.bars.y + l.bars.h / 2);
  io.MousePos = at;
  ui::render_app(s, 1366, 768, 1);
  io.MouseWheel = 3.f;
  ui::render_app(s, 1366, 768, 1);
  const view::ViewWindow zoomed = p.options.window;
  EXPECT_NEAR(zoomed.count, 4096.f * 0.512f, 1.f);  // 0.8^3
  EXPECT_NEAR(view::element_at(zoomed, 4096, l.bars.x, l.bars.w, l.bars.x + l.bars.w / 4.f), 1024.f, 1.f);
  // Dragging 100 px to the right shows elements further left.
  io.MouseDown[0] = true;
  ui::render_app(s, 1366, 768, 1);
  io.MousePos = ImVec2(at.x + 100, at.y);
  ui::render_app(s, 1366, 768, 1);
  io.MouseDown[0] = false;
  ui::render_app(s, 1366, 768, 1);
  EXPECT_NEAR(p.options.window.first, zoomed.first - 100.f / l.bars.w * zoomed.count, 1.f);
  // A double-click shows the whole row again.
  for (int click = 0; click < 2; ++click) {
    io.MouseDown[0] = true;
    ui::render_app(s, 1366, 768, 1);
    io.MouseDown[0] = false;
    ui::render_app(s, 1366, 768, 1);
  }
  EXPECT_TRUE(view::whole_row(p.options.window, 4096));
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ui::render_app(s, 1366, 768);
}

TEST(RenderView, AStepOfATraceOnlyInTheBuffersIsReadBack) {
  ASSERT_TRUE(headless_gl().ok());
  // The CUDA backend leaves the values and ops in the GL buffers only; the view reads the shown
  // step back for its labels, ranges and the bins' touch flags. Same buffers, metadata only: same
  // pixels as from the host trace.
  ui::AppState& s = app_for("histogram-atomic", 64, 32);
  Trace meta = s.step.session.trace();
  meta.values = {};
  meta.ops = {};
  for (int step : {1, 0, 1}) {
    const auto host = headless::render_view(s.view.view, s.step.session.trace(), s.step.buffers, step, {}, kW, kH);
    const std::vector<view::LabelTexel> host_labels = s.step.buffers.read_labels();
    s.step.buffers.prepare_step(meta, 1 - step);  // another step, so that the next draw prepares anew
    const auto device = headless::render_view(s.view.view, meta, s.step.buffers, step, {}, kW, kH);
    EXPECT_EQ(s.step.buffers.read_labels(), host_labels) << "step " << step;
    EXPECT_EQ(device, host) << "step " << step;
  }
}

TEST(RenderView, PaletteColoursAreTellable) {
  auto dist = [](const view::Colour& a, const view::Colour& b) {
    return std::sqrt((a.r - b.r) * (a.r - b.r) + (a.g - b.g) * (a.g - b.g) + (a.b - b.b) * (a.b - b.b));
  };
  EXPECT_GT(dist(view::kWritten.colour, view::op_colour(OpKind::CompareSwap).colour), 0.5f);
  EXPECT_GT(dist(view::kNetUp.colour, view::kNetDown.colour), 0.5f);
  const view::PaletteEntry bars[] = {view::kIdle, view::kRead, view::kWritten, view::kPadding, view::kInf, view::kNaN};
  for (const auto& a : bars)
    for (const auto& b : bars)
      if (&a != &b) EXPECT_GT(dist(a.colour, b.colour), 0.3f) << a.name << " / " << b.name;
  for (OpKind a : {OpKind::Read, OpKind::Write, OpKind::Add, OpKind::Move, OpKind::CompareSwap, OpKind::Atomic})
    for (OpKind b : {OpKind::Read, OpKind::Write, OpKind::Add, OpKind::Move, OpKind::CompareSwap, OpKind::Atomic})
      if (a != b) EXPECT_GT(dist(view::op_colour(a).colour, view::op_colour(b).colour), 0.25f) << op_kind_name(a) << " / " << op_kind_name(b);
}

}  // namespace
