// CPU reference bitonic sort: final keys (and indices) against a stable host sort over the key
// order, over the row's configs (its block limits, element types and options) and its edge inputs
// (int32 / uint32 extremes, float NaN, -0.0, +-inf); the steps follow the host code of
// bitonic_sort.cuh (the padding launch, sort_shared_kernel's passes __syncthreads() apart, the
// global passes and merge_shared_kernel); rejected configs.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/host_order.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

const Algorithm& row() { return *find_algorithm("bitonic-sort"); }

void check_sorted(const std::vector<std::uint32_t>& in, StepConfig cfg, const std::string& what) {
  cfg.n = int(in.size());
  ASSERT_TRUE(validate(row(), cfg).ok()) << what;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, in, t))) << what;
  const auto idx = test::stable_order(in, cfg.type, cfg.descending);
  const std::size_t last = t.steps.size() - 1;
  const std::uint32_t* keys = t.row(last, kRowMain);
  for (int i = 0; i < cfg.n; ++i) {
    ASSERT_EQ(keys[i], in[idx[std::size_t(i)]]) << what << " n=" << cfg.n << " block=" << cfg.block << " i=" << i;
    if (cfg.key_value) ASSERT_EQ(t.row(last, kStdRows)[i], idx[std::size_t(i)]) << what << " index i=" << i;
  }
}

// The element types the row takes.
std::vector<ElemType> types() {
  std::vector<ElemType> v = {ElemType::I32};
  if (row().options & kOptU32) v.push_back(ElemType::U32);
  if (row().options & kOptFloat) v.push_back(ElemType::F32);
  return v;
}

// Every block the row takes from its smallest to its largest (powers of two where it asks for them).
std::vector<int> blocks() {
  std::vector<int> v;
  for (int b = row().min_block; b <= row().max_block; b = row().block_pow2 ? 2 * b : b + 1) v.push_back(b);
  return v;
}

TEST(BitonicSort, TheRowsConfigsSort) {
  for (const test::RowConfig& rc : test::configs_for(row()))
    check_sorted(make_input(InputKind::Random, rc.cfg.n, rc.cfg.type, rc.cfg.seed), rc.cfg, rc.what);
}

TEST(BitonicSort, RandomInputsOverSizesBlocksTypesAndOrders) {
  int combo = 0;
  for (int n : {1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1000, 1024, 2049, 4095})
    for (int block : blocks()) {
      if (n > row().max_n || (block <= 2 && n > 256)) continue;  // thousands of one-thread blocks: slow to no purpose
      StepConfig cfg;
      cfg.block = block;
      cfg.descending = (row().options & kOptDescending) && combo % 2;
      cfg.key_value = (row().options & kOptKeyValue) && combo % 4 >= 2;
      cfg.type = types()[std::size_t(combo) % types().size()];
      ++combo;
      check_sorted(make_input(InputKind::Random, n, cfg.type, std::uint32_t(n * 7 + block)), cfg, "random");
    }
}

TEST(BitonicSort, SortedReversedEqualAndFewDistinct) {
  for (InputKind k : {InputKind::Sorted, InputKind::Reversed, InputKind::AllEqual, InputKind::FewDistinct})
    for (int n : {6, 64, 300})
      for (int combo = 0; combo < 4; ++combo) {
        StepConfig cfg;
        cfg.block = std::max(row().min_block, 8);
        cfg.key_value = (row().options & kOptKeyValue) && combo % 2;
        cfg.descending = (row().options & kOptDescending) && combo / 2;
        check_sorted(make_input(k, n, ElemType::I32, 3), cfg, input_kind_name(k));
      }
}

TEST(BitonicSort, Int32AndUint32ExtremesBesideThePadding) {
  // The padding copies the last key (INT_MAX ascending, INT_MIN descending): real keys still come first.
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(
      parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648 -7 1 2147483647 0", ElemType::I32, in)
          .ok());
  const std::vector<std::uint32_t> u = {0xffffffffu, 0u, 0x80000000u, 0x7fffffffu, 1u,
                                        0xfffffffeu, 0u, 0x80000001u, 3u};
  for (int combo = 0; combo < 4; ++combo)
    for (int block : blocks()) {
      if (block > 8) break;  // the padding and the tiles' edges need small tiles
      StepConfig cfg;
      cfg.block = block;
      cfg.key_value = (row().options & kOptKeyValue) && combo % 2;
      cfg.descending = (row().options & kOptDescending) && combo / 2;
      check_sorted(in, cfg, "int32 extremes");
      if (!(row().options & kOptU32)) continue;
      cfg.type = ElemType::U32;
      check_sorted(u, cfg, "uint32 extremes");
    }
}

