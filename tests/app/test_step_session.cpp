// StepSession: a refused choice keeps the list the user typed; a new algorithm or input starts at
// step 0, other changes keep the step.
#include <gtest/gtest.h>

#include "model/step_session.h"

using namespace primlab;
using namespace primlab::ui;

namespace {

// Checks the session's choice and, when it passes, takes a CPU trace for it (what rebuild() does
// with the GL buffers).
bool build(StepSession& s) {
  TraceRequest req;
  if (!s.check(req)) return false;
  Trace t;
  if (Result r = build_trace_cpu(*req.algo, req.cfg, req.input, t); !r.ok()) return s.reject(r.message());
  s.accept(std::move(req), std::move(t), "CPU reference", "", true);
  return true;
}

TEST(StepSession, RefusedListKeepsTheTypedText) {
  StepSession s;
  s.choice.algo = "scan-blelloch";
  s.choice.input = InputKind::Typed;
  s.choice.typed = "3 1 7 0";
  ASSERT_TRUE(build(s));
  std::string long_list;
  for (int i = 0; i < 4100; ++i) long_list += std::to_string(i % 97) + " ";
  s.choice.typed = long_list;  // more than 4096 values: refused
  EXPECT_FALSE(build(s));
  EXPECT_FALSE(s.message.empty());
  EXPECT_EQ(s.choice.typed, long_list);
  EXPECT_EQ(s.choice.input, InputKind::Typed);
  EXPECT_EQ(s.trace().n, 4);  // the last good trace stays on screen
  s.choice.typed = "5 x 2";
  EXPECT_FALSE(build(s));
  EXPECT_EQ(s.choice.typed, "5 x 2");
  s.choice.typed = "5 6 2";
  EXPECT_TRUE(build(s));
  EXPECT_TRUE(s.message.empty());
}

TEST(StepSession, NewAlgorithmOrInputStartsAtStepZero) {
  StepSession s;
  s.choice.algo = "scan-blelloch";
  s.choice.cfg.n = 16;
  ASSERT_TRUE(build(s));
  s.go(5);
  s.choice.prefer_cuda = !s.choice.prefer_cuda;  // the same trace again: the step stays
  ASSERT_TRUE(build(s));
  EXPECT_EQ(s.transport.step, 5);
  s.choice.algo = "scan-naive";
  ASSERT_TRUE(build(s));
  EXPECT_EQ(s.transport.step, 0);
  s.go(3);
  s.choice.seed += 1;  // another input
  ASSERT_TRUE(build(s));
  EXPECT_EQ(s.transport.step, 0);
}

}  // namespace

namespace {

// Dragging the block slider rebuilds the trace at every size it passes: a size whose trace is
// shorter clamps the step, and the next, longer trace shows the step the user chose again. The
// last step stays the last, so that "total so far" stays the total.
TEST(StepSession, BlockSizesDraggedThroughKeepTheChosenStep) {
  constexpr std::int32_t kLong = 4, kShort = 16;  // reduce1 at n = 256: 17 and 13 steps
  StepSession s;
  s.choice.algo = "reduce1";
  s.choice.cfg.n = 256;
  s.choice.cfg.block = kShort;
  ASSERT_TRUE(build(s));
  const int short_last = s.last_step();
  s.choice.cfg.block = kLong;
  ASSERT_TRUE(build(s));
  const int long_last = s.last_step();
  ASSERT_LT(short_last, long_last - 1) << "the test needs a shorter trace";
  s.go(long_last);
  for (std::int32_t block : {kShort, kLong}) {
    s.choice.cfg.block = block;
    ASSERT_TRUE(build(s));
    EXPECT_EQ(s.transport.step, s.last_step()) << "block " << block;
  }
  // A step in the middle comes back where the trace is long enough again.
  const int mid = long_last - 1;
  s.go(mid);
  s.choice.cfg.block = kShort;
  ASSERT_TRUE(build(s));
  EXPECT_EQ(s.transport.step, short_last);
  s.choice.cfg.block = kLong;
  ASSERT_TRUE(build(s));
  EXPECT_EQ(s.transport.step, mid);
}

}  // namespace
