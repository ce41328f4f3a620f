// The multi-GPU primitives' host plan (splitters, classes, pieces, send counts), run on G simulated
// ranks: every rank's histograms and class counts are taken on the host, the exchange is simulated
// piece by piece, each piece is sorted alone, and the ranks' results, concatenated, must be the
// stable global order, with balanced shares.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "device/distributed_plan.h"

namespace {

using primlab::detail::Classes;
using primlab::detail::SplitterSearch;
using primlab::detail::landing_offsets;
using primlab::detail::make_classes;
using primlab::detail::send_counts;
using primlab::detail::send_runs;

// Skewed: as bench-multigpu's, 70 % of the keys share their top 8 bits, the other bits uniform.
enum class Keys { Uniform, AllEqual, FewDistinct, Zipf, Sorted, OneHeavy, Skewed };

// Keys already as the `width`-bit images x the plan sees, in rank-major input order.
std::vector<std::vector<std::uint64_t>> make_shards(Keys kind, int ranks, std::int64_t per_rank, int width,
                                                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  std::vector<std::vector<std::uint64_t>> shards(ranks);
  for (int r = 0; r < ranks; ++r) {
    const std::int64_t n = per_rank + (r % 3 == 1 ? 7 : 0) - (r % 3 == 2 ? std::min<std::int64_t>(per_rank, 5) : 0);
    for (std::int64_t i = 0; i < n; ++i) {
      std::uint64_t x = rng();
      switch (kind) {
        case Keys::Uniform: break;
        case Keys::AllEqual: x = 0x5A5A5A5A5A5A5A5Aull; break;
        case Keys::FewDistinct: x = (rng() % 3) * 0x0101010101010101ull; break;
        case Keys::Zipf: x = std::uint64_t(std::pow(1000.0, double(rng() >> 11) / double(1ull << 53))) * 37; break;
        case Keys::Sorted: x = std::uint64_t(r) << (width - 4 > 0 ? width - 4 : 0); break;
        case Keys::OneHeavy: x = (rng() % 4 == 0) ? rng() : 0x1234; break;
        case Keys::Skewed:
          if (rng() % 10 < 7) x = (0x42ull << (width - 8)) | (x & ((1ull << (width - 8)) - 1));
          break;
      }
      shards[r].push_back(x & mask);
    }
  }
  return shards;
}

struct Tagged {
  std::uint64_t x;
  std::int64_t id;  // the global input position (rank-major)
};

// What a simulated call shows besides its result: the search's rounds and every rank's piece sizes.
struct Simulated {
  std::vector<std::vector<Tagged>> result;
  int rounds = 0;
  std::vector<std::vector<std::int64_t>> piece_sizes;  // [rank][piece]
};

// Runs the plan over simulated ranks with `pieces` pieces: each rank's shard is staged by class,
// every run lands where landing_offsets puts it, and each piece of a result is sorted alone (as
// the pipeline sorts or merges it); a stable sort by key alone must then give the stable global
// order.
Simulated simulate(const std::vector<std::vector<std::uint64_t>>& shards, int width, std::int64_t slack, int pieces = 1,
                   double growth = 1.0) {
  const int G = int(shards.size());
  std::vector<std::int64_t> totals;
  for (const auto& s : shards) totals.push_back(std::int64_t(s.size()));
  SplitterSearch search(width, totals, slack);
  Simulated out;
  while (!search.done()) {
    const auto queries = search.queries();
    const int d = search.digit_bits();
    const std::size_t buckets = std::size_t(1) << d;
    std::vector<std::int64_t> counts(G * queries.size() * buckets, 0);
    const int rest = width - queries[0].level - d;
    for (int r = 0; r < G; ++r)
      for (std::uint64_t x : shards[r])
        for (std::size_t q = 0; q < queries.size(); ++q) {
          const std::uint64_t top = queries[q].level == 0 ? 0 : x >> (width - queries[q].level);
          if (top == queries[q].prefix) ++counts[(r * queries.size() + q) * buckets + ((x >> rest) & (buckets - 1))];
        }
    search.answer(counts);
  }
  out.rounds = search.rounds();
  const Classes classes = make_classes(search, width, pieces, growth);
  const std::vector<std::uint64_t>& lower = classes.lower;
  const int C = int(lower.size()), P = classes.pieces;
  auto class_of = [&](std::uint64_t x) { return int(std::upper_bound(lower.begin(), lower.end(), x) - lower.begin()) - 1; };
  // Each rank's shard stably partitioned by class, and its class counts.
  std::vector<std::vector<Tagged>> staged(G);
  std::vector<std::int64_t> class_counts(std::size_t(G) * C, 0);
  std::int64_t id = 0;
  for (int r = 0; r < G; ++r)
    for (std::uint64_t x : shards[r]) {
      staged[r].push_back({x, id++});
      ++class_counts[std::size_t(r) * C + class_of(x)];
    }
  for (auto& st : staged)
    std::stable_sort(st.begin(), st.end(), [&](const Tagged& a, const Tagged& b) { return class_of(a.x) < class_of(b.x); });
  std::vector<std::int64_t> positions;
  for (const auto& c : search.cuts()) positions.push_back(c.position);
  const std::vector<std::int64_t> send = send_counts(G, classes, class_counts, positions);
  const std::vector<std::int64_t> landing = landing_offsets(G, P, send);
  auto at = [&](int q, int s, int j) { return (std::size_t(q) * G + s) * P + j; };
  std::vector<std::int64_t> share(G, 0);
  out.piece_sizes.assign(G, std::vector<std::int64_t>(P, 0));
  for (int q = 0; q < G; ++q)
    for (int s = 0; s < G; ++s)
      for (int j = 0; j < P; ++j) {
        share[s] += send[at(q, s, j)];
        out.piece_sizes[s][j] += send[at(q, s, j)];
      }
  // The exchange: one run per rank, destination and piece, landing at its offset.
  out.result.resize(G);
  std::vector<std::vector<bool>> written(G);
  for (int s = 0; s < G; ++s) {
    out.result[s].assign(std::size_t(share[s]), Tagged{0, -1});
    written[s].assign(std::size_t(share[s]), false);
  }
  for (int q = 0; q < G; ++q) {
    std::vector<std::int64_t> class_start(C, 0);
    for (int c = 1; c < C; ++c) class_start[c] = class_start[c - 1] + class_counts[std::size_t(q) * C + c - 1];
    const auto runs = send_runs(G, classes, class_counts, positions, q, class_start);
    std::size_t sent = 0;
    for (int s = 0; s < G; ++s)
      for (int j = 0; j < P; ++j) {
        const auto& run = runs[std::size_t(s) * P + j];
        EXPECT_EQ(run.count, send[at(q, s, j)]);
        const std::size_t from = std::size_t(run.offset), k = std::size_t(run.count);
        const std::size_t to = std::size_t(landing[at(q, s, j)]);
        EXPECT_LE(from + k, staged[q].size());
        EXPECT_LE(to + k, out.result[s].size());
        for (std::size_t i = 0; i < k && from + i < staged[q].size() && to + i < out.result[s].size(); ++i) {
          EXPECT_FALSE(written[s][to + i]) << "two runs land on one place";
          out.result[s][to + i] = staged[q][from + i];
          written[s][to + i] = true;
        }
        sent += k;
      }
    EXPECT_EQ(sent, staged[q].size()) << "rank " << q << " sends every key once";
  }
  // Each piece sorted alone, stably: the landing order among equal keys is kept.
  for (int s = 0; s < G; ++s) {
    auto begin = out.result[s].begin();
    for (int j = 0; j < P; ++j) {
      EXPECT_EQ(landing[at(0, s, j)], begin - out.result[s].begin()) << "piece " << j << " starts with rank 0's run";
      const auto end = begin + out.piece_sizes[s][j];
      std::stable_sort(begin, end, [](const Tagged& a, const Tagged& b) { return a.x < b.x; });
      begin = end;
    }
  }
  return out;
}

void expect_global_order(const std::vector<std::vector<std::uint64_t>>& shards, const std::vector<std::vector<Tagged>>& result) {
  std::vector<Tagged> want;
  std::int64_t id = 0;
  for (const auto& s : shards)
    for (std::uint64_t x : s) want.push_back({x, id++});
  std::stable_sort(want.begin(), want.end(), [](const Tagged& a, const Tagged& b) { return a.x < b.x; });
  std::vector<Tagged> got;
  for (const auto& r : result) got.insert(got.end(), r.begin(), r.end());
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].x, want[i].x) << "at " << i;
    ASSERT_EQ(got[i].id, want[i].id) << "equal keys out of input order at " << i;
  }
}

