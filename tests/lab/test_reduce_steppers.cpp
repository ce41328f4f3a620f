// CPU reference reductions (reduce1..reduce7, warp shuffle): the sum against a host reference for
// many n, and for every block, type and option each row's limits allow; the steps of the listed
// host loop (one launch a pass until one block is left, the partial sums handed from pass to pass
// through the workspace's two arrays); and the counters that make the lecture's ordering visible
// (reduce1 diverges, reduce2 conflicts in the banks, reduce3 neither, reduce4 idles less, reduce5
// diverges less, reduce6 adds as reduce5 does, reduce7 pays the tree once for many elements a
// thread, the shuffle touches almost no shared memory).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

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

std::vector<const Algorithm*> reductions() {
  std::vector<const Algorithm*> v;
  for (const char* name : test::family("reduce")) v.push_back(find_algorithm(name));
  return v;
}

// The blocks of a ladder that the row accepts.
std::vector<int> blocks_of(const Algorithm& a, std::initializer_list<int> ladder) {
  std::vector<int> v;
  for (int b : ladder)
    if (b >= a.min_block && b <= a.max_block && (!a.block_pow2 || (b & (b - 1)) == 0)) v.push_back(b);
  return v;
}

std::vector<ElemType> types_of(const Algorithm& a) {
  std::vector<ElemType> v = {ElemType::I32};
  if (a.options & kOptFloat) v.push_back(ElemType::F32);
  if (a.options & kOptU32) v.push_back(ElemType::U32);
  return v;
}

std::uint32_t final_sum(const Trace& t) { return t.row(t.steps.size() - 1, t.rows.size() - 1)[0]; }

std::uint32_t host_sum(const std::vector<std::uint32_t>& in, ElemType t) {
  if (t == ElemType::F32) {
    float acc = 0.f;
    for (std::uint32_t w : in) acc += word_to_float(w);
    return to_word(acc);
  }
  return std::accumulate(in.begin(), in.end(), 0u);  // two's-complement wrap, as int32 on the GPU
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

int row_named(const Trace& t, const std::string& prefix) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind(prefix, 0) == 0) return int(r);
  return -1;
}

