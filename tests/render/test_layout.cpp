// The app's texts laid out at the screens the issue names (1024x768, render's 1280x800, 1366x768):
// none overlaps another, leaves the frame or is cut (ui/labels.h records every text the view, the
// strips, the headers, the legends, the counter tables, the bank panel and the code panels draw),
// on the Step tab with and without the bank panel for every row of the catalog, and on the Race
// for every row, drawn headless as `render` draws them. And the race `render --race` starts:
// --block sets both sides.
#include <gtest/gtest.h>

#include <sstream>

#include "model/presets.h"
#include "render_test_util.h"
#include "ui/labels.h"

using namespace primlab;
using namespace primlab::testing;

namespace {

struct Screen {
  int w, h;
};
constexpr Screen kScreens[] = {{1024, 768}, {1280, 800}, {1366, 768}};

// What is wrong with the last frame's texts, one line each ("" when nothing is).
std::string text_problems(int w, int h) {
  std::ostringstream out;
  const std::vector<ui::TextLabel>& l = ui::labels();
  auto name = [](const ui::TextLabel& t) {
    std::ostringstream s;
    s << "'" << t.text << "' [" << t.x0 << "," << t.y0 << " " << t.x1 << "," << t.y1 << "]";
    return s.str();
  };
  for (const ui::TextLabel& t : l)
    if (t.x0 < -kTextSlack || t.y0 < -kTextSlack || t.x1 > float(w) + kTextSlack || t.y1 > float(h) + kTextSlack)
      out << "leaves the frame: " << name(t) << "\n";
  for (const ui::TextLabel& t : ui::clipped_labels()) out << "cut: " << name(t) << "\n";
  for (std::size_t i = 0; i < l.size(); ++i)
    for (std::size_t j = i + 1; j < l.size(); ++j)
      if (texts_overlap(l[i], l[j])) out << "overlap: " << name(l[i]) << " and " << name(l[j]) << "\n";
  // The first lines and a count, as tests/gui/label_check.py reports them.
  std::istringstream all(out.str());
  std::string line, head;
  int lines = 0;
  while (std::getline(all, line))
    if (++lines <= 8) head += line + "\n";
  if (lines > 8) head += "... and " + std::to_string(lines - 8) + " more\n";
  return head;
}

ui::AppState& preset_app(const std::string& preset, int step) {
  static ui::AppState* s = nullptr;
  delete s;
  s = new ui::AppState;
  ui::StepOptions o;
  o.preset = preset;
  EXPECT_TRUE(ui::resolve_step_options(o, s->step.session.choice).ok());
  EXPECT_TRUE(ui::init_app(*s)) << s->view.error;
  s->step.session.go(step);
  return *s;
}

TEST(Layout, StepTabTextsFitWithAndWithoutTheBankPanel) {
  ASSERT_TRUE(headless_gl().ok());
  for (const char* preset : {"shared-scan-bank-conflicts", "lecture-reduce1", "blelloch-8", "distributed-zipf"})
    for (bool banks : {false, true})
      for (const Screen& sc : kScreens) {
        ui::AppState& s = preset_app(preset, 3);
        s.step.banks_open = banks;
        ui::render_app(s, sc.w, sc.h, 3);
        EXPECT_FALSE(ui::labels().empty());
        EXPECT_EQ(text_problems(sc.w, sc.h), "") << preset << (banks ? " with the bank panel" : "") << " at " << sc.w
                                                 << "x" << sc.h;
      }
}

// What the frame of `s` drawn at w x h shows wrong ("" when nothing).
std::string frame_problems(ui::AppState& s, int w, int h) {
  ui::render_app(s, w, h, 2);
  if (ui::labels().empty()) return "no text recorded";
  return text_problems(w, h);
}

// Every row of the catalog at every step on the smallest screen, at n = 16 (one tile: the
// explanations of a lone block) and n = 64, without and with the bank panel (the step's label and
// explanation, the strips and the panel change from step to step), and at its first and last steps
// on the other screens. The code panels' lines are labels too, so a text drawn over the listing
// fails as an overlap.
TEST(Layout, EveryAlgorithmsStepsFitOnEveryScreen) {
  ASSERT_TRUE(headless_gl().ok());
  for (const Algorithm& a : algorithms())
    for (int n : {16, 64}) {
      ui::AppState& s = app_for(a.name, std::min(n, a.max_n), std::clamp(8, a.min_block, a.max_block));
      ASSERT_TRUE(s.step.session.has_trace()) << a.name;
      const int last = s.step.session.last_step();
      for (const Screen& sc : kScreens)
        for (int step = 0; step <= last; ++step) {
          if (sc.w != 1024 && (n != 64 || (step != 0 && step != last))) continue;
          for (bool banks : {false, true}) {
            s.step.session.go(step);
            s.step.banks_open = banks;
            EXPECT_EQ(frame_problems(s, sc.w, sc.h), "")
                << a.name << " n=" << n << " step " << step << "/" << last << (banks ? " with the bank panel" : "")
                << " at " << sc.w << "x" << sc.h;
          }
        }
    }
}

// The view keeps showing whole rows from step to step when the focus row changes axis: radix-onesweep
// steps from the keys (16 real and squeezed padding) to s_hist's 32 bins, which were shown zoomed to
// their first 21 (the keys' units), the last bin's label cut by the bars' edge.
TEST(Layout, AFocusRowOfAnotherAxisIsShownWhole) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = app_for("radix-onesweep", 16, 32);
  const Trace& t = s.step.session.trace();
  auto units = [&](int step) { return view::row_axis(t, std::size_t(t.steps[std::size_t(step)].focus_row)).units(); };
  ASSERT_NE(units(0), units(1));
  s.step.session.go(0);
  EXPECT_EQ(frame_problems(s, 1024, 768), "");
  s.step.session.go(1);
  EXPECT_EQ(frame_problems(s, 1024, 768), "");
  EXPECT_TRUE(view::whole_row(s.step.options.window, units(1)))
      << s.step.options.window.first << " + " << s.step.options.window.count << " of " << units(1);
}

