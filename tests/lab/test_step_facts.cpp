// What a step claims besides its values: the touch flags and owners agree with its ops (a
// compare-swap reads both keys and writes both only when it swaps), the launches counter counts
// kernel launches (barrier steps inside a kernel count none), every step has its prose, and the
// labels follow the options (descending bitonic, the shared scan without offsets).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

Trace cpu_trace(const char* algo, StepConfig cfg, const std::vector<std::uint32_t>& in) {
  Trace t;
  cfg.n = std::int32_t(in.size());
  fit_config(*find_algorithm(algo), cfg);  // the row's bins (a distributed sort's GPUs)
  const Result r = build_trace_cpu(*find_algorithm(algo), cfg, in, t);
  EXPECT_TRUE(r.ok()) << r.message();
  return t;
}

Trace cpu_trace(const char* algo, StepConfig cfg) {
  return cpu_trace(algo, cfg, make_input(InputKind::Random, cfg.n, cfg.type, cfg.seed));
}

// The example: bitonic sort of 16 keys with blocks of 4 threads, step 5 (size 8, stride 4).
TEST(StepFacts, BitonicComparatorReadsBothKeysAndWritesBothOnlyWhenItSwaps) {
  StepConfig cfg;
  cfg.block = 4;
  const std::vector<std::uint32_t> in = {5, 1, 4, 7, 3, 0, 6, 2, 9, 8, 15, 11, 12, 14, 10, 13};
  const Trace t = cpu_trace("bitonic-sort", cfg, in);
  ASSERT_GT(t.steps.size(), 5u);
  const Step& st = t.steps[5];
  const int row = st.focus_row;
  const std::uint32_t* touch = t.row(5, kRowTouch);
  const std::uint32_t* owner = t.row(5, kRowOwner);
  const std::uint32_t* before = t.row(4, row);
  const std::uint32_t* after = t.row(5, row);
  int comparators = 0, swaps = 0;
  for (std::int64_t i = 0; i < st.op_count(); ++i) {
    const Op& o = t.ops[std::size_t(st.op_begin + i)];
    if (kind_of(o.kind) != OpKind::CompareSwap) continue;
    ++comparators;
    const bool swapped = swapped_of(o.kind);
    swaps += swapped;
    // The flag is what happened to the keys.
    EXPECT_EQ(swapped, before[o.src] != after[o.src] || before[o.dst] != after[o.dst]) << "op " << i;
    for (std::int32_t e : {o.src, o.dst}) {
      EXPECT_TRUE(touch[e] & touch_bits(kTouchRead, row)) << "element " << e << " is read";
      EXPECT_EQ((touch[e] & touch_bits(kTouchWrite, row)) != 0, swapped) << "element " << e;
      EXPECT_EQ(owner[e], swapped ? std::uint32_t(o.thread) : 0xffffffffu) << "element " << e;
    }
  }
  EXPECT_EQ(comparators, 8);
  EXPECT_GT(swaps, 0);
  EXPECT_LT(swaps, comparators);
}

// For every row and config, the touch flags and owners of each step are exactly what its ops say.
TEST(StepFacts, TouchFlagsAndOwnersAreTheOpsOfTheStep) {
  test::for_each_row_trace([](const Trace& t) {
    for (std::size_t s = 1; s < t.steps.size(); ++s) {
      const Step& st = t.steps[s];
      std::vector<std::uint32_t> touch(std::size_t(t.width), 0u);
      std::vector<std::set<std::uint32_t>> writers(std::size_t(t.width));
      for (std::int64_t i = 0; i < st.op_count(); ++i) {
        const Op& o = t.ops[std::size_t(st.op_begin + i)];
        if (kind_of(o.kind) == OpKind::None) continue;
        const OpEffect e = op_effect(o.kind);
        const int sr = src_row_of(o.kind), dr = dst_row_of(o.kind);
        if (o.src >= 0 && t.rows[std::size_t(sr)].element_space) {
          touch[std::size_t(o.src)] |= touch_bits(e.src_bits, sr);
          if (e.src_written) writers[std::size_t(o.src)].insert(std::uint32_t(o.thread));
        }
        if (o.dst >= 0 && t.rows[std::size_t(dr)].element_space) {
          touch[std::size_t(o.dst)] |= touch_bits(e.dst_bits, dr);
          if (e.dst_written) writers[std::size_t(o.dst)].insert(std::uint32_t(o.thread));
        }
      }
      const std::uint32_t* got_touch = t.row(s, kRowTouch);
      const std::uint32_t* got_owner = t.row(s, kRowOwner);
      for (std::int32_t i = 0; i < t.width; ++i) {
        ASSERT_EQ(got_touch[i], touch[std::size_t(i)]) << "step " << s << " element " << i;
        const auto& w = writers[std::size_t(i)];
        if (w.empty()) ASSERT_EQ(got_owner[i], 0xffffffffu) << "step " << s << " element " << i;
        else ASSERT_TRUE(w.count(got_owner[i])) << "step " << s << " element " << i << " owner " << got_owner[i];
      }
    }
  });
}

std::int64_t launches(const Trace& t) { return t.totals(t.steps.size() - 1).launches; }

