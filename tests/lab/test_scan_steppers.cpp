// CPU reference scans: final results against std::inclusive_scan / std::exclusive_scan, trace
// shape (steps, padding, op slots) and counters that must follow from the algorithm.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

std::vector<std::uint32_t> expected_scan(const std::vector<std::uint32_t>& in, ElemType t, bool inclusive) {
  std::vector<std::uint32_t> out(in.size());
  if (t == ElemType::F32) {
    // Tree order differs from a sequential sum; inputs are quarters, so every sum is exact.
    float acc = 0.f;
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (!inclusive) out[i] = to_word(acc);
      acc += word_to_float(in[i]);
      if (inclusive) out[i] = to_word(acc);
    }
  } else {
    std::uint32_t acc = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (!inclusive) out[i] = acc;
      acc += in[i];
      if (inclusive) out[i] = acc;
    }
  }
  return out;
}

struct Case {
  const char* algo;
  int n;
  int block;
  bool inclusive;
  ElemType type;
};

class ScanResult : public ::testing::TestWithParam<Case> {};

TEST_P(ScanResult, MatchesHostScan) {
  const Case c = GetParam();
  const Algorithm* a = find_algorithm(c.algo);
  ASSERT_NE(a, nullptr);
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.inclusive = c.inclusive;
  cfg.type = c.type;
  for (std::uint32_t seed : {1u, 7u}) {
    auto in = make_input(InputKind::Random, c.n, c.type, seed);
    Trace t;
    ASSERT_TRUE(ok(build_trace_cpu(*a, cfg, in, t)));
    auto want = expected_scan(in, c.type, c.inclusive);
    const std::uint32_t* got = t.row(t.steps.size() - 1, kRowMain);
    for (int i = 0; i < c.n; ++i) ASSERT_EQ(got[i], want[i]) << c.algo << " n=" << c.n << " i=" << i;
    EXPECT_GE(t.width, c.n);
  }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const char* algo : test::family("scan"))
    for (int n : {1, 2, 3, 7, 8, 31, 32, 33, 100, 255, 256, 257, 1000, 1024, 4095, 4096})
      for (int block : {1, 4, 32, 64, 256})
        for (bool inc : {false, true})
          v.push_back({algo, n, block, inc, (n % 2) ? ElemType::F32 : ElemType::I32});
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllScans, ScanResult, ::testing::ValuesIn(cases()));

TEST(ScanTrace, BlellochRunsItsHostLoopTwoLogMLaunches) {
  // n = 6 pads to m = 8: the copy, the up-sweep at d = 1, 2 (the root's level is skipped), the
  // down-sweep at d = 4, 2, 1: 2 log m = 6 launches, one step each.
  StepConfig cfg;
  cfg.n = 6;
  cfg.block = 4;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("scan-blelloch"), cfg, make_input(InputKind::Random, 6, ElemType::I32, 3), t)));
  EXPECT_EQ(t.width, 8);
  ASSERT_EQ(t.steps.size(), 1u + 6);
  EXPECT_EQ(t.totals(t.steps.size() - 1).launches, 6);
  EXPECT_EQ(t.steps[1].phase, "copy");
  EXPECT_EQ(t.steps[2].label, "up-sweep d=1: buf[right] += buf[right - 1], right = 2k + 1, k = 0..3");
  EXPECT_EQ(t.steps[3].label, "up-sweep d=2: buf[right] += buf[right - 2], right = 4k + 3, k = 0..1");
  EXPECT_EQ(t.steps[4].phase, "down-sweep");
  EXPECT_NE(t.steps[4].label.find("buf[7] = 0"), std::string::npos) << t.steps[4].label;
  // The padding is the identity, and stays it through the up-sweep.
  EXPECT_EQ(t.row(1, kRowMain)[6], 0u);
  EXPECT_EQ(t.row(3, kRowMain)[6], 0u);
  // The copy reads the 6 inputs and writes all 8 words; up-sweep d=1 has 4 adds, each reading two
  // words and writing one.
  EXPECT_EQ(t.steps[1].counters.global_read_bytes, 24);
  EXPECT_EQ(t.steps[1].counters.global_write_bytes, 32);
  EXPECT_EQ(t.steps[2].counters.adds, 4);
  EXPECT_EQ(t.steps[2].counters.global_read_bytes, 32);
  EXPECT_EQ(t.steps[2].counters.global_write_bytes, 16);
  // The first down-sweep level also clears the root: 3 ops for thread 0.
  EXPECT_EQ(t.steps[4].ops_per_thread, 3);
  EXPECT_EQ(t.steps[4].counters.global_write_bytes, 4 + 8);
}

