// The multi-GPU sort and partition on G virtual ranks of one GPU (LoopbackExchange), against the
// host: the ranks' results, concatenated, are the stable global order; shares are balanced; bad
// arguments on one rank stop every rank with nothing moved.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "primlab/distributed.h"
#include "primlab/radix_partition.h"
#include "sort_test_util.cuh"

namespace {

using namespace sorttest;
using primlab::SortOrder;
using primlab::Status;

enum class Op { Sort, Partition };

template <class K, class V>
struct RankBuffers {
  primlab::DeviceBuffer<K> keys_in, keys_out;
  primlab::DeviceBuffer<V> values_in, values_out;
  primlab::DeviceBuffer<std::uint32_t> offsets;
  primlab::DeviceBuffer<unsigned char> ws;
};

template <class K, class V>
struct Outcome {
  Status status = Status::Success;
  std::vector<std::vector<K>> keys;
  std::vector<std::vector<V>> values;
  std::vector<std::vector<std::uint32_t>> offsets;
  std::vector<std::int64_t> counts;
};

// Runs one call over G = shards.size() loopback ranks. values empty: keys only.
template <class K, class V>
Outcome<K, V> run(Op op, const std::vector<std::vector<K>>& shards, const std::vector<std::vector<V>>& values,
                  SortOrder order, int begin_bit, int bits, std::int64_t capacity = -1) {
  const int G = int(shards.size());
  const bool pairs = !values.empty();
  std::int64_t total = 0;
  for (const auto& s : shards) total += std::int64_t(s.size());
  if (capacity < 0) capacity = primlab::distributed_capacity(total, G);
  std::vector<RankBuffers<K, V>> buf(G);
  std::vector<primlab::Shard<K, V>> shard(G);
  for (int r = 0; r < G; ++r) {
    const std::int64_t n = std::int64_t(shards[r].size());
    buf[r].keys_in = to_device(shards[r]);
    buf[r].keys_out.resize(std::max<std::int64_t>(capacity, 1));
    poison(buf[r].keys_out);
    if (pairs) {
      buf[r].values_in = to_device(values[r]);
      buf[r].values_out.resize(std::max<std::int64_t>(capacity, 1));
    }
    buf[r].offsets.resize((1u << std::max(bits, 0)) + 1);
    std::size_t bytes = 0;
    if (op == Op::Sort)
      bytes = pairs ? primlab::distributed_sort_pairs_workspace_bytes<K, V>(n, capacity, G)
                    : primlab::distributed_sort_keys_workspace_bytes<K>(n, capacity, G);
    else
      bytes = pairs ? primlab::distributed_partition_pairs_workspace_bytes<K, V>(n, capacity, G, bits)
                    : primlab::distributed_partition_keys_workspace_bytes<K>(n, capacity, G, bits);
    buf[r].ws = workspace(bytes);
    shard[r] = {buf[r].keys_in.get(), buf[r].keys_out.get(), n, capacity, {buf[r].ws.get(), bytes},
                pairs ? buf[r].values_in.get() : nullptr, pairs ? buf[r].values_out.get() : nullptr,
                buf[r].offsets.get()};
  }
  std::vector<primlab::Shard<K>> key_shard(G);
  for (int r = 0; r < G; ++r)
    key_shard[r] = {shard[r].d_keys_in, shard[r].d_keys_out, shard[r].n, shard[r].capacity, shard[r].ws,
                    nullptr, nullptr, shard[r].d_offsets};
  primlab::LoopbackExchange ex(G, nullptr);
  Outcome<K, V> out;
  if (op == Op::Sort)
    out.status = pairs ? primlab::distributed_sort_pairs(ex, shard.data(), order, begin_bit, begin_bit + bits)
                       : primlab::distributed_sort_keys(ex, key_shard.data(), order, begin_bit, begin_bit + bits);
  else
    out.status = pairs ? primlab::distributed_partition_pairs(ex, shard.data(), begin_bit, bits)
                       : primlab::distributed_partition_keys(ex, key_shard.data(), begin_bit, bits);
  if (!pairs)
    for (int r = 0; r < G; ++r) shard[r].count = key_shard[r].count;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int r = 0; r < G; ++r) {
    out.counts.push_back(shard[r].count);
    if (out.status != Status::Success) continue;
    out.keys.push_back(to_host(buf[r].keys_out, std::size_t(shard[r].count)));
    if (pairs) out.values.push_back(to_host(buf[r].values_out, std::size_t(shard[r].count)));
    if (op == Op::Partition) out.offsets.push_back(to_host(buf[r].offsets, (1u << bits) + 1));
  }
  return out;
}

