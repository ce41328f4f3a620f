// The seeds' variants: the lecture's histogram without atomics (per-thread byte counters, the two
// layouts and the thread permutation) and GPU Gems 3's two-term bank-conflict offset of the shared
// scan. Results against host references; the bank-conflict degrees each variant is there to show,
// worked out by hand from the addresses (32 banks of 4-byte words).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "lab/catalog.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

Trace cpu_trace(const char* algo, const StepConfig& cfg, const std::vector<std::uint32_t>& in) {
  Trace t;
  const Result r = build_trace_cpu(*find_algorithm(algo), cfg, in, t);
  EXPECT_TRUE(r.ok()) << algo << ": " << r.message();
  return t;
}

// The worst conflict degree over the steps of a phase.
std::int64_t worst_conflict(const Trace& t, const std::string& phase) {
  std::int64_t worst = 0;
  for (const Step& s : t.steps)
    if (s.phase == phase) worst = std::max(worst, s.counters.bank_conflict);
  return worst;
}

StepConfig per_thread_cfg(int n, int bins, int variant) {
  StepConfig c;
  c.n = n;
  c.block = 64;
  c.bins = bins;
  c.variant = variant;
  return c;
}

int row_named(const Trace& t, const std::string& prefix) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind(prefix, 0) == 0) return int(r);
  return -1;
}

}  // namespace

TEST(PerThreadHistogram, CountsMatchTheHostInEveryVariant) {
  for (int variant = 0; variant < 4; ++variant)
    for (int n : {1, 63, 64, 65, 300, 4096})
      for (int bins : {2, 17, 64})
        for (ElemType type : {ElemType::I32, ElemType::U32}) {
          std::vector<std::uint32_t> in = make_input(InputKind::Random, n, type, std::uint32_t(n + bins));
          for (std::uint32_t& w : in) w = w * 0x9E3779B9u + 5u;  // big and negative words too
          std::vector<std::uint32_t> want(std::size_t(bins), 0u);
          for (std::uint32_t w : in) {
            long long b = type == ElemType::U32 ? (long long)(w % std::uint32_t(bins)) : (long long)std::int32_t(w) % bins;
            want[std::size_t(b < 0 ? b + bins : b)] += 1;
          }
          const Trace t = cpu_trace("histogram-per-thread", [&] {
            StepConfig c = per_thread_cfg(n, bins, variant);
            c.type = type;
            return c;
          }(), in);
          const int r = row_named(t, "hist");
          ASSERT_GE(r, 0);
          const std::uint32_t* got = t.row(t.steps.size() - 1, std::size_t(r));
          EXPECT_EQ(std::vector<std::uint32_t>(got, got + bins), want)
              << "variant " << variant << " n=" << n << " bins=" << bins;
          std::int64_t atomics = 0;
          for (const Step& s : t.steps) atomics += s.counters.atomics;
          EXPECT_EQ(atomics, 0);
          EXPECT_EQ(t.totals(t.steps.size() - 1).launches, 2);  // the counting kernel, the merge kernel
        }
}

// One block, one round: lane x of warp 0 counts sample x.
TEST(PerThreadHistogram, TheLayoutAndThePermutationDecideTheBankConflicts) {
  // All samples in bin 5. tid*64+data: word 16*tid + 1, so the 16 lanes of one tid parity hit 16
  // words of one bank; tid+64*data: word tid/4 + 80, four lanes share a word, 8 banks. Permuted,
  // tid*64+data still puts 16 lanes in a bank; tid+64*data puts lanes x and x+16 on one word.
  const std::vector<std::uint32_t> equal(64, 5u);
  const int want_equal[4] = {16, 1, 16, 1};
  // data = 2*(x % 4) + 8*((x >> 4) & 1): tid+64*data puts lanes 0..3 (words 0, 32, 64, 96) in
  // bank 0, 4-way; permuted, lanes x and x+16 land on words 128 apart, one bank: 2-way.
  std::vector<std::uint32_t> spread(64);
  for (int x = 0; x < 64; ++x) spread[std::size_t(x)] = std::uint32_t(2 * (x % 4) + 8 * ((x >> 4) & 1));
  const int want_spread[2] = {4, 2};  // variants 1 and 3
  for (int variant = 0; variant < 4; ++variant) {
    const Trace t = cpu_trace("histogram-per-thread", per_thread_cfg(64, 64, variant), equal);
    EXPECT_EQ(worst_conflict(t, "count"), want_equal[variant]) << "all equal, variant " << variant;
  }
  for (int k = 0; k < 2; ++k) {
    const int variant = 1 + 2 * k;
    const Trace t = cpu_trace("histogram-per-thread", per_thread_cfg(64, 64, variant), spread);
    EXPECT_EQ(worst_conflict(t, "count"), want_spread[k]) << "spread, variant " << variant;
  }
  // Reading back is the other way round: thread `bin` reads the counters of every thread.
  // tid*64+data: lanes on words 16k + bin/4, conflict-free; tid+64*data: words k/4 + 16*bin, the
  // lanes of one bin parity in one bank: 16-way.
  EXPECT_EQ(worst_conflict(cpu_trace("histogram-per-thread", per_thread_cfg(64, 64, 0), equal), "block merge"), 1);
  EXPECT_EQ(worst_conflict(cpu_trace("histogram-per-thread", per_thread_cfg(64, 64, 1), equal), "block merge"), 16);
}