std::int64_t largest(const std::vector<std::vector<Tagged>>& result) {
  std::size_t m = 0;
  for (const auto& r : result) m = std::max(m, r.size());
  return std::int64_t(m);
}

TEST(DistributedPlan, SortIsTheStableGlobalOrderAndBalanced) {
  for (Keys kind : {Keys::Uniform, Keys::AllEqual, Keys::FewDistinct, Keys::Zipf, Keys::Sorted, Keys::OneHeavy})
    for (int G : {1, 2, 3, 4, 8})
      for (int width : {32, 64, 12, 1})
        for (std::int64_t per_rank : {0, 1, 3, 200, 3000}) {
          SCOPED_TRACE(testing::Message() << "kind " << int(kind) << " G " << G << " width " << width << " n/rank " << per_rank);
          const auto shards = make_shards(kind, G, per_rank, width, 42 + G);
          std::int64_t total = 0;
          for (const auto& s : shards) total += std::int64_t(s.size());
          const std::int64_t slack = total / (std::int64_t(G) * 128);
          const auto result = simulate(shards, width, slack).result;
          expect_global_order(shards, result);
          // The fair share plus a slack at each of the rank's two cuts.
          EXPECT_LE(largest(result), (total + G - 1) / G + 2 * slack);
        }
}

