// Issue 25 (items 4, 5, 6, 8), checked against the trace: the tagged histogram's bars are counts and
// its written bins red, with labels when zoomed in; padding squeezed and hatched beside the real
// elements; value labels drawn a whole row at one size or not at all, never under an arrow; the
// down-sweep's move and add as two arrows inside their room; the network panel's passes.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <map>
#include <set>

#include "lab/model/input.h"
#include "render_test_util.h"
#include "view/step_labels.h"

using namespace primlab;
using namespace primlab::testing;

namespace {

constexpr Rgb kInk{235, 235, 242};  // labels under the bars (trace_view.cpp's u_ink)

ui::AppState& typed_app(const std::string& algo, const std::string& typed, int block, ElemType type = ElemType::I32) {
  static ui::AppState* s = nullptr;
  delete s;
  s = new ui::AppState;
  ui::StepChoice& c = s->step.session.choice;
  c.algo = algo;
  c.cfg.type = type;
  c.cfg.block = block;
  c.input = InputKind::Typed;
  c.typed = typed;
  EXPECT_TRUE(ui::init_app(*s)) << s->view.error << s->step.session.message;
  EXPECT_TRUE(s->step.session.has_trace()) << s->step.session.message;
  return *s;
}

view::ViewLayout layout_at(ui::AppState& s, int w, int h) {
  return view::layout_view(s.step.session.trace(), s.step.session.transport.step, {0, 0, float(w), float(h)},
                           s.step.options);
}

int step_of_phase(const Trace& t, const std::string& phase) {
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].phase == phase) return int(s);
  return -1;
}

std::size_t op_pixels(const std::vector<unsigned char>& px, int w, const view::Rect& r) {
  std::size_t n = 0;
  for (OpKind k : {OpKind::Read, OpKind::Write, OpKind::Add, OpKind::Move, OpKind::CompareSwap, OpKind::Atomic})
    n += count_in(px, w, r, to_rgb(view::op_colour(k)), 30);
  return n;
}

const char* kLectureWords =
    "543516788 1667855729 1919033451 544110447 544763750 1886221674 1986994291 1948283493 1814062440 544832097 "
    "543649636 1818847351 1752440933 1633886309 1819484276 1936745829 544108320 1635197025 1830841714 1646294113 "
    "1752440953 1886330981 1679847013 779251567 538976288 538976288 538976288 538976288 538976288 538976288 "
    "538976288 538976288";

// The tagged histogram over the lecture's bytes, at its step that counts them.
ui::AppState& tagged_bytes_counting() {
  ui::AppState& s = typed_app("histogram-tagged-bytes", kLectureWords, 32, ElemType::U32);
  const int step = step_of_phase(s.step.session.trace(), "count");
  EXPECT_GT(step, 0);
  s.step.session.go(step);
  return s;
}

TEST(RenderReadable, PaddedAxisSqueezesPaddingIntoAThirdOfTheRealElements) {
  const view::Axis a = view::padded_axis(3, 125);
  EXPECT_FLOAT_EQ(a.units(), 4.f);
  EXPECT_EQ(a.cells(), 128);
  for (float i : {0.f, 2.5f, 3.f, 40.f, 128.f}) EXPECT_NEAR(a.cell_of(a.unit_of(i)), i, 1e-3f) << i;
  EXPECT_FLOAT_EQ(a.unit_of(128.f), 4.f);
  const view::Axis b = view::padded_axis(5, 3);
  EXPECT_NEAR(b.pad_units, 5.f / 3.f, 1e-5f);
  const view::Axis none = view::padded_axis(64, 0);
  EXPECT_FLOAT_EQ(none.units(), 64.f);
  EXPECT_FLOAT_EQ(none.unit_of(10.f), 10.f);
  // Padding no bigger than a third stays one unit a cell.
  EXPECT_FLOAT_EQ(view::padded_axis(12, 4).units(), 16.f);
}