TEST(PerThreadHistogram, RejectsWhatTheLectureKernelCannotRun) {
  const Algorithm& a = *find_algorithm("histogram-per-thread");
  Trace t;
  StepConfig c = per_thread_cfg(64, 65, 0);
  EXPECT_FALSE(build_trace_cpu(a, c, std::vector<std::uint32_t>(64), t).ok());  // 65 bins
  c = per_thread_cfg(64, 16, 4);
  EXPECT_FALSE(build_trace_cpu(a, c, std::vector<std::uint32_t>(64), t).ok());  // no variant 4
  c = per_thread_cfg(64, 16, 0);
  c.block = 32;
  EXPECT_FALSE(build_trace_cpu(a, c, std::vector<std::uint32_t>(64), t).ok());  // 64 threads only
}

// A 2048-element tile (1024 threads): no offsets 32-way, i >> 5 leaves 2-way conflicts from offset
// 32 on, (i >> 5) + (i >> 10) none; at 1024-element tiles the one-term offset is already enough.
TEST(SharedScanOffsets, TheTwoTermOffsetIsConflictFreeAt2048ElementTiles) {
  auto worst = [](int block, bool offsets, int variant) {
    StepConfig c;
    c.n = 2 * block;
    c.block = block;
    c.conflict_offsets = offsets;
    c.variant = variant;
    const Trace t = cpu_trace("scan-shared", c, make_input(InputKind::Random, c.n, ElemType::I32, 3));
    std::int64_t w = 0;
    for (const Step& s : t.steps) w = std::max(w, s.counters.bank_conflict);
    return w;
  };
  EXPECT_EQ(worst(1024, false, 0), 32);
  EXPECT_EQ(worst(1024, true, 0), 2);
  EXPECT_EQ(worst(1024, true, 1), 1);
  EXPECT_EQ(worst(512, true, 0), 1);
  EXPECT_EQ(worst(512, true, 1), 1);
}

TEST(SharedScanOffsets, TheTwoTermScanIsStillAScan) {
  StepConfig c;
  c.n = 4096;
  c.block = 1024;
  c.variant = 1;
  const std::vector<std::uint32_t> in = make_input(InputKind::Random, c.n, ElemType::I32, 8);
  const Trace t = cpu_trace("scan-shared", c, in);
  const std::uint32_t* out = t.row(t.steps.size() - 1, kRowMain);
  std::uint32_t sum = 0;
  for (int i = 0; i < c.n; ++i) {
    ASSERT_EQ(out[i], sum) << "element " << i;
    sum += in[std::size_t(i)];
  }
  // The layout names the two padding words a 2048-element tile gets past index 1023.
  EXPECT_EQ(t.shared_layout.size(), std::size_t(2048 + (2047 >> 5) + (2047 >> 10)));
  EXPECT_EQ(t.shared_layout[1024 + 32 + 1], 1024);
  EXPECT_EQ(t.shared_layout[1024 + 32], -1);
}

