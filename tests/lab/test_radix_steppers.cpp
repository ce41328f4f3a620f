// CPU reference radix sorts against a stable host sort over the keys' order, over each row's
// configs (its block limits, element types and options) and its edge inputs: radix-split (1-bit,
// int32/uint32, the max reduction sizing the passes) and radix-digits (2..8-bit digits,
// int32/uint32/float, ascending/descending, key-value stability). The steps follow the host code:
// find_max_kernel's tree levels, per pass its kernels and the scan's launches and barriers
// (radix_scan.cuh), and the rows hold the code's arrays; rejected configs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "lab/algorithms/radix/digits/radix_digits_rows.h"
#include "lab/algorithms/radix/radix_shape.h"
#include "lab/algorithms/radix/split/radix_split_rows.h"
#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/host_order.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;
using namespace primlab::lab::radix;

namespace {

const Algorithm& split() { return *find_algorithm("radix-split"); }
const Algorithm& digits() { return *find_algorithm("radix-digits"); }

// The trace rows the sorted keys and values end in.
int keys_out_row(const Algorithm& a, const StepConfig& cfg) {
  return &a == &split() ? int(kSplitOut) : DigitRows(cfg.key_value)[kDigitsOut];
}
int values_out_row(const StepConfig& cfg) { return DigitRows(cfg.key_value)[kDigitsValuesOut]; }

// Builds the trace (the plan sizes radix-split's passes from the data) and checks the final keys
// (and values) against the stable host sort.
void check_sort(const Algorithm& a, StepConfig cfg, const std::vector<std::uint32_t>& in, const std::string& what,
                Trace* out = nullptr) {
  cfg.n = int(in.size());
  ASSERT_TRUE(validate(a, cfg).ok()) << what;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, t))) << what;
  const auto idx = test::stable_order(in, cfg.type, cfg.descending);
  const std::size_t last = t.steps.size() - 1;
  for (int i = 0; i < cfg.n; ++i) {
    ASSERT_EQ(t.row(last, std::size_t(keys_out_row(a, cfg)))[i], in[idx[std::size_t(i)]])
        << a.name << " " << what << " n=" << cfg.n << " block=" << cfg.block << " D=" << cfg.digit_bits << " i=" << i;
    if (cfg.key_value)
      ASSERT_EQ(t.row(last, std::size_t(values_out_row(cfg)))[i], idx[std::size_t(i)]) << what << " value i=" << i;
  }
  if (out) *out = std::move(t);
}

std::vector<ElemType> types_of(const Algorithm& a) {
  std::vector<ElemType> v = {ElemType::I32};
  if (a.options & kOptU32) v.push_back(ElemType::U32);
  if (a.options & kOptFloat) v.push_back(ElemType::F32);
  return v;
}
// A ladder of the blocks the row takes, from its smallest to its largest.
std::vector<int> blocks_of(const Algorithm& a) {
  std::vector<int> v;
  for (int b = a.min_block; b <= a.max_block; b *= 2) v.push_back(b);
  if (!a.block_pow2 && a.min_block <= 3 && 3 <= a.max_block) v.push_back(3);
  return v;
}
// Full-range words: every bit of the key in play.
std::vector<std::uint32_t> full_range(std::vector<std::uint32_t> v, std::uint32_t seed) {
  for (auto& w : v) w = w * 0x9E3779B9u + seed;
  return v;
}

TEST(RadixSort, TheRowsConfigsSort) {
  for (const Algorithm* a : {&split(), &digits()})
    for (const test::RowConfig& rc : test::configs_for(*a))
      check_sort(*a, rc.cfg, make_input(InputKind::Random, rc.cfg.n, rc.cfg.type, rc.cfg.seed), rc.what);
}

