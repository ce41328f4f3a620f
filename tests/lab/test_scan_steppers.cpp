// CPU reference scans: final results against a host scan for every scan row at the blocks, types and
// options its limits give, trace shape (steps, padding, op slots, the arrays each launch reads and
// writes) and counters that must follow from the host code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>
#include <string>

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
  StepConfig cfg;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.algo << " n=" << c.cfg.n << " block=" << c.cfg.block << " " << elem_type_name(c.cfg.type)
      << (c.cfg.inclusive ? " inclusive" : "") << " variant=" << c.cfg.variant
      << (c.cfg.conflict_offsets ? "" : " no offsets");
}

class ScanResult : public ::testing::TestWithParam<Case> {};

TEST_P(ScanResult, MatchesHostScan) {
  const Case c = GetParam();
  const Algorithm* a = find_algorithm(c.algo);
  ASSERT_NE(a, nullptr);
  for (std::uint32_t seed : {1u, 7u}) {
    auto in = make_input(InputKind::Random, c.cfg.n, c.cfg.type, seed);
    Trace t;
    const Result r = build_trace_cpu(*a, c.cfg, in, t);
    if (!r.ok()) {  // a limit of the row's own plan (kernStitch's adds), which says why
      EXPECT_FALSE(r.message().empty());
      return;
    }
    auto want = expected_scan(in, c.cfg.type, c.cfg.inclusive);
    const std::uint32_t* got = t.row(t.steps.size() - 1, kRowMain);
    for (int i = 0; i < c.cfg.n; ++i) ASSERT_EQ(got[i], want[i]) << "i=" << i;
    EXPECT_GE(t.width, c.cfg.n);
  }
}

// Every scan of the family at the blocks, types and options its row takes: sizes around warps,
// blocks and tiles; each row's smallest and largest block and a ladder between; every type in turn;
// exclusive and inclusive; every variant and the conflict offsets on and off in turn.
std::vector<Case> cases() {
  std::vector<Case> v;
  int k = 0;
  for (const char* name : test::family("scan")) {
    const Algorithm& a = *find_algorithm(name);
    std::vector<ElemType> types = {ElemType::I32};
    if (a.options & kOptFloat) types.push_back(ElemType::F32);
    if (a.options & kOptU32) types.push_back(ElemType::U32);
    int variants = 0;
    for (const char* s = a.variant_names; s && *s; s += std::string(s).size() + 1) ++variants;
    variants = std::max(variants, 1);
    std::vector<int> blocks = {a.min_block, a.max_block};
    for (int b : {1, 2, 3, 4, 32, 64, 256})
      if (b > a.min_block && b < a.max_block) blocks.push_back(b);
    for (int n : {1, 2, 3, 7, 8, 31, 32, 33, 100, 255, 256, 257, 1000, 1024, 4095, 4096})
      for (int block : blocks)
        for (bool inclusive : {false, true}) {
          StepConfig cfg;
          cfg.n = n;
          cfg.block = block;
          cfg.inclusive = inclusive && (a.options & kOptInclusive);
          cfg.type = types[std::size_t(n) % types.size()];
          cfg.variant = k % variants;
          cfg.conflict_offsets = !(a.options & kOptConflictOffsets) || k % 3 != 0;
          ++k;
          if (!validate(a, cfg).ok() || (inclusive && !cfg.inclusive)) continue;
          v.push_back({name, cfg});
        }
  }
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
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("0 1 1 0 1 0 0 1 1 0 1", ElemType::I32, in).ok());
  for (const char* algo : test::family("scan")) {
    StepConfig cfg;
    cfg.n = int(in.size());
    cfg.block = 4;
    fit_config(*find_algorithm(algo), cfg);  // the block the row takes nearest 4
    Trace t;
    ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm(algo), cfg, in, t))) << algo;
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

int row_named(const Trace& t, const std::string& head) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind(head, 0) == 0) return int(r);
  return -1;
}

TEST(ScanTrace, OpsRecordTheThreadThatDidThem) {
  StepConfig cfg;
  cfg.n = 8;
  cfg.block = 2;
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("scan-naive"), cfg, make_input(InputKind::Sorted, 8, ElemType::I32, 1), t)));
  // Four launches (the shift, offsets 1, 2, 4): the shift writes tmp, so that offset 4 writes
  // d_out. Step 2 is offset 1, from tmp into d_out: thread 5 adds element 4 into element 5.
  const int tmp = row_named(t, "tmp");
  ASSERT_GT(tmp, int(kRowOwner));
  EXPECT_EQ(t.steps[1].focus_row, tmp);
  const Step& st = t.steps[2];
  EXPECT_EQ(st.focus_row, int(kRowMain));
  const Op& op = t.ops[std::size_t(st.op_begin + 5)];
  EXPECT_EQ(op.thread, 5);
  EXPECT_EQ(kind_of(op.kind), OpKind::Add);
  EXPECT_EQ(src_row_of(op.kind), tmp);
  EXPECT_EQ(dst_row_of(op.kind), int(kRowMain));
  EXPECT_EQ(op.src, 4);
  EXPECT_EQ(op.dst, 5);
  EXPECT_EQ(t.row(2, kRowOwner)[5], 5u);
  EXPECT_EQ(t.row(2, kRowTouch)[5] & 3u, unsigned(kTouchRead | kTouchWrite));      // d_out[5]: added into
  EXPECT_EQ(t.row(2, kRowTouch)[5] >> (2 * tmp) & 3u, unsigned(kTouchRead));       // tmp[5]: read by thread 6
}

