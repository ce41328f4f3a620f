// CPU reference radix partitions: the stable one equals a stable counting sort by digit (std::stable_sort
// on the digit) exactly; the atomic one has the host histogram and offsets and the same multiset in
// every partition, and its order inside a partition follows StepConfig::seed. Digit = bits
// [digit_start, digit_start + log2 bins) of the key's bit pattern; bad configs are rejected. The
// steps follow radix_partition.cuh's host code: the histogram kernel (count, then after its barrier
// flush or store), the scan, the reorder; rows are the kernels' arrays (radix_partition.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "lab/algorithms/partition/radix_partition/radix_partition.h"
#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;
using namespace primlab::lab;  // the rows

namespace {

std::vector<std::uint32_t> row_at(const Trace& t, std::size_t step, int r) {
  const std::uint32_t* p = t.row(step, std::size_t(r));
  return {p, p + t.rows[std::size_t(r)].length};
}

std::vector<std::uint32_t> final_row(const Trace& t, int r) { return row_at(t, t.steps.size() - 1, r); }

std::uint32_t digit(std::uint32_t key, int start, int parts) { return (key >> start) & std::uint32_t(parts - 1); }

std::vector<std::uint32_t> stable_by_digit(std::vector<std::uint32_t> keys, int start, int parts) {
  std::stable_sort(keys.begin(), keys.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return digit(a, start, parts) < digit(b, start, parts); });
  return keys;
}

std::vector<std::uint32_t> host_offsets(const std::vector<std::uint32_t>& keys, int start, int parts) {
  std::vector<std::uint32_t> h(std::size_t(parts), 0u), off(std::size_t(parts), 0u);
  for (std::uint32_t k : keys) ++h[digit(k, start, parts)];
  for (int d = 1; d < parts; ++d) off[std::size_t(d)] = off[std::size_t(d - 1)] + h[std::size_t(d - 1)];
  return off;
}

Trace build(const char* algo, const StepConfig& cfg, const std::vector<std::uint32_t>& in) {
  Trace t;
  EXPECT_TRUE(ok(build_trace_cpu(*find_algorithm(algo), cfg, in, t))) << algo;
  return t;
}

// Keys spread over the whole 32-bit range (the UI's values are 0..9).
std::vector<std::uint32_t> wide_keys(InputKind kind, int n, std::uint32_t seed) {
  auto in = make_input(kind, n, ElemType::I32, seed);
  for (auto& w : in) w = w * 0x9E3779B9u + (seed << 7);
  return in;
}

struct Case {
  int n, block, parts, start;
  ElemType type;
  InputKind kind;
};

class PartitionResult : public ::testing::TestWithParam<Case> {};

TEST_P(PartitionResult, MatchesHostReference) {
  const Case c = GetParam();
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.bins = c.parts;
  cfg.digit_start = c.start;
  cfg.type = c.type;
  for (std::uint32_t seed : {0u, 1u, 5u}) {
    cfg.seed = seed;
    const auto in = seed == 5u ? make_input(c.kind, c.n, c.type, seed) : wide_keys(c.kind, c.n, seed + 1);
    const auto want = stable_by_digit(in, c.start, c.parts);
    const auto offs = host_offsets(in, c.start, c.parts);

    Trace s = build("partition-stable", cfg, in);
    ASSERT_EQ(final_row(s, kPartStableOut), want)
        << "stable n=" << c.n << " block=" << c.block << " parts=" << c.parts << " start=" << c.start;
    // Offsets [digit][block]: the first column is the partition offsets.
    const int blocks = s.steps[1].launch.blocks;
    const auto sc = final_row(s, kPartOffsets);
    for (int d = 0; d < c.parts; ++d) ASSERT_EQ(sc[std::size_t(d * blocks)], offs[std::size_t(d)]);

    Trace a = build("partition-atomic", cfg, in);
    ASSERT_EQ(final_row(a, kPartOffsets), offs);
    const auto out = final_row(a, kPartAtomicOut);
    // Same multiset in every partition (sorting each partition of both gives the same array).
    auto got = out, ref = want;
    for (int d = 0; d < c.parts; ++d) {
      const std::size_t lo = offs[std::size_t(d)], hi = d + 1 < c.parts ? offs[std::size_t(d + 1)] : std::size_t(c.n);
      std::sort(got.begin() + lo, got.begin() + hi);
      std::sort(ref.begin() + lo, ref.begin() + hi);
    }
    ASSERT_EQ(got, ref) << "atomic n=" << c.n << " block=" << c.block << " parts=" << c.parts;
    // The cursors end at the histogram.
    const auto fill = final_row(a, kPartFill);
    const auto hist = final_row(a, kPartCounts);
    ASSERT_EQ(fill, hist);
    // Counters that follow from the algorithm.
    const Counters ta = a.totals(a.steps.size() - 1);
    EXPECT_EQ(ta.atomics, 2 * c.n + std::int64_t(a.steps[1].launch.blocks) * c.parts);
    EXPECT_EQ(s.totals(s.steps.size() - 1).atomics, c.n);
    // Seed 0 takes the atomics in thread order: one block, one round is then stable.
    if (seed == 0 && a.steps[1].launch.blocks == 1 && a.steps[1].ops_per_thread == 1) {
      EXPECT_EQ(out, want);
    }
  }
}