TEST(RenderReadable, TaggedHistogramBarsAreCountsWrittenBinsRedLabelsWhenZoomed) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = tagged_bytes_counting();
  const Trace& t = s.step.session.trace();
  const int step = s.step.session.transport.step;
  const int words = t.steps[std::size_t(step)].focus_row;
  ASSERT_EQ(t.rows[std::size_t(words)].kind, RowKind::TagCount);
  constexpr int W = 1200, H = 700;
  auto px = ui::render_step_view(s, W, H);
  // The bars' scale is the counts' (the spaces' bin 32 holds 52), not the tagged words'.
  const std::uint32_t* word = t.row(std::size_t(step), std::size_t(words));
  std::uint32_t most = 0;
  for (int b = 0; b < 256; ++b) most = std::max(most, word[b] & 0x07FFFFFFu);
  EXPECT_EQ(most, 52u);
  EXPECT_EQ(view::bar_range(s.step.buffers, std::size_t(words), s.step.options).hi, 52.f);
  // A bin is red exactly where the step's atomics wrote it (its count changed).
  view::ViewLayout l = layout_at(s, W, H);
  const std::uint32_t* before = t.row(std::size_t(step - 1), std::size_t(words));
  const float cell = l.bars.w / 256.f;
  int written = 0;
  for (int b = 0; b < 256; ++b) {
    const view::Rect col{std::floor(l.bars.x + (b + 0.5f) * cell), l.bars.y, 1, l.bars.h};  // the bin's middle column
    const bool changed = word[b] != before[b];
    written += changed;
    if (changed) EXPECT_GT(count_in(px, W, col, kWritten), 0u) << "bin " << b;
    else EXPECT_EQ(count_in(px, W, col, kWritten), 0u) << "bin " << b;
  }
  EXPECT_GT(written, 10);
  // 256 bins in 1000 px: no room for "t16|52"; zoomed by the wheel's window to 8 bins, every label.
  auto focus_labels = [&] {
    std::map<int, std::string> m;
    for (const view::ValueLabel& v : view::value_labels(t, step, l, s.step.options, s.step.buffers))
      if (v.row == words) m[v.index] = v.text;
    return m;
  };
  EXPECT_TRUE(focus_labels().empty());
  s.step.options.window = {28.f, 8.f};
  l = layout_at(s, W, H);
  px = ui::render_step_view(s, W, H);
  const std::map<int, std::string> shown = focus_labels();
  for (int b = 28; b < 36; ++b) EXPECT_EQ(shown.count(b), 1u) << "bin " << b;
  EXPECT_EQ(shown.at(32), format_cell(word[32], t.rows[std::size_t(words)]));
  EXPECT_EQ(shown.at(32).substr(shown.at(32).find('|')), "|52");
  for (const view::ValueLabel& v : view::value_labels(t, step, l, s.step.options, s.step.buffers))
    if (v.row == words) EXPECT_GT(count_in(px, W, v.box, kInk, 8), 4u) << v.text;
  // The zoomed bars: bin 32 alone, the full height.
  EXPECT_EQ(view::cell_at(t, step, l, std::size_t(words), l.bars.x + 4.5f * l.bars.w / 8.f), 32);
}

// A window that starts half-way into bin 28 and ends half-way into bin 36: the labels of the two cut
// bins are left out, in the view's list and in the pixels, and every label drawn is whole.
TEST(RenderReadable, ALabelTheBarsEdgeWouldCutIsNotDrawn) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = tagged_bytes_counting();
  const Trace& t = s.step.session.trace();
  const int step = s.step.session.transport.step;
  const int words = t.steps[std::size_t(step)].focus_row;
  constexpr int W = 1200, H = 700;
  s.step.options.window = {28.5f, 8.f};
  const view::ViewLayout l = layout_at(s, W, H);
  const auto px = ui::render_step_view(s, W, H);
  std::set<int> shown;
  for (const view::ValueLabel& v : view::value_labels(t, step, l, s.step.options, s.step.buffers)) {
    EXPECT_GE(v.box.x, l.bars.x) << v.text;
    EXPECT_LE(v.box.x + v.box.w, l.bars.x + l.bars.w) << v.text;
    if (v.row == words) shown.insert(v.index);
  }
  EXPECT_EQ(shown, (std::set<int>{29, 30, 31, 32, 33, 34, 35}));
  const float half = std::floor(0.5f * l.bars.w / 8.f);
  const view::Rect first{l.bars.x, l.label_y, half, l.label_h};
  const view::Rect last{l.bars.x + l.bars.w - half, l.label_y, half, l.label_h};
  EXPECT_EQ(count_in(px, W, first, kInk, 8), 0u) << "bin 28's label, cut";
  EXPECT_EQ(count_in(px, W, last, kInk, 8), 0u) << "bin 36's label, cut";
  const view::Rect middle{l.bars.x + half + 2.f, l.label_y, l.bars.w - 2.f * half - 4.f, l.label_h};
  EXPECT_GT(count_in(px, W, middle, kInk, 8), 50u) << "the whole labels";
}