TEST(RadixSplit, RandomShapedAndFullRangeInputs) {
  int combo = 0;
  for (int n : {1, 2, 3, 7, 8, 31, 32, 33, 100, 256, 257, 1000, 1024})
    for (int block : blocks_of(split())) {
      if (n > split().max_n || (block <= 2 && n > 256)) continue;
      StepConfig cfg;
      cfg.block = block;
      cfg.type = types_of(split())[std::size_t(combo) % types_of(split()).size()];
      const InputKind k = InputKind(combo % 5);
      ++combo;
      auto in = make_input(k, n, cfg.type, std::uint32_t(n + block));
      if (combo % 3 == 0) in = full_range(in, std::uint32_t(n));
      check_sort(split(), cfg, in, input_kind_name(k));
    }
}

TEST(RadixSplit, NegativeAndExtremeInt32) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("3 -1 4 1 -5 9 -2147483648 2147483647 0 -1 -9 6 -2147483647 5", ElemType::I32, in).ok());
  for (int block : blocks_of(split())) {
    StepConfig cfg;
    cfg.block = block;
    check_sort(split(), cfg, in, "extremes");
  }
  // Keys that need no bit: uint32 zeros are copied; int32 -1 and 0 still take the sign pass.
  for (ElemType type : types_of(split())) {
    StepConfig cfg;
    cfg.block = std::max(split().min_block, 4);
    cfg.type = type;
    Trace t;
    check_sort(split(), cfg,
               type == ElemType::U32 ? std::vector<std::uint32_t>(5, 0u)
                                     : std::vector<std::uint32_t>{0u, 0xffffffffu, 0u, 0xffffffffu},
               "no bits", &t);
    int passes = 0;
    for (const Step& s : t.steps) passes += s.phase == "bits";
    EXPECT_EQ(passes, type == ElemType::I32 ? 1 : 0);
  }
}

TEST(RadixSplit, MaxReductionSizesThePasses) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("3 -1 4 1 -5 9 2 6", ElemType::I32, in).ok());
  StepConfig cfg;
  cfg.block = std::max(split().min_block, 4);
  Trace t;
  check_sort(split(), cfg, in, "passes", &t);
  // max of k ^ (k >> 31) is 9: 4 bits, then the sign pass.
  int passes = 0;
  std::size_t atomic = 0;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    passes += t.steps[s].phase == "bits";
    if (t.steps[s].phase == "atomic max") atomic = s;
  }
  EXPECT_EQ(passes, 5);
  ASSERT_GT(atomic, 0u);
  EXPECT_NE(t.steps[atomic].label.find("max 9: 4 bits and the sign"), std::string::npos) << t.steps[atomic].label;
  EXPECT_EQ(t.row(atomic, kSplitMax)[0], 9u);
  // The tree's root holds each block's max before the atomicMax folds them.
  EXPECT_EQ(t.row(atomic, kSplitTree)[0], 4u);  // block 0: 3, ~(-1) = 0, 4, 1
  // uint32 keys 0..9 need 4 passes and no sign pass.
  cfg.type = ElemType::U32;
  check_sort(split(), cfg, {3, 1, 4, 1, 5, 9, 2, 6}, "u32", &t);
  passes = 0;
  for (const Step& s : t.steps) passes += s.phase == "bits";
  EXPECT_EQ(passes, 4);
}