TEST(BitonicSort, FloatSpecialsAndNaNPlacement) {
  if (!(row().options & kOptFloat)) GTEST_SKIP() << "the row takes no floats";
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, in).ok());
  for (int combo = 0; combo < 4; ++combo) {
    StepConfig cfg;
    cfg.n = int(in.size());
    cfg.block = std::max(row().min_block, 4);
    cfg.type = ElemType::F32;
    cfg.key_value = (row().options & kOptKeyValue) && combo % 2;
    cfg.descending = (row().options & kOptDescending) && combo / 2;
    check_sorted(in, cfg, "floats");
    Trace t;
    ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, in, t)));
    const std::uint32_t* k = t.row(t.steps.size() - 1, kRowMain);
    // Ascending: -NaN first, +NaN last (descending: the reverse).
    EXPECT_EQ(k[0], cfg.descending ? in[4] : in[10]);
    EXPECT_EQ(k[cfg.n - 1], cfg.descending ? in[10] : in[4]);
    EXPECT_TRUE(std::isnan(word_to_float(k[0])) && std::isnan(word_to_float(k[cfg.n - 1])));
  }
}

// The host code's launches: the padding where N > n, sort_shared_kernel, then per size 2L..N its
// global strides size/2..L and merge_shared_kernel; barriers: one a shared pass and the store.
TEST(BitonicTrace, StepsAreTheHostCodesLaunchesAndBarriers) {
  for (int n : {2, 7, 8, 33, 100, 1000})
    for (int block : blocks()) {
      StepConfig cfg;
      cfg.n = n;
      cfg.block = block;
      Trace t;
      ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, make_input(InputKind::Random, n, ElemType::I32, 1), t)));
      int N = 2;
      while (N < n) N *= 2;
      const int B = std::min(block, N / 2), L = 2 * B;
      int launches = (N > n) + 1, shared = 0, shared_kernels = 1;
      for (int s = 2; s <= L; s *= 2)
        for (int st = s / 2; st > 0; st /= 2) ++shared;
      for (int size = 2 * L; size <= N; size *= 2) {
        for (int st = size / 2; st >= L; st /= 2) ++launches;
        ++launches;
        ++shared_kernels;
        for (int st = B; st > 0; st /= 2) ++shared;
      }
      int got_launches = 0, got_barriers = 0, got_shared = 0;
      for (std::size_t s = 1; s < t.steps.size(); ++s) {
        got_launches += !t.steps[s].barrier;
        got_barriers += t.steps[s].barrier;
        got_shared += t.steps[s].phase == "shared pass";
        if (t.steps[s].phase != "pad") EXPECT_EQ(t.steps[s].launch.threads, B) << "n=" << n << " block=" << block;
      }
      EXPECT_EQ(got_launches, launches) << "n=" << n << " block=" << block;
      EXPECT_EQ(got_shared, shared) << "n=" << n << " block=" << block;
      EXPECT_EQ(got_barriers, shared + shared_kernels) << "n=" << n << " block=" << block;  // + each store
    }
}

TEST(BitonicTrace, PaddingTilesAndComparatorDirections) {
  StepConfig cfg;
  cfg.block = 2;  // N = 8, tiles of L = 4
  const std::vector<std::uint32_t> in = {5, 1, 4, 2, 3, 0};
  cfg.n = int(in.size());
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, in, t)));
  EXPECT_EQ(t.width, 8);
  EXPECT_TRUE(t.network);
  // Step 1 pads keys[6..7] with the key that sorts last (INT_MAX ascending); it ends up at the end,
  // behind the real keys.
  ASSERT_EQ(t.steps[1].phase, "pad");
  EXPECT_EQ(t.row(0, kRowMain)[6], 0u);
  EXPECT_EQ(t.row(1, kRowMain)[6], 0x7fffffffu);
  EXPECT_EQ(t.row(1, kRowMain)[7], 0x7fffffffu);
  EXPECT_EQ(t.row(t.steps.size() - 1, kRowMain)[5], 5u);
  EXPECT_EQ(t.row(t.steps.size() - 1, kRowMain)[7], 0x7fffffffu);
  EXPECT_EQ(t.steps[1].launch.threads, 256);
  EXPECT_EQ(t.steps[1].launch.active, 2);
  // Step 2 loads the tiles, steps 3-5 are sort_shared_kernel's passes, step 6 its store.
  EXPECT_EQ(t.steps[2].phase, "load");
  EXPECT_FALSE(t.steps[2].barrier);
  EXPECT_TRUE(t.steps[3].barrier);
  EXPECT_EQ(t.steps[6].phase, "store");
  EXPECT_TRUE(t.steps[6].barrier);
  EXPECT_EQ(t.steps[7].phase, "global pass");
  EXPECT_FALSE(t.steps[7].barrier);
  int passes = 0, global = 0;
  for (const Step& s : t.steps) {
    passes += s.phase == "shared pass" || s.phase == "global pass";
    global += s.phase == "global pass";
  }
  EXPECT_EQ(passes, 6);  // log N (log N + 1) / 2 with log N = 3
  EXPECT_EQ(global, 1);  // size 8, stride 4 >= L
  // Step 3 is size 2, stride 1: comparators (0,1) in the sort's direction, (2,3) against it: src gets
  // the key that comes first.
  const Step& s = t.steps[3];
  EXPECT_EQ(s.label.rfind("size 2, stride 1", 0), 0u) << s.label;
  const Op& up = t.ops[std::size_t(s.op_begin + 0)];
  const Op& down = t.ops[std::size_t(s.op_begin + 1)];
  EXPECT_EQ(kind_of(up.kind), OpKind::CompareSwap);
  EXPECT_EQ(up.src, 0);
  EXPECT_EQ(up.dst, 1);
  EXPECT_EQ(down.src, 3);
  EXPECT_EQ(down.dst, 2);
  // After it: (1,5) ascending and (4,2) descending in shared memory.
  const std::uint32_t* sh = t.row(3, kStdRows);
  EXPECT_EQ(std::vector<std::uint32_t>(sh, sh + 4), (std::vector<std::uint32_t>{1, 5, 4, 2}));
}

