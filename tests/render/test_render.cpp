// Headless rendering through EGL (Mesa's llvmpipe on CI, NVIDIA's on a GPU server): real frames
// of the trace view and of the whole app, checked pixel by pixel for what they must show.
#include <gtest/gtest.h>

#include <algorithm>

#include "render_test_util.h"

using namespace primlab;
using namespace primlab::testing;

namespace {

ui::AppState& app_at_step(const std::string& algo, int n, int block, int step) {
  ui::AppState& s = primlab::testing::app_for(algo, n, block);
  s.step.session.go(step);
  return s;
}

TEST(Render, BlellochUpSweepShowsReadWrittenIdleAndPadding) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  // n = 6 pads to 8; step 3 is up-sweep d=2: x[3] += x[1], x[7] += x[5] (step 1 copies the input
  // into buf, step 2 is d=1).
  ui::AppState& s = app_at_step("scan-blelloch", 6, 4, 3);
  auto px = ui::render_step_view(s, 800, 400);
  EXPECT_GT(count_near(px, kWritten), 500u);  // bars 3 and 7 (7 is padding: drawn as padding)
  EXPECT_GT(count_near(px, kRead), 500u);     // bar 1
  EXPECT_GT(count_near(px, kIdle), 500u);
  EXPECT_GT(count_near(px, kPadding, 3), 100u);  // elements 6, 7
  EXPECT_GT(distinct_colours(px), 12u);  // bands, bars, strips, arcs, labels
}

TEST(Render, StepsDifferAndScrubbingNeedsNoUpload) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  ui::AppState& s = app_at_step("scan-naive", 16, 8, 1);
  auto a = ui::render_step_view(s, 640, 360);
  s.step.session.go(3);
  auto b = ui::render_step_view(s, 640, 360);
  EXPECT_NE(a, b);
  s.step.session.go(1);
  EXPECT_EQ(ui::render_step_view(s, 640, 360), a);  // same step, same pixels
}

TEST(Render, EveryAlgorithmDrawsItsLastStepInTheApp) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  for (const Algorithm& a : algorithms()) {
    ui::AppState& s = app_at_step(a.name, 40, std::clamp(8, a.min_block, a.max_block), 1 << 20);
    ASSERT_EQ(s.step.session.transport.step, int(s.step.session.trace().steps.size()) - 1) << a.name;
    auto px = ui::render_app(s, 1280, 800);
    EXPECT_EQ(px.size(), 1280u * 800u * 4u);
    EXPECT_GT(distinct_colours(px), 40u) << a.name;
    EXPECT_GT(count_near(px, kIdle) + count_near(px, kWritten) + count_near(px, kRead), 2000u) << a.name;
  }
}

TEST(Render, BadChoiceKeepsThePreviousTrace) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  ui::AppState& s = app_at_step("scan-shared", 64, 8, 0);
  const auto steps = s.step.session.trace().steps.size();
  s.step.session.choice.cfg.block = 6;  // not a power of two
  EXPECT_FALSE(ui::rebuild(s.step));
  EXPECT_NE(s.step.session.message.find("power-of-two"), std::string::npos);
  EXPECT_EQ(s.step.session.trace().steps.size(), steps);
  EXPECT_EQ(s.step.session.choice.cfg.block, 8);  // the choice is restored
  s.step.session.choice.cfg.n = 0;
  EXPECT_FALSE(ui::rebuild(s.step));
  s.step.session.choice.input = InputKind::Typed;
  s.step.session.choice.typed = "1 2 three";
  EXPECT_FALSE(ui::rebuild(s.step));
  EXPECT_NE(s.step.session.message.find("three"), std::string::npos);
  EXPECT_GT(ui::render_app(s, 800, 600).size(), 0u);
}

}  // namespace
