// CPU reference histograms (global atomicAdd, per-block shared, the lecture's tagged per-warp
// sub-histograms over samples and over bytes): final bins against a host count (bin = x mod bins,
// int32 non-negative remainder), partial histograms, counters, the lanes on one bin and the failed
// writes, the steps the host code's launches and barriers give, seeds, bad configs.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <numeric>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

// The histograms of samples into 2 to 256 bins with any block the row allows: the per-thread
// histogram (at most 64 bins) has its tests in test_seed_variants.cpp, the bytes histogram (no bins
// option) its own below.
std::vector<const Algorithm*> sample_histograms() {
  std::vector<const Algorithm*> v;
  for (const char* name : test::family("histogram")) {
    const Algorithm* a = find_algorithm(name);
    if ((a->options & kOptBins) && a->max_bins >= 256) v.push_back(a);
  }
  return v;
}
const std::vector<const Algorithm*> kAlgos = sample_histograms();

int row_index(const Trace& t, const std::string& prefix) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind(prefix, 0) == 0) return int(r);
  ADD_FAILURE() << "no row named " << prefix << "...";
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
  if (r < 0) return {};
  const std::uint32_t* p = t.row(t.steps.size() - 1, std::size_t(r));
  return {p, p + t.rows[std::size_t(r)].length};
}

// The step of a phase (the first).
std::size_t step_of(const Trace& t, const std::string& phase) {
  for (std::size_t s = 1; s < t.steps.size(); ++s)
    if (t.steps[s].phase == phase) return s;
  ADD_FAILURE() << "no " << phase << " step";
  return 0;
}

// Collisions: the samples whose bin another lane of their instruction updates too.
std::int64_t collisions(const Trace& t) {
  const auto same = final_row(t, row_index(t, "lanes on the same bin"));
  return std::count_if(same.begin(), same.end(), [](std::uint32_t k) { return k > 1; });
}
std::int64_t retries(const Trace& t) {
  const auto r = final_row(t, row_index(t, "failed writes"));
  return std::accumulate(r.begin(), r.end(), std::int64_t(0));
}