TEST(DistributedPlan, PiecesLandInTheGlobalInputOrder) {
  // Every rank's range cut into pieces at bucket edges, each piece sorted alone: the pieces are in
  // key order, and in each piece the runs land in rank order.
  for (Keys kind : {Keys::Uniform, Keys::AllEqual, Keys::FewDistinct, Keys::OneHeavy, Keys::Skewed, Keys::Zipf})
    for (int G : {1, 2, 3, 4, 7})
      for (int pieces : {1, 2, 3, 16})
        for (double growth : {1.0, 1.5})
          for (std::int64_t per_rank : {0, 1, 5, 1000}) {
            SCOPED_TRACE(testing::Message() << "kind " << int(kind) << " G " << G << " pieces " << pieces << " growth "
                                            << growth << " n/rank " << per_rank);
            const auto shards = make_shards(kind, G, per_rank, 32, 11 + G);
            std::int64_t total = 0;
            for (const auto& s : shards) total += std::int64_t(s.size());
            expect_global_order(shards, simulate(shards, 32, total / (std::int64_t(G) * 128), pieces, growth).result);
            const auto digits = make_shards(kind, G, per_rank, 8, 11 + G);  // the partition's: exact cuts
            expect_global_order(digits, simulate(digits, 8, 0, pieces, growth).result);
          }
}

TEST(DistributedPlan, PiecesGrowAsAsked) {
  // Uniform keys, 4 ranks, 4 pieces growing by 1.5: every rank's pieces hold about 12, 18, 28 and
  // 42 % of its keys (its range spans 64 buckets of the top digit: within 1/64 of each target).
  const auto shards = make_shards(Keys::Uniform, 4, 100000, 32, 5);
  const auto sim = simulate(shards, 32, 400000 / (4 * 128), 4, 1.5);
  const double want[4] = {1 / 8.125, 1.5 / 8.125, 2.25 / 8.125, 3.375 / 8.125};
  for (const auto& sizes : sim.piece_sizes) {
    const double all = double(sizes[0] + sizes[1] + sizes[2] + sizes[3]);
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(double(sizes[j]) / all, want[j], 1.0 / 64) << "piece " << j;
  }
  // Skewed keys: the ranks inside the heavy bucket are cut at the second digit's edges.
  const auto skewed = simulate(make_shards(Keys::Skewed, 4, 100000, 32, 5), 32, 400000 / (4 * 128), 4, 1.0);
  EXPECT_GT(skewed.rounds, 1);
  for (const auto& sizes : skewed.piece_sizes)
    for (std::int64_t piece : sizes) EXPECT_GT(piece, 0);
  // Keys all equal: one piece per rank, whatever was asked.
  const auto equal = simulate(make_shards(Keys::AllEqual, 4, 1000, 32, 5), 32, 4000 / (4 * 128), 4, 1.0);
  for (const auto& sizes : equal.piece_sizes) EXPECT_EQ(sizes[1] + sizes[2] + sizes[3], 0);
}

TEST(DistributedPlan, HeadsEndOnTheReceiversBoundary) {
  constexpr std::size_t kAlign = primlab::detail::kExchangeAlign;
  for (std::size_t at = 0; at < 2 * kAlign; at += 4)
    for (std::size_t bytes : {std::size_t(0), std::size_t(4), std::size_t(12), kAlign, std::size_t(1000)}) {
      const std::size_t h = primlab::detail::head_bytes(at, bytes);
      EXPECT_LE(h, bytes);
      EXPECT_LT(h, kAlign);
      if (h < bytes) {
        EXPECT_EQ((at + h) % kAlign, 0u) << "the body starts on a boundary";
      }
    }
}

