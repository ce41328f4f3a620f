// The multi-GPU primitives' host plan (splitters, classes, send counts), run on G simulated ranks:
// every rank's histograms and class counts are taken on the host, the exchange is simulated, and
// the ranks' results, concatenated, must be the stable global order, with balanced shares.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "device/distributed_plan.h"

namespace {

using primlab::detail::SplitterSearch;
using primlab::detail::class_lower_bounds;
using primlab::detail::landing_offsets;
using primlab::detail::send_counts;
using primlab::detail::send_runs;

enum class Keys { Uniform, AllEqual, FewDistinct, Zipf, Sorted, OneHeavy };

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

// Runs the plan over simulated ranks, each shard cut into `chunks` pieces that are staged and sent
// apart (rank-major senders); returns each rank's result. Each run lands where landing_offsets
// puts it, and the stable local sort by key alone must then give the stable global order.
std::vector<std::vector<Tagged>> simulate(const std::vector<std::vector<std::uint64_t>>& shards, int width,
                                          std::int64_t slack, int* rounds = nullptr, int chunks = 1) {
  const int G = int(shards.size()), K = chunks, Q = G * K;
  std::vector<std::int64_t> totals;
  for (const auto& s : shards) totals.push_back(std::int64_t(s.size()));
  SplitterSearch search(width, totals, slack);
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
  if (rounds) *rounds = search.rounds();
  const std::vector<std::uint64_t> lower = class_lower_bounds(search.cuts(), width);
  const int C = int(lower.size());
  auto class_of = [&](std::uint64_t x) { return int(std::upper_bound(lower.begin(), lower.end(), x) - lower.begin()) - 1; };
  // Each sender (a rank's chunk) stably partitioned by class, and its class counts.
  std::vector<std::vector<Tagged>> staged(Q);
  std::vector<std::int64_t> class_counts(std::size_t(Q) * C, 0);
  std::int64_t id = 0;
  for (int r = 0; r < G; ++r) {
    const std::size_t n = shards[r].size(), per_chunk = (n + K - 1) / K;
    for (std::size_t i = 0; i < n; ++i) {
      const int q = r * K + int(i / per_chunk);
      staged[q].push_back({shards[r][i], id++});
      ++class_counts[std::size_t(q) * C + class_of(shards[r][i])];
    }
  }
  for (auto& st : staged)
    std::stable_sort(st.begin(), st.end(), [&](const Tagged& a, const Tagged& b) { return class_of(a.x) < class_of(b.x); });
  std::vector<std::int64_t> positions;
  for (const auto& c : search.cuts()) positions.push_back(c.position);
  const std::vector<std::int64_t> send = send_counts(Q, G, C, class_counts, positions);
  const std::vector<std::int64_t> landing = landing_offsets(Q, G, send);
  std::vector<std::int64_t> share(G, 0);
  for (int q = 0; q < Q; ++q)
    for (int s = 0; s < G; ++s) share[s] += send[std::size_t(q) * G + s];
  // The exchange: one run per sender and destination, landing at its offset.
  std::vector<std::vector<Tagged>> result(G);
  std::vector<std::vector<bool>> written(G);
  for (int s = 0; s < G; ++s) {
    result[s].assign(std::size_t(share[s]), Tagged{0, -1});
    written[s].assign(std::size_t(share[s]), false);
  }
  for (int q = 0; q < Q; ++q) {
    std::vector<std::int64_t> class_start(C, 0);
    for (int c = 1; c < C; ++c) class_start[c] = class_start[c - 1] + class_counts[std::size_t(q) * C + c - 1];
    const auto runs = send_runs(Q, G, C, class_counts, positions, q, class_start);
    std::size_t sent = 0;
    for (int s = 0; s < G; ++s) {
      EXPECT_EQ(runs[s].count, send[std::size_t(q) * G + s]);
      const std::size_t at = std::size_t(runs[s].offset), k = std::size_t(runs[s].count);
      const std::size_t to = std::size_t(landing[std::size_t(q) * G + s]);
      EXPECT_LE(at + k, staged[q].size());
      EXPECT_LE(to + k, result[s].size());
      for (std::size_t i = 0; i < k && at + i < staged[q].size() && to + i < result[s].size(); ++i) {
        EXPECT_FALSE(written[s][to + i]) << "two runs land on one place";
        result[s][to + i] = staged[q][at + i];
        written[s][to + i] = true;
      }
      sent += k;
    }
    EXPECT_EQ(sent, staged[q].size()) << "sender " << q << " sends every key once";
  }
  // The local stable sort keeps the landing order among equal keys.
  for (auto& v : result) std::stable_sort(v.begin(), v.end(), [](const Tagged& a, const Tagged& b) { return a.x < b.x; });
  return result;
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
          const auto result = simulate(shards, width, slack);
          expect_global_order(shards, result);
          // The fair share plus a slack at each of the rank's two cuts.
          EXPECT_LE(largest(result), (total + G - 1) / G + 2 * slack);
        }
}