Trace build(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& in) {
  Trace t;
  const std::string e = build_trace_cpu(a, cfg, in, t).message();
  EXPECT_EQ(e, "") << a.name;
  return t;
}
Trace build(const char* algo, const StepConfig& cfg, const std::vector<std::uint32_t>& in) {
  return build(*find_algorithm(algo), cfg, in);
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
    for (const Algorithm* a : kAlgos) {
      if (!validate(*a, cfg).ok()) continue;
      const std::string algo = a->name;
      Trace t = build(*a, cfg, in);
      ASSERT_EQ(final_row(t, row_index(t, "hist")), want) << algo << " n=" << c.n << " block=" << c.block
                                                          << " bins=" << c.bins;
      const Counters tot = t.totals(t.steps.size() - 1);
      const std::int64_t blocks = t.steps[1].launch.blocks;
      // Every sample is read once, whatever the trips of the grid-stride loop.
      EXPECT_EQ(tot.global_read_bytes - (algo == "histogram-tagged" ? 4 * blocks * c.bins : 0), 4 * c.n) << algo;
      if (algo == "histogram-atomic") EXPECT_EQ(tot.atomics, c.n);
      if (algo == "histogram-shared") {
        // One shared atomic per sample, one global atomic per nonzero bin of each block's s_hist.
        const auto s_hist = final_row(t, row_index(t, "s_hist"));
        EXPECT_EQ(tot.atomics, c.n + std::count_if(s_hist.begin(), s_hist.end(), [](std::uint32_t v) { return v; }));
      }
      if (algo == "histogram-tagged") {
        EXPECT_EQ(tot.atomics, 0);
        // Partial histograms add up to the bins.
        const auto part = final_row(t, row_index(t, "partial"));
        for (int b = 0; b < c.bins; ++b) {
          std::uint32_t s = 0;
          for (std::int64_t h = 0; h < blocks; ++h) s += part[std::size_t(h * c.bins + b)];
          ASSERT_EQ(s, want[std::size_t(b)]);
        }
        // A sample's failed writes: the lanes that landed before it on its bin in its instruction.
        const auto same = final_row(t, row_index(t, "lanes on the same bin"));
        const auto failed = final_row(t, row_index(t, "failed writes"));
        std::int64_t expected = 0;
        for (int i = 0; i < c.n; ++i) {
          ASSERT_LT(failed[std::size_t(i)], same[std::size_t(i)]);
          expected += same[std::size_t(i)] - 1;  // a group of k: (k-1) each, halved below
        }
        EXPECT_EQ(2 * retries(t), expected);
      }
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
  for (const Algorithm* a : kAlgos) {
    Trace t = build(*a, cfg, in);
    // INT_MIN % 7 = -2 -> 5; INT_MAX % 7 = 1; -1 -> 6; 0; -7 -> 0; 7 -> 0; INT_MIN+1 % 7 = -1 -> 6.
    EXPECT_EQ(final_row(t, row_index(t, "hist")), (std::vector<std::uint32_t>{3, 1, 0, 0, 0, 1, 2})) << a->name;
  }
  cfg.type = ElemType::U32;
  for (const Algorithm* a : kAlgos) {
    Trace t = build(*a, cfg, in);
    EXPECT_EQ(final_row(t, row_index(t, "hist")), host_histogram(in, ElemType::U32, 7)) << a->name;
  }
}

TEST(HistogramTrace, CollisionsAndRetriesOfAllEqualSamples) {
  // 64 equal samples, blocks of 32: two full warps, every lane collides with 31 others.
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;
  cfg.bins = 16;
  const auto in = make_input(InputKind::AllEqual, 64, ElemType::I32, 1);
  for (const Algorithm* a : kAlgos) {
    Trace t = build(*a, cfg, in);
    EXPECT_EQ(collisions(t), 64) << a->name;
    if (a->name == std::string("histogram-tagged")) EXPECT_EQ(retries(t), 2 * 32 * 31 / 2);
  }
  // Distinct bins in every warp: no collision, no retry.
  cfg.bins = 64;
  std::vector<std::uint32_t> iota(64);
  std::iota(iota.begin(), iota.end(), 0u);
  for (const Algorithm* a : kAlgos) {
    Trace t = build(*a, cfg, iota);
    EXPECT_EQ(collisions(t), 0) << a->name;
    if (a->name == std::string("histogram-tagged")) EXPECT_EQ(retries(t), 0);
  }
}

TEST(HistogramTrace, TaggedRetriesCostSharedAccessesAndDivergence) {
  StepConfig cfg;
  cfg.n = 32;
  cfg.block = 32;
  cfg.bins = 4;
  const auto in = make_input(InputKind::AllEqual, 32, ElemType::I32, 1);
  Trace t = build("histogram-tagged", cfg, in);
  const Step& count = t.steps[step_of(t, "count")];
  // 32 attempts of the loop with 32, 31, ..., 1 pending lanes: 3 accesses per attempt.
  EXPECT_EQ(count.counters.shared_accesses, 3 * 32 * 33 / 2);
  EXPECT_EQ(count.counters.divergent_warps, 31);  // every attempt but the first
  EXPECT_EQ(count.counters.atomics, 0);
  // The count row is the bar chart of that step: one bin holds 32, tag = the lane that landed last.
  EXPECT_EQ(count.focus_row, row_index(t, "warp sub-histograms: count"));
  EXPECT_EQ(final_row(t, row_index(t, "hist"))[std::size_t(in[0] % 4)], 32u);
  // Each lane failed as often as the lanes that landed before it: 0, 1, ..., 31.
  auto failed = final_row(t, row_index(t, "failed writes"));
  std::sort(failed.begin(), failed.end());
  for (std::uint32_t k = 0; k < 32; ++k) EXPECT_EQ(failed[k], k);
}

TEST(HistogramTrace, SeedChangesTheWinnersNotTheCounts) {
  StepConfig cfg;
  cfg.n = 256;
  cfg.block = 64;
  cfg.bins = 4;
  const auto in = make_input(InputKind::Random, 256, ElemType::I32, 3);
  cfg.seed = 1;
  const Trace a = build("histogram-tagged", cfg, in);
  const std::size_t count = step_of(a, "count");
  const int tag = row_index(a, "warp sub-histograms: tag");
  auto sorted = [](std::vector<std::uint32_t> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  bool tags_differ = false;
  for (std::uint32_t seed = 2; seed < 6; ++seed) {
    cfg.seed = seed;
    const Trace b = build("histogram-tagged", cfg, in);
    EXPECT_EQ(final_row(a, row_index(a, "hist")), final_row(b, row_index(b, "hist")));
    EXPECT_EQ(final_row(a, row_index(a, "partial")), final_row(b, row_index(b, "partial")));
    EXPECT_EQ(final_row(a, row_index(a, "warp sub-histograms: count")),
              final_row(b, row_index(b, "warp sub-histograms: count")));
    EXPECT_EQ(sorted(final_row(a, row_index(a, "failed writes"))), sorted(final_row(b, row_index(b, "failed writes"))));
    for (std::size_t s = 0; s < a.steps.size(); ++s) EXPECT_TRUE(a.steps[s].counters == b.steps[s].counters);
    tags_differ = tags_differ ||
                  !std::equal(a.row(count, tag), a.row(count, tag) + a.rows[tag].length, b.row(count, tag));
  }
  EXPECT_TRUE(tags_differ) << "the seed should pick other lanes to land first";
}

// The steps are the host code's launches and the kernels' barriers; the trips of a grid-stride
// loop are op slots of one step.
TEST(HistogramTrace, StepsFollowTheHostCode) {
  StepConfig cfg;
  cfg.n = 16;
  cfg.block = 8;
  cfg.bins = 10;
  const auto in = make_input(InputKind::Random, 16, ElemType::I32, 1);
  Trace t = build("histogram-atomic", cfg, in);
  ASSERT_EQ(t.steps.size(), 2u);  // input, the one launch
  EXPECT_EQ(t.steps[1].focus_row, row_index(t, "hist"));
  EXPECT_EQ(t.steps[1].launch, (LaunchShape{2, 8, 16}));
  EXPECT_EQ(t.rows[kRowMain].name, "in");
  EXPECT_FALSE(t.rows[std::size_t(row_index(t, "hist"))].element_space);
  Trace s = build("histogram-shared", cfg, in);
  ASSERT_EQ(s.steps.size(), 4u);  // input; clear, count, merge: one launch, two __syncthreads()
  EXPECT_FALSE(s.steps[1].barrier);
  EXPECT_TRUE(s.steps[2].barrier && s.steps[3].barrier);
  EXPECT_EQ(s.steps[2].focus_row, row_index(s, "s_hist"));
  EXPECT_EQ(s.steps[3].focus_row, row_index(s, "hist"));
  Trace g = build("histogram-tagged", cfg, in);
  ASSERT_EQ(g.steps.size(), 5u);  // input; clear, count, block merge; the merge kernel
  EXPECT_TRUE(g.steps[3].barrier);
  EXPECT_FALSE(g.steps[4].barrier);
  EXPECT_EQ(g.steps[4].launch, (LaunchShape{1, 10, 10}));
  // Many samples on a capped grid: more trips of the grid-stride loop, more op slots, no more steps.
  cfg.n = 4096;
  cfg.block = 1024;
  cfg.bins = 256;
  Trace big = build("histogram-tagged", cfg, make_input(InputKind::Random, 4096, ElemType::I32, 2));
  EXPECT_EQ(big.steps[1].launch.blocks, 1);  // 32 warps x 256 bins fill the 8192 cells
  EXPECT_EQ(big.steps.size(), 5u);
  EXPECT_EQ(big.steps[2].ops_per_thread, 4);
  cfg.block = 1;
  Trace shared = build("histogram-shared", cfg, make_input(InputKind::Random, 4096, ElemType::I32, 2));
  EXPECT_EQ(shared.steps[2].launch.blocks, 32);  // 32 x 256 bins
  EXPECT_EQ(shared.steps[2].ops_per_thread, 4096 / 32);
  Trace atomic = build("histogram-atomic", cfg, make_input(InputKind::Random, 4096, ElemType::I32, 2));
  EXPECT_EQ(atomic.steps[1].launch.blocks, 4096);  // the timed form's grid: one trip
  EXPECT_EQ(atomic.steps[1].ops_per_thread, 1);
}

// The loop's first test is a branch of every lane, each later test one of the lanes still looping:
// 33 threads, 40 samples of a grid of 2 blocks x 33 threads: warp 1 of each block is one lane, and
// of block 1's warp 0 lanes 0-6 (samples 33-39) have a sample.
TEST(HistogramTrace, LoopTestsAreBranchesOfTheLanesStillLooping) {
  StepConfig cfg;
  cfg.n = 40;
  cfg.block = 33;
  cfg.bins = 16;
  const auto in = make_input(InputKind::Random, 40, ElemType::I32, 4);
  const Trace t = build("histogram-atomic", cfg, in);
  EXPECT_EQ(t.steps[1].counters.divergent_warps, 1);  // the first test of block 1's warp 0; the rest leave together
  // Every lane of each block's second warp alone: no divergence; block 1's is past n.
  EXPECT_EQ(t.steps[1].launch, (LaunchShape{2, 33, 40}));
}

// The merge adds only the bins a block counted: a branch on s_hist[i] != 0.
TEST(HistogramTrace, SharedMergeSkipsEmptyBins) {
  StepConfig cfg;
  cfg.n = 32;
  cfg.block = 32;
  cfg.bins = 64;
  std::vector<std::uint32_t> even(32);
  for (std::uint32_t k = 0; k < 32; ++k) even[k] = 2 * k;  // bins 0, 2, ..., 62
  const Trace t = build("histogram-shared", cfg, even);
  const Step& merge = t.steps[step_of(t, "merge")];
  EXPECT_EQ(merge.counters.atomics, 32);
  EXPECT_EQ(merge.counters.divergent_warps, 2);  // bins 0-31 and 32-63: every other lane adds
  EXPECT_EQ(merge.counters.shared_accesses, 64);
  std::vector<std::uint32_t> low(32);
  std::iota(low.begin(), low.end(), 0u);  // bins 0-31: the first iteration adds all, the second none
  const Trace u = build("histogram-shared", cfg, low);
  EXPECT_EQ(u.steps[step_of(u, "merge")].counters.atomics, 32);
  EXPECT_EQ(u.steps[step_of(u, "merge")].counters.divergent_warps, 0);
}

TEST(HistogramTrace, BadConfigsAreRejected) {
  const auto in = make_input(InputKind::Random, 8, ElemType::I32, 1);
  for (const Algorithm* a : kAlgos) {
    EXPECT_FALSE(a->deterministic);
    StepConfig cfg;
    cfg.n = 8;
    Trace t;
    for (int bins : {0, 1, 257, -3}) {
      cfg.bins = bins;
      EXPECT_FALSE(ok(build_trace_cpu(*a, cfg, in, t))) << a->name << " bins=" << bins;
    }
    cfg.bins = 16;
    cfg.type = ElemType::F32;
    EXPECT_FALSE(ok(build_trace_cpu(*a, cfg, make_input(InputKind::Random, 8, ElemType::F32, 1), t)));
    cfg.type = ElemType::I32;
    cfg.block = 2048;
    EXPECT_FALSE(ok(build_trace_cpu(*a, cfg, in, t)));
  }
}

TEST(HistogramTrace, EverySampleIsOneAtomicOpIntoItsBin) {
  StepConfig cfg;
  cfg.n = 1000;
  cfg.block = 64;
  cfg.bins = 37;
  const auto in = make_input(InputKind::Random, 1000, ElemType::I32, 8);
  for (const Algorithm* a : kAlgos) {
    Trace t = build(*a, cfg, in);
    std::vector<int> seen(1000, 0);
    for (const Step& st : t.steps) {
      if (st.phase != "count") continue;
      for (std::int64_t k = 0; k < st.op_count(); ++k) {
        const Op& op = t.ops[std::size_t(st.op_begin + k)];
        if (kind_of(op.kind) == OpKind::None) continue;
        ASSERT_EQ(kind_of(op.kind), OpKind::Atomic) << a->name;
        ASSERT_EQ(src_row_of(op.kind), int(kRowMain));
        ++seen[std::size_t(op.src)];
        // The bin of the destination cell is the sample's bin (cells are block- or warp-major).
        EXPECT_EQ(op.dst % cfg.bins, std::int32_t(in[std::size_t(op.src)] % 37u)) << a->name;
      }
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; })) << a->name;
  }
}

