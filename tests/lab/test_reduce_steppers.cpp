// CPU reference reductions (reduce1..reduce7, warp shuffle): the sum against a host reference for
// many n, blocks, types and distributions; the trace's shape; and the counters that make the
// lecture's ordering visible (reduce1 diverges, reduce2 conflicts in the banks, reduce3 neither,
// reduce4 idles less, reduce5 diverges less, reduce6 does reduce5's work, reduce7 pays the tree
// once for many elements a thread, the shuffle touches no shared memory).
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <limits>
#include <numeric>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

// Seed 002's sample input (the visible head of its scan test array) and its exclusive scan: the
// sum of the head is the scan's last value plus the last element, 334 + 20.
const std::vector<std::uint32_t> kSeed002ScanHead = {31, 2, 26, 37, 46, 20, 20, 8, 38, 37, 28, 41, 20};
constexpr std::uint32_t kSeed002ScanHeadSum = 354;

const std::vector<const char*> kReductions = test::family("reduce");

std::uint32_t final_sum(const Trace& t) { return t.row(t.steps.size() - 1, t.rows.size() - 1)[0]; }

std::uint32_t host_sum(const std::vector<std::uint32_t>& in, ElemType t) {
  if (t == ElemType::F32) {
    float acc = 0.f;
    for (std::uint32_t w : in) acc += word_to_float(w);
    return to_word(acc);
  }
  return std::accumulate(in.begin(), in.end(), 0u);  // two's-complement wrap, as int32 on the GPU
}

int elems_per_block(const std::string& algo, int block) {
  return (algo == "reduce4" || algo == "reduce5" || algo == "reduce6" || algo == "reduce-shuffle") ? 2 * block
                                                                                                    : block;
}

bool too_many_partials(const std::string& algo, int n, int block) {
  if (algo == "reduce7") return false;  // it sizes its grid to leave few partial sums
  const int e = elems_per_block(algo, block), p = (n + e - 1) / e;
  return p > 1 && (p + e / block - 1) / (e / block) > 1024;
}

Trace run(const std::string& algo, const std::vector<std::uint32_t>& in, int block, ElemType type = ElemType::I32) {
  StepConfig cfg;
  cfg.n = int(in.size());
  cfg.block = block;
  cfg.type = type;
  Trace t;
  const std::string err = build_trace_cpu(*find_algorithm(algo), cfg, in, t).message();
  EXPECT_EQ(err, "") << algo << " n=" << cfg.n << " block=" << block;
  return t;
}

struct Case {
  const char* algo;
  int n;
  int block;
  ElemType type;
};

class ReduceResult : public ::testing::TestWithParam<Case> {};