template <class K>
BitsOf<K> range_image(K k, SortOrder order, int begin_bit, int bits) {
  const BitsOf<K> b = ordered(k, order) >> begin_bit;
  return bits >= int(sizeof(K) * 8) ? b : BitsOf<K>(b & ((BitsOf<K>(1) << bits) - 1));
}

// Checks the concatenated result against the host's stable order by the range image; values are
// the keys' global input positions, so stability shows.
template <class K>
void expect_result(Op op, const std::vector<std::vector<K>>& shards, const Outcome<K, std::uint32_t>& out,
                   SortOrder order, int begin_bit, int bits, bool pairs) {
  ASSERT_EQ(out.status, Status::Success) << primlab::status_string(out.status);
  const int G = int(shards.size());
  std::vector<K> all;
  for (const auto& s : shards) all.insert(all.end(), s.begin(), s.end());
  std::vector<std::uint32_t> idx(all.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
    return range_image(all[a], order, begin_bit, bits) < range_image(all[b], order, begin_bit, bits);
  });
  std::vector<K> got_keys;
  std::vector<std::uint32_t> got_values;
  for (int r = 0; r < G; ++r) {
    got_keys.insert(got_keys.end(), out.keys[r].begin(), out.keys[r].end());
    if (pairs) got_values.insert(got_values.end(), out.values[r].begin(), out.values[r].end());
  }
  std::vector<K> want_keys;
  for (std::uint32_t i : idx) want_keys.push_back(all[i]);
  if (pairs) {
    EXPECT_EQ(got_values, idx) << "pairs out of the stable global order";
    EXPECT_EQ(first_bit_mismatch(got_keys, want_keys), -1);
  } else {
    // Keys equal on a partial range may differ in their other bits: compare the images, and the
    // keys themselves when the range is the whole key.
    ASSERT_EQ(got_keys.size(), want_keys.size());
    for (std::size_t i = 0; i < got_keys.size(); ++i)
      ASSERT_EQ(range_image(got_keys[i], order, begin_bit, bits), range_image(want_keys[i], order, begin_bit, bits)) << i;
    if (bits == int(sizeof(K) * 8)) EXPECT_EQ(first_bit_mismatch(got_keys, want_keys), -1);
  }
  const std::int64_t total = std::int64_t(all.size());
  for (int r = 0; r < G; ++r) {
    if (op == Op::Partition) {  // exact balance, and offsets of the rank's own range
      EXPECT_GE(out.counts[r], total / G);
      EXPECT_LE(out.counts[r], (total + G - 1) / G);
      const auto& off = out.offsets[r];
      EXPECT_EQ(off.front(), 0u);
      EXPECT_EQ(off.back(), std::uint32_t(out.counts[r]));
      for (std::size_t i = 0; i < out.keys[r].size(); ++i) {
        const std::uint32_t p = std::uint32_t(range_image(out.keys[r][i], SortOrder::Ascending, begin_bit, bits));
        ASSERT_TRUE(off[p] <= i && i < off[p + 1]) << "rank " << r << " key " << i << " outside partition " << p;
      }
    } else {
      EXPECT_LE(out.counts[r], primlab::distributed_capacity(total, G));
    }
  }
}

template <class K>
std::vector<std::vector<K>> split(const std::vector<K>& all, int G, bool uneven) {
  std::vector<std::vector<K>> s(G);
  for (std::size_t i = 0; i < all.size(); ++i) {
    // Uneven: rank 0 holds half the keys.
    const int r = uneven ? (i % 2 == 0 ? 0 : int(1 + (i / 2) % std::max(G - 1, 1)) % G) : int(i * G / all.size());
    s[r].push_back(all[i]);
  }
  return s;
}

