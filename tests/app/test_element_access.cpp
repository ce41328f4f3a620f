// Who touched an element in a step (the hover tooltip): taken from the step's ops, checked against
// a trace worked by hand and against the touch flags of every algorithm's CPU trace.
#include <gtest/gtest.h>

#include "lab/algorithms/histogram/bins_and_rows.h"
#include "lab/catalog.h"
#include "lab/model/input.h"
#include "model/element_access.h"

using namespace primlab;
using namespace primlab::ui;

namespace {

Trace cpu_trace(const char* algo, int n, int block) {
  const Algorithm* a = find_algorithm(algo);
  EXPECT_NE(a, nullptr) << algo;
  StepConfig cfg;
  cfg.n = n;
  cfg.block = block;
  fit_config(*a, cfg);  // the row's bins (a distributed sort's GPUs)
  const std::vector<std::uint32_t> in = make_input(InputKind::Random, n, cfg.type, 1);
  Trace t;
  const Result r = build_trace_cpu(*a, cfg, in, t);
  EXPECT_TRUE(r.ok()) << r.message();
  return t;
}

TEST(ElementAccess, BlellochUpSweepNamesTheThreadThatWroteNotTheHomeThread) {
  // scan-blelloch n=16 block 4, step 4 is up-sweep d=4: buf[right] += buf[right - 4], right =
  // 8k + 7, for k = 0, 1: thread 0 adds buf[3] into buf[7], thread 1 buf[11] into buf[15].
  // Element 7's "home thread" is 7 / 2 = 3, idle.
  const Trace t = cpu_trace("scan-blelloch", 16, 4);
  ASSERT_GT(t.steps.size(), 4u);
  ASSERT_NE(t.steps[4].label.find("up-sweep d=4"), std::string::npos) << t.steps[4].label;
  const std::vector<ElementAccess> at7 = element_accesses(t, 4, kRowMain, 7);
  ASSERT_EQ(at7.size(), 1u);
  EXPECT_EQ(at7[0].op.thread, 0);
  EXPECT_NE(at7[0].op.thread, 7 / t.elems_per_thread);
  EXPECT_TRUE(at7[0].reads);
  EXPECT_TRUE(at7[0].writes);
  EXPECT_EQ(describe_access(t, at7[0]), "thread 0 (block 0, warp 0, lane 0) reads and writes: add buf[3] -> buf[7]");
  const std::vector<ElementAccess> at3 = element_accesses(t, 4, kRowMain, 3);
  ASSERT_EQ(at3.size(), 1u);
  EXPECT_EQ(at3[0].op.thread, 0);
  EXPECT_TRUE(at3[0].reads);
  EXPECT_FALSE(at3[0].writes);
  const std::vector<ElementAccess> at15 = element_accesses(t, 4, kRowMain, 15);
  ASSERT_EQ(at15.size(), 1u);
  EXPECT_EQ(at15[0].op.thread, 1);
  EXPECT_TRUE(element_accesses(t, 4, kRowMain, 4).empty());  // not touched in this step
  EXPECT_TRUE(element_accesses(t, 0, kRowMain, 7).empty());  // the input step has no ops
}

// The tagged histogram's count step: its atomics name the samples and the counts, not the byte each
// lane took from its word (a register, shown in its own row). The tooltip must not call that byte
// "not touched": the step names no element of its row, so the row is a value the kernel holds.
TEST(ElementAccess, ARowNoOpOfTheStepNamesIsAValueNotAnUntouchedElement) {
  const Trace t = cpu_trace("histogram-tagged-bytes", 64, 32);
  int count = -1;
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].phase == "count") count = int(s);
  ASSERT_GT(count, 0);
  EXPECT_FALSE(step_names_row(t, count, lab::kHistBin));
  EXPECT_TRUE(element_accesses(t, count, lab::kHistBin, 5).empty());
  EXPECT_TRUE(step_names_row(t, count, lab::kHistIn));
  EXPECT_TRUE(step_names_row(t, count, lab::kTaggedCount));
  EXPECT_TRUE(step_names_row(t, count, lab::kTaggedWords));  // the tagged words show the counts' cells
  EXPECT_FALSE(step_names_row(t, 0, lab::kHistIn));           // the input step has no ops
}