// The lecture's addWord: every byte of every sample counted once in 256 bins, each counter word
// (tag << 27) | count, printed as t<tag>|<count>; four addByte, four op slots a trip.
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
    EXPECT_EQ(final_row(t, row_index(t, "hist")), want) << "n " << n;
    const Step& count = t.steps[step_of(t, "count")];
    EXPECT_EQ(count.ops_per_thread % 4, 0);
    const int word = row_index(t, "s_hist");
    const int cnt = row_index(t, "warp sub-histograms: count"), tag = row_index(t, "warp sub-histograms: tag");
    ASSERT_GE(word, 0);
    EXPECT_EQ(t.rows[std::size_t(word)].kind, RowKind::TagCount);
    EXPECT_EQ(count.focus_row, word);
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
  // Byte k of sample i is element 4i + k of the per-byte rows: its value, and 32 lanes on one bin
  // fail 31 + 30 + ... + 1 times at each byte.
  const auto data = final_row(t, row_index(t, "data = byte k"));
  const auto failed = final_row(t, row_index(t, "failed writes"));
  ASSERT_EQ(data.size(), 128u);
  for (int k = 0; k < 4; ++k) {
    std::int64_t sum = 0;
    for (int i = 0; i < 32; ++i) {
      EXPECT_EQ(data[std::size_t(4 * i + k)], std::uint32_t(k + 1)) << "sample " << i << " byte " << k;
      sum += failed[std::size_t(4 * i + k)];
    }
    EXPECT_EQ(sum, 32 * 31 / 2) << "byte " << k;
  }
  const auto bins = final_row(t, row_index(t, "hist"));
  for (std::uint32_t b = 1; b <= 4; ++b) EXPECT_EQ(bins[b], 32u);
  EXPECT_EQ(std::accumulate(bins.begin(), bins.end(), 0u), 128u);
  // Four addByte of 32 attempts each; every attempt but each byte's first diverges.
  const Step& count = t.steps[step_of(t, "count")];
  EXPECT_EQ(count.counters.shared_accesses, 4 * 3 * 32 * 33 / 2);
  EXPECT_EQ(count.counters.divergent_warps, 4 * 31);
}

}  // namespace
