// Every preset in assets/presets.json names a registered algorithm and settings it accepts, and
// the seeds' examples give the results the seeds print.
#include <gtest/gtest.h>

#include "model/presets.h"

using namespace primlab;

TEST(Presets, EveryPresetResolvesAndRuns) {
  ASSERT_GE(ui::presets().size(), 10u);
  for (const ui::Preset& p : ui::presets()) {
    ui::StepOptions o;
    o.preset = p.name;
    ui::StepChoice c;
    std::string error;
    ASSERT_TRUE(ui::resolve_step_options(o, c, error)) << p.name << ": " << error;
    std::vector<std::uint32_t> in;
    ASSERT_TRUE(ui::make_choice_input(c, in, error)) << p.name;
    Trace t;
    EXPECT_TRUE(build_trace_cpu(*find_algorithm(c.algo), c.cfg, in, t).ok()) << p.name;
  }
}

TEST(Presets, LectureRadixBitsScanAsTheLectureSays) {
  ui::StepOptions o;
  o.preset = "lecture-radix-bits";
  ui::StepChoice c;
  std::string error;
  ASSERT_TRUE(ui::resolve_step_options(o, c, error)) << error;
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(ui::make_choice_input(c, in, error));
  Trace t;
  ASSERT_TRUE(build_trace_cpu(*find_algorithm(c.algo), c.cfg, in, t).ok());
  std::vector<std::uint32_t> got(t.row(t.steps.size() - 1, 0), t.row(t.steps.size() - 1, 0) + in.size());
  EXPECT_EQ(got, (std::vector<std::uint32_t>{0, 0, 1, 2, 2, 3, 3, 3, 4, 5, 5}));
}

TEST(Presets, MalformedFilesAreRejected) {
  std::vector<ui::Preset> v;
  std::string error;
  EXPECT_FALSE(ui::parse_presets("{not json", v, error));
  EXPECT_FALSE(ui::parse_presets("[{\"name\": \"x\"}]", v, error));  // no algo
  EXPECT_TRUE(ui::parse_presets("[]", v, error));
}

TEST(Presets, UnknownPresetIsAnError) {
  ui::StepOptions o;
  o.preset = "no-such-preset";
  ui::StepChoice c;
  std::string error;
  EXPECT_FALSE(ui::resolve_step_options(o, c, error));
  EXPECT_NE(error.find("no-such-preset"), std::string::npos);
}