TEST(DistributedPlan, ChunksLandInTheGlobalInputOrder) {
  // A shard cut into chunks that are staged and sent apart: every chunk's runs land after those of
  // the earlier chunks and ranks, so that the local stable sort needs nothing else.
  for (Keys kind : {Keys::Uniform, Keys::AllEqual, Keys::FewDistinct, Keys::OneHeavy})
    for (int G : {1, 2, 3, 4, 7})
      for (int chunks : {1, 2, 3, 16})
        for (std::int64_t per_rank : {0, 1, 5, 1000}) {
          SCOPED_TRACE(testing::Message() << "kind " << int(kind) << " G " << G << " chunks " << chunks << " n/rank " << per_rank);
          const auto shards = make_shards(kind, G, per_rank, 32, 11 + G);
          std::int64_t total = 0;
          for (const auto& s : shards) total += std::int64_t(s.size());
          expect_global_order(shards, simulate(shards, 32, total / (std::int64_t(G) * 128), nullptr, chunks));
          const auto digits = make_shards(kind, G, per_rank, 8, 11 + G);  // the partition's: exact cuts
          expect_global_order(digits, simulate(digits, 8, 0, nullptr, chunks));
        }
}

TEST(DistributedPlan, HeadsEndOnTheReceiversBoundary) {
  for (std::size_t at = 0; at < 64; at += 4)
    for (std::size_t bytes : {std::size_t(0), std::size_t(4), std::size_t(12), std::size_t(16), std::size_t(100)}) {
      const std::size_t h = primlab::detail::head_bytes(at, bytes);
      EXPECT_LE(h, bytes);
      EXPECT_LT(h, 16u);
      if (h < bytes) {
        EXPECT_EQ((at + h) % 16, 0u) << "the body starts on a boundary";
      }
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
      const auto result = simulate(shards, 8, 0);
      expect_global_order(shards, result);
      for (const auto& r : result) {
        EXPECT_GE(std::int64_t(r.size()), total / G);
        EXPECT_LE(std::int64_t(r.size()), (total + G - 1) / G);
      }
    }
}

TEST(DistributedPlan, UniformKeysNeedOneHistogram) {
  int rounds = 0;
  const auto shards = make_shards(Keys::Uniform, 4, 100000, 32, 3);
  simulate(shards, 32, 400000 / (4 * 128), &rounds);
  EXPECT_EQ(rounds, 1);
  // Zipf keys pile into few top buckets: the cuts need the lower digits.
  simulate(make_shards(Keys::Zipf, 4, 100000, 32, 3), 32, 400000 / (4 * 128), &rounds);
  EXPECT_GT(rounds, 1);
}

TEST(DistributedPlan, CutsAtTheTopEdgeAndTiesAtTheLargestValue) {
  // Every key is the largest value: the cuts are ties on 2^width - 1, with no class above it.
  std::vector<std::vector<std::uint64_t>> shards(3, std::vector<std::uint64_t>(10, ~0ull));
  expect_global_order(shards, simulate(shards, 64, 0));
  shards.assign(3, std::vector<std::uint64_t>(10, 255));
  expect_global_order(shards, simulate(shards, 8, 0));
}

}  // namespace