// The naive scan ping-pongs between d_out and tmp from whichever makes its last launch write d_out,
// each launch reading what the launch before wrote (the first reads d_in).
TEST(ScanTrace, NaiveLaunchesPingPongIntoDOut) {
  for (int n : {2, 3, 8, 16, 100})
    for (bool inclusive : {false, true}) {
      StepConfig cfg;
      cfg.n = n;
      cfg.block = 32;
      cfg.inclusive = inclusive;
      Trace t;
      ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("scan-naive"), cfg, make_input(InputKind::Random, n, ElemType::I32, 2), t)));
      const int d_in = row_named(t, "d_in"), tmp = row_named(t, "tmp");
      ASSERT_GT(d_in, int(kRowOwner));
      int launches = inclusive ? 0 : 1;
      for (int offset = 1; offset < n; offset *= 2) ++launches;
      ASSERT_EQ(int(t.steps.size()) - 1, launches) << "n=" << n;
      EXPECT_EQ(t.steps.back().focus_row, int(kRowMain)) << "n=" << n;
      int read = d_in;
      for (std::size_t s = 1; s < t.steps.size(); ++s) {
        const int wrote = t.steps[s].focus_row;
        EXPECT_TRUE(wrote == int(kRowMain) || wrote == tmp);
        EXPECT_NE(wrote, read);
        for (std::int64_t o = 0; o < t.steps[s].op_count(); ++o) {
          const Op& op = t.ops[std::size_t(t.steps[s].op_begin + o)];
          if (kind_of(op.kind) == OpKind::None) continue;  // a thread past n
          if (op.src >= 0) EXPECT_EQ(src_row_of(op.kind), read) << "step " << s;
          EXPECT_EQ(dst_row_of(op.kind), wrote) << "step " << s;
        }
        read = wrote;
      }
    }
}

// Step 0 of every scan shows its input, on a row of its own: the compaction finds the row it
// puts its flags in there.
TEST(ScanTrace, EveryScanShowsItsInputFirst) {
  for (const char* algo : test::family("scan")) {
    const Algorithm& a = *find_algorithm(algo);
    StepConfig cfg;
    cfg.n = 37;
    cfg.block = 8;
    fit_config(a, cfg);
    const auto in = make_input(InputKind::Random, cfg.n, cfg.type, 4);
    Trace t;
    ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, t))) << algo;
    const int r = t.steps[0].focus_row;
    ASSERT_GE(r, int(kStdRows)) << algo;
    EXPECT_TRUE(std::equal(in.begin(), in.end(), t.row(0, std::size_t(r)))) << algo;
    EXPECT_TRUE(std::equal(in.begin(), in.end(), t.row(t.steps.size() - 1, std::size_t(r)))) << algo << ": kept";
  }
}

// The shared-memory scan's host code recurses on the block sums: one launch of the block scan a
// level, each level's sums on a row of their own, then one distribute a level back up.
TEST(ScanTrace, SharedScanRecursesOnTheBlockSums) {
  StepConfig cfg;
  cfg.n = 4096;
  cfg.block = 2;  // tiles of 4: 4096, 1024, 256, 64, 16, 4 elements a level
  const auto in = make_input(InputKind::Random, cfg.n, ElemType::I32, 6);
  Trace t;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("scan-shared"), cfg, in, t)));
  int block_scans = 0, distributes = 0;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    block_scans += t.steps[s].phase == "load";
    distributes += t.steps[s].phase == "distribute";
  }
  EXPECT_EQ(block_scans, 6);
  EXPECT_EQ(distributes, 5);
  EXPECT_EQ(t.totals(t.steps.size() - 1).launches, 11);
  // Load, up-sweep d = 2, 1 (with the clear), down-sweep d = 1, 2, write: 6 steps a block scan.
  EXPECT_EQ(int(t.steps.size()) - 1, 6 * 6 + 5);
  // Level 1 scans level 0's 1024 block sums in place: after its write the row holds their exclusive
  // scan in tiles of 4.
  const int sums0 = row_named(t, "sums (");
  ASSERT_GT(sums0, int(kRowOwner));
  EXPECT_EQ(t.rows[std::size_t(sums0)].length, 1024);
  EXPECT_EQ(t.rows[std::size_t(sums0) + 5].length, 1);
  std::size_t level1_write = 0;
  for (std::size_t s = 1; s < t.steps.size() && !level1_write; ++s)
    if (t.steps[s].phase == "write" && t.steps[s].label.rfind("level 1 ", 0) == 0) level1_write = s;
  ASSERT_GT(level1_write, 0u);
  EXPECT_EQ(t.steps[level1_write].focus_row, sums0);
  const std::uint32_t* sums = t.row(level1_write, std::size_t(sums0));
  for (int tile = 0; tile < 256; ++tile) {
    std::uint32_t acc = 0;
    for (int j = 0; j < 4; ++j) {
      ASSERT_EQ(sums[tile * 4 + j], acc) << "tile " << tile << " j " << j;
      for (int i = 0; i < 4; ++i) acc += in[std::size_t((tile * 4 + j) * 4 + i)];
    }
  }
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