// Sizes around warp, block and tile edges; blocks, partitions and key types from what every
// partition row takes (its limits and options).
std::vector<Case> cases() {
  int min_block = 1, max_block = 1024, max_parts = 4096;
  bool u32 = true;
  for (const char* algo : test::family("partition")) {
    const Algorithm& a = *find_algorithm(algo);
    min_block = std::max(min_block, a.min_block);
    max_block = std::min(max_block, a.max_block);
    max_parts = std::min(max_parts, a.max_bins);
    u32 = u32 && (a.options & kOptU32);
  }
  std::vector<Case> v;
  const InputKind kinds[] = {InputKind::Random, InputKind::Sorted, InputKind::Reversed, InputKind::AllEqual,
                             InputKind::FewDistinct};
  int k = 0;
  for (int n : {1, 2, 3, 7, 31, 32, 33, 100, 255, 256, 257, 1000, 1024, 4095, 4096})
    for (int block : {min_block, 3, 8, 32, 33, 64, 256, max_block})
      for (int parts : {2, 4, 16, 256, max_parts}) {
        if (block < min_block || block > max_block || parts > max_parts) continue;
        if (block == 1 && n > 1024 && parts < 256) continue;  // thousands of one-thread blocks: slow to no purpose
        ++k;
        const int bits = __builtin_ctz(unsigned(parts));
        const int starts[] = {0, 3, 32 - bits, 7};
        v.push_back({n, block, parts, std::min(starts[k % 4], 32 - bits), u32 && k % 3 == 0 ? ElemType::U32 : ElemType::I32,
                     kinds[k % 5]});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllPartitions, PartitionResult, ::testing::ValuesIn(cases()));

TEST(PartitionTrace, ExtremeKeysUseTheirBitPattern) {
  const std::vector<std::uint32_t> in = {std::uint32_t(INT_MIN), std::uint32_t(INT_MAX),
                                         std::uint32_t(-1),      0u,
                                         std::uint32_t(INT_MIN), 1u,
                                         std::uint32_t(-2),      0x40000000u};
  StepConfig cfg;
  cfg.n = int(in.size());
  cfg.block = 4;
  cfg.bins = 4;
  cfg.digit_start = 30;  // the two top bits: INT_MIN -> 2, INT_MAX -> 1, -1 -> 3, 0 -> 0
  for (ElemType ty : {ElemType::I32, ElemType::U32}) {
    cfg.type = ty;
    Trace s = build("partition-stable", cfg, in);
    EXPECT_EQ(final_row(s, kPartStableOut),
              (std::vector<std::uint32_t>{0u, 1u, std::uint32_t(INT_MAX), 0x40000000u, std::uint32_t(INT_MIN),
                                          std::uint32_t(INT_MIN), std::uint32_t(-1), std::uint32_t(-2)}));
    Trace a = build("partition-atomic", cfg, in);
    EXPECT_EQ(final_row(a, kPartOffsets), (std::vector<std::uint32_t>{0, 2, 4, 6}));
  }
}

TEST(PartitionTrace, AtomicOrderFollowsTheSeed) {
  // Many equal digits across threads: the order inside a partition changes with the seed.
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 16;
  cfg.bins = 2;
  const auto in = make_input(InputKind::Sorted, 64, ElemType::I32, 1);
  const auto want = stable_by_digit(in, 0, 2);
  int differ = 0;
  for (std::uint32_t seed = 1; seed < 5; ++seed) {
    cfg.seed = seed;
    Trace a = build("partition-atomic", cfg, in);
    differ += final_row(a, kPartAtomicOut) != want;
  }
  EXPECT_GT(differ, 0) << "the atomic reorder should not look stable for every seed";
  cfg.seed = 0;
  Trace a0 = build("partition-atomic", cfg, in);
  EXPECT_EQ(final_row(a0, kPartAtomicOut), want);  // one round: thread order is input order
  EXPECT_NE(a0.steps.back().label.find("not stable"), std::string::npos);
}

TEST(PartitionTrace, StepsFollowTheHostCode) {
  StepConfig cfg;
  cfg.n = 16;
  cfg.block = 8;
  cfg.bins = 4;
  cfg.digit_start = 1;
  const auto in = make_input(InputKind::Random, 16, ElemType::I32, 1);
  // Three launches each: the histogram kernel (count, then after its barrier flush or store), the
  // scan, the reorder.
  Trace a = build("partition-atomic", cfg, in);
  Trace s = build("partition-stable", cfg, in);
  for (Trace* t : {&a, &s}) {
    ASSERT_EQ(t->steps.size(), 5u) << t->algo;
    const std::vector<bool> barrier = {false, false, true, false, false};
    for (std::size_t k = 1; k < t->steps.size(); ++k) {
      EXPECT_EQ(t->steps[k].barrier, barrier[k]) << t->algo << " step " << k;
      EXPECT_EQ(t->steps[k].launch.blocks, k == 3 ? 1 : 2) << t->algo << " step " << k;
      EXPECT_GE(t->steps[k].code_line, 0);
      EXPECT_LT(t->steps[k].code_line, int(t->code.size()));
    }
    EXPECT_EQ(t->totals(t->steps.size() - 1).launches, 3);
    EXPECT_NE(t->steps[1].label.find("bits [1, 3)"), std::string::npos);
    EXPECT_EQ(t->steps[1].focus_row, kPartShared);
    EXPECT_EQ(t->rows[kPartDigit].name, "digit = bfe(key, 1, 2) (registers)");
    EXPECT_EQ(t->rows[kPartShared].length, 2 * 4);  // two blocks of four counters
    EXPECT_TRUE(std::any_of(t->code.begin(), t->code.end(),
                            [](const std::string& l) { return l.find("bfe.u32") != std::string::npos; }));
  }
  // The scan: one block of min(B, L) threads, L = P counts (atomic) or P x blocks (stable).
  EXPECT_EQ(s.steps[3].launch, (LaunchShape{1, 8, 8}));
  EXPECT_EQ(a.steps[2].phase, "flush");
  EXPECT_EQ(s.steps[2].phase, "store");
  EXPECT_EQ(a.steps[3].launch, (LaunchShape{1, 4, 4}));
  EXPECT_EQ(a.steps[4].focus_row, kPartAtomicOut);
  EXPECT_EQ(s.rows[kPartCounts].length, 4 * 2);
  // 4096 partitions on 4096 keys: two blocks of the grid hold the 8192 counters.
  cfg.n = 4096;
  cfg.block = 256;
  cfg.bins = 4096;
  cfg.digit_start = 0;
  Trace big = build("partition-stable", cfg, make_input(InputKind::Random, 4096, ElemType::I32, 2));
  EXPECT_EQ(big.steps[1].launch.blocks, 2);
  EXPECT_EQ(big.steps[1].ops_per_thread, 8);
}

// The rows hold what the kernels' arrays hold, when they hold it: the digits (registers) from the
// count step on, each block's shared histogram, and the stable variant's digit-major store.
TEST(PartitionTrace, RowsAreTheKernelsArrays) {
  StepConfig cfg;
  cfg.n = 100;
  cfg.block = 16;
  cfg.bins = 8;
  cfg.digit_start = 2;
  const auto in = make_input(InputKind::Random, 100, ElemType::U32, 3);
  for (const char* algo : test::family("partition")) {
    SCOPED_TRACE(algo);
    Trace t = build(algo, cfg, in);
    const int blocks = t.steps[1].launch.blocks, rounds = t.steps[1].ops_per_thread;
    ASSERT_EQ(blocks * rounds * 16 >= 100, true);
    EXPECT_EQ(row_at(t, 0, kPartDigit), std::vector<std::uint32_t>(100, 0u)) << "no digit before the kernel";
    const auto digits = row_at(t, 1, kPartDigit);
    for (int i = 0; i < 100; ++i) ASSERT_EQ(digits[std::size_t(i)], digit(in[std::size_t(i)], 2, 8)) << i;
    const auto sh = row_at(t, 1, kPartShared);
    for (int b = 0; b < blocks; ++b)
      for (int d = 0; d < 8; ++d) {
        std::uint32_t want = 0;
        for (int i = b * rounds * 16; i < std::min(100, (b + 1) * rounds * 16); ++i)
          want += digit(in[std::size_t(i)], 2, 8) == std::uint32_t(d);
        ASSERT_EQ(sh[std::size_t(b * 8 + d)], want) << "block " << b << " digit " << d;
      }
    const auto counts = row_at(t, 2, kPartCounts);
    if (t.algo == "partition-stable")
      for (int b = 0; b < blocks; ++b)
        for (int d = 0; d < 8; ++d) EXPECT_EQ(counts[std::size_t(d * blocks + b)], sh[std::size_t(b * 8 + d)]);
    else
      for (int d = 0; d < 8; ++d) {
        std::uint32_t sum = 0;
        for (int b = 0; b < blocks; ++b) sum += sh[std::size_t(b * 8 + d)];
        EXPECT_EQ(counts[std::size_t(d)], sum) << "hist[" << d << "]";
      }
  }
}

TEST(PartitionTrace, BadConfigsAreRejected) {
  const auto in = make_input(InputKind::Random, 8, ElemType::I32, 1);
  for (const char* algo : test::family("partition")) {
    const Algorithm& al = *find_algorithm(algo);
    Trace t;
    for (int parts : {0, 1, 3, 12, 8192, -4}) {
      StepConfig cfg;
      cfg.n = 8;
      cfg.bins = parts;
      EXPECT_FALSE(ok(build_trace_cpu(al, cfg, in, t))) << algo << " parts=" << parts;
    }
    StepConfig cfg;
    cfg.n = 8;
    cfg.bins = 4;
    cfg.digit_start = 31;
    EXPECT_FALSE(ok(build_trace_cpu(al, cfg, in, t)));
    cfg.digit_start = -1;
    EXPECT_FALSE(ok(build_trace_cpu(al, cfg, in, t)));
    cfg.digit_start = 30;
    EXPECT_TRUE(ok(build_trace_cpu(al, cfg, in, t)));
    cfg.type = ElemType::F32;
    EXPECT_FALSE(ok(build_trace_cpu(al, cfg, make_input(InputKind::Random, 8, ElemType::F32, 1), t)));
  }
  EXPECT_TRUE(find_algorithm("partition-stable")->deterministic);
  EXPECT_FALSE(find_algorithm("partition-atomic")->deterministic);
}

}  // namespace