// The host code's launches: find_max_kernel, then per pass bool_maps_kernel, the scan's levels
// (scan_block_kernel each, then add_sums_kernel for all but the last), scatter_kernel; its barriers:
// the max tree's levels and the atomicMax, each scan block's sweeps and store.
TEST(RadixSplit, StepsAreTheHostCodesLaunchesAndBarriers) {
  for (int n : {1, 11, 100, 1000})
    for (int block : blocks_of(split())) {
      if (n > split().max_n) continue;
      StepConfig cfg;
      cfg.block = block;
      cfg.type = ElemType::U32;
      Trace t;
      const auto in = full_range(make_input(InputKind::Random, n, cfg.type, 5), 1);
      check_sort(split(), cfg, in, "shape", &t);
      std::uint32_t maxv = 0;
      for (std::uint32_t k : in) maxv = std::max(maxv, k);
      const int passes = maxv ? 32 - __builtin_clz(maxv) : 0;
      const std::vector<ScanLevel> levels = scan_levels(n, block);
      int tree = 1;
      while (2 * tree <= block && tree < n) tree *= 2;
      int log_tree = 0, barriers_per_scan = 0;
      while ((1 << log_tree) < tree) ++log_tree;
      for (const ScanLevel& l : levels) {
        int log_m = 0;
        while ((1 << log_m) < 2 * l.tree) ++log_m;
        barriers_per_scan += 2 * log_m + 1;
      }
      const int launches = 1 + passes * (2 + 2 * int(levels.size()) - 1);
      const int barriers = log_tree + 1 + passes * barriers_per_scan;
      int got_launches = 0, got_barriers = 0;
      for (std::size_t s = 1; s < t.steps.size(); ++s) (t.steps[s].barrier ? got_barriers : got_launches) += 1;
      EXPECT_EQ(got_launches, launches) << "n=" << n << " block=" << block;
      EXPECT_EQ(got_barriers, barriers) << "n=" << n << " block=" << block;
      EXPECT_EQ(t.steps[1].launch.threads, tree) << "n=" << n << " block=" << block;
    }
}

TEST(RadixSplit, LectureScanExample) {
  // Keys whose bit 0 is the lecture's b = 0 1 1 0 1 0 0 1 1 0 1: f = !b scans to fs, total_falses = 5.
  const std::vector<std::uint32_t> in = {0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1};
  StepConfig cfg;
  cfg.block = std::max(split().min_block, 4);
  cfg.type = ElemType::U32;
  Trace t;
  check_sort(split(), cfg, in, "lecture", &t);
  std::size_t bits = 0, scatter = 0;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    if (t.steps[s].phase == "bits") bits = s;
    if (t.steps[s].phase == "scatter") scatter = s;
  }
  ASSERT_GT(bits, 0u);
  ASSERT_EQ(scatter + 1, t.steps.size());  // one bit, one pass
  const std::uint32_t* b = t.row(bits, kSplitBit);
  EXPECT_EQ(std::vector<std::uint32_t>(b, b + 11), in);
  const std::uint32_t* fs = t.row(scatter - 1, kSplitFalseScan);  // after the scan's last launch
  EXPECT_EQ(std::vector<std::uint32_t>(fs, fs + 11), (std::vector<std::uint32_t>{0, 1, 1, 1, 2, 2, 3, 4, 4, 4, 5}));
  EXPECT_EQ(t.row(scatter, kSplitTotal)[0], 5u);
  EXPECT_EQ(t.row(scatter, kSplitTrue)[1], 1u - 1u + 5u);
  const std::uint32_t* out = t.row(scatter, kSplitOut);
  EXPECT_EQ(std::vector<std::uint32_t>(out, out + 11), (std::vector<std::uint32_t>{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}));
}

TEST(RadixSplit, TheScanSweepsConflictInTheBanks) {
  // One block of 32 threads scans m = 64 words: ai = offset (2 tid + 1) - 1 puts two lanes in a bank
  // at every level but the last, where one thread works alone.
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;
  cfg.type = ElemType::U32;
  ASSERT_TRUE(validate(split(), cfg).ok());
  Trace t;
  const auto in = make_input(InputKind::Random, 64, cfg.type, 3);
  ASSERT_TRUE(ok(build_trace_cpu(split(), cfg, in, t)));
  int seen = 0;
  for (const Step& s : t.steps) {
    if (s.phase != "up-sweep" || s.label.find("level 0") == std::string::npos) continue;
    const bool alone = s.label.find("up-sweep d = 1,") != std::string::npos;
    EXPECT_EQ(s.counters.bank_conflict, alone ? 1 : 2) << s.label;
    EXPECT_GT(s.counters.shared_accesses, 0) << s.label;
    ++seen;
  }
  EXPECT_GE(seen, 6);
}

