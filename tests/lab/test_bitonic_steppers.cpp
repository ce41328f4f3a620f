// CPU reference bitonic sort: final keys (and values) against std::stable_sort over the key order,
// for int32 / uint32 / float (NaN, -0.0, +-inf), ascending and descending, padded n, many blocks;
// the network's shape (passes, comparator directions, sentinels) and rejected configs.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/host_order.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

void check_sorted(const std::vector<std::uint32_t>& in, const StepConfig& cfg, const char* what) {
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("bitonic-sort"), cfg, in, t))) << what;
  const auto idx = test::stable_order(in, cfg.type, cfg.descending);
  const std::size_t last = t.steps.size() - 1;
  const std::uint32_t* keys = t.row(last, kRowMain);
  for (int i = 0; i < cfg.n; ++i) {
    ASSERT_EQ(keys[i], in[idx[std::size_t(i)]]) << what << " n=" << cfg.n << " block=" << cfg.block << " i=" << i;
    if (cfg.key_value) ASSERT_EQ(t.row(last, 3)[i], idx[std::size_t(i)]) << what << " value i=" << i;
  }
}

TEST(BitonicSort, RandomInputsManySizesBlocksAndOrders) {
  for (int n : {1, 2, 3, 5, 7, 8, 9, 16, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 1000, 1023, 1024, 2049, 4095, 4096})
    for (int block : {1, 2, 4, 32, 64, 512, 1024})
      for (int combo = 0; combo < 4; ++combo) {
        StepConfig cfg;
        cfg.n = n;
        cfg.block = block;
        cfg.descending = combo & 1;
        cfg.key_value = combo & 2;
        cfg.type = ElemType(std::uint32_t(n + block + combo) % 3);
        if (block <= 2 && n > 256) continue;  // thousands of one-thread blocks: slow to no purpose
        check_sorted(make_input(InputKind::Random, n, cfg.type, std::uint32_t(n * 7 + block)), cfg, "random");
      }
}

TEST(BitonicSort, SortedReversedEqualAndFewDistinct) {
  for (InputKind k : {InputKind::Sorted, InputKind::Reversed, InputKind::AllEqual, InputKind::FewDistinct})
    for (int n : {6, 64, 300})
      for (bool kv : {false, true})
        for (bool desc : {false, true}) {
          StepConfig cfg;
          cfg.n = n;
          cfg.block = 8;
          cfg.key_value = kv;
          cfg.descending = desc;
          check_sorted(make_input(k, n, ElemType::I32, 3), cfg, input_kind_name(k));
        }
}

TEST(BitonicSort, Int32ExtremesAndSentinelTies) {
  std::vector<std::uint32_t> in;
  // Padding copies INT_MAX (ascending) or INT_MIN (descending): real keys still come first.
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648 -7 1 2147483647 0", ElemType::I32,
                               in).ok());
  for (bool kv : {false, true})
    for (bool desc : {false, true})
      for (int block : {1, 2, 4}) {
        StepConfig cfg;
        cfg.n = int(in.size());
        cfg.block = block;
        cfg.key_value = kv;
        cfg.descending = desc;
        check_sorted(in, cfg, "extremes");
      }
}

TEST(BitonicSort, Uint32FullRange) {
  std::vector<std::uint32_t> in = {0xffffffffu, 0u, 0x80000000u, 0x7fffffffu, 1u, 0xfffffffeu, 0u, 0x80000001u, 3u};
  for (bool desc : {false, true}) {
    StepConfig cfg;
    cfg.n = int(in.size());
    cfg.block = 2;
    cfg.type = ElemType::U32;
    cfg.descending = desc;
    cfg.key_value = true;
    check_sorted(in, cfg, "uint32");
  }
}

TEST(BitonicSort, FloatSpecialsAndNaNPlacement) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, in).ok());
  for (bool kv : {false, true})
    for (bool desc : {false, true}) {
      StepConfig cfg;
      cfg.n = int(in.size());
      cfg.block = 4;
      cfg.type = ElemType::F32;
      cfg.key_value = kv;
      cfg.descending = desc;
      check_sorted(in, cfg, "floats");
      Trace t;
      ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("bitonic-sort"), cfg, in, t)));
      const std::uint32_t* k = t.row(t.steps.size() - 1, kRowMain);
      // Ascending: -NaN first, +NaN last, -0.0 before +0.0 (descending: the reverse).
      const std::uint32_t first = desc ? in[4] : in[10], lastv = desc ? in[10] : in[4];
      EXPECT_EQ(k[0], first);
      EXPECT_EQ(k[cfg.n - 1], lastv);
      EXPECT_TRUE(std::isnan(word_to_float(k[0])) && std::isnan(word_to_float(k[cfg.n - 1])));
    }
}

