// CPU reference histograms (global atomicAdd, per-block shared, the lecture's tagged per-warp
// sub-histograms): final bins against a host count (bin = x mod bins, int32 non-negative remainder),
// partial histograms, counters and the per-step atomics / collisions / retries row, seeds, bad configs;
// the byte histogram (four tagged addByte per word) against a host count of the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <string_view>
#include <numeric>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

// The histograms of samples with the "this step" row that take any block and up to 256 bins; the
// per-thread histogram (64 threads, at most 64 bins) has its own tests (test_seed_variants.cpp), the
// byte histogram its own below.
std::vector<const char*> shared_row_histograms() {
  std::vector<const char*> v = test::family("histogram");
  v.erase(std::remove_if(v.begin(), v.end(),
                         [](const char* a) {
                           return std::string_view(a) == "histogram-per-thread" || std::string_view(a) == "histogram-tagged-bytes";
                         }),
          v.end());
  return v;
}
const std::vector<const char*> kAlgos = shared_row_histograms();

int row_index(const Trace& t, const std::string& prefix) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind(prefix, 0) == 0) return int(r);
  return -1;
}

std::vector<std::uint32_t> host_histogram(const std::vector<std::uint32_t>& in, ElemType t, int bins) {
  std::vector<std::uint32_t> h(std::size_t(bins), 0u);
  for (std::uint32_t w : in) {
    long long b = t == ElemType::U32 ? (long long)(w % std::uint32_t(bins)) : (long long)std::int32_t(w) % bins;
    if (b < 0) b += bins;
    ++h[std::size_t(b)];
  }
  return h;
}

std::vector<std::uint32_t> final_row(const Trace& t, int r) {
  const std::uint32_t* p = t.row(t.steps.size() - 1, std::size_t(r));
  return {p, p + t.rows[std::size_t(r)].length};
}

// Sum over the steps of one cell of the "this step: atomics, collisions, retries" row.
std::int64_t stat_total(const Trace& t, int k) {
  const int r = row_index(t, "this step");
  std::int64_t sum = 0;
  for (std::size_t s = 0; s < t.steps.size(); ++s) sum += std::int32_t(t.row(s, std::size_t(r))[k]);
  return sum;
}

Trace build(const char* algo, const StepConfig& cfg, const std::vector<std::uint32_t>& in) {
  Trace t;
  const std::string e = build_trace_cpu(*find_algorithm(algo), cfg, in, t).message();
  EXPECT_EQ(e, "") << algo;
  return t;
}

struct Case {
  int n, block, bins;
  ElemType type;
  InputKind kind;
};

class HistogramResult : public ::testing::TestWithParam<Case> {};

