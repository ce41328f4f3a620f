// The catalog walked row by row on the CPU: names are unique keys, rows are complete, every row
// plans and runs on the CPU reference at its limits and over the options it declares, rejects
// configs outside its limits, and its timed form names types and a block the engine can use.
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

TEST(Catalog, NamesAreUniqueKeys) {
  std::set<std::string> names;
  for (const Algorithm& a : algorithms()) {
    ASSERT_TRUE(a.name && a.family && a.title && a.description);
    EXPECT_TRUE(names.insert(a.name).second) << "two rows named " << a.name;
    EXPECT_EQ(find_algorithm(a.name), &a);
    for (char c : std::string(a.name))
      EXPECT_TRUE(std::islower((unsigned char)c) || std::isdigit((unsigned char)c) || c == '-') << a.name;
  }
  EXPECT_EQ(find_algorithm("no-such-algorithm"), nullptr);
}

TEST(Catalog, RowsAreComplete) {
  for (const Algorithm& a : algorithms()) {
    SCOPED_TRACE(a.name);
    EXPECT_TRUE(a.plan && a.run_cpu);
#ifdef PRIMLAB_HAVE_CUDA
    EXPECT_NE(a.run_cuda, nullptr);
#else
    EXPECT_EQ(a.run_cuda, nullptr);
#endif
    EXPECT_GE(a.max_n, 1);
    EXPECT_GE(a.min_block, 1);
    EXPECT_LE(a.min_block, a.max_block);
    EXPECT_LE(a.max_block, 1024);
    EXPECT_EQ((a.options & kOptVariant) != 0, a.variant_names != nullptr);
  }
}

TEST(Catalog, TimedFormsNameEngineTypesAndABlockInTheLimits) {
  const std::set<std::string> types = {"i32", "u32", "f32", "u8"};
  const std::set<std::string> primitives = {"scan_exclusive", "reduce_sum", "histogram_even", "sort_keys",
                                            "bitonic_sort_keys"};
  int timed = 0;
  for (const Algorithm& a : algorithms()) {
    SCOPED_TRACE(a.name);
    const TimedForm& f = a.timed;
    if (!f.primitive) {
      EXPECT_TRUE(f.types.empty() && !f.run && !f.workspace_bytes);
      continue;
    }
    ++timed;
    EXPECT_EQ(primitives.count(f.primitive), 1u) << f.primitive;
    EXPECT_FALSE(f.types.empty());
    for (const std::string& t : f.types) EXPECT_EQ(types.count(t), 1u) << t;
    EXPECT_GE(f.default_block, a.min_block);
    EXPECT_LE(f.default_block, a.max_block);
    if (a.block_pow2) EXPECT_EQ(f.default_block & (f.default_block - 1), 0);
#ifdef PRIMLAB_HAVE_CUDA
    EXPECT_TRUE(f.run && f.workspace_bytes);
#else
    EXPECT_TRUE(!f.run && !f.workspace_bytes);
#endif
  }
  EXPECT_GE(timed, 1);
}

// A plan may refuse a combination inside the limits (a reduction whose small blocks leave more
// partial sums than one block can add); it must say so, never crash. Every row runs its small configs.
TEST(Catalog, EveryRowRunsAtItsLimitsAndOptions) {
  for (const Algorithm& a : algorithms()) {
    for (const test::RowConfig& rc : test::configs_for(a)) {
      SCOPED_TRACE(rc.what);
      const auto in = make_input(InputKind::Random, rc.cfg.n, rc.cfg.type, rc.cfg.seed);
      EXPECT_TRUE(ok(validate(a, rc.cfg)));
      Trace t;
      const Result r = build_trace_cpu(a, rc.cfg, in, t);
      if (rc.cfg.n > 256 && rc.cfg.block < 32 && !r.ok()) {
        EXPECT_FALSE(r.message().empty());
        continue;
      }
      ASSERT_TRUE(ok(r));
      EXPECT_GE(t.steps.size(), 1u);
      EXPECT_EQ(t.algo, a.name);
    }
  }
}

TEST(Catalog, EveryRowRejectsConfigsOutsideItsLimits) {
  for (const Algorithm& a : algorithms()) {
    SCOPED_TRACE(a.name);
    StepConfig good;
    good.n = 16;
    good.block = a.min_block;
    good.bins = std::min(good.bins, a.max_bins);
    ASSERT_TRUE(ok(validate(a, good)));
    auto rejects = [&](StepConfig c, const char* why) {
      EXPECT_FALSE(ok(validate(a, c))) << why;
      Trace t;
      EXPECT_FALSE(ok(build_trace_cpu(a, c, std::vector<std::uint32_t>(std::size_t(std::max(c.n, 0))), t))) << why;
    };
    StepConfig c = good;
    c.n = 0;
    rejects(c, "n = 0");
    c.n = a.max_n + 1;
    rejects(c, "n above max_n");
    c = good;
    c.block = a.min_block - 1;
    rejects(c, "block below min_block");
    c.block = a.max_block + 1;
    rejects(c, "block above max_block");
    c.block = 3;
    if (a.block_pow2) rejects(c, "block not a power of two");
    else if (a.min_block <= 3 && 3 <= a.max_block) EXPECT_TRUE(ok(validate(a, c)));
    c = good;
    c.type = ElemType::F32;
    if (!(a.options & kOptFloat)) rejects(c, "floats");
    c.type = ElemType::U32;
    if (!(a.options & kOptU32)) rejects(c, "uint32");
    Trace t;
    EXPECT_FALSE(ok(build_trace_cpu(a, good, std::vector<std::uint32_t>(15), t))) << "input shorter than n";
  }
}

}  // namespace