// Values for a pairs call: each key's global input position (rank-major), so stability shows.
template <class K>
std::vector<std::vector<std::uint32_t>> global_positions(const std::vector<std::vector<K>>& shards) {
  std::vector<std::vector<std::uint32_t>> ids(shards.size());
  std::uint32_t id = 0;
  for (std::size_t r = 0; r < shards.size(); ++r)
    for (std::size_t i = 0; i < shards[r].size(); ++i) ids[r].push_back(id++);
  return ids;
}

template <class K>
void sort_cases(bool pairs) {
  for (Dist d : {Dist::Uniform, Dist::AllEqual, Dist::FewDistinct, Dist::Extremes, Dist::Zipf, Dist::Sorted})
    for (int G : {1, 2, 3, 4, 8})
      for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(G - 1), std::int64_t(5000), std::int64_t(70001)})
        for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending}) {
          SCOPED_TRACE(testing::Message() << type_name<K>() << " " << dist_name(d) << " G " << G << " n " << n
                                          << (order == SortOrder::Descending ? " descending" : "") << (pairs ? " pairs" : ""));
          const auto shards = split(make_keys<K>(d, n, 11), G, n % 2 == 1);
          const auto ids = pairs ? global_positions(shards) : std::vector<std::vector<std::uint32_t>>{};
          const int bits = int(sizeof(K) * 8);
          expect_result<K>(Op::Sort, shards, run<K, std::uint32_t>(Op::Sort, shards, ids, order, 0, bits), order, 0, bits, pairs);
        }
}

TEST(Distributed, SortKeysEveryType) {
  sort_cases<std::uint32_t>(false);
  sort_cases<std::int32_t>(false);
  sort_cases<float>(false);
  sort_cases<std::uint64_t>(false);
  sort_cases<std::int64_t>(false);
  sort_cases<double>(false);
}

TEST(Distributed, SortPairsIsStable) {
  sort_cases<std::uint32_t>(true);
  sort_cases<float>(true);
  sort_cases<std::uint64_t>(true);
}

// Sorts on 2 to 4 ranks sort each shard first and merge the runs a rank holds (2, 3 or 4 of them,
// starting anywhere in their senders' shards); more ranks partition first. Both schemes, on every rank count up
// to 8, with shards of uneven sizes, keys and pairs, ascending and descending.
TEST(Distributed, EveryRankCountSortsStably) {
  for (int G = 2; G <= 8; ++G)
    for (Dist d : {Dist::Uniform, Dist::FewDistinct, Dist::Sorted})
      for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending}) {
        SCOPED_TRACE(testing::Message() << dist_name(d) << " G " << G << (order == SortOrder::Descending ? " descending" : ""));
        const auto shards = split(make_keys<std::uint64_t>(d, 90001, 7), G, true);
        const auto ids = global_positions(shards);
        expect_result<std::uint64_t>(Op::Sort, shards, run<std::uint64_t, std::uint32_t>(Op::Sort, shards, ids, order, 0, 64),
                                     order, 0, 64, true);
        expect_result<std::uint64_t>(Op::Sort, shards, run<std::uint64_t, std::uint32_t>(Op::Sort, shards, {}, order, 0, 64),
                                     order, 0, 64, false);
      }
}

TEST(Distributed, SortBitRanges) {
  const auto shards = split(make_keys<std::uint32_t>(Dist::Uniform, 40000, 5), 4, false);
  const auto ids = global_positions(shards);
  for (auto [begin, bits] : {std::pair{0, 0}, std::pair{4, 12}, std::pair{20, 12}, std::pair{31, 1}, std::pair{8, 16}}) {
    SCOPED_TRACE(testing::Message() << "bits [" << begin << ", " << begin + bits << ")");
    expect_result<std::uint32_t>(Op::Sort, shards, run<std::uint32_t, std::uint32_t>(Op::Sort, shards, ids, SortOrder::Ascending, begin, bits),
                                 SortOrder::Ascending, begin, bits, true);
  }
}

