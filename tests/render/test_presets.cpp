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
    const Result r = ui::resolve_step_options(o, c);
    ASSERT_TRUE(r.ok()) << p.name << ": " << r.message();
    std::vector<std::uint32_t> in;
    ASSERT_TRUE(ui::make_choice_input(c, in).ok()) << p.name;
    Trace t;
    EXPECT_TRUE(build_trace_cpu(*find_algorithm(c.algo), c.cfg, in, t).ok()) << p.name;
  }
}

TEST(Presets, LectureRadixBitsScanAsTheLectureSays) {
  ui::StepOptions o;
  o.preset = "lecture-radix-bits";
  ui::StepChoice c;
  const Result r = ui::resolve_step_options(o, c);
  ASSERT_TRUE(r.ok()) << r.message();
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(ui::make_choice_input(c, in).ok());
  Trace t;
  ASSERT_TRUE(build_trace_cpu(*find_algorithm(c.algo), c.cfg, in, t).ok());
  std::vector<std::uint32_t> got(t.row(t.steps.size() - 1, 0), t.row(t.steps.size() - 1, 0) + in.size());
  EXPECT_EQ(got, (std::vector<std::uint32_t>{0, 0, 1, 2, 2, 3, 3, 3, 4, 5, 5}));
}

TEST(Presets, MalformedFilesAreRejected) {
  std::vector<ui::Preset> v;
  EXPECT_FALSE(ui::parse_presets("{not json", v).ok());
  EXPECT_FALSE(ui::parse_presets("[{\"name\": \"x\"}]", v).ok());  // no algo
  EXPECT_TRUE(ui::parse_presets("[]", v).ok());
}

TEST(Presets, UnknownPresetIsAnError) {
  ui::StepOptions o;
  o.preset = "no-such-preset";
  ui::StepChoice c;
  const Result r = ui::resolve_step_options(o, c);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message().find("no-such-preset"), std::string::npos);
}
