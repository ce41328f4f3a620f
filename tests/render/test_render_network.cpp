// Headless frames of the sorting-network panel (Trace::network): the current pass's comparators are
// drawn at full strength, warm where they point right (up) and cool where they point left (down);
// other algorithms draw no network.
#include <gtest/gtest.h>

#include "render_test_util.h"

using namespace primlab;
using namespace primlab::testing;

namespace {

constexpr Rgb kUp{255, 140, 64}, kDown{89, 191, 255};  // network.vert, current pass

int step_with_label(const Trace& t, const std::string& prefix) {
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].label.rfind(prefix, 0) == 0) return int(s);
  return -1;
}

TEST(RenderNetwork, CurrentPassShowsBothComparatorDirections) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  for (int n : {8, 32, 64}) {
    ui::AppState& s = app_for("bitonic-sort", n, 4);
    ASSERT_TRUE(s.step.session.trace().network);
    // Size 4, stride 2: half the comparators sort up, half down.
    const int pass = step_with_label(s.step.session.trace(), "size 4, stride 2");
    ASSERT_GE(pass, 0);
    s.step.session.go(pass);
    auto px = ui::render_step_view(s, 1200, 800);
    EXPECT_GT(count_near(px, kUp, 10), 100u) << "n=" << n;
    EXPECT_GT(count_near(px, kDown, 10), 100u) << "n=" << n;
    // The final merge sorts up only.
    const int last = step_with_label(s.step.session.trace(), "final merge, size " + std::to_string(n) + ", stride 1");
    ASSERT_GE(last, 0);
    s.step.session.go(last);
    auto fin = ui::render_step_view(s, 1200, 800);
    EXPECT_GT(count_near(fin, kUp, 10), 100u) << "n=" << n;
    EXPECT_LT(count_near(fin, kDown, 10), count_near(px, kDown, 10)) << "n=" << n;
  }
}

TEST(RenderNetwork, ScansDrawNoNetwork) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  ui::AppState& s = app_for("scan-blelloch", 16, 4);
  EXPECT_FALSE(s.step.session.trace().network);
  s.step.session.go(2);
  auto px = ui::render_step_view(s, 800, 400);
  EXPECT_EQ(count_near(px, kDown, 4), 0u);
}

}  // namespace
