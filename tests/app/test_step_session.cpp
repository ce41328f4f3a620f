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