TEST_P(ReduceResult, MatchesHostSum) {
  const Case c = GetParam();
  const Algorithm* a = find_algorithm(c.algo);
  ASSERT_NE(a, nullptr);
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.type = c.type;
  const InputKind kinds[] = {InputKind::Random, InputKind::Sorted, InputKind::Reversed, InputKind::AllEqual,
                             InputKind::FewDistinct};
  std::uint32_t seed = 1;
  for (InputKind kind : kinds) {
    const auto in = make_input(kind, c.n, c.type, seed += 6);
    Trace t;
    const std::string err = build_trace_cpu(*a, cfg, in, t).message();
    if (too_many_partials(c.algo, c.n, c.block)) {
      EXPECT_NE(err.find("at least"), std::string::npos) << err;
      return;
    }
    ASSERT_EQ(err, "");
    // Inputs are small integers or quarters, so every float sum is exact in any order.
    EXPECT_EQ(final_sum(t), host_sum(in, c.type)) << c.algo << " n=" << c.n << " block=" << c.block;
    EXPECT_NE(t.steps.back().label.find(" = " + format_word(final_sum(t), c.type)), std::string::npos);
  }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  int k = 0;
  for (const char* algo : kReductions)
    for (int n : {1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 1000, 1024, 1025, 2047, 2048, 4095, 4096})
      for (int block : {1, 2, 4, 8, 32, 64, 128, 256, 1024}) {
        ++k;
        v.push_back({algo, n, block, k % 3 == 0 ? ElemType::F32 : k % 3 == 1 ? ElemType::I32 : ElemType::U32});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllReductions, ReduceResult, ::testing::ValuesIn(cases()));

TEST(ReduceTrace, Seed002SampleSums) {
  for (const char* algo : kReductions)
    for (int block : {1, 2, 4, 8, 16}) {
      Trace t = run(algo, kSeed002ScanHead, block);
      EXPECT_EQ(final_sum(t), kSeed002ScanHeadSum) << algo << " block " << block;
    }
}

TEST(ReduceTrace, IntExtremesWrapLikeTheGpu) {
  const std::vector<std::uint32_t> in = {std::uint32_t(INT_MAX), 1u, std::uint32_t(INT_MIN), std::uint32_t(-1),
                                         std::uint32_t(INT_MAX), std::uint32_t(INT_MIN), 5u};
  for (const char* algo : kReductions)
    for (int block : {1, 2, 4, 32}) EXPECT_EQ(final_sum(run(algo, in, block)), host_sum(in, ElemType::I32)) << algo;
}

TEST(ReduceTrace, FloatSpecialValues) {
  std::vector<std::uint32_t> in;
  for (const char* algo : kReductions)
    for (int block : {1, 4, 64}) {
      ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 3 -7.25", ElemType::F32, in).ok());
      EXPECT_EQ(word_to_float(final_sum(run(algo, in, block, ElemType::F32))), std::numeric_limits<float>::infinity());
      ASSERT_TRUE(parse_input_list("1 inf 2 -inf", ElemType::F32, in).ok());
      EXPECT_TRUE(std::isnan(word_to_float(final_sum(run(algo, in, block, ElemType::F32))))) << algo;
      ASSERT_TRUE(parse_input_list("1 2 nan 4 5", ElemType::F32, in).ok());
      EXPECT_TRUE(std::isnan(word_to_float(final_sum(run(algo, in, block, ElemType::F32))))) << algo;
      // -0.0 + -0.0 is -0.0, but the zero padding of a block is +0.0: the sum compares equal to zero.
      ASSERT_TRUE(parse_input_list("-0.0 -0.0 -0.0", ElemType::F32, in).ok());
      EXPECT_EQ(word_to_float(final_sum(run(algo, in, block, ElemType::F32))), 0.0f) << algo;
      ASSERT_TRUE(parse_input_list("1e30 -1e30 0.5", ElemType::F32, in).ok());
      EXPECT_TRUE(std::isfinite(word_to_float(final_sum(run(algo, in, block, ElemType::F32))))) << algo;
    }
}

TEST(ReduceTrace, StepsOfReduce1AndTheSecondPass) {
  // n = 16, block 8: pass 1 = load, s = 1, 2, 4, write (2 partial sums); pass 2 = one block of 2.
  Trace t = run("reduce1", make_input(InputKind::Sorted, 16, ElemType::I32, 1), 8);
  ASSERT_EQ(t.steps.size(), 1u + 5 + 3);
  EXPECT_EQ(t.steps[2].label, "s=1: if (tid % 2 == 0) data[tid] += data[tid+1]");
  EXPECT_EQ(t.steps[3].label, "s=2: if (tid % 4 == 0) data[tid] += data[tid+2]");
  EXPECT_EQ(t.steps[3].launch.active, 2 * 2);  // 2 of 8 threads in each of 2 blocks
  EXPECT_NE(t.steps[5].label.find("2 partial sums"), std::string::npos);
  EXPECT_EQ(t.steps[6].launch.blocks, 1);
  EXPECT_EQ(t.steps[6].launch.threads, 2);
  EXPECT_NE(t.steps.back().label.find("the sum = "), std::string::npos);
  for (const Step& s : t.steps) EXPECT_GE(s.code_line, s.phase == "input" ? -1 : 0);
}

TEST(ReduceTrace, OpsRecordTheTreeOfAdds) {
  Trace t = run("reduce3", make_input(InputKind::Sorted, 16, ElemType::I32, 1), 8);
  // Step 2 is s = 4: thread 9 (block 1, tid 1) adds data[5] into data[1] of block 1 (row position 8 + 1).
  const Step& st = t.steps[2];
  const int shared = 3;
  const Op& op = t.ops[std::size_t(st.op_begin + 9)];
  EXPECT_EQ(op.thread, 9);
  EXPECT_EQ(kind_of(op.kind), OpKind::Add);
  EXPECT_EQ(src_row_of(op.kind), shared);
  EXPECT_EQ(op.src, 13);
  EXPECT_EQ(op.dst, 9);
  EXPECT_EQ(t.row(2, kRowOwner)[9], 9u);
  // Threads 4..7 of each block are idle at s = 4.
  EXPECT_EQ(kind_of(t.ops[std::size_t(st.op_begin + 5)].kind), OpKind::None);
}

struct Totals {
  std::int64_t divergent = 0, conflict = 0, idle = 0, shared = 0, adds = 0, barrier_steps = 0;
};

Totals totals(const std::string& algo, int n, int block) {
  Trace t = run(algo, make_input(InputKind::Random, n, ElemType::I32, 3), block);
  Totals x;
  for (const Step& s : t.steps) {
    x.divergent += s.counters.divergent_warps;
    x.conflict = std::max(x.conflict, s.counters.bank_conflict);
    x.idle += s.launch.launched() - s.launch.active;
    x.shared += s.counters.shared_accesses;
    x.adds += s.counters.adds;
  }
  return x;
}

TEST(ReduceCounters, TheLecturesOrderingIsVisible) {
  const int n = 4096, block = 256;
  const Totals r1 = totals("reduce1", n, block), r2 = totals("reduce2", n, block), r3 = totals("reduce3", n, block),
               r4 = totals("reduce4", n, block), r5 = totals("reduce5", n, block),
               sh = totals("reduce-shuffle", n, block);
  // reduce1: every warp diverges at the low levels; reduce2 packs the active threads.
  EXPECT_GT(r1.divergent, 4 * r2.divergent);
  EXPECT_EQ(r1.conflict, 1);
  // reduce2: the stride-2s addresses conflict, the degree doubling each level.
  EXPECT_GE(r2.conflict, 8);
  // reduce3: conflict-free; it diverges only where fewer than a warp's threads are left.
  EXPECT_EQ(r3.conflict, 1);
  EXPECT_LE(r3.divergent, r2.divergent);
  // reduce4: half the blocks, fewer idle threads.
  EXPECT_LT(r4.idle, r3.idle);
  EXPECT_EQ(r4.conflict, 1);
  // reduce5: the unrolled warp has no branch.
  EXPECT_LT(r5.divergent, r4.divergent);
  EXPECT_EQ(r5.conflict, 1);
  // The shuffle reduction keeps its tree in registers.
  EXPECT_LT(sh.shared, r5.shared / 8);
}

TEST(ReduceCounters, Reduce1DivergesInEveryWarpAtLevelOne) {
  Trace t = run("reduce1", make_input(InputKind::Random, 1024, ElemType::I32, 3), 256);
  EXPECT_EQ(t.steps[2].counters.divergent_warps, 4 * 8);  // 4 blocks x 8 warps
  EXPECT_EQ(t.steps[2].counters.bank_conflict, 1);
  Trace t2 = run("reduce2", make_input(InputKind::Random, 1024, ElemType::I32, 3), 256);
  EXPECT_EQ(t2.steps[2].counters.divergent_warps, 0);
  EXPECT_EQ(t2.steps[2].counters.bank_conflict, 2);  // s = 1: words 0, 2, 4, ... 62
  EXPECT_EQ(t2.steps[3].counters.bank_conflict, 4);  // s = 2
}

TEST(ReduceCounters, Reduce5UnrolledLinesAreWarpSynchronous) {
  Trace t = run("reduce5", make_input(InputKind::Random, 256, ElemType::I32, 3), 128);
  // One block: load, s = 64, then the unrolled s = 32 .. 1, write.
  ASSERT_EQ(t.steps.size(), 1u + 1 + 1 + 6 + 1);
  for (int s = 3; s <= 8; ++s) {
    EXPECT_EQ(t.steps[std::size_t(s)].phase, "pass 1");
    EXPECT_EQ(t.steps[std::size_t(s)].counters.divergent_warps, 0) << t.steps[std::size_t(s)].label;
    EXPECT_EQ(t.steps[std::size_t(s)].launch.active, 32);
  }
}

// Kernel 6 loads, adds and touches shared memory as reduce5 does, in the same order: the same
// values and counters at every step; each tree step highlights its own `if (blockSize >= 2s)` line.
TEST(ReduceCounters, Reduce6DoesReduce5sWorkOnItsUnrolledLines) {
  for (int block : {1, 8, 32, 128, 1024}) {
    const auto in = make_input(InputKind::Random, 3000, ElemType::I32, 3);
    const Trace t5 = run("reduce5", in, block), t6 = run("reduce6", in, block);
    ASSERT_EQ(t5.steps.size(), t6.steps.size()) << block;
    EXPECT_EQ(t5.values, t6.values) << block;
    for (std::size_t k = 1; k < t6.steps.size(); ++k) {
      const Step& s = t6.steps[k];
      EXPECT_TRUE(t5.steps[k].counters == s.counters) << block << ": " << s.label;
      const std::size_t at = s.label.find("blockSize >= ");
      if (at == std::string::npos) continue;
      const std::string stride = s.label.substr(at + 13, s.label.find(':', at) - at - 13);
      EXPECT_NE(t6.code[std::size_t(s.code_line)].find("if (blockSize >= " + stride + ")"), std::string::npos)
          << s.label << " highlights " << t6.code[std::size_t(s.code_line)];
    }
  }
}

// Kernel 7: a small grid whose threads sum many elements each (one step per round of the
// grid-stride loop) pays the tree's shared traffic once per block, for far fewer blocks.
TEST(ReduceCounters, Reduce7SumsManyElementsAThreadBeforeTheTree) {
  const int n = 4096, block = 256;
  Trace t = run("reduce7", make_input(InputKind::Random, n, ElemType::I32, 3), block);
  // About log2(n) = 12 elements a thread: 6 rounds, so 2 blocks and 4096 / 1024 = 4 rounds.
  int rounds = 0;
  std::int64_t read = 0;
  for (const Step& s : t.steps)
    if (s.label.rfind("round ", 0) == 0) {
      ++rounds;
      EXPECT_EQ(s.launch.blocks, 2);
      EXPECT_EQ(s.launch.active, 2 * block);
      EXPECT_EQ(s.counters.shared_accesses, 0);
      read += s.counters.global_read_bytes;
    }
  EXPECT_EQ(rounds, 4);
  EXPECT_EQ(read, 4 * n);
  const Totals r6 = totals("reduce6", n, block), r7 = totals("reduce7", n, block);
  EXPECT_LT(3 * r7.shared, r6.shared);
  EXPECT_EQ(r7.conflict, 1);
}

TEST(ReduceTrace, BadConfigsAreRejectedWithAMessage) {
  StepConfig cfg;
  Trace t;
  cfg.n = 4096;
  cfg.block = 2;
  const std::string err = build_trace_cpu(*find_algorithm("reduce1"), cfg, std::vector<std::uint32_t>(4096), t).message();
  EXPECT_NE(err.find("at least 4"), std::string::npos) << err;
  EXPECT_TRUE(ok(build_trace_cpu(*find_algorithm("reduce4"), cfg, std::vector<std::uint32_t>(4096), t)));
  cfg.n = 8;
  cfg.block = 6;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("reduce3"), cfg, std::vector<std::uint32_t>(8), t)));
  cfg.block = 4;
  cfg.n = 0;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("reduce-shuffle"), cfg, {}, t)));
}

}  // namespace