// The stage's gaps put every run that starts at a digit at its receiver's alignment, keys and
// values alike where their alignments agree, keys alone where they cannot, and keep the digits
// in order with every gap under kRunGap elements.
TEST(DistributedPlan, StageGapsGiveEveryRunItsReceiversAlignment) {
  using primlab::detail::kExchangeAlign;
  using primlab::detail::kRunGap;
  std::vector<std::int64_t> start(257, 0);
  std::uint32_t x = 12345;
  for (int d = 0; d < 256; ++d) {
    x = x * 1664525u + 1013904223u;
    start[d + 1] = start[d] + (d % 7 == 3 ? 0 : std::int64_t(x >> 22));  // some digits empty
  }
  for (std::size_t key_elem : {4u, 8u})
    for (std::size_t value_elem : {4u, 8u})
      for (std::size_t value_at : {0u, 4u, 12u}) {
        SCOPED_TRACE(testing::Message() << key_elem << "-byte keys, " << value_elem << "-byte values staged at +" << value_at);
        primlab::detail::StageLayout layout;
        layout.parts = 2;
        layout.elem[0] = key_elem;
        layout.elem[1] = value_elem;
        layout.stage_at[0] = 0;
        layout.stage_at[1] = value_at;
        // Runs at every 16th digit's start (one inside a digit), wanting landings of a receiver whose
        // outputs start one element past a boundary.
        std::vector<primlab::detail::StagedRun> runs;
        for (int d = 2; d < 256; d += 16) {
          primlab::detail::StagedRun r;
          r.offset = start[d];
          const std::int64_t landing = 1000 + 3 * d;
          r.want[0] = (key_elem + std::size_t(landing) * key_elem) % kExchangeAlign;
          r.want[1] = (value_elem + std::size_t(landing) * value_elem) % kExchangeAlign;
          runs.push_back(r);
        }
        primlab::detail::StagedRun inside;
        inside.offset = start[100] + 1;
        inside.want[0] = 64;
        runs.push_back(inside);
        const std::vector<std::int64_t> gap = primlab::detail::stage_gaps(start, runs, layout);
        ASSERT_EQ(gap.size(), start.size());
        std::int64_t total = 0;
        for (std::int64_t g : gap) {
          EXPECT_GE(g, 0);
          EXPECT_LT(g, kRunGap);
          total += g;
        }
        EXPECT_GT(total, 0);
        // Both parts can be had where the keys' and values' stages are equally aligned (at + 4 or
        // + 12 the values' element count from a boundary differs from the keys' for every run).
        const bool both = value_at == 0;
        for (const auto& r : runs) {
          const std::int64_t at = primlab::detail::with_gaps(start, gap, r.offset);
          if (r.offset == inside.offset) {
            EXPECT_EQ(at - r.offset, primlab::detail::with_gaps(start, gap, start[100]) - start[100]) << "no gap of its own";
            continue;
          }
          EXPECT_EQ(std::size_t(at) * key_elem % kExchangeAlign, r.want[0]) << "run at " << r.offset;
          if (both) {
            EXPECT_EQ((value_at + std::size_t(at) * value_elem) % kExchangeAlign, r.want[1]) << "run at " << r.offset;
          }
        }
        // The digits keep their order and sizes: each digit's start moves by the gaps up to it.
        for (int d = 0; d < 256; ++d)
          EXPECT_GE(primlab::detail::with_gaps(start, gap, start[d + 1]) - primlab::detail::with_gaps(start, gap, start[d]),
                    start[d + 1] - start[d]);
      }
}