TEST(Distributed, PartitionByADigit) {
  for (Dist d : {Dist::Uniform, Dist::AllEqual, Dist::Zipf})
    for (int G : {1, 2, 4, 7})
      for (auto [begin, bits] : {std::pair{0, 8}, std::pair{3, 1}, std::pair{20, 12}})
        for (bool pairs : {false, true}) {
          SCOPED_TRACE(testing::Message() << dist_name(d) << " G " << G << " bits [" << begin << ", " << begin + bits << ")" << (pairs ? " pairs" : ""));
          const auto shards = split(make_keys<std::uint32_t>(d, 30001, 9), G, true);
          const auto ids = pairs ? global_positions(shards) : std::vector<std::vector<std::uint32_t>>{};
          expect_result<std::uint32_t>(Op::Partition, shards,
                                       run<std::uint32_t, std::uint32_t>(Op::Partition, shards, ids, SortOrder::Ascending, begin, bits),
                                       SortOrder::Ascending, begin, bits, pairs);
        }
}

TEST(Distributed, ASmallCapacityStopsEveryRankWithTheShares) {
  const auto shards = split(make_keys<std::uint32_t>(Dist::Uniform, 10000, 3), 4, false);
  const auto out = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, {}, SortOrder::Ascending, 0, 32, 1000);
  EXPECT_EQ(out.status, Status::OutputTooSmall);
  std::int64_t sum = 0;
  for (std::int64_t c : out.counts) sum += c;
  EXPECT_EQ(sum, 10000) << "each rank's count is its share";
}

TEST(Distributed, OneBadRankStopsEveryRank) {
  const int G = 3;
  const auto h = make_keys<std::uint32_t>(Dist::Uniform, 3000, 1);
  std::vector<primlab::DeviceBuffer<std::uint32_t>> in, out;
  std::vector<primlab::DeviceBuffer<unsigned char>> ws;
  std::vector<primlab::Shard<std::uint32_t>> shard(G);
  const std::int64_t cap = primlab::distributed_capacity(3000, G);
  for (int r = 0; r < G; ++r) {
    in.push_back(to_device(std::vector<std::uint32_t>(h.begin() + r * 1000, h.begin() + (r + 1) * 1000)));
    out.emplace_back(cap);
    const std::size_t bytes = primlab::distributed_sort_keys_workspace_bytes<std::uint32_t>(1000, cap, G);
    ws.push_back(workspace(bytes));
    shard[r] = {in[r].get(), out[r].get(), 1000, cap, {ws[r].get(), bytes}};
  }
  primlab::LoopbackExchange ex(G, nullptr);
  auto before = to_host(in[1], 1000);
  shard[1].d_keys_in = nullptr;
  EXPECT_EQ(primlab::distributed_sort_keys(ex, shard.data(), SortOrder::Ascending, 0, 32), Status::InvalidArgument);
  shard[1].d_keys_in = in[1].get();
  shard[2].ws.bytes -= 1;
  EXPECT_EQ(primlab::distributed_sort_keys(ex, shard.data(), SortOrder::Ascending, 0, 32), Status::WorkspaceTooSmall);
  shard[2].ws.bytes += 1;
  EXPECT_EQ(primlab::distributed_sort_keys(ex, shard.data(), SortOrder::Ascending, 0, 33), Status::InvalidArgument);
  EXPECT_EQ(primlab::distributed_partition_keys(ex, shard.data(), 0, 13), Status::InvalidArgument);
  EXPECT_EQ(first_bit_mismatch(to_host(in[1], 1000), before), -1) << "the input is untouched";
  primlab::LoopbackExchange too_many(primlab::kDistributedMaxRanks + 1, nullptr);
  EXPECT_EQ(primlab::distributed_sort_keys(too_many, shard.data(), SortOrder::Ascending, 0, 32), Status::Unsupported);
  // After every error the same shards still sort.
  primlab::DistributedTimes t;
  ASSERT_EQ(primlab::distributed_sort_keys(ex, shard.data(), SortOrder::Ascending, 0, 32, &t), Status::Success);
  EXPECT_EQ(t.total, 3000);
  EXPECT_EQ(t.splitter_rounds, 1);
  std::vector<std::uint32_t> got;
  for (int r = 0; r < G; ++r) {
    const auto k = to_host(out[r], std::size_t(shard[r].count));
    got.insert(got.end(), k.begin(), k.end());
  }
  auto want = h;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

}  // namespace