TEST(ElementAccess, EveryAtomicOnABinIsNamed) {
  // One round of atomicAdd(&bins[x mod bins], 1) from zero: bin b is hit by exactly bins[b] threads.
  const Trace t = cpu_trace("histogram-atomic", 64, 32);
  int bins_row = -1;
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind("hist", 0) == 0) bins_row = int(r);
  ASSERT_GE(bins_row, 0);
  const std::size_t last = t.steps.size() - 1;
  int total = 0;
  for (int b = 0; b < t.rows[std::size_t(bins_row)].length; ++b) {
    const std::vector<ElementAccess> acc = element_accesses(t, int(last), bins_row, b);
    EXPECT_EQ(acc.size(), t.row(last, std::size_t(bins_row))[b]) << "bin " << b;
    for (const ElementAccess& e : acc) {
      EXPECT_EQ(kind_of(e.op.kind), OpKind::Atomic);
      EXPECT_TRUE(e.reads && e.writes);
    }
    total += int(acc.size());
  }
  EXPECT_EQ(total, 64);
}

TEST(ElementAccess, WritersAgreeWithTheTouchFlagsOfEveryAlgorithm) {
  for (const Algorithm& a : algorithms()) {
    const Trace t = cpu_trace(a.name, 40, std::max(a.min_block, 8));
    for (std::size_t s = 0; s < t.steps.size(); ++s)
      for (std::size_t r = 0; r < t.rows.size() && r < 16; ++r) {
        if (!t.rows[r].element_space || r == kRowTouch || r == kRowOwner) continue;
        for (int i = 0; i < t.width; ++i) {
          const std::uint32_t touch = t.row(s, kRowTouch)[i] >> (2 * r) & 3u;
          bool reads = false, writes = false;
          for (const ElementAccess& e : element_accesses(t, int(s), int(r), i)) {
            reads |= e.reads;
            writes |= e.writes;
          }
          const std::string at = std::string(a.name) + " step " + std::to_string(s) + " row " + t.rows[r].name + "[" +
                                 std::to_string(i) + "]";
          EXPECT_EQ(writes, (touch & kTouchWrite) != 0) << at;
          if (touch & kTouchRead) EXPECT_TRUE(reads) << at;
        }
      }
  }
}

TEST(ElementAccess, TaggedCounterWordsAreTouchedByTheirCountsAtomics) {
  // The words row (tag << 27) | count shows the count row's cells (RowInfo::cells_of): each word that
  // the count step changed is named by the atomic that wrote it, and no unchanged word is.
  const Trace t = cpu_trace("histogram-tagged-bytes", 32, 32);
  int words = -1;
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].kind == RowKind::TagCount) words = int(r);
  ASSERT_GE(words, 0);
  const int counts = t.rows[std::size_t(words)].cells_of;
  ASSERT_GE(counts, 0);
  int count_step = -1;
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].phase == "count") count_step = int(s);
  ASSERT_GT(count_step, 0);
  int changed = 0;
  for (int c = 0; c < t.rows[std::size_t(words)].length; ++c) {
    const std::uint32_t before = t.row(std::size_t(count_step - 1), std::size_t(words))[c],
                        after = t.row(std::size_t(count_step), std::size_t(words))[c];
    const std::vector<ElementAccess> acc = element_accesses(t, count_step, words, c);
    // Each landed write adds one to the count.
    EXPECT_EQ(acc.size(), (after & 0x07FFFFFFu) - (before & 0x07FFFFFFu)) << "word " << c;
    for (const ElementAccess& e : acc) EXPECT_TRUE(e.writes) << "word " << c;
    EXPECT_EQ(acc.size(), element_accesses(t, count_step, counts, c).size()) << "word " << c;
    changed += after != before;
  }
  EXPECT_GT(changed, 3);
}

TEST(ElementAccess, RowsAreNamedByTheirArrayInTheCode) {
  const Trace t = cpu_trace("reduce1", 64, 32);
  ASSERT_EQ(t.rows[3].name.rfind("sdata[] in shared memory", 0), 0u) << t.rows[3].name;
  EXPECT_EQ(row_ref(t, 3, 27), "sdata[27]");
  EXPECT_EQ(row_ref(t, kRowMain, 5), "x[5]");  // "x (input)"
  const Trace b = cpu_trace("scan-blelloch", 5, 4);
  EXPECT_EQ(row_ref(b, kRowMain, 3), "buf[3]");
}

}  // namespace