// A partition by the top digit writes the rank's own runs where they land in its receive buffer:
// the digits before them stay where the gaps put them, the own runs' digits lie at their landing,
// the digits after them in aux, each at its gapped position modulo 256 elements; every digit has
// room for its keys, in digit order. Where the landings do not rise with the digits, or aux is too
// small, nothing is placed.
TEST(DistributedPlan, OwnRunsLandStraightFromThePartition) {
  using primlab::detail::OwnRun;
  constexpr int kDigits = 256;
  std::uint32_t x = 7;
  std::vector<std::int64_t> start(kDigits + 1, 0);
  for (int d = 0; d < kDigits; ++d) {
    x = x * 1664525u + 1013904223u;
    start[std::size_t(d) + 1] = start[std::size_t(d)] + ((x >> 28) % 4 == 0 ? 0 : std::int64_t(x >> 25));
  }
  // Runs to rank 0: digits [0, 80); the own runs (pieces 0 and 1): [80, 120) and [120, 170); to rank 2: [170, 256).
  primlab::detail::StageLayout layout;
  std::vector<primlab::detail::StagedRun> runs;
  for (int d : {0, 40, 170, 200}) {
    primlab::detail::StagedRun r;
    r.offset = start[std::size_t(d)];
    r.want[0] = std::size_t(12 * d) % primlab::detail::kExchangeAlign;
    runs.push_back(r);
  }
  const std::vector<std::int64_t> gap = primlab::detail::stage_gaps(start, runs, layout);
  const std::int64_t stage = primlab::detail::with_gaps(start, gap, start.back());
  const std::int64_t recv_at = stage + 1000, aux_at = recv_at + 3 * stage;
  const std::vector<OwnRun> own = {{start[80], start[120] - start[80], 500},
                                   {start[120], start[170] - start[120], 500 + (start[120] - start[80]) + 777}};
  const primlab::detail::DigitPlacement p = primlab::detail::place_digits(start, gap, own, recv_at, aux_at, stage + 256);
  ASSERT_EQ(p.at.size(), start.size());
  for (int d = 0; d < kDigits; ++d) {
    const std::int64_t keys = start[std::size_t(d) + 1] - start[std::size_t(d)];
    EXPECT_GE(p.at[std::size_t(d) + 1] - p.at[std::size_t(d)], keys) << "digit " << d;
    if (keys == 0) continue;
    const std::int64_t gapped = primlab::detail::with_gaps(start, gap, start[std::size_t(d)]);
    if (d < 80) {
      EXPECT_EQ(p.at[std::size_t(d)], gapped) << "digit " << d;
    } else if (d < 170) {
      const OwnRun& run = d < 120 ? own[0] : own[1];
      EXPECT_EQ(p.at[std::size_t(d)], recv_at + run.landing + start[std::size_t(d)] - run.offset) << "digit " << d;
    } else {
      EXPECT_GE(p.at[std::size_t(d)], aux_at) << "digit " << d;
      EXPECT_EQ((p.at[std::size_t(d)] - gapped) % 256, 0) << "digit " << d;
      EXPECT_EQ(p.place(start, gap, start[std::size_t(d)]), p.at[std::size_t(d)]) << "digit " << d;
    }
  }
  EXPECT_LE(p.at.back(), aux_at + stage + 256);
  EXPECT_EQ(p.place(start, gap, start[40]), primlab::detail::with_gaps(start, gap, start[40]));
  // The second piece landing before the first (a descending sort's order), or aux too small: none.
  const std::vector<OwnRun> falling = {{own[0].offset, own[0].count, own[1].landing}, {own[1].offset, own[1].count, 0}};
  EXPECT_TRUE(primlab::detail::place_digits(start, gap, falling, recv_at, aux_at, stage + 256).at.empty());
  const std::int64_t after = stage - primlab::detail::with_gaps(start, gap, start[170]);
  EXPECT_FALSE(primlab::detail::place_digits(start, gap, own, recv_at, aux_at, after + 255).at.empty());
  EXPECT_TRUE(primlab::detail::place_digits(start, gap, own, recv_at, aux_at, after - 1).at.empty());
  // No own keys: nothing to place.
  EXPECT_TRUE(primlab::detail::place_digits(start, gap, {{start[80], 0, 0}}, recv_at, aux_at, stage + 256).at.empty());
}

// The bins of a search refined in one hot top digit: the top digits below it, its 256 sub-digits,
// the top digits above it; each starts at the value the splitters' edges name, and no other value
// is a bin edge.
TEST(DistributedPlan, StageBinsAreTopDigitsAndTheHotDigitsSubDigits) {
  primlab::detail::StageBins bins;
  EXPECT_EQ(bins.size(), 256);
  EXPECT_EQ(bins.bin_at(0x42000000u, false, 32), 0x42);
  EXPECT_EQ(bins.bin_at(0x42100000u, false, 32), -1);
  bins.hot = 0x42;
  EXPECT_EQ(bins.size(), 511);
  for (int width : {16, 21, 32, 64}) {
    SCOPED_TRACE(testing::Message() << "width " << width);
    const int top = width - 8, sub = width - 16;
    EXPECT_EQ(bins.bin_at(0, false, width), 0);
    EXPECT_EQ(bins.bin_at(std::uint64_t(0x41) << top, false, width), 0x41);
    EXPECT_EQ(bins.bin_at(std::uint64_t(0x42) << top, false, width), 0x42);
    EXPECT_EQ(bins.bin_at((std::uint64_t(0x42) << top) | (std::uint64_t(0x7F) << sub), false, width), 0x42 + 0x7F);
    EXPECT_EQ(bins.bin_at(std::uint64_t(0x43) << top, false, width), 0x43 + 255);
    EXPECT_EQ(bins.bin_at(std::uint64_t(0xFF) << top, false, width), 510);
    EXPECT_EQ(bins.bin_at(0, true, width), 511);
    EXPECT_EQ(bins.bin_at((std::uint64_t(0x43) << top) | (std::uint64_t(1) << sub), false, width), -1) << "not the hot digit";
    if (sub > 0) EXPECT_EQ(bins.bin_at((std::uint64_t(0x42) << top) | 1, false, width), -1) << "inside a sub-digit";
  }
  for (int f : {0, 0x41, 0x42, 0x42 + 255, 0x42 + 256, 510})
    EXPECT_EQ(bins.top_of(f), f < 0x42 ? f : f < 0x42 + 256 ? 0x42 : f - 255) << f;
  std::vector<std::int64_t> top(256), sub(256);
  std::iota(top.begin(), top.end(), 1000);
  std::iota(sub.begin(), sub.end(), 5000);
  const std::vector<std::int64_t> n = bins.counts(top.data(), sub.data());
  ASSERT_EQ(n.size(), 511u);
  EXPECT_EQ(n[0x41], 1000 + 0x41);
  EXPECT_EQ(n[0x42], 5000);
  EXPECT_EQ(n[0x42 + 255], 5255);
  EXPECT_EQ(n[0x42 + 256], 1000 + 0x43);
}