TEST(ScanTrace, LectureExampleFromTheSeeds) {
  // The lecture's radix example b = 0 1 1 0 1 0 0 1 1 0 1 scans to 0 0 1 2 2 3 3 3 4 5 5 (total 6).
  std::vector<std::uint32_t> in, err_unused;
  ASSERT_TRUE(parse_input_list("0 1 1 0 1 0 0 1 1 0 1", ElemType::I32, in).ok());
  StepConfig cfg;
  cfg.n = int(in.size());
  cfg.block = 4;
  for (const char* algo : test::family("scan")) {
    Trace t;
    ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm(algo), cfg, in, t)));
    std::vector<std::uint32_t> got(t.row(t.steps.size() - 1, 0), t.row(t.steps.size() - 1, 0) + cfg.n);
    EXPECT_EQ(got, (std::vector<std::uint32_t>{0, 0, 1, 2, 2, 3, 3, 3, 4, 5, 5})) << algo;
  }
}

TEST(ScanTrace, SharedScanOffsetsRemoveBankConflicts) {
  StepConfig cfg;
  cfg.n = 1024;
  cfg.block = 512;
  auto in = make_input(InputKind::Random, cfg.n, ElemType::I32, 5);
  const Algorithm& a = *find_algorithm("scan-shared");
  Trace with, without;
  cfg.conflict_offsets = true;
  ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, with)));
  cfg.conflict_offsets = false;
  ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, without)));
  // Without offsets the up-sweep at offset 16 puts 16 lanes' words in one bank (stride 32 words).
  std::int64_t worst_with = 0, worst_without = 0;
  for (auto& s : with.steps) worst_with = std::max(worst_with, s.counters.bank_conflict);
  for (auto& s : without.steps) worst_without = std::max(worst_without, s.counters.bank_conflict);
  EXPECT_GE(worst_without, 16);
  EXPECT_LT(worst_with, worst_without);
  // Same result either way.
  EXPECT_TRUE(std::equal(with.row(with.steps.size() - 1, 0), with.row(with.steps.size() - 1, 0) + cfg.n,
                         without.row(without.steps.size() - 1, 0)));
}

TEST(ScanTrace, OpsRecordTheThreadThatDidThem) {
  StepConfig cfg;
  cfg.n = 8;
  cfg.block = 2;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("scan-naive"), cfg, make_input(InputKind::Sorted, 8, ElemType::I32, 1), t)));
  // Step 2 is offset 1 (step 1 shifts): thread 5 adds element 4 into element 5.
  const Step& st = t.steps[2];
  const Op& op = t.ops[std::size_t(st.op_begin + 5)];
  EXPECT_EQ(op.thread, 5);
  EXPECT_EQ(kind_of(op.kind), OpKind::Add);
  EXPECT_EQ(op.src, 4);
  EXPECT_EQ(op.dst, 5);
  EXPECT_EQ(t.row(2, kRowOwner)[5], 5u);
  EXPECT_EQ(t.row(2, kRowTouch)[5] & 3u, unsigned(kTouchRead | kTouchWrite));      // row 0: added into
  EXPECT_EQ(t.row(2, kRowTouch)[5] >> 6 & 3u, unsigned(kTouchRead));              // row 3: read by thread 6
}

TEST(ScanTrace, FloatNaNIsTheGpusCanonicalNaN) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("inf -inf 1 -0.0", ElemType::F32, in).ok());
  StepConfig cfg;
  cfg.n = 4;
  cfg.block = 2;
  cfg.type = ElemType::F32;
  cfg.inclusive = true;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("scan-naive"), cfg, in, t)));
  const std::uint32_t* out = t.row(t.steps.size() - 1, kRowMain);
  EXPECT_EQ(out[0], to_word(INFINITY));
  EXPECT_EQ(out[1], 0x7fffffffu);  // inf + -inf: CUDA's canonical NaN, not x86's 0xffc00000
  EXPECT_EQ(out[3], 0x7fffffffu);  // NaN stays NaN
}

TEST(ScanTrace, BadConfigsAreRejectedWithAMessage) {
  const Algorithm& a = *find_algorithm("scan-shared");
  StepConfig cfg;
  Trace t;
  cfg.n = 0;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, {}, t)));
  cfg.n = 5000;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, std::vector<std::uint32_t>(5000), t)));
  cfg.n = 4;
  cfg.block = 3;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, std::vector<std::uint32_t>(4), t)));  // not a power of two
  cfg.block = 4;
  EXPECT_FALSE(ok(build_trace_cpu(a, cfg, std::vector<std::uint32_t>(3), t)));  // input size mismatch
}

}  // namespace