TEST(RenderReadable, TheWheelZoomsTheBinsAroundTheMouse) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = tagged_bytes_counting();
  const int step = s.step.session.transport.step;
  ui::render_app(s, 1366, 768);
  ui::StepPane& p = s.step;
  const Trace& t = s.step.session.trace();
  const view::Rect rect{0, 0, float(p.fb.width()), float(p.fb.height())};
  const view::ViewLayout l = view::layout_view(t, step, rect, p.options);
  ASSERT_FALSE(t.rows[std::size_t(t.steps[std::size_t(step)].focus_row)].element_space);
  ImGuiIO& io = ImGui::GetIO();
  // Over bin 32, the wheel three notches in: 256 * 0.8^3 bins across, bin 32 still under the mouse.
  const float x = l.bars.x + 32.5f / 256.f * l.bars.w;
  io.MousePos = ImVec2(p.image_x + x, p.image_y + l.bars.y + l.bars.h / 2);
  ui::render_app(s, 1366, 768, 1);
  io.MouseWheel = 3.f;
  ui::render_app(s, 1366, 768, 1);
  EXPECT_NEAR(p.options.window.count, 256.f * 0.512f, 0.5f);
  const view::ViewLayout z = view::layout_view(t, step, rect, p.options);
  EXPECT_EQ(view::cell_at(t, step, z, std::size_t(t.steps[std::size_t(step)].focus_row), x), 32);
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ui::render_app(s, 1366, 768);
}

TEST(RenderReadable, PaddingIsSqueezedHatchedAndLeftOutOfTheLabels) {
  ASSERT_TRUE(headless_gl().ok());
  // Five keys in a scan of m = 8: three pads take at most a third of the five real elements' width.
  ui::AppState& s = typed_app("scan-blelloch", "3 1 7 0 4", 4);
  s.step.session.go(1);
  constexpr int W = 1000, H = 500;
  const auto px = ui::render_step_view(s, W, H);
  const view::ViewLayout l = layout_at(s, W, H);
  EXPECT_EQ(l.axis.real, 5);
  EXPECT_EQ(l.axis.padding, 3);
  ASSERT_GT(l.padding.w, 0.f);
  const float real_w = l.bars.w * 5.f / l.axis.units();
  EXPECT_NEAR(l.padding.x, l.bars.x + real_w, 1.f);
  EXPECT_LE(l.padding.w, real_w / 3.f + 1.f);
  EXPECT_GT(count_in(px, W, l.padding, kPadding, 4), std::size_t(l.padding.w * l.padding.h * 0.3f));
  const Trace& t = s.step.session.trace();
  for (int i = 0; i < 8; ++i) {
    const float x = i < 5 ? l.bars.x + (i + 0.5f) * real_w / 5.f : l.padding.x + (i - 5 + 0.5f) * l.padding.w / 3.f;
    EXPECT_EQ(view::cell_at(t, 1, l, kRowMain, x), i);
  }
  int labels = 0;
  for (const view::ValueLabel& v : view::value_labels(t, 1, l, s.step.options, s.step.buffers))
    if (v.row == kRowMain) {
      EXPECT_LT(v.index, 5) << v.text;
      ++labels;
    }
  EXPECT_EQ(labels, 5);
  // Three keys on eight GPUs: rows of 128 bins, but the elements are three, and fill the bars.
  ui::AppState& d = app_for("distributed-sort", 3, 8);
  const view::ViewLayout dl = layout_at(d, W, H);
  EXPECT_EQ(dl.padding.w, 0.f);
  EXPECT_EQ(dl.axis.cells(), 3);
  EXPECT_EQ(view::cell_at(d.step.session.trace(), d.step.session.transport.step, dl, kRowMain, dl.bars.x + dl.bars.w * 0.9f), 2);
}