// A pass adds the given counts modulo 2^32 from its base: every digit with keys starts at its place,
// whether or not the places rise with the digits; an empty digit 0 takes the lowest place; a place
// before digit 0's, or 2^32 elements past the base, cannot be given.
TEST(DistributedPlan, GivenCountsReachEveryPlaceFromTheBase) {
  auto starts = [](const std::vector<std::uint32_t>& counts) {  // as the pass's exclusive scan
    std::vector<std::uint32_t> at(counts.size(), 0);
    for (std::size_t t = 1; t < counts.size(); ++t) at[t] = at[t - 1] + counts[t - 1];
    return at;
  };
  const std::vector<std::int64_t> keys = {5, 0, 7, 3, 0, 2};
  for (const std::vector<std::int64_t>& place : {std::vector<std::int64_t>{10, 0, 15, 30, 0, 40},
                                                 std::vector<std::int64_t>{10, 0, 900, 22, 99, 31},
                                                 std::vector<std::int64_t>{10, 0, (std::int64_t(1) << 32) + 10, 30, 0, 40}}) {
    std::int64_t base = -1;
    const std::vector<std::uint32_t> counts = primlab::detail::given_counts(place, keys, base);
    if (place[2] + keys[2] - 10 > (std::int64_t(1) << 32)) {
      EXPECT_TRUE(counts.empty());
      continue;
    }
    ASSERT_EQ(counts.size(), keys.size());
    EXPECT_EQ(base, 10);
    const std::vector<std::uint32_t> at = starts(counts);
    for (std::size_t t = 0; t < keys.size(); ++t)
      if (keys[t] > 0) EXPECT_EQ(std::int64_t(at[t]), place[t] - base) << "digit " << t;
  }
  const std::vector<std::int64_t> empty_first = {0, 4, 4}, place = {0, 50, 20};
  std::int64_t base = -1;
  const std::vector<std::uint32_t> counts = primlab::detail::given_counts(place, empty_first, base);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(base, 20);
  EXPECT_EQ(starts(counts)[1], 30u);
  EXPECT_EQ(starts(counts)[2], 0u);
  EXPECT_TRUE(primlab::detail::given_counts({30, 50, 20}, {1, 4, 4}, base).empty()) << "a place before digit 0's";
}

// The hot digit's keys go aside where neither pass writes: past the staged digits in the stage, or
// past those placed in aux, never before the first place; -1 where neither has room.
TEST(DistributedPlan, HotScratchLiesWhereNothingIsWritten) {
  // Bins of 100 keys each; the stage is [0, 1024), the receive buffer [1024, 2048), aux [2048, 3048).
  const std::vector<std::int64_t> start = {0, 100, 200, 300, 400};
  const std::int64_t recv = 1024, aux = 2048;
  auto disjoint = [&](const std::vector<std::int64_t>& at, std::int64_t s, std::int64_t n) {
    for (std::size_t f = 0; f + 1 < start.size(); ++f)
      if (s < at[f] + 100 && at[f] < s + n) return false;
    return s >= at[0];
  };
  // Two bins staged, two placed in the receive buffer: the stage's tail.
  const std::vector<std::int64_t> staged = {0, 130, 1024, 1124, 1224};
  const std::int64_t a = primlab::detail::hot_scratch(staged, start, 700, recv, aux, 1000);
  EXPECT_EQ(a, 256);
  EXPECT_TRUE(disjoint(staged, a, 700));
  EXPECT_EQ(primlab::detail::hot_scratch(staged, start, 800, recv, aux, 1000), 2048) << "too long for the stage: aux";
  // The first bin placed in the receive buffer, the others in aux: past them, not in the stage.
  const std::vector<std::int64_t> placed = {1024, 2048, 2148, 2298, 2398};
  const std::int64_t b = primlab::detail::hot_scratch(placed, start, 600, recv, aux, 1000);
  EXPECT_EQ(b, 2432);
  EXPECT_TRUE(disjoint(placed, b, 600));
  EXPECT_EQ(primlab::detail::hot_scratch(placed, start, 700, recv, aux, 1000), -1);
}