namespace {

TEST(PartitionTrace, StableIgnoresTheSeedAndRecordsOneMovePerKey) {
  StepConfig cfg;
  cfg.n = 300;
  cfg.block = 32;
  cfg.bins = 16;
  const auto in = make_input(InputKind::Random, 300, ElemType::I32, 4);
  cfg.seed = 1;
  Trace a = build("partition-stable", cfg, in);
  cfg.seed = 77;
  Trace b = build("partition-stable", cfg, in);
  EXPECT_TRUE(ok(compare_traces(a, b)));
  // The reorder step: one Move per key from keys[i] to output[pos], every output slot written once.
  const Step& st = a.steps.back();
  const int out = kPartStableOut;
  std::vector<int> hits(300, 0);
  int moves = 0;
  for (std::int64_t k = 0; k < st.op_count(); ++k) {
    const Op& op = a.ops[std::size_t(st.op_begin + k)];
    if (kind_of(op.kind) == OpKind::None) continue;
    ASSERT_EQ(kind_of(op.kind), OpKind::Move);
    ASSERT_EQ(dst_row_of(op.kind), out);
    ++moves;
    ++hits[std::size_t(op.dst)];
    EXPECT_EQ(a.row(a.steps.size() - 1, std::size_t(out))[op.dst], in[std::size_t(op.src)]);
  }
  EXPECT_EQ(moves, 300);
  EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
}

}  // namespace