TEST(RadixDigits, AllDigitWidthsTypesOrdersAndBlocks) {
  int combo = 0;
  for (int D = 2; D <= 8; ++D)
    for (int n : {1, 5, 16, 33, 100, 257, 1024, 2048})
      for (int block : blocks_of(digits())) {
        if (n > digits().max_n || (block <= 2 && n > 257) || (n >= 1024 && block % 128)) continue;
        StepConfig cfg;
        cfg.block = block;
        cfg.digit_bits = D;
        cfg.descending = (digits().options & kOptDescending) && combo % 2;
        cfg.key_value = (digits().options & kOptKeyValue) && combo % 4 >= 2;
        cfg.type = types_of(digits())[std::size_t(combo) % types_of(digits()).size()];
        ++combo;
        auto in = make_input(InputKind::Random, n, cfg.type, std::uint32_t(n * D + block));
        if (cfg.type != ElemType::F32 && combo % 3 == 0) in = full_range(in, std::uint32_t(D));
        check_sort(digits(), cfg, in, "random");
      }
}

TEST(RadixDigits, StabilityOfEqualKeys) {
  if (!(digits().options & kOptKeyValue)) GTEST_SKIP() << "the row takes no key-value sorts";
  for (bool desc : {false, true})
    for (InputKind k : {InputKind::AllEqual, InputKind::FewDistinct, InputKind::Sorted, InputKind::Reversed}) {
      StepConfig cfg;
      cfg.block = std::max(digits().min_block, 4);
      cfg.digit_bits = 3;
      cfg.key_value = true;
      cfg.descending = desc && (digits().options & kOptDescending);
      check_sort(digits(), cfg, make_input(k, 50, ElemType::I32, 9), input_kind_name(k));
    }
}

TEST(RadixDigits, Int32AndUint32Extremes) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648 -7 1 0", ElemType::I32, in).ok());
  for (int D : {2, 5, 8})
    for (int combo = 0; combo < 4; ++combo) {
      StepConfig cfg;
      cfg.block = std::max(digits().min_block, 2);
      cfg.digit_bits = D;
      cfg.descending = (digits().options & kOptDescending) && combo % 2;
      cfg.key_value = (digits().options & kOptKeyValue) && combo / 2;
      check_sort(digits(), cfg, in, "int32 extremes");
      if (!(digits().options & kOptU32)) continue;
      cfg.type = ElemType::U32;
      check_sort(digits(), cfg, in, "uint32 extremes");
    }
}

TEST(RadixDigits, FloatFlipAndNaNOrder) {
  if (!(digits().options & kOptFloat)) GTEST_SKIP() << "the row takes no floats";
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, in).ok());
  for (bool desc : {false, true})
    for (int D : {4, 8}) {
      StepConfig cfg;
      cfg.block = std::max(digits().min_block, 4);
      cfg.digit_bits = D;
      cfg.type = ElemType::F32;
      cfg.descending = desc && (digits().options & kOptDescending);
      cfg.key_value = (digits().options & kOptKeyValue) != 0;
      Trace t;
      check_sort(digits(), cfg, in, "floats", &t);
      const std::uint32_t* k = t.row(t.steps.size() - 1, std::size_t(keys_out_row(digits(), cfg)));
      const int n = int(in.size());
      const bool d = cfg.descending;
      // Ascending: -NaN, -inf, ..., -0.0, 0.0, ..., inf, +NaN.
      EXPECT_EQ(k[d ? n - 1 : 0], in[10]);
      EXPECT_EQ(k[d ? n - 2 : 1], in[5]);
      EXPECT_EQ(k[d ? 1 : n - 2], in[2]);
      EXPECT_EQ(k[d ? 0 : n - 1], in[4]);
      EXPECT_EQ(k[d ? 8 : 4], in[1]);  // -0.0 before +0.0 ascending, after it descending
      EXPECT_EQ(k[d ? 7 : 5], in[7]);
      // The sortable row shows the flip: +1.0f (0x3f800000) gets its sign bit set.
      const DigitRows r(cfg.key_value);
      EXPECT_EQ(t.row(1, std::size_t(r[kDigitsSortable]))[0], d ? ~0xbf800000u : 0xbf800000u);
    }
}

