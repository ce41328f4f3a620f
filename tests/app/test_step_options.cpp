// The step options of the command-line tools: a typed list that is given but empty is an error,
// not a random input.
#include <gtest/gtest.h>

#include "model/step_choice.h"

using namespace primlab;

TEST(StepOptions, EmptyTypedListIsAnError) {
  ui::StepOptions o;
  ui::StepChoice c;
  o.input = "";
  const Result r = ui::resolve_step_options(o, c);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message().find("empty"), std::string::npos) << r.message();
  o.input = "3 1 7";
  ASSERT_TRUE(ui::resolve_step_options(o, c).ok());
  EXPECT_EQ(c.cfg.n, 3);
  o.input.reset();
  ASSERT_TRUE(ui::resolve_step_options(o, c).ok());
  EXPECT_EQ(c.input, InputKind::Random);
}

TEST(StepOptions, DefaultBinsFitTheAlgorithmGivenBinsAreChecked) {
  ui::StepOptions o;
  ui::StepChoice c;
  o.algo = "distributed-sort";
  ASSERT_TRUE(ui::resolve_step_options(o, c).ok());
  EXPECT_EQ(c.cfg.bins, 8) << "the default 16 is fitted to 2-8 GPUs";
  o.bins = 16;
  o.bins_given = true;
  const Result r = ui::resolve_step_options(o, c);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message().find("GPUs"), std::string::npos) << r.message();
}