// The steps that start a launch: one a pass of the host loop.
std::vector<std::size_t> launch_steps(const Trace& t) {
  std::vector<std::size_t> v;
  for (std::size_t s = 1; s < t.steps.size(); ++s)
    if (!t.steps[s].barrier) v.push_back(s);
  return v;
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
  ASSERT_TRUE(ok(validate(*a, cfg)));
  const InputKind kinds[] = {InputKind::Random, InputKind::Sorted, InputKind::Reversed, InputKind::AllEqual,
                             InputKind::FewDistinct};
  std::uint32_t seed = 1;
  for (InputKind kind : kinds) {
    const auto in = make_input(kind, c.n, c.type, seed += 6);
    Trace t;
    ASSERT_EQ(build_trace_cpu(*a, cfg, in, t).message(), "");
    // Inputs are small integers or quarters, so every float sum is exact in any order.
    EXPECT_EQ(final_sum(t), host_sum(in, c.type)) << c.algo << " n=" << c.n << " block=" << c.block;
    EXPECT_NE(t.steps.back().label.find(" = " + format_word(final_sum(t), c.type)), std::string::npos);
  }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  int k = 0;
  for (const Algorithm* a : reductions()) {
    const std::vector<ElemType> types = types_of(*a);
    for (int n : {1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 1000, 1024, 1025, 2047, 2048, 4095, 4096})
      for (int block : blocks_of(*a, {1, 2, 4, 8, 32, 64, 128, 256, 1024}))
        if (n <= a->max_n) v.push_back({a->name, n, block, types[std::size_t(k++) % types.size()]});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllReductions, ReduceResult, ::testing::ValuesIn(cases()));

TEST(ReduceTrace, Seed002SampleSums) {
  for (const Algorithm* a : reductions())
    for (int block : blocks_of(*a, {1, 2, 4, 8, 16})) {
      Trace t = run(a->name, kSeed002ScanHead, block);
      EXPECT_EQ(final_sum(t), kSeed002ScanHeadSum) << a->name << " block " << block;
    }
}

TEST(ReduceTrace, IntExtremesWrapLikeTheGpu) {
  const std::vector<std::uint32_t> in = {std::uint32_t(INT_MAX), 1u, std::uint32_t(INT_MIN), std::uint32_t(-1),
                                         std::uint32_t(INT_MAX), std::uint32_t(INT_MIN), 5u};
  for (const Algorithm* a : reductions())
    for (int block : blocks_of(*a, {1, 2, 4, 32}))
      EXPECT_EQ(final_sum(run(a->name, in, block)), host_sum(in, ElemType::I32)) << a->name;
}

TEST(ReduceTrace, FloatSpecialValues) {
  std::vector<std::uint32_t> in;
  for (const Algorithm* a : reductions()) {
    if (!(a->options & kOptFloat)) continue;
    for (int block : blocks_of(*a, {1, 4, 64})) {
      ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 3 -7.25", ElemType::F32, in).ok());
      EXPECT_EQ(word_to_float(final_sum(run(a->name, in, block, ElemType::F32))), std::numeric_limits<float>::infinity());
      ASSERT_TRUE(parse_input_list("1 inf 2 -inf", ElemType::F32, in).ok());
      EXPECT_TRUE(std::isnan(word_to_float(final_sum(run(a->name, in, block, ElemType::F32))))) << a->name;
      ASSERT_TRUE(parse_input_list("1 2 nan 4 5", ElemType::F32, in).ok());
      EXPECT_TRUE(std::isnan(word_to_float(final_sum(run(a->name, in, block, ElemType::F32))))) << a->name;
      // -0.0 + -0.0 is -0.0, but the zero padding of a block is +0.0: the sum compares equal to zero.
      ASSERT_TRUE(parse_input_list("-0.0 -0.0 -0.0", ElemType::F32, in).ok());
      EXPECT_EQ(word_to_float(final_sum(run(a->name, in, block, ElemType::F32))), 0.0f) << a->name;
      ASSERT_TRUE(parse_input_list("1e30 -1e30 0.5", ElemType::F32, in).ok());
      EXPECT_TRUE(std::isfinite(word_to_float(final_sum(run(a->name, in, block, ElemType::F32))))) << a->name;
    }
  }
}

// [SECTION] The host loop: one launch a pass, the same block, until one block is left
TEST(ReduceTrace, StepsOfReduce1AndItsSecondPass) {
  // n = 16, block 8: pass 1 = load, s = 1, 2, 4, write (2 partial sums in buf[0]); pass 2 runs the
  // same kernel, 8 threads, over the 2 partial sums and writes d_out.
  const std::vector<std::uint32_t> in = make_input(InputKind::Sorted, 16, ElemType::I32, 1);
  Trace t = run("reduce1", in, 8);
  ASSERT_EQ(t.steps.size(), 1u + 5 + 5);
  EXPECT_EQ(launch_steps(t), (std::vector<std::size_t>{1, 6}));
  EXPECT_EQ(t.steps[2].label, "s=1: if (tid % 2 == 0) sdata[tid] += sdata[tid+1]");
  EXPECT_EQ(t.steps[3].label, "s=2: if (tid % 4 == 0) sdata[tid] += sdata[tid+2]");
  EXPECT_EQ(t.steps[3].launch.active, 2 * 2);  // 2 of 8 threads in each of 2 blocks
  EXPECT_NE(t.steps[5].label.find("2 partial sums in buf[0]"), std::string::npos) << t.steps[5].label;
  EXPECT_EQ(t.steps[6].label.rfind("pass 2 (1 block over 2 partial sums): load", 0), 0u) << t.steps[6].label;
  EXPECT_EQ(t.steps[6].launch.blocks, 1);
  EXPECT_EQ(t.steps[6].launch.threads, 8);
  EXPECT_EQ(t.steps[6].phase, "pass 2");
  EXPECT_EQ(t.steps[8].launch.active, 2);  // s = 2 in pass 2: 8 / 4 threads
  EXPECT_NE(t.steps.back().label.find("the sum = "), std::string::npos);
  EXPECT_EQ(t.totals(t.steps.size() - 1).launches, 2);
  // buf[0] holds pass 1's two sums, buf[1] none: the second pass writes d_out.
  const int buf0 = row_named(t, "buf[0]"), buf1 = row_named(t, "buf[1]");
  ASSERT_GE(buf0, 0);
  ASSERT_GE(buf1, 0);
  EXPECT_EQ(t.rows[std::size_t(buf0)].length, 2);
  EXPECT_EQ(t.rows[std::size_t(buf1)].length, 0);
  EXPECT_EQ(t.row(5, std::size_t(buf0))[0], std::accumulate(in.begin(), in.begin() + 8, 0u));
  EXPECT_EQ(t.row(5, std::size_t(buf0))[1], std::accumulate(in.begin() + 8, in.end(), 0u));
  for (const Step& s : t.steps) EXPECT_GE(s.code_line, s.phase == "input" ? -1 : 0);
}

TEST(ReduceTrace, OnePassNeedsNoWorkspaceRows) {
  for (const Algorithm* a : reductions()) {
    Trace t = run(a->name, make_input(InputKind::Random, 8, ElemType::I32, 1), 8);
    EXPECT_EQ(launch_steps(t).size(), 1u) << a->name;
    EXPECT_EQ(row_named(t, "buf["), -1) << a->name;
    EXPECT_EQ(t.rows.back().name, "d_out: the sum") << a->name;
  }
}

// Every pass reads exactly the partial sums the pass before wrote: the write step's ops name the
// row and the words, the next launch's loads read that row, those words and no others.
TEST(ReduceTrace, EachPassReadsThePartialSumsOfThePassBefore) {
  for (const Algorithm* a : reductions())
    for (int block : blocks_of(*a, {1, 2, 32})) {
      SCOPED_TRACE(std::string(a->name) + " block " + std::to_string(block));
      const Trace t = run(a->name, make_input(InputKind::Random, 3000, ElemType::I32, 5), block);
      const std::vector<std::size_t> launches = launch_steps(t);
      ASSERT_GE(launches.size(), 2u);
      for (std::size_t k = 0; k + 1 < launches.size(); ++k) {
        const Step& write = t.steps[launches[k + 1] - 1];
        const Step& load = t.steps[launches[k + 1]];
        std::set<std::pair<int, std::int32_t>> written, read;
        for (std::int64_t o = write.op_begin; o < write.op_begin + write.op_count(); ++o)
          if (kind_of(t.ops[std::size_t(o)].kind) != OpKind::None)
            written.insert({dst_row_of(t.ops[std::size_t(o)].kind), t.ops[std::size_t(o)].dst});
        ASSERT_FALSE(written.empty());
        const int partial_row = written.begin()->first;
        for (std::int64_t o = load.op_begin; o < load.op_begin + load.op_count(); ++o) {
          const Op& op = t.ops[std::size_t(o)];
          EXPECT_NE(op.src >= 0 ? src_row_of(op.kind) : -1, kRowMain) << "pass " << k + 2 << " reads x";
          if (op.src >= 0 && src_row_of(op.kind) == partial_row) read.insert({partial_row, op.src});
        }
        EXPECT_EQ(written, read) << "pass " << k + 2;
        EXPECT_EQ(std::int64_t(written.size()), t.steps[launches[k]].launch.blocks) << "one partial sum a block";
        EXPECT_NE(partial_row, kRowMain) << "a partial sum overwrote x";
      }
      // The passes alternate between buf[0] and buf[1]; the last writes d_out.
      EXPECT_EQ(dst_row_of(t.ops[std::size_t(t.steps.back().op_begin)].kind), int(t.rows.size()) - 1);
    }
}

TEST(ReduceTrace, BlocksOfOneThreadShrinkWithTwoFromThePassAfter) {
  // The host loop's `b = std::max(b, 2)`: a pass of one-thread blocks over n would leave n sums.
  Trace t = run("reduce1", make_input(InputKind::Random, 100, ElemType::I32, 1), 1);
  const std::vector<std::size_t> launches = launch_steps(t);
  ASSERT_EQ(launches.size(), 1u + 7);  // 100 -> 50 -> 25 -> 13 -> 7 -> 4 -> 2 -> 1
  EXPECT_EQ(t.steps[launches[0]].launch.threads, 1);
  EXPECT_EQ(t.steps[launches[0]].launch.blocks, 100);
  for (std::size_t k = 1; k < launches.size(); ++k) EXPECT_EQ(t.steps[launches[k]].launch.threads, 2);
  EXPECT_EQ(t.steps[launches[1]].launch.blocks, 50);
  EXPECT_EQ(t.steps[launches.back()].launch.blocks, 1);
}

TEST(ReduceTrace, ManyBlocksOfTwoTakeTwelvePasses) {
  // 4096 elements in blocks of 2 threads: 2048 partial sums, then 1024, ... 1: the plan no longer
  // refuses what one block cannot add, it launches again.
  Trace t = run("reduce1", make_input(InputKind::Random, 4096, ElemType::I32, 1), 2);
  EXPECT_EQ(launch_steps(t).size(), 12u);
}

TEST(ReduceTrace, OpsRecordTheTreeOfAdds) {
  Trace t = run("reduce3", make_input(InputKind::Sorted, 16, ElemType::I32, 1), 8);
  // Step 2 is s = 4: thread 9 (block 1, tid 1) adds sdata[5] into sdata[1] of block 1 (row position 8 + 1).
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

// [SECTION] The counters
struct Totals {
  std::int64_t divergent = 0, conflict = 0, idle = 0, shared = 0, adds = 0, read = 0;
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
    x.read += s.counters.global_read_bytes;
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
  // Every variant reads every element once in its first pass (and the partial sums after).
  for (const Totals& x : {r1, r2, r3, r4, r5, sh}) EXPECT_GE(x.read, 4 * n);
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

// reduce4 counts its load's `if (i + blockDim.x < n)`: only the warp that straddles n diverges.
TEST(ReduceCounters, Reduce4LoadDivergesWhereTheSecondHalfEnds) {
  Trace t = run("reduce4", make_input(InputKind::Random, 64 + 40, ElemType::I32, 3), 64);
  // One block of 64 threads over 104 elements: threads 0..39 add in[i + 64], 40..63 do not.
  EXPECT_EQ(t.steps[1].counters.divergent_warps, 1);
  EXPECT_EQ(t.steps[1].counters.adds, 40);
  EXPECT_EQ(t.steps[1].counters.global_read_bytes, 4 * 104);
}

TEST(ReduceCounters, Reduce5UnrolledLinesAreWarpSynchronous) {
  Trace t = run("reduce5", make_input(InputKind::Random, 256, ElemType::I32, 3), 128);
  // One block: load, s = 64, then the unrolled s = 32 .. 1, write.
  ASSERT_EQ(t.steps.size(), 1u + 1 + 1 + 6 + 1);
  for (int s = 3; s <= 8; ++s) {
    const Step& st = t.steps[std::size_t(s)];
    EXPECT_TRUE(st.barrier);
    EXPECT_EQ(st.counters.divergent_warps, 0) << st.label;
    EXPECT_EQ(st.launch.active, 32);
    // v lives in a register: each line reads sdata[tid + s] and writes sdata[tid], and the first
    // line also reads sdata[tid] into v.
    EXPECT_EQ(st.counters.shared_accesses, (s == 3 ? 3 : 2) * 32) << st.label;
  }
  // The load zeroes sdata[tid + 128], which the warp's upper lanes read below 64 threads.
  EXPECT_EQ(t.steps[1].ops_per_thread, 3);
  EXPECT_EQ(t.steps[1].counters.shared_accesses, 2 * 128);
}

// Kernel 6 loads and adds as reduce5 does: the same values in every array at every step, the same
// adds and global bytes; its warp_line reads both words each line where reduce5 keeps v in a
// register, and from 64 threads it pads nothing (the touch flags differ there). Each tree step
// highlights its own `if (blockSize >= 2s)` line.
TEST(ReduceCounters, Reduce6AddsAsReduce5DoesOnItsUnrolledLines) {
  const Algorithm& r6 = *find_algorithm("reduce6");
  // Not blocks of one thread: the lecture's loop takes two threads from its second pass on, reduce6's
  // keeps its block.
  for (int block : blocks_of(r6, {2, 8, 32, 128, 1024})) {
    SCOPED_TRACE("block " + std::to_string(block));
    const auto in = make_input(InputKind::Random, 3000, ElemType::I32, 3);
    const Trace t5 = run("reduce5", in, block), t6 = run("reduce6", in, block);
    ASSERT_EQ(t5.steps.size(), t6.steps.size());
    ASSERT_EQ(t5.rows.size(), t6.rows.size());
    for (std::size_t k = 0; k < t6.steps.size(); ++k)
      for (std::size_t r = 0; r < t6.rows.size(); ++r)
        if (r != kRowTouch && r != kRowOwner)
          ASSERT_TRUE(std::equal(t5.row(k, r), t5.row(k, r) + t5.width, t6.row(k, r)))
              << "step " << k << " row " << t6.rows[r].name;
    for (std::size_t k = 1; k < t6.steps.size(); ++k) {
      const Step& s = t6.steps[k];
      EXPECT_EQ(t5.steps[k].counters.adds, s.counters.adds) << s.label;
      EXPECT_EQ(t5.steps[k].counters.global_read_bytes, s.counters.global_read_bytes) << s.label;
      EXPECT_EQ(t5.steps[k].counters.global_write_bytes, s.counters.global_write_bytes) << s.label;
      EXPECT_EQ(t5.steps[k].launch, s.launch) << s.label;
      const std::size_t at = s.label.find("blockSize >= ");
      if (at == std::string::npos) continue;
      const std::string stride = s.label.substr(at + 13, s.label.find(':', at) - at - 13);
      EXPECT_NE(t6.code[std::size_t(s.code_line)].find("if (blockSize >= " + stride + ")"), std::string::npos)
          << s.label << " highlights " << t6.code[std::size_t(s.code_line)];
      ASSERT_EQ(s.also_lit.size(), 1u);
      const std::string helper = s.label.find("warp_line") != std::string::npos ? "d[tid]" : "if (tid < s)";
      EXPECT_NE(t6.code[std::size_t(s.also_lit[0])].find(helper), std::string::npos) << t6.code[std::size_t(s.also_lit[0])];
    }
  }
}

// Kernel 7: a small grid whose threads sum many elements each in one grid-stride loop pays the
// tree's shared traffic once per block, for far fewer blocks.
TEST(ReduceCounters, Reduce7SumsManyElementsAThreadBeforeTheTree) {
  const int n = 4096, block = 256;
  Trace t = run("reduce7", make_input(InputKind::Random, n, ElemType::I32, 3), block);
  // About log2(n) = 12 elements a thread: 6 pairs, so 2 blocks, whose gridSize of 1024 covers
  // the input in 4 rounds; the loop and the store are one step (no barrier between them).
  const Step& loop = t.steps[1];
  EXPECT_EQ(loop.launch.blocks, 2);
  EXPECT_NE(loop.label.find("gridSize = 1024"), std::string::npos) << loop.label;
  EXPECT_NE(loop.label.find("(4 rounds)"), std::string::npos) << loop.label;
  EXPECT_EQ(loop.ops_per_thread, 2 * 4 + 1);
  EXPECT_EQ(loop.counters.global_read_bytes, 4 * n);
  EXPECT_EQ(loop.counters.shared_accesses, 2 * block);  // the store only
  EXPECT_EQ(loop.counters.divergent_warps, 0);           // n is a multiple of gridSize
  ASSERT_EQ(loop.also_lit.size(), 1u);
  EXPECT_NE(t.code[std::size_t(loop.also_lit[0])].find("sdata[tid] = sum"), std::string::npos);
  const Totals r6 = totals("reduce6", n, block), r7 = totals("reduce7", n, block);
  // A block of either makes the same shared accesses (its store, its tree); reduce6 runs 8 + 1
  // blocks, reduce7 2 + 1.
  EXPECT_EQ(3 * r7.shared, r6.shared);
  EXPECT_EQ(r7.conflict, 1);
}

TEST(ReduceCounters, Reduce7LoopDivergesWhereLanesLeaveItEarly) {
  // 2900 elements: 12 elements a thread at most, so 2 blocks of 128 threads and gridSize 512; the
  // lanes with i0 + 5 * 512 < 2900 (i0 < 340) run 6 rounds, the others 5. Block 1's i0 are
  // 256 + tid: only its warp of tids 64..95 holds both kinds of lane, and diverges once.
  Trace t = run("reduce7", make_input(InputKind::Random, 2900, ElemType::I32, 3), 128);
  const Step& loop = t.steps[1];
  EXPECT_EQ(loop.launch.blocks, 2);
  EXPECT_NE(loop.label.find("(6 rounds)"), std::string::npos) << loop.label;
  EXPECT_EQ(loop.counters.divergent_warps, 1);
  EXPECT_EQ(loop.counters.global_read_bytes, 4 * 2900);
}

TEST(ReduceTrace, BadConfigsAreRejectedWithAMessage) {
  StepConfig cfg;
  Trace t;
  cfg.n = 8;
  cfg.block = 6;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("reduce3"), cfg, std::vector<std::uint32_t>(8), t)));
  cfg.block = 4;
  cfg.n = 0;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("reduce-shuffle"), cfg, {}, t)));
}

}  // namespace