// Segments may join bins: the hot digit's sub-digits, joined by their top digit, read as the top
// digit they split (the same chunks as from the top digits' counts); and the piece's lowest
// segment is told.
TEST(DistributedPlan, SegmentsJoinTheHotDigitsSubDigits) {
  constexpr int G = 3;
  primlab::detail::StageBins bins;
  bins.hot = 100;
  std::uint32_t x = 5;
  std::vector<std::int64_t> fine, coarse;
  for (int q = 0; q < G; ++q) {
    std::vector<std::int64_t> top(256, 0), sub(256, 0);
    for (auto& c : sub) c = std::int64_t((x = x * 1664525u + 1013904223u) >> 28);
    for (auto& c : top) c = std::int64_t((x = x * 1664525u + 1013904223u) >> 28);
    top[100] = std::accumulate(sub.begin(), sub.end(), std::int64_t(0));
    const std::vector<std::int64_t> n = bins.counts(top.data(), sub.data());
    fine.insert(fine.end(), n.begin(), n.end());
    coarse.insert(coarse.end(), top.begin(), top.end());
  }
  std::vector<int> by_top(511);
  for (int f = 0; f < 511; ++f) by_top[std::size_t(f)] = bins.top_of(f);
  for (bool reversed : {false, true}) {
    // Each rank's keys from its 1000th on, 2500 of them, landed one run after another.
    const std::vector<std::int64_t> first(G, 1000), count(G, 2500), landing = {0, 2500, 5000};
    int lowest = -1;
    const auto joined = primlab::detail::piece_chunks(G, fine, first, count, landing, reversed, by_top, &lowest);
    const auto want = primlab::detail::piece_chunks(G, coarse, first, count, landing, reversed);
    ASSERT_EQ(joined.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(joined[i].src, want[i].src) << i;
      EXPECT_EQ(joined[i].count, want[i].count) << i;
      EXPECT_EQ(joined[i].seg, want[i].seg) << i;
    }
    int lowest_top = 256;  // the lowest top digit some rank's 1000th key has
    for (int q = 0; q < G; ++q) {
      int t = 0;
      for (std::int64_t below = 0; below + coarse[std::size_t(q) * 256 + t] <= 1000; ++t) below += coarse[std::size_t(q) * 256 + t];
      lowest_top = std::min(lowest_top, t);
    }
    EXPECT_EQ(lowest, lowest_top);
  }
}