TEST(StepFacts, LaunchesCountKernelLaunchesNotBarriers) {
  StepConfig cfg;
  cfg.n = 16;
  cfg.block = 8;
  EXPECT_EQ(launches(cpu_trace("bitonic-sort", cfg)), 1);  // sort_shared_kernel: load, 10 passes, store
  cfg.n = 32;
  // sort_shared_kernel, then for the final merge: one global pass and merge_shared_kernel.
  EXPECT_EQ(launches(cpu_trace("bitonic-sort", cfg)), 3);
  for (const char* r : {"reduce1", "reduce2", "reduce3", "reduce4", "reduce5", "reduce6", "reduce-shuffle"})
    EXPECT_EQ(launches(cpu_trace(r, cfg)), 2) << r;  // pass 1 over the input, pass 2 over the partial sums
  cfg.n = 8;
  EXPECT_EQ(launches(cpu_trace("reduce1", cfg)), 1);  // one block: no second pass
  cfg.n = 32;
  EXPECT_EQ(launches(cpu_trace("scan-shared", cfg)), 3);  // block scan, scan of the sums, distribute
  EXPECT_EQ(launches(cpu_trace("histogram-shared", cfg)), 1);
  EXPECT_EQ(launches(cpu_trace("histogram-atomic", cfg)), 1);
  EXPECT_EQ(launches(cpu_trace("histogram-tagged", cfg)), 2);  // counting kernel, merge kernel
  EXPECT_EQ(launches(cpu_trace("partition-atomic", cfg)), 3);  // histogram, scan, reorder
  EXPECT_EQ(launches(cpu_trace("scan-naive", cfg)), 6);        // shift, then one launch per offset 1..16
  // Every step that starts no launch is a barrier of a kernel started before it.
  for (const Algorithm& a : algorithms()) {
    StepConfig c = cfg;
    c.block = std::clamp(cfg.block, a.min_block, a.max_block);
    const Trace t = cpu_trace(a.name, c);
    if (t.steps.size() > 1) EXPECT_FALSE(t.steps[1].barrier) << a.name << ": the first step starts a kernel";
    for (std::size_t s = 1; s < t.steps.size(); ++s)
      EXPECT_EQ(t.steps[s].counters.launches == 0, t.steps[s].barrier) << a.name << " step " << s;
  }
}

TEST(StepFacts, EveryStepHasProseThatFollowsThePhases) {
  test::for_each_row_trace([](const Trace& t) {
    std::set<std::string> phases, prose;
    for (std::size_t s = 1; s < t.steps.size(); ++s) {
      const std::string& e = t.steps[s].explain;
      ASSERT_GT(e.size(), 20u) << "step " << s << ": " << t.steps[s].label;
      EXPECT_EQ(e.back(), '.') << "step " << s << ": " << e;
      EXPECT_EQ(e.find("  "), std::string::npos) << e;
      phases.insert(t.steps[s].phase);
      prose.insert(e);
    }
    EXPECT_GE(prose.size(), phases.size());
  });
}

TEST(StepFacts, DescendingBitonicLabelsAndComparatorsReadDescending) {
  StepConfig cfg;
  cfg.n = 16;
  cfg.block = 4;
  for (bool desc : {false, true}) {
    cfg.descending = desc;
    const Trace t = cpu_trace("bitonic-sort", cfg);
    const std::string dir = desc ? "descending where" : "ascending where";
    const std::string other = desc ? "ascending where" : "descending where";
    std::size_t last_pass = 0;
    for (std::size_t s = 1; s < t.steps.size(); ++s) {
      const std::string& l = t.steps[s].label;
      EXPECT_EQ(l.find(other), std::string::npos) << l;
      if (t.steps[s].phase.find("pass") != std::string::npos) {
        EXPECT_NE(l.find(dir), std::string::npos) << l;
        last_pass = s;
      }
    }
    // The last pass sorts the whole array: every comparator's arrow (smaller -> larger) points the
    // sort's way, and the keys come out in that order.
    const Step& st = t.steps[last_pass];
    for (std::int64_t i = 0; i < st.op_count(); ++i) {
      const Op& o = t.ops[std::size_t(st.op_begin + i)];
      if (kind_of(o.kind) == OpKind::CompareSwap) EXPECT_EQ(o.src > o.dst, desc) << "op " << i;
    }
    const std::uint32_t* keys = t.row(t.steps.size() - 1, kRowMain);
    for (int i = 1; i < 16; ++i)
      EXPECT_EQ(std::int32_t(keys[i - 1]) > std::int32_t(keys[i]), desc && keys[i - 1] != keys[i]) << i;
  }
}

TEST(StepFacts, SharedScanWithoutOffsetsDoesNotClaimThem) {
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 16;
  for (bool offsets : {true, false}) {
    cfg.conflict_offsets = offsets;
    const Trace t = cpu_trace("scan-shared", cfg);
    EXPECT_EQ(t.title.find("no bank-conflict offsets") == std::string::npos, offsets) << t.title;
    int claims = 0;
    for (const Step& st : t.steps) claims += st.label.find("conflict_free") != std::string::npos;
    EXPECT_EQ(claims > 0, offsets);
  }
}

}  // namespace
