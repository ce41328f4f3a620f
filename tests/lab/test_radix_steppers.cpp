// CPU reference radix sorts: radix-split (1-bit, int32/uint32, the max reduction sizing the passes)
// and radix-digits (2..8-bit digits, int32/uint32/float, ascending/descending, key-value stability)
// against std::stable_sort over the keys' order; the rows the seeds describe; rejected configs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/host_order.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

// Builds the trace with cfg.input set (the plan sizes radix-split's passes from the data) and checks
// the final keys (and values) against the stable host sort.
void check_sort(const char* algo, StepConfig cfg, const std::vector<std::uint32_t>& in, const std::string& what,
                Trace* out = nullptr) {
  cfg.n = int(in.size());
  cfg.input = &in;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm(algo), cfg, in, t))) << what;
  const auto idx = test::stable_order(in, cfg.type, cfg.descending);
  const std::size_t last = t.steps.size() - 1;
  for (int i = 0; i < cfg.n; ++i) {
    ASSERT_EQ(t.row(last, kRowMain)[i], in[idx[std::size_t(i)]])
        << algo << " " << what << " n=" << cfg.n << " block=" << cfg.block << " D=" << cfg.digit_bits << " i=" << i;
    if (cfg.key_value) ASSERT_EQ(t.row(last, 4)[i], idx[std::size_t(i)]) << algo << " " << what << " value i=" << i;
  }
  if (out) *out = std::move(t);
}

TEST(RadixSplit, RandomAndShapedInputs) {
  for (int n : {1, 2, 3, 7, 8, 31, 32, 33, 100, 256, 257, 1000, 4095, 4096})
    for (int block : {1, 4, 32, 256, 1024})
      for (ElemType type : {ElemType::I32, ElemType::U32})
        for (InputKind k : {InputKind::Random, InputKind::Reversed, InputKind::AllEqual, InputKind::FewDistinct}) {
          if (block == 1 && n > 256) continue;
          StepConfig cfg;
          cfg.block = block;
          cfg.type = type;
          check_sort("radix-split", cfg, make_input(k, n, type, std::uint32_t(n + block)), input_kind_name(k));
        }
}

TEST(RadixSplit, NegativeAndExtremeInt32) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("3 -1 4 1 -5 9 -2147483648 2147483647 0 -1 -9 6 -2147483647 5", ElemType::I32, in).ok());
  for (int block : {1, 2, 4, 8}) {
    StepConfig cfg;
    cfg.block = block;
    check_sort("radix-split", cfg, in, "extremes");
  }
  // Without the data the plan passes every bit: still correct.
  StepConfig cfg;
  cfg.n = int(in.size());
  cfg.block = 4;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("radix-split"), cfg, in, t)));
  std::vector<std::uint32_t> got(t.row(t.steps.size() - 1, kRowMain), t.row(t.steps.size() - 1, kRowMain) + cfg.n);
  std::vector<std::int32_t> want(in.begin(), in.end());
  std::sort(want.begin(), want.end());
  for (int i = 0; i < cfg.n; ++i) EXPECT_EQ(std::int32_t(got[std::size_t(i)]), want[std::size_t(i)]);
}

TEST(RadixSplit, MaxReductionSizesThePasses) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("3 -1 4 1 -5 9 2 6", ElemType::I32, in).ok());
  StepConfig cfg;
  cfg.block = 4;
  Trace t;
  check_sort("radix-split", cfg, in, "passes", &t);
  // max of k ^ (k >> 31) is 9: 4 bits, then the sign pass; 5 steps a pass.
  int passes = 0;
  for (const Step& s : t.steps) passes += s.phase == "bits";
  EXPECT_EQ(passes, 5);
  EXPECT_NE(t.steps[4].label.find("max 9: 4 bits"), std::string::npos) << t.steps[4].label;
  EXPECT_EQ(t.row(4, 4)[7], 9u);  // the root of the max tree
  // uint32 keys 0..9 need 4 passes and no sign pass; even passes: no copy back.
  std::vector<std::uint32_t> u = {3, 1, 4, 1, 5, 9, 2, 6};
  cfg.type = ElemType::U32;
  check_sort("radix-split", cfg, u, "u32", &t);
  passes = 0;
  for (const Step& s : t.steps) passes += s.phase == "bits";
  EXPECT_EQ(passes, 4);
  EXPECT_NE(t.steps.back().phase, "copy back");
}

TEST(RadixSplit, LectureScanExample) {
  // Keys whose bit 0 is the lecture's b = 0 1 1 0 1 0 0 1 1 0 1: e = !b scans to f, totalFalses = 5.
  std::vector<std::uint32_t> in = {0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1};
  StepConfig cfg;
  cfg.block = 4;
  cfg.type = ElemType::U32;
  Trace t;
  check_sort("radix-split", cfg, in, "lecture", &t);
  std::size_t scan = 0, total = 0, tstep = 0, scatter = 0;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    if (t.steps[s].phase == "scan" && !scan) scan = s;
    if (t.steps[s].phase == "total" && !total) total = s;
    if (t.steps[s].phase == "true" && !tstep) tstep = s;
    if (t.steps[s].phase == "scatter" && !scatter) scatter = s;
  }
  const std::uint32_t* f = t.row(scan, 7);
  EXPECT_EQ(std::vector<std::uint32_t>(f, f + 11), (std::vector<std::uint32_t>{0, 1, 1, 1, 2, 2, 3, 4, 4, 4, 5}));
  EXPECT_EQ(t.row(total, 8)[0], 5u);
  const std::uint32_t* tt = t.row(tstep, 9);
  EXPECT_EQ(tt[1], 1u - 1u + 5u);
  EXPECT_EQ(t.steps[scan].counters.launches, 2 + 2 * 4);  // copy, 4 up, clear, 4 down (W = 16)
  const std::uint32_t* out = t.row(scatter, 3);
  EXPECT_EQ(std::vector<std::uint32_t>(out, out + 11), (std::vector<std::uint32_t>{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}));
}

