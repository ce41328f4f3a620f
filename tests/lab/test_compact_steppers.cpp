// CPU reference stream compaction: the output and the count against std::copy_if for every scan
// variant, predicate, block the compaction and its scan take, and many n; the seeds' samples; the
// splice of the scan's own trace; special values; bad configs.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "lab/algorithms/compact/compact_common.h"
#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

// Seed 002's stream-compaction sample: the visible head of its test array and of the compacted
// output ("1 2 0 1 2 0 2 0 0 1 0 1 0 ... 3 0" -> "1 2 1 2 2 1 1 ...").
const std::vector<std::uint32_t> kSeed002CompactHead = {1, 2, 0, 1, 2, 0, 2, 0, 0, 1, 0, 1, 0};
const std::vector<std::uint32_t> kSeed002CompactedHead = {1, 2, 1, 2, 2, 1, 1};
// The head and the tail together, as the seed prints them.
const std::vector<std::uint32_t> kSeed002CompactHeadAndTail = {1, 2, 0, 1, 2, 0, 2, 0, 0, 1, 0, 1, 0, 3, 0};

constexpr int kFlagsRow = 3, kScannedRow = 4;

struct Compacted {
  std::vector<std::uint32_t> out;
  std::uint32_t count = 0;
  Trace t;
};

int output_row(const Trace& t) { return int(t.rows.size()) - 2; }

std::string compact(const std::vector<std::uint32_t>& in, int variant, int predicate, int threshold, int block,
                    ElemType type, Compacted& r) {
  StepConfig cfg;
  cfg.n = int(in.size());
  cfg.block = block;
  cfg.type = type;
  cfg.variant = variant;
  cfg.predicate = predicate;
  cfg.threshold = threshold;
  const std::string e = build_trace_cpu(*find_algorithm("compact"), cfg, in, r.t).message();
  if (!e.empty()) return e;
  const std::size_t last = r.t.steps.size() - 1;
  r.count = r.t.row(last, r.t.rows.size() - 1)[0];
  r.out.assign(r.t.row(last, output_row(r.t)), r.t.row(last, output_row(r.t)) + cfg.n);
  return "";
}

bool host_keep(std::uint32_t w, ElemType t, int predicate, int threshold) {
  if (t == ElemType::F32) {
    const float v = word_to_float(w);
    return predicate == 1 ? std::fmod(v, 2.0f) == 0.0f : predicate == 2 ? v > float(threshold) : v != 0.0f;
  }
  const std::int32_t v = std::int32_t(w);
  return predicate == 1 ? v % 2 == 0 : predicate == 2 ? v > threshold : v != 0;
}

void expect_compacted(const std::vector<std::uint32_t>& in, int variant, int predicate, int threshold, int block,
                      ElemType type) {
  Compacted r;
  ASSERT_EQ(compact(in, variant, predicate, threshold, block, type, r), "");
  std::vector<std::uint32_t> want;
  std::copy_if(in.begin(), in.end(), std::back_inserter(want),
               [&](std::uint32_t w) { return host_keep(w, type, predicate, threshold); });
  ASSERT_EQ(r.count, want.size()) << "variant " << variant << " n=" << in.size() << " block " << block;
  for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(r.out[i], want[i]) << i;
  for (std::size_t i = want.size(); i < in.size(); ++i) ASSERT_EQ(r.out[i], 0u) << "past the count: " << i;
  EXPECT_NE(r.t.steps.back().label.find(" = " + std::to_string(want.size()) + " kept"), std::string::npos);
}

struct Case {
  int n, block, variant, predicate;
  ElemType type;
};

class CompactResult : public ::testing::TestWithParam<Case> {};

TEST_P(CompactResult, MatchesCopyIf) {
  const Case c = GetParam();
  for (std::uint32_t seed : {2u, 9u}) {
    auto in = make_input(InputKind::Random, c.n, c.type, seed);
    expect_compacted(in, c.variant, c.predicate, 4, c.block, c.type);
  }
  expect_compacted(make_input(InputKind::AllEqual, c.n, c.type, 1), c.variant, c.predicate, 4, c.block, c.type);
  expect_compacted(make_input(InputKind::Sorted, c.n, c.type, 1), c.variant, c.predicate, 4, c.block, c.type);
}