// A piece's chunks read its landed runs top digit by top digit, each digit's keys in rank order and,
// within a rank, in the order they were staged; the tables cut tiles inside chunks and segments, a
// segment's tiles side by side with its first named.
TEST(DistributedPlan, SegmentedSortTablesReadEachTopDigitInRankOrder) {
  constexpr int G = 3, kDigits = 256, kTile = 7;
  std::uint32_t x = 99;
  std::vector<std::int64_t> counts(std::size_t(G) * kDigits);
  for (auto& c : counts) {
    x = x * 1664525u + 1013904223u;
    c = (x >> 28) % 3 == 0 ? 0 : std::int64_t(x >> 27);  // up to 31 keys, a third of digits empty
  }
  for (bool reversed : {false, true})
    for (auto [lo, hi] : {std::pair<int, int>{0, 256}, {40, 41}, {100, 170}}) {
      SCOPED_TRACE(testing::Message() << (reversed ? "descending" : "ascending") << " digits [" << lo << ", " << hi << ")");
      // Each rank's run holds its keys of digits [lo, hi), landed one run after another; a key is
      // (digit, rank, index within the rank's keys of that digit).
      struct Key {
        int digit, rank, index;
        bool operator==(const Key& o) const { return digit == o.digit && rank == o.rank && index == o.index; }
      };
      std::vector<Key> landed;
      std::vector<std::int64_t> first(G, 0), count(G, 0), landing(G, 0);
      for (int q = 0; q < G; ++q) {
        landing[q] = std::int64_t(landed.size());
        for (int t = 0; t < lo; ++t) first[q] += counts[std::size_t(q) * kDigits + t];
        for (int i = 0; i < hi - lo; ++i) {
          const int t = reversed ? hi - 1 - i : lo + i;
          for (int k = 0; k < counts[std::size_t(q) * kDigits + t]; ++k) landed.push_back({t, q, k});
          count[q] += counts[std::size_t(q) * kDigits + t];
        }
      }
      const auto chunks = primlab::detail::piece_chunks(G, counts, first, count, landing, reversed);
      int lowest = kDigits;  // the piece's lowest digit that holds keys
      for (const Key& k : landed) lowest = std::min(lowest, k.digit);
      std::vector<Key> read, want = landed;
      for (const auto& ch : chunks) {
        ASSERT_GE(ch.src, 0);
        ASSERT_LE(ch.src + ch.count, std::int64_t(landed.size()));
        for (std::int64_t i = 0; i < ch.count; ++i) {
          read.push_back(landed[std::size_t(ch.src + i)]);
          EXPECT_EQ(read.back().digit, lowest + ch.seg);
        }
      }
      std::sort(want.begin(), want.end(), [](const Key& a, const Key& b) {
        return std::tie(a.digit, a.rank, a.index) < std::tie(b.digit, b.rank, b.index);
      });
      EXPECT_TRUE(read == want);
      const int segments = chunks.empty() ? 0 : chunks.back().seg + 1;
      const auto plan = primlab::detail::segment_plan(chunks, segments, kTile);
      ASSERT_EQ(int(plan.start.size()), segments);
      // The tables as the GPU cuts them from the spans.
      auto cut = [](const std::vector<primlab::detail::TileSpan>& spans, std::uint32_t count) {
        std::vector<primlab::detail::SegmentTile> tiles;
        for (std::uint32_t t = 0; t < count; ++t)
          tiles.push_back(primlab::detail::tile_of(spans.data(), int(spans.size()), t, kTile));
        return tiles;
      };
      const auto first_table = cut(plan.first, plan.first_tiles), later_table = cut(plan.later, plan.later_tiles);
      // Pass 0's tiles, in order, are the chunks cut into tiles.
      std::vector<std::int64_t> from_chunks, from_tiles;
      for (const auto& ch : chunks)
        for (std::int64_t i = 0; i < ch.count; ++i) from_chunks.push_back(ch.src + i);
      auto check = [&](const std::vector<primlab::detail::SegmentTile>& tiles) {
        std::uint32_t seg = 0, first_of = 0;
        for (std::size_t t = 0; t < tiles.size(); ++t) {
          EXPECT_GT(tiles[t].count, 0u);
          EXPECT_LE(tiles[t].count, std::uint32_t(kTile));
          if (t == 0 || tiles[t].seg != seg) {
            EXPECT_TRUE(t == 0 || tiles[t].seg > seg) << "a segment's tiles side by side";
            seg = tiles[t].seg;
            first_of = std::uint32_t(t);
          }
          EXPECT_EQ(tiles[t].first, first_of);
        }
      };
      check(first_table);
      check(later_table);
      for (const auto& tile : first_table)
        for (std::uint32_t i = 0; i < tile.count; ++i) from_tiles.push_back(std::int64_t(tile.src) + i);
      EXPECT_EQ(from_tiles, from_chunks);
      // The later passes' tiles cover each segment where pass 0 leaves it: after the ones before.
      std::int64_t at = 0;
      for (const auto& tile : later_table) {
        EXPECT_EQ(std::int64_t(tile.src), at);
        EXPECT_EQ(std::int64_t(plan.start[tile.seg]) <= at, true);
        at += tile.count;
      }
      EXPECT_EQ(at, std::int64_t(landed.size()));
    }
}

TEST(DistributedPlan, NoSlackSplitsExactly) {
  // The partition's plan: every rank's share is within one key of a fair share, even when all keys
  // share one digit.
  for (Keys kind : {Keys::Uniform, Keys::AllEqual, Keys::OneHeavy})
    for (int G : {2, 5, 8}) {
      const auto shards = make_shards(kind, G, 1000, 8, 7);
      std::int64_t total = 0;
      for (const auto& s : shards) total += std::int64_t(s.size());
      const auto result = simulate(shards, 8, 0).result;
      expect_global_order(shards, result);
      for (const auto& r : result) {
        EXPECT_GE(std::int64_t(r.size()), total / G);
        EXPECT_LE(std::int64_t(r.size()), (total + G - 1) / G);
      }
    }
}

TEST(DistributedPlan, UniformKeysNeedOneHistogram) {
  const auto shards = make_shards(Keys::Uniform, 4, 100000, 32, 3);
  EXPECT_EQ(simulate(shards, 32, 400000 / (4 * 128)).rounds, 1);
  // Zipf keys pile into few top buckets: the cuts need the lower digits.
  EXPECT_GT(simulate(make_shards(Keys::Zipf, 4, 100000, 32, 3), 32, 400000 / (4 * 128)).rounds, 1);
}

TEST(DistributedPlan, CutsAtTheTopEdgeAndTiesAtTheLargestValue) {
  // Every key is the largest value: the cuts are ties on 2^width - 1, with no class above it.
  std::vector<std::vector<std::uint64_t>> shards(3, std::vector<std::uint64_t>(10, ~0ull));
  expect_global_order(shards, simulate(shards, 64, 0, 4).result);
  shards.assign(3, std::vector<std::uint64_t>(10, 255));
  expect_global_order(shards, simulate(shards, 8, 0, 4).result);
}

}  // namespace