// Every row of the catalog in the Race on the smallest screen, against the next row of its family
// (the last against the first; a family of one against itself), opened as `--race A,B` opens it
// (at a size where the two differ): its first steps, the middle and the last. A's strips must not
// run into B's header, nor B's into the code panels.
TEST(Layout, EveryAlgorithmRacesOnTheSmallestScreen) {
  ASSERT_TRUE(headless_gl().ok());
  const std::vector<Algorithm>& all = algorithms();
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::size_t j = i;
    for (std::size_t k = 1; k <= all.size(); ++k) {
      const std::size_t next = (i + k) % all.size();
      if (std::string(all[next].family) == all[i].family) {
        j = next;
        break;
      }
    }
    ui::AppState& s = app_for("scan-blelloch", 16, 8);
    ui::StepOptions none;
    ASSERT_TRUE(ui::start_race_from(s.race, s.step.session.choice, none, all[i].name, all[j].name))
        << all[i].name << " vs " << all[j].name << ": " << ui::race_error(s.race);
    s.request_tab = ui::kRaceTab;
    const int last = ui::race_last_step(s.race);
    for (int step : {0, 1, 2, last / 2, last - 1, last}) {
      if (step < 0 || step > last) continue;
      s.race.transport.go(step, last);
      EXPECT_EQ(frame_problems(s, 1024, 768), "")
          << all[i].name << " vs " << all[j].name << " step " << step << "/" << last;
    }
  }
}

// The value labels the labels list reports are where the shaders draw them: every box holds ink,
// and the label band under the bars has no ink outside the boxes.
TEST(Layout, ValueLabelsAreWhereTheShadersDrawThem) {
  ASSERT_TRUE(headless_gl().ok());
  constexpr int kW = 900, kH = 420;
  for (int width : {kW, kW - 37}) {  // cells at whole and at fractional pixels
    ui::AppState& s = preset_app("blelloch-8", 3);
    const auto px = ui::render_step_view(s, width, kH);
    const Trace& t = s.step.session.trace();
    const view::ViewLayout l = view::layout_view(t, 3, {0, 0, float(width), float(kH)}, s.step.options);
    const std::vector<view::ValueLabel> labels = view::value_labels(t, 3, l, s.step.options, s.step.buffers);
    const Rgb ink{235, 235, 242}, strip_ink{13, 13, 26};
    std::size_t in_boxes = 0, under_bars = 0;
    for (const view::ValueLabel& v : labels) {
      const bool bars = v.box.y >= l.label_y && v.box.y < l.label_y + l.label_h;
      const std::size_t n = count_in(px, width, v.box, bars ? ink : strip_ink, 8);
      EXPECT_GT(n, 0u) << "'" << v.text << "' at " << v.box.x << "," << v.box.y;
      if (bars) in_boxes += n, ++under_bars;
    }
    EXPECT_EQ(under_bars, std::size_t(t.width)) << "every bar of blelloch-8 has its label";
    EXPECT_EQ(count_in(px, width, {l.bars.x, l.label_y, l.bars.w, l.label_h}, ink, 8), in_boxes);
  }
}

// `render --race reduce1,reduce3 --n 256 --block 64` set block 64 on A only.
TEST(Layout, RaceFromTheCommandLineTakesTheBlockOnBothSides) {
  ASSERT_TRUE(headless_gl().ok());
  ui::AppState& s = app_for("scan-blelloch", 16, 8);
  ui::StepOptions given;
  given.n = "256";
  given.block = "64";
  given.n_given = given.block_given = true;
  ui::StepChoice c;
  ASSERT_TRUE(ui::resolve_step_options(given, c).ok());
  ASSERT_TRUE(ui::start_race_from(s.race, c, given, "reduce1", "reduce3"));
  EXPECT_EQ(s.race.a.session.trace().block, 64);
  EXPECT_EQ(s.race.b.session.trace().block, 64);
  EXPECT_EQ(s.race.a.session.trace().n, 256);
  EXPECT_EQ(s.race.b.session.trace().n, 256);
  // Each side keeps its own block afterwards.
  s.race.b.session.choice.cfg.block = 128;
  ASSERT_TRUE(ui::start_race(s.race, "reduce1", "reduce3"));
  EXPECT_EQ(s.race.a.session.trace().block, 64);
  EXPECT_EQ(s.race.b.session.trace().block, 128);
}

}  // namespace
