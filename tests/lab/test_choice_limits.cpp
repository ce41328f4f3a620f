// The limits a row declares for its options (fit_config, validate) and the listing lines a step
// lights (step_code_lines).
#include <gtest/gtest.h>

#include <algorithm>

#include "lab/catalog.h"
#include "lab/model/input.h"

using namespace primlab;

TEST(ChoiceLimits, FitConfigMovesOptionsIntoTheRowsLimits) {
  StepConfig cfg;
  cfg.bins = 4096;
  cfg.block = 12;
  cfg.type = ElemType::F32;
  const Algorithm& hist = *find_algorithm("histogram-shared");
  fit_config(hist, cfg);
  EXPECT_EQ(cfg.bins, 256);
  EXPECT_EQ(cfg.type, ElemType::I32);  // histograms take no floats
  EXPECT_TRUE(validate(hist, cfg).ok());
  cfg.bins = 100;
  const Algorithm& part = *find_algorithm("partition-stable");
  EXPECT_FALSE(validate(part, cfg).ok());  // partitions: a power of two
  fit_config(part, cfg);
  EXPECT_EQ(cfg.bins, 64);
  EXPECT_TRUE(validate(part, cfg).ok());
  const Algorithm& bitonic = *find_algorithm("bitonic-sort");
  fit_config(bitonic, cfg);
  if (bitonic.block_pow2) EXPECT_EQ(cfg.block, 8);
  EXPECT_TRUE(validate(bitonic, cfg).ok());
}

TEST(ChoiceLimits, SwapAndAddLightsItsThreeLines) {
  StepConfig cfg;
  cfg.n = 8;
  cfg.block = 4;
  Trace t;
  ASSERT_TRUE(build_trace_cpu(*find_algorithm("scan-blelloch"), cfg, make_input(InputKind::Random, 8, cfg.type, 1), t).ok());
  bool seen = false;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    const std::vector<int> lines = step_code_lines(t, s);
    if (t.steps[s].code_line < 0) {
      EXPECT_TRUE(lines.empty());
      continue;
    }
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(std::find(lines.begin(), lines.end(), t.steps[s].code_line), lines.end());
    if (t.steps[s].phase == "down-sweep") {
      seen = true;
      // left = buf[right - d]; buf[right - d] = buf[right]; buf[right] += left, and on the first
      // level the root's clear before them.
      const std::size_t swap = t.steps[s].also_lit.empty() ? 0 : 1;
      ASSERT_EQ(lines.size(), swap + 3u);
      EXPECT_NE(t.code[std::size_t(lines[swap + 2])].find("+="), std::string::npos);
      if (swap) EXPECT_NE(t.code[std::size_t(lines[0])].find("= T(0)"), std::string::npos);
    }
  }
  EXPECT_TRUE(seen);
}