TEST_P(HistogramResult, MatchesHostCount) {
  const Case c = GetParam();
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.bins = c.bins;
  cfg.type = c.type;
  for (std::uint32_t seed : {1u, 9u}) {
    auto in = make_input(c.kind, c.n, c.type, seed);
    // Spread the small UI values over the whole range so the bin rule sees big and negative words.
    if (seed == 9u) {
      for (auto& w : in) w = w * 0x9E3779B9u + seed;
    }
    cfg.seed = seed;
    const auto want = host_histogram(in, c.type, c.bins);
    for (const char* algo : kAlgos) {
      Trace t = build(algo, cfg, in);
      const int bins = row_index(t, "bins");
      ASSERT_GE(bins, 0);
      ASSERT_EQ(final_row(t, bins), want) << algo << " n=" << c.n << " block=" << c.block << " bins=" << c.bins;
      const Counters tot = t.totals(t.steps.size() - 1);
      const std::int64_t blocks = t.steps[1].launch.blocks;
      if (algo == std::string("histogram-atomic")) {
        EXPECT_EQ(tot.atomics, c.n);
      }
      if (algo == std::string("histogram-shared")) {
        EXPECT_EQ(tot.atomics, c.n + blocks * c.bins);
      }
      if (algo == std::string("histogram-tagged")) {
        EXPECT_EQ(tot.atomics, 0);
        // Partial histograms add up to the bins.
        const auto part = final_row(t, row_index(t, "partial"));
        for (int b = 0; b < c.bins; ++b) {
          std::uint32_t s = 0;
          for (std::int64_t h = 0; h < blocks; ++h) s += part[std::size_t(h * c.bins + b)];
          ASSERT_EQ(s, want[std::size_t(b)]);
        }
        // Each sample's failed writes: lanes that landed before it on its bin in its instruction.
        const auto same = final_row(t, row_index(t, "lanes on the same bin"));
        const auto retries = final_row(t, row_index(t, "failed writes"));
        std::int64_t expected = 0;
        for (int i = 0; i < c.n; ++i) {
          ASSERT_LT(retries[std::size_t(i)], same[std::size_t(i)]);
          expected += same[std::size_t(i)] - 1;  // a group of k: (k-1) each, halved below
        }
        EXPECT_EQ(2 * stat_total(t, 2), expected);
      }
      EXPECT_EQ(stat_total(t, 0), tot.atomics) << algo;
    }
  }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  const InputKind kinds[] = {InputKind::Random, InputKind::Sorted, InputKind::Reversed, InputKind::AllEqual,
                             InputKind::FewDistinct};
  int k = 0;
  for (int n : {1, 2, 3, 7, 31, 32, 33, 100, 255, 256, 257, 1000, 1024, 4095, 4096})
    for (int block : {1, 3, 8, 32, 33, 64, 256, 1024})
      for (int bins : {2, 3, 16, 100, 256}) {
        if (block == 1 && n > 1024 && bins != 256) continue;
        ++k;
        v.push_back({n, block, bins, k % 3 == 0 ? ElemType::U32 : ElemType::I32, kinds[k % 5]});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllHistograms, HistogramResult, ::testing::ValuesIn(cases()));

TEST(HistogramTrace, ExtremesFallInTheirBins) {
  const std::vector<std::uint32_t> in = {
      std::uint32_t(INT_MIN),    std::uint32_t(INT_MAX), std::uint32_t(-1), 0u, std::uint32_t(-7), 7u,
      std::uint32_t(INT_MIN + 1)};
  StepConfig cfg;
  cfg.n = int(in.size());
  cfg.block = 4;
  cfg.bins = 7;
  for (const char* algo : kAlgos) {
    Trace t = build(algo, cfg, in);
    // INT_MIN % 7 = -2 -> 5; INT_MAX % 7 = 1; -1 -> 6; 0; -7 -> 0; 7 -> 0; INT_MIN+1 % 7 = -1 -> 6.
    EXPECT_EQ(final_row(t, row_index(t, "bins")), (std::vector<std::uint32_t>{3, 1, 0, 0, 0, 1, 2})) << algo;
  }
  cfg.type = ElemType::U32;
  for (const char* algo : kAlgos) {
    Trace t = build(algo, cfg, in);
    EXPECT_EQ(final_row(t, row_index(t, "bins")), host_histogram(in, ElemType::U32, 7)) << algo;
  }
}

TEST(HistogramTrace, CollisionsAndRetriesOfAllEqualSamples) {
  // 64 equal samples, blocks of 32: two full warps, every lane collides with 31 others.
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;
  cfg.bins = 16;
  const auto in = make_input(InputKind::AllEqual, 64, ElemType::I32, 1);
  for (const char* algo : kAlgos) {
    Trace t = build(algo, cfg, in);
    EXPECT_EQ(stat_total(t, 1), 64) << algo;
    EXPECT_EQ(stat_total(t, 2), algo == std::string("histogram-tagged") ? 2 * 32 * 31 / 2 : 0) << algo;
  }
  // Distinct bins in every warp: no collision, no retry.
  cfg.bins = 64;
  const auto sorted = make_input(InputKind::Sorted, 64, ElemType::I32, 1);
  std::vector<std::uint32_t> iota(64);
  std::iota(iota.begin(), iota.end(), 0u);
  for (const char* algo : kAlgos) {
    Trace t = build(algo, cfg, iota);
    EXPECT_EQ(stat_total(t, 1), 0) << algo;
    EXPECT_EQ(stat_total(t, 2), 0) << algo;
  }
  (void)sorted;
}

TEST(HistogramTrace, TaggedRetriesCostSharedAccessesAndDivergence) {
  StepConfig cfg;
  cfg.n = 32;
  cfg.block = 32;
  cfg.bins = 4;
  const auto in = make_input(InputKind::AllEqual, 32, ElemType::I32, 1);
  Trace t = build("histogram-tagged", cfg, in);
  const Step& count = t.steps[2];
  ASSERT_EQ(count.phase, "count");
  // 32 rounds of the loop with 32, 31, ..., 1 pending lanes: 3 accesses per attempt.
  EXPECT_EQ(count.counters.shared_accesses, 3 * 32 * 33 / 2);
  EXPECT_EQ(count.counters.divergent_warps, 31);  // every round but the first
  EXPECT_EQ(count.counters.atomics, 0);
  // The count row is the bar chart of that step: one bin holds 32, tag = the lane that landed last.
  EXPECT_EQ(count.focus_row, row_index(t, "warp sub-histograms: count"));
  EXPECT_EQ(final_row(t, row_index(t, "bins"))[std::size_t(in[0] % 4)], 32u);
}

TEST(HistogramTrace, SeedChangesTheWinnersNotTheCounts) {
  StepConfig cfg;
  cfg.n = 256;
  cfg.block = 64;
  cfg.bins = 4;
  const auto in = make_input(InputKind::Random, 256, ElemType::I32, 3);
  bool tags_differ = false;
  Trace a;
  cfg.seed = 1;
  a = build("histogram-tagged", cfg, in);
  for (std::uint32_t seed = 2; seed < 6; ++seed) {
    cfg.seed = seed;
    Trace b = build("histogram-tagged", cfg, in);
    EXPECT_EQ(final_row(a, row_index(a, "bins")), final_row(b, row_index(b, "bins")));
    EXPECT_EQ(final_row(a, row_index(a, "partial")), final_row(b, row_index(b, "partial")));
    for (int k = 0; k < 3; ++k) EXPECT_EQ(stat_total(a, k), stat_total(b, k));
    for (std::size_t s = 0; s < a.steps.size(); ++s) EXPECT_TRUE(a.steps[s].counters == b.steps[s].counters);
    const int tag = row_index(a, "warp sub-histograms: tag");
    const int cnt_step = 2;
    tags_differ = tags_differ ||
                  !std::equal(a.row(cnt_step, tag), a.row(cnt_step, tag) + a.rows[tag].length, b.row(cnt_step, tag));
  }
  EXPECT_TRUE(tags_differ) << "the seed should pick other lanes to land first";
}

TEST(HistogramTrace, StepsAndFocusRows) {
  StepConfig cfg;
  cfg.n = 16;
  cfg.block = 8;
  cfg.bins = 10;
  const auto in = make_input(InputKind::Random, 16, ElemType::I32, 1);
  Trace t = build("histogram-atomic", cfg, in);
  ASSERT_EQ(t.steps.size(), 2u);  // input, one round of 16 threads
  EXPECT_EQ(t.steps[1].focus_row, row_index(t, "bins"));
  EXPECT_EQ(t.steps[1].launch, (LaunchShape{2, 8, 16}));
  EXPECT_EQ(t.rows[kRowMain].name, "x (input)");
  EXPECT_FALSE(t.rows[std::size_t(row_index(t, "bins"))].element_space);
  Trace s = build("histogram-shared", cfg, in);
  ASSERT_EQ(s.steps.size(), 4u);  // input, clear, count, merge
  EXPECT_EQ(s.steps[2].focus_row, row_index(s, "block histograms"));
  EXPECT_EQ(s.steps[3].focus_row, row_index(s, "bins"));
  Trace g = build("histogram-tagged", cfg, in);
  ASSERT_EQ(g.steps.size(), 5u);  // input, clear, count, block merge, merge
  EXPECT_EQ(g.steps[4].launch, (LaunchShape{1, 10, 10}));
  // Many samples on few threads: one step per grid-stride round.
  cfg.n = 4096;
  cfg.block = 1024;
  cfg.bins = 256;
  Trace big = build("histogram-tagged", cfg, make_input(InputKind::Random, 4096, ElemType::I32, 2));
  EXPECT_EQ(big.steps[1].launch.blocks, 1);
  EXPECT_EQ(big.steps.size(), 1u + 1 + 4 + 2);
}

TEST(HistogramTrace, BadConfigsAreRejected) {
  const auto in = make_input(InputKind::Random, 8, ElemType::I32, 1);
  for (const char* algo : kAlgos) {
    const Algorithm& a = *find_algorithm(algo);
    EXPECT_FALSE(a.deterministic);
    StepConfig cfg;
    cfg.n = 8;
    Trace t;
    for (int bins : {0, 1, 257, -3}) {
      cfg.bins = bins;
      EXPECT_FALSE(ok(build_trace_cpu(a, cfg, in, t))) << algo << " bins=" << bins;
    }
    cfg.bins = 16;
    cfg.type = ElemType::F32;
    EXPECT_FALSE(ok(build_trace_cpu(a, cfg, make_input(InputKind::Random, 8, ElemType::F32, 1), t)));
    cfg.type = ElemType::I32;
    cfg.block = 2048;
    EXPECT_FALSE(ok(build_trace_cpu(a, cfg, in, t)));
  }
}

}  // namespace