TEST(RadixDigits, RowsShowTheCodesArrays) {
  StepConfig cfg;
  cfg.block = std::max(digits().min_block, 4);
  cfg.digit_bits = 2;
  const std::vector<std::uint32_t> in = {3, 1, 2, 0, 1, 3, 0, 2};
  Trace t;
  check_sort(digits(), cfg, in, "rows", &t);
  const DigitRows r(false);
  // R = 4 digits, tiles of T = 4, 2 blocks: counts[d * 2 + b]. Step 1 loads the digits, step 2 counts.
  ASSERT_EQ(t.steps[1].phase, "digits");
  ASSERT_EQ(t.steps[2].phase, "histogram");
  EXPECT_TRUE(t.steps[2].barrier);
  EXPECT_EQ(t.row(1, std::size_t(r[kDigitsSortable]))[0], 0x80000003u);  // int32 3, sign flipped
  EXPECT_EQ(t.row(1, std::size_t(r[kDigitsDigit]))[0], 3u);
  const std::uint32_t* counts = t.row(2, std::size_t(r[kDigitsCounts]));
  EXPECT_EQ(std::vector<std::uint32_t>(counts, counts + 8), (std::vector<std::uint32_t>(8, 1u)));
  std::size_t scatter = 0;
  for (std::size_t s = 0; s < t.steps.size() && !scatter; ++s)
    if (t.steps[s].phase == "scatter") scatter = s;
  const std::uint32_t* offsets = t.row(scatter, std::size_t(r[kDigitsOffsets]));
  EXPECT_EQ(std::vector<std::uint32_t>(offsets, offsets + 8), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Digit 0 of the first pass: 3 1 2 0 | 1 3 0 2 go to 6 2 4 0 | 3 7 1 5.
  const std::uint32_t* dst = t.row(scatter, std::size_t(r[kDigitsDest]));
  EXPECT_EQ(std::vector<std::uint32_t>(dst, dst + 8), (std::vector<std::uint32_t>{6, 2, 4, 0, 3, 7, 1, 5}));
  // 16 two-bit passes, each: the histogram kernel (2 steps), the scan of 8 counts, the scatter (2).
  const std::vector<ScanLevel> levels = scan_levels(8, cfg.block);
  int scan_steps = int(levels.size()) - 1;
  for (const ScanLevel& l : levels) {
    int log_m = 0;
    while ((1 << log_m) < 2 * l.tree) ++log_m;
    scan_steps += 2 * log_m + 2;
  }
  EXPECT_EQ(t.steps.size(), 1u + 16 * std::size_t(4 + scan_steps));
}

TEST(RadixSort, BadConfigsAreRejected) {
  StepConfig cfg;
  cfg.n = 4;
  Trace t;
  std::vector<std::uint32_t> in(4);
  cfg.digit_bits = 1;
  EXPECT_FALSE(ok(build_trace_cpu(digits(), cfg, in, t)));
  cfg.digit_bits = 9;
  EXPECT_FALSE(ok(build_trace_cpu(digits(), cfg, in, t)));
  cfg.digit_bits = 4;
  if (digits().block_pow2) {
    cfg.block = 3;
    EXPECT_FALSE(ok(build_trace_cpu(digits(), cfg, in, t)));
  }
  cfg.block = 4;
  cfg.type = ElemType::F32;
  EXPECT_EQ(ok(build_trace_cpu(split(), cfg, in, t)), (split().options & kOptFloat) != 0);
  cfg.type = ElemType::I32;
  for (const Algorithm* a : {&split(), &digits()}) {
    cfg.n = a->max_n + 1;
    EXPECT_FALSE(ok(build_trace_cpu(*a, cfg, std::vector<std::uint32_t>(std::size_t(cfg.n)), t))) << a->name;
  }
}

}  // namespace