TEST(BitonicTrace, PassesPaddingAndComparatorDirections) {
  StepConfig cfg;
  cfg.n = 6;
  cfg.block = 2;  // tiles of 4, W = 8
  std::vector<std::uint32_t> in = {5, 1, 4, 2, 3, 0};
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("bitonic-sort"), cfg, in, t)));
  EXPECT_EQ(t.width, 8);
  EXPECT_TRUE(t.network);
  // Padding holds copies of the largest key (the ascending sentinel) and is sorted to the end.
  EXPECT_EQ(t.row(0, kRowMain)[6], 5u);
  EXPECT_EQ(t.row(t.steps.size() - 1, kRowMain)[7], 5u);
  int passes = 0, global = 0;
  for (const Step& s : t.steps) {
    passes += s.phase == "shared pass" || s.phase == "global pass";
    global += s.phase == "global pass";
  }
  EXPECT_EQ(passes, 6);  // log W (log W + 1) / 2 with log W = 3
  EXPECT_EQ(global, 1);  // stage 8, stride 4 >= tile 4
  // Step 2 is stage 2, stride 1: comparators (0,1) up, (2,3) down: src gets the first element.
  const Step& s = t.steps[2];
  EXPECT_EQ(s.label.rfind("stage 2, stride 1", 0), 0u) << s.label;
  const Op& up = t.ops[std::size_t(s.op_begin + 0)];
  const Op& down = t.ops[std::size_t(s.op_begin + 1)];
  EXPECT_EQ(kind_of(up.kind), OpKind::CompareSwap);
  EXPECT_EQ(up.src, 0);
  EXPECT_EQ(up.dst, 1);
  EXPECT_EQ(down.src, 3);
  EXPECT_EQ(down.dst, 2);
  // After it: (1,5) ascending and (4,2) descending in shared memory.
  const std::uint32_t* sh = t.row(2, 3);
  EXPECT_EQ(std::vector<std::uint32_t>(sh, sh + 4), (std::vector<std::uint32_t>{1, 5, 4, 2}));
}

TEST(BitonicTrace, CountersFollowFromTheNetwork) {
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("bitonic-sort"), cfg, make_input(InputKind::Random, 64, ElemType::I32, 2), t)));
  // One tile of 64: load reads 256 bytes, store writes 256, every shared pass reads 64 words.
  EXPECT_EQ(t.steps[1].counters.global_read_bytes, 256);
  EXPECT_EQ(t.steps.back().counters.global_write_bytes, 256);
  for (const Step& s : t.steps)
    if (s.phase == "shared pass") EXPECT_GE(s.counters.shared_accesses, 64);
}

TEST(BitonicTrace, SharedPassBankConflictsFollowTheStride) {
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;  // one tile of 64 in shared memory
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("bitonic-sort"), cfg, make_input(InputKind::Random, 64, ElemType::I32, 4), t)));
  // pos = 2 tid - (tid & (stride - 1)): stride 32 reads words 0..31 (conflict-free); stride 1 reads
  // the even words 0..62, two to a bank.
  for (const Step& s : t.steps) {
    if (s.phase != "shared pass") continue;
    if (s.label.find("stride 32 ") != std::string::npos) EXPECT_EQ(s.counters.bank_conflict, 1) << s.label;
    if (s.label.find("stride 1 ") != std::string::npos) EXPECT_EQ(s.counters.bank_conflict, 2) << s.label;
  }
}

TEST(BitonicTrace, BadConfigsAreRejected) {
  const Algorithm& a = *find_algorithm("bitonic-sort");
  StepConfig cfg;
  Trace t;
  cfg.n = 0;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, {}, t)));
  cfg.n = 4097;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, std::vector<std::uint32_t>(4097), t)));
  cfg.n = 8;
  cfg.block = 3;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, std::vector<std::uint32_t>(8), t)));
  cfg.block = 2048;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, std::vector<std::uint32_t>(8), t)));
}

}  // namespace