TEST(RenderReadable, ARowsLabelsAreAllDrawnAtOneSizeOrNone) {
  ASSERT_TRUE(headless_gl().ok());
  // reduce1 at n = 64 after its first level: one- and two-digit sums under the bars.
  ui::AppState& s = app_for("reduce1", 64, 64);
  s.step.session.go(2);
  const Trace& t = s.step.session.trace();
  for (int W : {700, 900, 1400}) {
    const int H = 500;
    const auto px = ui::render_step_view(s, W, H);
    const view::ViewLayout l = layout_at(s, W, H);
    const std::vector<view::ValueLabel> labels = view::value_labels(t, 2, l, s.step.options, s.step.buffers);
    std::map<int, std::vector<view::ValueLabel>> by_row;
    for (const view::ValueLabel& v : labels) by_row[v.row].push_back(v);
    const std::vector<view::LabelTexel>& texels = s.step.buffers.step_label_texels();
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const bool focus = int(r) == t.steps[2].focus_row;
      if (!focus && l.row_y[r] < 0) continue;
      int texts = 0;
      for (int i = 0; i < std::min(t.rows[r].length, t.width); ++i)
        texts += !view::unpack_label(texels[r * std::size_t(t.width) + std::size_t(i)]).empty();
      const std::vector<view::ValueLabel>& drawn = by_row[int(r)];
      EXPECT_TRUE(drawn.empty() || int(drawn.size()) == texts) << "width " << W << " row " << t.rows[r].name << ": "
                                                               << drawn.size() << " of " << texts;
      for (std::size_t k = 0; k < drawn.size(); ++k) {
        EXPECT_EQ(drawn[k].box.h, drawn[0].box.h) << drawn[k].text;  // one size a row
        EXPECT_GT(count_in(px, W, drawn[k].box, focus ? kInk : Rgb{13, 13, 26}, 10), 0u) << drawn[k].text;
        // Neighbours are two glyph columns and 2 px apart at least.
        if (k > 0) EXPECT_GE(drawn[k].box.x - (drawn[k - 1].box.x + drawn[k - 1].box.w), 2 * drawn[k].box.h / 5 + 1);
      }
      // No ink under the bars outside the labels the host says are drawn.
      if (focus) {
        std::size_t inside = 0;
        for (const view::ValueLabel& v : drawn) inside += count_in(px, W, v.box, kInk, 10);
        EXPECT_EQ(count_in(px, W, {l.bars.x, l.label_y, l.bars.w, l.label_h}, kInk, 10), inside) << "width " << W;
      }
    }
    if (W == 700) EXPECT_TRUE(by_row[t.steps[2].focus_row].empty()) << "two digits fit 8.9 px?";
    if (W == 1400) EXPECT_EQ(by_row[t.steps[2].focus_row].size(), 64u);
  }
}

TEST(RenderReadable, ArrowsPassUnderTheLabels) {
  ASSERT_TRUE(headless_gl().ok());
  struct Case {
    const char* algo;
    int n, block;
    const char* phase;
  } cases[] = {{"reduce1", 16, 16, "pass 1"}, {"bitonic-sort", 16, 4, "load"}, {"radix-split", 16, 8, "scatter"},
               {"scan-blelloch", 8, 4, "down-sweep"}};
  for (const Case& c : cases) {
    ui::AppState& s = app_for(c.algo, c.n, c.block);
    const Trace& t = s.step.session.trace();
    int step = -1;
    for (std::size_t k = 0; k < t.steps.size() && step < 0; ++k)
      if (t.steps[k].phase.find(c.phase) != std::string::npos && t.steps[k].op_count() > 0) step = int(k);
    ASSERT_GE(step, 0) << c.algo << " has no " << c.phase << " step";
    s.step.session.go(step);
    constexpr int W = 1000, H = 600;
    const auto px = ui::render_step_view(s, W, H);
    const view::ViewLayout l = layout_at(s, W, H);
    const std::vector<view::ValueLabel> labels = view::value_labels(t, step, l, s.step.options, s.step.buffers);
    EXPECT_FALSE(labels.empty()) << c.algo;
    for (const view::ValueLabel& v : labels)
      EXPECT_EQ(op_pixels(px, W, v.box), 0u) << c.algo << " step " << step << ": an arrow over " << v.text;
    // The arrows are drawn, and where they cross the labels' line they pass between the labels.
    const std::vector<unsigned char> none = [&] {
      s.step.options.arrows = false;
      auto p = ui::render_step_view(s, W, H);
      s.step.options.arrows = true;
      return p;
    }();
    EXPECT_GT(op_pixels(px, W, {0, 0, float(W), float(H)}), op_pixels(none, W, {0, 0, float(W), float(H)}) + 40) << c.algo;
  }
}