// The blocks a variant runs: those the compaction and the scan it runs both take.
bool takes(int variant, int block) {
  StepConfig cfg;
  cfg.block = block;
  return validate(*find_algorithm("compact"), cfg).ok() && validate(steppers::compact::scan_algo(variant), cfg).ok();
}

std::vector<Case> cases() {
  const Algorithm& a = *find_algorithm("compact");
  std::vector<Case> v;
  int k = 0;
  for (int variant : {0, 1, 2})
    for (int n : {1, 2, 3, 7, 8, 31, 32, 33, 100, 255, 256, 257, 1000, 1024, 1025, 4095, 4096})
      for (int block : {a.min_block, 2, 4, 32, 64, 256, a.max_block}) {
        if (!takes(variant, block) || (block < 4 && n > 1100)) continue;  // thousands of tiny blocks: slow to no purpose
        ++k;
        v.push_back({n, block, variant, k % 3, k % 4 == 0 ? ElemType::F32 : ElemType::I32});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CompactResult, ::testing::ValuesIn(cases()));

TEST(CompactTrace, Seed002Sample) {
  for (int variant : {0, 1, 2})
    for (int block : {1, 2, 4, 8, 16}) {
      if (!takes(variant, block)) continue;
      Compacted r;
      ASSERT_EQ(compact(kSeed002CompactHead, variant, 0, 0, block, ElemType::I32, r), "");
      EXPECT_EQ(r.count, kSeed002CompactedHead.size());
      EXPECT_TRUE(std::equal(kSeed002CompactedHead.begin(), kSeed002CompactedHead.end(), r.out.begin()));
      ASSERT_EQ(compact(kSeed002CompactHeadAndTail, variant, 0, 0, block, ElemType::I32, r), "");
      EXPECT_EQ(r.count, 8u);
      EXPECT_EQ(r.t.steps.back().label, "count = idx[14] + flags[14] = 8 kept of 15");
    }
}

TEST(CompactTrace, CountIsTheLastIndexPlusTheLastFlag) {
  // Seed 001: "the total count is obtained from the last scanned index plus the last boolean value".
  for (std::uint32_t last : {0u, 5u}) {
    std::vector<std::uint32_t> in = {3, 0, 4, 1, 0, 0, 9, last};
    Compacted r;
    ASSERT_EQ(compact(in, 0, 0, 0, 4, ElemType::I32, r), "");
    const std::size_t s = r.t.steps.size() - 1;
    EXPECT_EQ(r.count, r.t.row(s, kScannedRow)[7] + r.t.row(s, kFlagsRow)[7]);
    EXPECT_EQ(r.count, last ? 5u : 4u);
  }
}

TEST(CompactTrace, TheScanStepsAreTheScansOwnTrace) {
  const std::vector<std::uint32_t> in = make_input(InputKind::Random, 40, ElemType::I32, 5);
  for (int variant : {0, 1, 2}) {
    Compacted r;
    ASSERT_EQ(compact(in, variant, 1, 0, 8, ElemType::I32, r), "");
    std::vector<std::uint32_t> flags(r.t.row(1, kFlagsRow), r.t.row(1, kFlagsRow) + in.size());
    StepConfig cfg;
    cfg.n = int(in.size());
    cfg.block = 8;
    Trace scan;
    const Algorithm& scan_row = steppers::compact::scan_algo(variant);
    ASSERT_TRUE(ok(build_trace_cpu(scan_row, cfg, flags, scan)));
    EXPECT_NE(r.t.title.find(scan.title), std::string::npos) << r.t.title;
    // input, map, the scan's steps, scatter, count.
    ASSERT_EQ(r.t.steps.size(), 2 + (scan.steps.size() - 1) + 2);
    for (std::size_t k = 1; k < scan.steps.size(); ++k) {
      const Step& cs = r.t.steps[1 + k];
      EXPECT_EQ(cs.label, "scan: " + scan.steps[k].label);
      EXPECT_TRUE(cs.counters == scan.steps[k].counters);
      EXPECT_TRUE(std::equal(scan.row(k, kRowMain), scan.row(k, kRowMain) + scan.width, r.t.row(1 + k, kScannedRow)));
      // The scan's input row holds the flags through every step.
      EXPECT_TRUE(std::equal(flags.begin(), flags.end(), r.t.row(1 + k, kFlagsRow)));
      EXPECT_TRUE(std::equal(scan.row(k, std::size_t(scan.steps[0].focus_row)),
                             scan.row(k, std::size_t(scan.steps[0].focus_row)) + flags.size(), flags.begin()));
      EXPECT_EQ(cs.also_lit.size(), scan.steps[k].also_lit.size());
      for (std::int64_t o = 0; o < cs.op_count(); ++o) {
        const Op& a = r.t.ops[std::size_t(cs.op_begin + o)];
        const Op& b = scan.ops[std::size_t(scan.steps[k].op_begin + o)];
        ASSERT_EQ(a.thread, b.thread);
        ASSERT_EQ(a.src, b.src);
        ASSERT_EQ(a.dst, b.dst);
        ASSERT_EQ(kind_of(a.kind), kind_of(b.kind));
      }
    }
    // The scan's code lines point into the scan's listing, appended after the compaction's.
    const Step& first = r.t.steps[2];
    ASSERT_GE(first.code_line, 0);
    EXPECT_EQ(r.t.code[std::size_t(first.code_line)], scan.code[std::size_t(scan.steps[1].code_line)]);
  }
}

TEST(CompactTrace, Predicates) {
  const std::vector<std::uint32_t> ints = {std::uint32_t(-3), std::uint32_t(-4), 0u, std::uint32_t(INT_MIN),
                                           std::uint32_t(INT_MAX), 7u, 8u, std::uint32_t(-1)};
  for (int variant : {0, 1, 2})
    for (int predicate : {0, 1, 2})
      for (int threshold : {-4, 0, 7, INT_MAX, INT_MIN}) expect_compacted(ints, variant, predicate, threshold, 4, ElemType::I32);
  std::vector<std::uint32_t> floats;
  ASSERT_TRUE(parse_input_list("-0.0 0 nan 2 -2 3.5 inf -inf 4 1e30 -7 0.5", ElemType::F32, floats).ok());
  for (int variant : {0, 1, 2})
    for (int predicate : {0, 1, 2})
      for (int threshold : {-5, 0, 3}) expect_compacted(floats, variant, predicate, threshold, 4, ElemType::F32);
  // NaN is non-zero (kept), not even, not greater than anything; -0.0 is zero.
  Compacted r;
  ASSERT_EQ(compact(floats, 0, 0, 0, 4, ElemType::F32, r), "");
  EXPECT_EQ(r.count, 10u);
  EXPECT_TRUE(std::isnan(word_to_float(r.out[0])));
}

TEST(CompactTrace, AllDroppedAndAllKept) {
  for (int variant : {0, 1, 2}) {
    Compacted r;
    ASSERT_EQ(compact(std::vector<std::uint32_t>(100, 0u), variant, 0, 0, 32, ElemType::I32, r), "");
    EXPECT_EQ(r.count, 0u);
    ASSERT_EQ(compact(std::vector<std::uint32_t>(100, 6u), variant, 1, 0, 32, ElemType::I32, r), "");
    EXPECT_EQ(r.count, 100u);
  }
}

TEST(CompactTrace, BadConfigsAreRejectedWithAMessage) {
  Compacted r;
  const std::vector<std::uint32_t> in(8, 1u);
  EXPECT_NE(compact(in, 3, 0, 0, 4, ElemType::I32, r), "");
  EXPECT_NE(compact(in, 0, 3, 0, 4, ElemType::I32, r), "");
  EXPECT_NE(compact(in, 2, 0, 0, 3, ElemType::I32, r).find("power-of-two"), std::string::npos);
  EXPECT_NE(compact(in, 2, 0, 0, 1, ElemType::I32, r).find("block size"), std::string::npos);  // the scan's limits
  EXPECT_EQ(compact(in, 0, 0, 0, 3, ElemType::I32, r), "");
  EXPECT_EQ(compact(in, 1, 0, 0, 3, ElemType::I32, r), "");
  StepConfig cfg;
  cfg.n = 5000;
  Trace t;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("compact"), cfg, std::vector<std::uint32_t>(5000), t)));
  cfg.n = 4;
  cfg.type = ElemType::U32;
  EXPECT_FALSE(ok(build_trace_cpu(*find_algorithm("compact"), cfg, std::vector<std::uint32_t>(4), t)));
}

}  // namespace