namespace {

TEST(HistogramTrace, EverySampleIsOneAtomicOpIntoItsBin) {
  StepConfig cfg;
  cfg.n = 1000;
  cfg.block = 64;
  cfg.bins = 37;
  const auto in = make_input(InputKind::Random, 1000, ElemType::I32, 8);
  for (const char* algo : kAlgos) {
    Trace t = build(algo, cfg, in);
    std::vector<int> seen(1000, 0);
    for (const Step& st : t.steps) {
      if (st.phase != "count") continue;
      for (std::int64_t k = 0; k < st.op_count(); ++k) {
        const Op& op = t.ops[std::size_t(st.op_begin + k)];
        if (kind_of(op.kind) == OpKind::None) continue;
        ASSERT_EQ(kind_of(op.kind), OpKind::Atomic) << algo;
        ASSERT_EQ(src_row_of(op.kind), int(kRowMain));
        ++seen[std::size_t(op.src)];
        // The bin of the destination cell is the sample's bin (cells are block- or warp-major).
        EXPECT_EQ(op.dst % cfg.bins, std::int32_t(in[std::size_t(op.src)] % 37u)) << algo;
      }
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; })) << algo;
  }
}

}  // namespace

// The lecture's addWord: every byte of every word counted once in 256 bins, each counter word
// (tag << 27) | count, printed as t<tag>|<count>, four count steps per round of words.
TEST(HistogramTrace, TaggedBytesCountEveryByteAndShowTheCounterWord) {
  StepConfig cfg;
  cfg.type = ElemType::U32;
  cfg.block = 64;
  for (std::int32_t n : {1, 37, 200, 1000}) {
    cfg.n = n;
    const auto in = make_input(InputKind::Random, n, ElemType::U32, std::uint32_t(n));
    Trace t = build("histogram-tagged-bytes", cfg, in);
    std::vector<std::uint32_t> want(256, 0u);
    for (std::uint32_t w : in)
      for (int k = 0; k < 4; ++k) ++want[(w >> (8 * k)) & 0xFFu];
    EXPECT_EQ(final_row(t, row_index(t, "bins")), want) << "n " << n;
    std::int32_t counts = 0;
    for (const Step& st : t.steps) counts += st.phase == "count";
    EXPECT_EQ(counts % 4, 0);
    const int word = row_index(t, "warp sub-histograms: the word");
    const int cnt = row_index(t, "warp sub-histograms: count"), tag = row_index(t, "warp sub-histograms: tag");
    ASSERT_GE(word, 0);
    EXPECT_EQ(t.rows[std::size_t(word)].kind, RowKind::TagCount);
    for (std::size_t s = 1; s < t.steps.size(); ++s)
      for (std::int32_t j = 0; j < t.rows[std::size_t(word)].length; ++j)
        ASSERT_EQ(t.row(s, std::size_t(word))[j], t.row(s, std::size_t(tag))[j] << 27 | t.row(s, std::size_t(cnt))[j])
            << "step " << s << " cell " << j;
  }
  EXPECT_EQ(format_cell(5u << 27 | 2u, RowInfo{"w", RowKind::TagCount}), "t5|2");
}

TEST(HistogramTrace, TaggedBytesAllLanesOnOneBinRetryEachByte) {
  StepConfig cfg;
  cfg.type = ElemType::U32;
  cfg.n = 32;
  cfg.block = 32;
  const std::vector<std::uint32_t> in(32, 0x04030201u);  // bytes 1, 2, 3, 4
  Trace t = build("histogram-tagged-bytes", cfg, in);
  const int bin = row_index(t, "bin = the byte");
  int k = 0;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    if (t.steps[s].phase != "count") continue;
    // Step k adds byte k: every word shows it, and 32 lanes on one bin fail 31 + 30 + ... + 1 times.
    EXPECT_EQ(t.row(s, std::size_t(bin))[0], std::uint32_t(k + 1)) << "step " << s;
    EXPECT_EQ(std::int32_t(t.row(s, std::size_t(row_index(t, "this step")))[2]), 32 * 31 / 2) << "step " << s;
    ++k;
  }
  EXPECT_EQ(k, 4);
  const auto bins = final_row(t, row_index(t, "bins"));
  for (std::uint32_t b = 1; b <= 4; ++b) EXPECT_EQ(bins[b], 32u);
  EXPECT_EQ(std::accumulate(bins.begin(), bins.end(), 0u), 128u);
}