TEST(RenderReadable, TheDownSweepsMoveAndAddAreTwoArrowsInsideTheirRoom) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = typed_app("scan-blelloch", "3 1 7 0 4 1 6 3", 4);
  const Trace& t = s.step.session.trace();
  constexpr int W = 1000, H = 500;
  const Rgb move = to_rgb(view::op_colour(OpKind::Move)), add = to_rgb(view::op_colour(OpKind::Add));
  for (std::size_t step = 0; step < t.steps.size(); ++step) {
    if (t.steps[step].phase != "down-sweep") continue;
    s.step.session.go(int(step));
    const auto px = ui::render_step_view(s, W, H);
    const view::ViewLayout l = layout_at(s, W, H);
    const view::Rect room{l.bars.x, l.arcs_y, l.bars.w, l.bars.y + l.bars.h - l.arcs_y};
    // Every pair the step swaps shows a move and an add, each its own arc.
    EXPECT_GT(count_in(px, W, room, move, 30), 40u) << t.steps[step].label;
    EXPECT_GT(count_in(px, W, room, add, 30), 40u) << t.steps[step].label;
    // Their tops stay in the room above the bars.
    EXPECT_EQ(op_pixels(px, W, {0, 0, float(W), l.arcs_y}), 0u) << t.steps[step].label;
  }
  // With the overview above (n = 64), the root's arc across 32 elements stays under it.
  ui::AppState& big = app_for("scan-blelloch", 64, 32);
  const Trace& bt = big.step.session.trace();
  const int root = step_of_phase(bt, "down-sweep");
  ASSERT_GT(root, 0);
  big.step.session.go(root);
  for (int h : {H, 260}) {  // 260: the arcs' rise is more than their room
    const auto px = ui::render_step_view(big, W, h);
    const view::ViewLayout l = layout_at(big, W, h);
    ASSERT_GT(l.overview.h, 0.f);
    const float gap = l.overview.y + l.overview.h + 1;
    EXPECT_EQ(op_pixels(px, W, {l.bars.x, gap, l.bars.w, l.arcs_y - gap}), 0u) << "height " << h;
    EXPECT_GT(op_pixels(px, W, {l.bars.x, l.arcs_y, l.bars.w, l.bars.y - l.arcs_y}), 200u) << "height " << h;
  }
}

TEST(RenderReadable, TheNetworkPanelNamesItsPassesAndShowsThemAll) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = app_for("bitonic-sort", 8, 4);
  const Trace& t = s.step.session.trace();
  constexpr int W = 1000, H = 700;
  int pass = -1;
  for (std::size_t k = 0; k < t.steps.size(); ++k)
    if (t.steps[k].label.rfind("size 4, stride 1", 0) == 0) pass = int(k);
  ASSERT_GE(pass, 0);
  s.step.session.go(pass);
  const auto px = ui::render_step_view(s, W, H);
  const view::ViewLayout l = layout_at(s, W, H);
  const std::vector<view::NetworkPass> net = view::network_passes(t, pass, l.network);
  // N = 8: log N (log N + 1) / 2 = 6 passes in stages of 1, 2 and 3 passes, top down in step order.
  ASSERT_EQ(net.size(), 6u);
  std::vector<std::string> stages;
  for (const view::NetworkPass& p : net)
    if (p.stage_start) stages.push_back(p.stage);
  EXPECT_EQ(stages, (std::vector<std::string>{"size 2", "size 4", "final merge"}));
  EXPECT_EQ(net[2].pass, "stride 1");
  EXPECT_TRUE(net[2].current);
  EXPECT_NEAR(net[2].h, 4.f * net[0].h, 0.01f);
  EXPECT_NEAR(net.front().y, l.network.y, 0.01f);
  EXPECT_NEAR(net.back().y + net.back().h, l.network.y + l.network.h, 0.5f);
  for (std::size_t k = 1; k < net.size(); ++k) EXPECT_NEAR(net[k].y, net[k - 1].y + net[k - 1].h, 0.01f);
  // The passes before and after the current one are drawn plainly, not as faint ghosts.
  for (std::size_t k : {std::size_t(0), std::size_t(5)}) {
    std::size_t bright = 0;
    const int w = W, y0 = int(net[k].y), y1 = int(net[k].y + net[k].h);
    for (int y = y0; y < y1; ++y)
      for (int x = int(l.network.x); x < int(l.network.x + l.network.w); ++x) {
        const unsigned char* p = &px[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
        bright += std::max({p[0], p[1], p[2]}) > 140;
      }
    EXPECT_GT(bright, 60u) << "pass " << k;
  }
}

}  // namespace