TEST(BitonicTrace, KeyValueLoadTagsEachKeyWithItsIndex) {
  if (!(row().options & kOptKeyValue)) GTEST_SKIP() << "the row takes no key-value sorts";
  StepConfig cfg;
  cfg.block = 2;
  cfg.key_value = true;
  const std::vector<std::uint32_t> in = {5, 1, 4, 2, 3, 0, 7, 6};
  cfg.n = int(in.size());
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, in, t)));
  ASSERT_EQ(t.steps[1].phase, "load");  // n = N: no padding
  // The global index row is empty until the first store; the shared one holds the positions.
  const std::uint32_t* index0 = t.row(1, kStdRows);
  EXPECT_EQ(std::count(index0, index0 + 8, 0u), 8);
  const std::uint32_t* shared_index = t.row(1, kStdRows + 2);
  for (std::uint32_t i = 0; i < 8; ++i) EXPECT_EQ(shared_index[i], i);
  // The first load reads keys alone (4 bytes a key); merge_shared_kernel's loads read both.
  EXPECT_EQ(t.steps[1].counters.global_read_bytes, 8 * 4);
  for (const Step& s : t.steps)
    if (s.phase == "load" && &s != &t.steps[1]) EXPECT_EQ(s.counters.global_read_bytes, 8 * 8) << s.label;
}

TEST(BitonicTrace, CountersFollowFromTheNetwork) {
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, make_input(InputKind::Random, 64, ElemType::I32, 2), t)));
  // One tile of 64: the load reads 256 bytes, the store writes 256, every shared pass reads 64 words.
  EXPECT_EQ(t.steps[1].counters.global_read_bytes, 256);
  EXPECT_EQ(t.steps.back().counters.global_write_bytes, 256);
  for (const Step& s : t.steps)
    if (s.phase == "shared pass") EXPECT_GE(s.counters.shared_accesses, 64);
  // A global pass writes both keys back whether or not it swapped them.
  cfg.n = 256;
  cfg.block = 8;
  ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, make_input(InputKind::Sorted, 256, ElemType::I32, 2), t)));
  for (const Step& s : t.steps)
    if (s.phase == "global pass") {
      EXPECT_EQ(s.counters.global_read_bytes, 256 * 4) << s.label;
      EXPECT_EQ(s.counters.global_write_bytes, 256 * 4) << s.label;
    }
}

TEST(BitonicTrace, SharedPassBankConflictsFollowTheStride) {
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;  // one tile of 64 in shared memory
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, make_input(InputKind::Random, 64, ElemType::I32, 4), t)));
  // pos = 2 tid - (tid & (stride - 1)): stride 32 reads words 0..31 (conflict-free); stride 1 reads
  // the even words 0..62, two to a bank.
  int seen = 0;
  for (const Step& s : t.steps) {
    if (s.phase != "shared pass") continue;
    if (s.label.find("stride 32 ") != std::string::npos) EXPECT_EQ(s.counters.bank_conflict, 1) << s.label;
    if (s.label.find("stride 1 ") != std::string::npos) EXPECT_EQ(s.counters.bank_conflict, 2) << s.label;
    seen += s.label.find("stride 32 ") != std::string::npos || s.label.find("stride 1 ") != std::string::npos;
  }
  EXPECT_GE(seen, 2);
}

TEST(BitonicTrace, BadConfigsAreRejected) {
  StepConfig cfg;
  Trace t;
  cfg.n = 0;
  EXPECT_FALSE(ok(build_trace_cpu(row(), cfg, {}, t)));
  cfg.n = row().max_n + 1;
  EXPECT_FALSE(ok(build_trace_cpu(row(), cfg, std::vector<std::uint32_t>(std::size_t(cfg.n)), t)));
  cfg.n = 8;
  cfg.block = row().max_block * 2;
  EXPECT_FALSE(ok(build_trace_cpu(row(), cfg, std::vector<std::uint32_t>(8), t)));
  if (row().block_pow2) {
    cfg.block = 3;
    EXPECT_FALSE(ok(build_trace_cpu(row(), cfg, std::vector<std::uint32_t>(8), t)));
  }
}

}  // namespace
