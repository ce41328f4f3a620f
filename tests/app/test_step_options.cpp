// The step options of the command-line tools: a typed list that is given but empty is an error,
// not a random input.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "lab/catalog.h"
#include "model/presets.h"
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

// `primlab --algo scan-lookback` opens: the default block 8 is fitted to the row's 32..64; a given
// block the row cannot take stays a bad argument.
TEST(StepOptions, DefaultBlockFitsTheAlgorithmGivenBlockIsChecked) {
  for (const Algorithm& a : algorithms()) {
    ui::StepOptions o;
    ui::StepChoice c;
    o.algo = a.name;
    o.n = std::to_string(std::min(64, a.max_n));
    const Result r = ui::resolve_step_options(o, c);
    ASSERT_TRUE(r.ok()) << a.name << ": " << r.message();
    EXPECT_GE(c.cfg.block, a.min_block) << a.name;
    EXPECT_LE(c.cfg.block, a.max_block) << a.name;
  }
  ui::StepOptions o;
  ui::StepChoice c;
  o.algo = "scan-lookback";
  ASSERT_TRUE(ui::resolve_step_options(o, c).ok());
  EXPECT_EQ(c.cfg.block, 32);
  o.block = "8";
  o.block_given = true;
  const Result r = ui::resolve_step_options(o, c);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message().find("block"), std::string::npos) << r.message();
}

// A preset's choice carries its name, so that the Step tab can say which example is loaded; a
// choice without one names none.
TEST(StepOptions, APresetsChoiceCarriesItsName) {
  ui::StepOptions o;
  ui::StepChoice c;
  o.preset = "blelloch-8";
  ASSERT_TRUE(ui::resolve_step_options(o, c).ok());
  EXPECT_EQ(c.preset, "blelloch-8");
  o.preset.clear();
  ASSERT_TRUE(ui::resolve_step_options(o, c).ok());
  EXPECT_EQ(c.preset, "");
}

// The preset menu groups the presets by their algorithm's family, in the catalog's order of
// families: every preset once, in its family's group, in the file's order.
TEST(Presets, GroupedByFamilyInCatalogOrder) {
  const std::vector<ui::PresetGroup> groups = ui::presets_by_family();
  std::vector<std::string> families;
  for (const Algorithm& a : algorithms())
    if (families.empty() || families.back() != a.family) families.push_back(a.family);
  std::size_t seen = 0, at = 0;
  for (const ui::PresetGroup& g : groups) {
    ASSERT_FALSE(g.presets.empty()) << g.family;
    while (at < families.size() && families[at] != g.family) ++at;
    ASSERT_LT(at, families.size()) << g.family << " out of the catalog's order";
    const ui::Preset* before = nullptr;  // a family's presets in the file's order (blelloch-8 first)
    for (const ui::Preset* p : g.presets) {
      const Algorithm* a = find_algorithm(p->options.algo);
      ASSERT_NE(a, nullptr) << p->name;
      EXPECT_EQ(g.family, a->family) << p->name;
      if (before) EXPECT_LT(before, p) << p->name;
      before = p;
    }
    seen += g.presets.size();
  }
  EXPECT_EQ(seen, ui::presets().size());
  EXPECT_GT(groups.size(), 5u);
}