// Seed 000's kernStitch: block b adds sums[0..b-1] to each of its 2B elements, one launch in place
// of the scan of the sums and the distribute.
TEST(SharedScanStitch, EveryBlockAddsTheRootsOfTheBlocksBeforeIt) {
  for (int variant : {2, 3})
    for (int n : {1, 40, 64, 65, 1000}) {
      StepConfig c;
      c.n = n;
      c.block = 8;
      c.variant = variant;
      const std::vector<std::uint32_t> in = make_input(InputKind::Random, n, ElemType::I32, std::uint32_t(n));
      const Trace t = cpu_trace("scan-shared", c, in);
      const std::uint32_t* out = t.row(t.steps.size() - 1, kRowMain);
      std::uint32_t sum = 0;
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], sum) << "variant " << variant << " n=" << n << " element " << i;
        sum += in[std::size_t(i)];
      }
      const int blocks = (n + 15) / 16;
      std::int64_t stitch_adds = -1, launches = t.totals(t.steps.size() - 1).launches;
      for (const Step& s : t.steps) {
        EXPECT_EQ(s.label.find("level 1"), std::string::npos) << s.label;  // no recursion
        EXPECT_NE(s.phase, "distribute");
        if (s.phase == "stitch") stitch_adds = s.counters.adds;
      }
      std::int64_t want = 0;  // element i of block i / 16 adds the sums of the blocks before its own
      for (int i = 0; i < n; ++i) want += i / 16;
      EXPECT_EQ(stitch_adds, blocks > 1 ? want : -1) << "n=" << n;
      EXPECT_EQ(launches, blocks > 1 ? 2 : 1) << "n=" << n;  // the block scan, kernStitch
    }
}

// Seed 001: each block scans its B elements in shared memory; block sum = last scanned + last
// input; the host scans the sums, a second kernel adds them.
TEST(NaiveSharedScan, BlockSumsAreLastScannedPlusLastInput) {
  StepConfig c;
  c.n = 37;
  c.block = 8;
  const std::vector<std::uint32_t> in = make_input(InputKind::Random, c.n, ElemType::I32, 4);
  const Trace t = cpu_trace("scan-naive-shared", c, in);
  const int blocks = 5;
  std::size_t write = 0;
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].phase == "write") write = s;
  ASSERT_GT(write, 0u);
  const int sums = row_named(t, "sums ("), scanned = row_named(t, "scanned (");
  ASSERT_GE(sums, 0);
  ASSERT_GE(scanned, 0);
  std::uint32_t before = 0;
  for (int b = 0; b < blocks; ++b) {
    std::uint32_t block_sum = 0;
    for (int i = b * 8; i < std::min(c.n, b * 8 + 8); ++i) block_sum += in[std::size_t(i)];
    EXPECT_EQ(t.row(write, std::size_t(sums))[b], block_sum) << "block " << b;
    // The write step leaves each block's own exclusive scan, the last step the whole array's.
    EXPECT_EQ(t.row(write, kRowMain)[b * 8], 0u) << "block " << b;
    EXPECT_EQ(t.row(t.steps.size() - 1, std::size_t(scanned))[b], before) << "block " << b;
    before += block_sum;
  }
  std::uint32_t sum = 0;
  for (int i = 0; i < c.n; ++i) {
    EXPECT_EQ(t.row(t.steps.size() - 1, kRowMain)[i], sum) << "element " << i;
    sum += in[std::size_t(i)];
  }
  EXPECT_EQ(t.totals(t.steps.size() - 1).launches, 2);  // the block scan, the add of the offsets
  // Offsets 1, 2, 4 in blocks of 8: three ping-pong passes.
  int sweeps = 0;
  for (const Step& s : t.steps) sweeps += s.phase == "sweep";
  EXPECT_EQ(sweeps, 3);
}

// Every variant's lines are in the shared scan's listing, tagged: each step lights a line of its
// phase, the load also the offset's line where it pads, and kernStitch its add of the sums.
TEST(SharedScanOffsets, VariantLinesAreListedWithTheirTags) {
  for (int variant = 0; variant < 4; ++variant)
    for (bool offsets : {true, false}) {
      StepConfig c;
      c.n = 64;
      c.block = 8;
      c.variant = variant;
      c.conflict_offsets = offsets;
      const Trace t = cpu_trace("scan-shared", c, make_input(InputKind::Random, c.n, ElemType::I32, 2));
      ASSERT_EQ(t.code_tags.size(), t.code.size()) << "variant " << variant;
      int stitches = 0;
      for (std::size_t s = 1; s < t.steps.size(); ++s) {
        const Step& st = t.steps[s];
        const std::string& tag = t.code_tags[std::size_t(st.code_line)];
        EXPECT_EQ(tag.substr(0, tag.find(" (")), st.phase) << "variant " << variant << " step " << s;
        if (st.phase == "load") {
          bool offset_lit = false;
          for (int line : st.also_lit) offset_lit |= t.code_tags[std::size_t(line)] == "load (offsets)";
          EXPECT_EQ(offset_lit, offsets) << "variant " << variant;
        }
        if (st.phase == "stitch") {
          ++stitches;
          EXPECT_NE(t.code[std::size_t(st.code_line)].find("sums[i]"), std::string::npos) << t.code[std::size_t(st.code_line)];
        }
      }
      EXPECT_EQ(stitches, (variant & 2) ? 1 : 0) << "variant " << variant;
    }
}