TEST(RadixDigits, AllDigitWidthsTypesOrdersAndBlocks) {
  for (int D = 2; D <= 8; ++D)
    for (int n : {1, 5, 16, 33, 100, 257, 1024, 4096})
      for (int block : {1, 2, 8, 32, 128, 1024})
        for (int combo = 0; combo < 4; ++combo) {
          if (block <= 2 && n > 257) continue;
          if (n == 4096 && D < 8 && block != 128) continue;  // keep the sweep quick
          StepConfig cfg;
          cfg.block = block;
          cfg.digit_bits = D;
          cfg.descending = combo & 1;
          cfg.key_value = combo & 2;
          cfg.type = ElemType((n + D + combo) % 3);
          check_sort("radix-digits", cfg, make_input(InputKind::Random, n, cfg.type, std::uint32_t(n * D + block)),
                     "random");
        }
}

TEST(RadixDigits, StabilityOfEqualKeys) {
  for (bool desc : {false, true})
    for (InputKind k : {InputKind::AllEqual, InputKind::FewDistinct, InputKind::Sorted, InputKind::Reversed}) {
      StepConfig cfg;
      cfg.block = 4;
      cfg.digit_bits = 3;
      cfg.key_value = true;
      cfg.descending = desc;
      check_sort("radix-digits", cfg, make_input(k, 50, ElemType::I32, 9), input_kind_name(k));
    }
}

TEST(RadixDigits, Int32AndUint32Extremes) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648 -7 1 0", ElemType::I32, in).ok());
  for (int D : {2, 5, 8})
    for (bool desc : {false, true}) {
      StepConfig cfg;
      cfg.block = 2;
      cfg.digit_bits = D;
      cfg.descending = desc;
      cfg.key_value = true;
      check_sort("radix-digits", cfg, in, "int32 extremes");
      cfg.type = ElemType::U32;
      check_sort("radix-digits", cfg, in, "uint32 extremes");
    }
}

TEST(RadixDigits, FloatFlipAndNaNOrder) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, in).ok());
  for (bool desc : {false, true})
    for (int D : {4, 8}) {
      StepConfig cfg;
      cfg.block = 4;
      cfg.digit_bits = D;
      cfg.type = ElemType::F32;
      cfg.descending = desc;
      cfg.key_value = true;
      Trace t;
      check_sort("radix-digits", cfg, in, "floats", &t);
      const std::uint32_t* k = t.row(t.steps.size() - 1, kRowMain);
      const int n = int(in.size());
      // Ascending: -NaN, -inf, ..., -0.0, 0.0, ..., inf, +NaN.
      const std::vector<float> asc_tail = {word_to_float(in[5]), word_to_float(in[2])};
      EXPECT_EQ(k[desc ? n - 1 : 0], in[10]);
      EXPECT_EQ(k[desc ? n - 2 : 1], in[5]);
      EXPECT_EQ(k[desc ? 1 : n - 2], in[2]);
      EXPECT_EQ(k[desc ? 0 : n - 1], in[4]);
      EXPECT_EQ(k[desc ? 8 : 4], in[1]);  // -0.0 before +0.0 ascending, after it descending
      EXPECT_EQ(k[desc ? 7 : 5], in[7]);
      (void)asc_tail;
    }
}

TEST(RadixDigits, RowsShowTheSeedsArrays) {
  StepConfig cfg;
  cfg.block = 4;
  cfg.digit_bits = 2;
  std::vector<std::uint32_t> in = {3, 1, 2, 0, 1, 3, 0, 2};
  Trace t;
  check_sort("radix-digits", cfg, in, "rows", &t);
  // R = 4 bins, T = 4, 2 blocks: counts[d * 2 + b]; step 2 is digit 0's histogram.
  EXPECT_EQ(t.steps[2].phase, "histogram");
  const std::uint32_t* counts = t.row(2, 7);
  EXPECT_EQ(std::vector<std::uint32_t>(counts, counts + 8), (std::vector<std::uint32_t>{1, 1, 1, 1, 1, 1, 1, 1}));
  const std::uint32_t* offsets = t.row(3, 8);
  EXPECT_EQ(std::vector<std::uint32_t>(offsets, offsets + 8), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Sortable key of 3 (int32) is 0x80000003.
  EXPECT_EQ(t.row(1, 4)[0], 0x80000003u);
  EXPECT_EQ(t.row(1, 5)[0], 11u);  // digit 3 in binary
  EXPECT_EQ(t.row(1, 6)[0], 3u);
  EXPECT_EQ(t.steps.size(), 1u + 16 * 4);  // 16 two-bit digits, even: no copy back
}

TEST(RadixSort, BadConfigsAreRejected) {
  StepConfig cfg;
  cfg.n = 4;
  Trace t;
  std::vector<std::uint32_t> in(4);
  cfg.digit_bits = 1;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("radix-digits"), cfg, in, t)));
  cfg.digit_bits = 9;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("radix-digits"), cfg, in, t)));
  cfg.digit_bits = 4;
  cfg.block = 3;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("radix-digits"), cfg, in, t)));
  cfg.block = 4;
  cfg.type = ElemType::F32;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("radix-split"), cfg, in, t)));
  cfg.type = ElemType::I32;
  cfg.n = 5000;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("radix-split"), cfg, std::vector<std::uint32_t>(5000), t)));
}

}  // namespace
