// The Race's choices: the whole traces' figures and which differ by more than 10 %, what the command
// line fixes of a race, and the size and block a race opens at: the smallest where its two rows'
// figures differ, found from the catalog's rows at run time.
#include <gtest/gtest.h>

#include "model/counter_rows.h"
#include "model/race_choice.h"

using namespace primlab;
using namespace primlab::ui;

namespace {

Trace cpu_trace(const std::string& algo, std::int32_t n, std::int32_t block) {
  StepChoice c;
  c.algo = algo;
  c.cfg.n = n;
  c.cfg.block = block;
  std::vector<std::uint32_t> in;
  EXPECT_TRUE(make_choice_input(c, in).ok());
  Trace t;
  const Result r = build_trace_cpu(*find_algorithm(algo), c.cfg, in, t);
  EXPECT_TRUE(r.ok()) << algo << ": " << r.message();
  return t;
}

TEST(RaceChoice, CountersDifferByMoreThanTenPercent) {
  EXPECT_FALSE(counters_differ(0, 0));
  EXPECT_TRUE(counters_differ(0, 1));
  EXPECT_FALSE(counters_differ(100, 110));
  EXPECT_TRUE(counters_differ(100, 112));
  EXPECT_TRUE(counters_differ(24, 96));
  EXPECT_TRUE(counters_differ(96, 24));
}

TEST(RaceChoice, FiguresOfOneTraceAgainstItselfDifferInNothing) {
  const Trace t = cpu_trace("reduce1", 64, 64);
  const std::vector<RaceFigure> f = race_figures(t, t);
  ASSERT_GE(f.size(), 3u);
  EXPECT_EQ(std::string(f[0].name), "work");
  EXPECT_EQ(std::string(f[1].name), "depth");
  EXPECT_FALSE(any_differs(f));
}

TEST(RaceChoice, TheCommandLineFixesWhatItGives) {
  StepOptions o;
  EXPECT_FALSE(race_fixed_by(o).n);
  EXPECT_FALSE(race_fixed_by(o).block);
  o.n_given = o.block_given = true;
  EXPECT_TRUE(race_fixed_by(o).n);
  EXPECT_TRUE(race_fixed_by(o).block);
  StepOptions typed;
  typed.input = "3 1 7 0";
  EXPECT_TRUE(race_fixed_by(typed).n);
  StepOptions preset;
  preset.preset = "lecture-reduce1";  // n 256, block 64
  EXPECT_TRUE(race_fixed_by(preset).n);
  EXPECT_TRUE(race_fixed_by(preset).block);
}

// --race reduce1,reduce3 opened at n = 32, block 8, where both read the same figures. The race now
// opens at the smallest size and block where they differ, the same block on both sides.
TEST(RaceChoice, ReductionsOpenWhereTheirFiguresDiffer) {
  StepChoice a, b;
  a.algo = "reduce1";
  b.algo = "reduce3";
  ASSERT_TRUE(pick_race_size(a, b, RaceFixed{}));
  EXPECT_EQ(a.cfg.block, b.cfg.block);
  EXPECT_TRUE(any_differs(race_figures(cpu_trace("reduce1", a.cfg.n, a.cfg.block), cpu_trace("reduce3", a.cfg.n, b.cfg.block))));
  // Nothing smaller differs: the sizes and blocks before the pick read the same figures.
  for (std::int32_t n : kRaceSizes)
    for (std::int32_t block = kRaceMinBlock; block <= n && (n < a.cfg.n || (n == a.cfg.n && block < a.cfg.block));
         block *= 2)
      EXPECT_FALSE(any_differs(race_figures(cpu_trace("reduce1", n, block), cpu_trace("reduce3", n, block))))
          << "n " << n << " block " << block;
}

TEST(RaceChoice, WhatIsFixedStays) {
  StepChoice a, b;
  a.algo = "reduce1";
  b.algo = "reduce3";
  a.cfg.n = 256;
  a.cfg.block = b.cfg.block = 8;
  EXPECT_FALSE(pick_race_size(a, b, RaceFixed{true, true}));
  EXPECT_EQ(a.cfg.n, 256);
  EXPECT_EQ(a.cfg.block, 8);
  // With the block fixed, only the size is picked.
  if (pick_race_size(a, b, RaceFixed{false, true})) {
    EXPECT_EQ(a.cfg.block, 8);
    EXPECT_EQ(b.cfg.block, 8);
  }
  // With the size fixed, only the block.
  a.cfg.n = 256;
  ASSERT_TRUE(pick_race_size(a, b, RaceFixed{true, false}));
  EXPECT_EQ(a.cfg.n, 256);
  EXPECT_EQ(a.cfg.block, b.cfg.block);
}

TEST(RaceChoice, OneAlgorithmAgainstItselfNeverDiffers) {
  StepChoice a, b;
  a.algo = b.algo = "scan-blelloch";
  a.cfg.n = 20;
  a.cfg.block = b.cfg.block = 4;
  EXPECT_FALSE(pick_race_size(a, b, RaceFixed{}));
  EXPECT_EQ(a.cfg.n, 20);  // untouched
  EXPECT_EQ(a.cfg.block, 4);
}

TEST(RaceChoice, TheRaceTabsPairsDifferWhereTheyOpen) {
  for (const auto& [x, y] : std::vector<std::pair<std::string, std::string>>{
           {"scan-naive", "scan-blelloch"}, {"scan-blelloch", "scan-shared"}, {"reduce1", "reduce5"},
           {"radix-split", "radix-digits"}}) {
    StepChoice a, b;
    a.algo = x;
    b.algo = y;
    ASSERT_TRUE(pick_race_size(a, b, RaceFixed{})) << x << " vs " << y;
    EXPECT_TRUE(any_differs(race_figures(cpu_trace(x, a.cfg.n, a.cfg.block), cpu_trace(y, a.cfg.n, b.cfg.block))))
        << x << " vs " << y;
  }
}

}  // namespace
