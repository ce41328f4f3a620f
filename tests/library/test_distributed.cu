// The multi-GPU sort and partition on G virtual ranks of one GPU (LoopbackExchange), against the
// host: the ranks' results, concatenated, are the stable global order; shares are balanced; both
// schemes and every count of pieces agree; a piece with nothing to move makes no transfer; every
// message of 256 bytes or more leaves and lands on a 256-byte boundary; bad arguments on one rank,
// or a transport that fails mid-pipeline, stop every rank with the inputs intact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "primlab/distributed.h"
#include "primlab/radix_partition.h"
#include "sort_test_util.cuh"
#include "device/distributed_plan.h"
#include "device/radix_onesweep_dispatch.cuh"
#include "tuning/distributed.cuh"

namespace {

using namespace sorttest;
using primlab::DistributedScheme;
using primlab::SortOrder;
using primlab::Status;

enum class Op { Sort, Partition };

// An Exchange over another that checks that every message of kExchangeAlign (256) bytes or more
// leaves and lands on a boundary of as many bytes, and fails its fail_at-th transfer (counting
// from 0) as a transport would; it gathers at most max_gather values a rank.
class CheckedExchange final : public primlab::Exchange {
 public:
  explicit CheckedExchange(primlab::Exchange& inner, int fail_at = -1, std::size_t max_gather = ~std::size_t(0))
      : inner_(inner), fail_at_(fail_at), max_gather_(max_gather) {}
  int size() const override { return inner_.size(); }
  int local_count() const override { return inner_.local_count(); }
  int rank(int local) const override { return inner_.rank(local); }
  int device(int local) const override { return inner_.device(local); }
  cudaStream_t stream(int local) const override { return inner_.stream(local); }
  Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) override {
    if (count > max_gather_count()) return Status::InvalidArgument;
    return inner_.all_gather(h_local, count, h_all);
  }
  std::size_t max_gather_count() const override { return std::min(inner_.max_gather_count(), max_gather_); }
  Status all_to_all_v(const primlab::ExchangePlan* plans, int parts, int* ticket) override {
    if (transfers_++ == fail_at_) {
      error_ = "transport failed in transfer " + std::to_string(fail_at_);
      return Status::CommError;
    }
    constexpr std::size_t kAlign = primlab::detail::kExchangeAlign;
    auto off = [](const void* p, std::size_t at) { return (reinterpret_cast<std::uintptr_t>(p) + at) % kAlign; };
    for (int i = 0; i < local_count() * parts; ++i)
      for (int s = 0; s < size(); ++s) {
        const primlab::ExchangePlan& p = plans[i];
        if (p.send_bytes[s] >= kAlign && off(p.d_send, p.send_offsets[s]) != 0) ++misaligned_;
        if (p.recv_bytes[s] >= kAlign && off(p.d_recv, p.recv_offsets[s]) != 0) ++misaligned_;
        if (p.send_bytes[s] >= kAlign) ++messages_;
      }
    return inner_.all_to_all_v(plans, parts, ticket);
  }
  Status join(int local, int ticket) override { return inner_.join(local, ticket); }
  std::string last_error() const override { return error_; }
  int transfers() const { return transfers_; }
  int messages() const { return messages_; }
  int misaligned() const { return misaligned_; }

 private:
  primlab::Exchange& inner_;
  int fail_at_;
  std::size_t max_gather_;
  int transfers_ = 0, messages_ = 0, misaligned_ = 0;
  std::string error_;
};

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
  std::string error;  // the exchange's last_error()
  std::vector<std::vector<K>> keys;
  std::vector<std::vector<V>> values;
  std::vector<std::vector<std::uint32_t>> offsets;
  std::vector<std::int64_t> counts;
  primlab::DistributedTimes times;
  bool inputs_intact = true;
};

// How one call is made, beside its inputs.
struct CallSetup {
  std::int64_t capacity = -1;  // -1: distributed_capacity
  primlab::DistributedOptions options;
  std::int64_t out_offset = 0;  // the outputs start this many elements into their buffers
  // The exchange the call goes through, given the loopback (default: the loopback itself).
  std::function<primlab::Exchange&(primlab::LoopbackExchange&)> transport;
};

template <class T>
std::vector<T> to_host_at(const primlab::DeviceBuffer<T>& d, std::int64_t at, std::int64_t n) {
  std::vector<T> h(std::size_t(std::max<std::int64_t>(n, 0)));
  if (n > 0) EXPECT_EQ(cudaMemcpy(h.data(), d.get() + at, h.size() * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

// Runs one call over G = shards.size() loopback ranks. values empty: keys only.
template <class K, class V>
Outcome<K, V> run(Op op, const std::vector<std::vector<K>>& shards, const std::vector<std::vector<V>>& values,
                  SortOrder order, int begin_bit, int bits, const CallSetup& setup = {}) {
  const int G = int(shards.size());
  const bool pairs = !values.empty();
  std::int64_t total = 0;
  for (const auto& s : shards) total += std::int64_t(s.size());
  const std::int64_t capacity = setup.capacity < 0 ? primlab::distributed_capacity(total, G) : setup.capacity;
  const std::int64_t at = setup.out_offset;
  std::vector<RankBuffers<K, V>> buf(G);
  std::vector<primlab::Shard<K, V>> shard(G);
  for (int r = 0; r < G; ++r) {
    const std::int64_t n = std::int64_t(shards[r].size());
    buf[r].keys_in = to_device(shards[r]);
    buf[r].keys_out.resize(std::max<std::int64_t>(capacity + at, 1));
    poison(buf[r].keys_out);
    if (pairs) {
      buf[r].values_in = to_device(values[r]);
      buf[r].values_out.resize(std::max<std::int64_t>(capacity + at, 1));
    }
    buf[r].offsets.resize((1u << std::max(bits, 0)) + 1);
    std::size_t bytes = 0;
    if (op == Op::Sort)
      bytes = pairs ? primlab::distributed_sort_pairs_workspace_bytes<K, V>(n, capacity, G, setup.options)
                    : primlab::distributed_sort_keys_workspace_bytes<K>(n, capacity, G, setup.options);
    else
      bytes = pairs ? primlab::distributed_partition_pairs_workspace_bytes<K, V>(n, capacity, G, bits)
                    : primlab::distributed_partition_keys_workspace_bytes<K>(n, capacity, G, bits);
    buf[r].ws = workspace(bytes);
    shard[r] = {buf[r].keys_in.get(), buf[r].keys_out.get() + at, n, capacity, {buf[r].ws.get(), bytes},
                pairs ? buf[r].values_in.get() : nullptr, pairs ? buf[r].values_out.get() + at : nullptr,
                buf[r].offsets.get()};
  }
  std::vector<primlab::Shard<K>> key_shard(G);
  for (int r = 0; r < G; ++r)
    key_shard[r] = {shard[r].d_keys_in, shard[r].d_keys_out, shard[r].n, shard[r].capacity, shard[r].ws,
                    nullptr, nullptr, shard[r].d_offsets};
  primlab::LoopbackExchange loopback(G, nullptr);
  primlab::Exchange& ex = setup.transport ? setup.transport(loopback) : loopback;
  Outcome<K, V> out;
  primlab::DistributedTimes* t = &out.times;
  const primlab::DistributedOptions& o = setup.options;
  if (op == Op::Sort)
    out.status = pairs ? primlab::distributed_sort_pairs(ex, shard.data(), order, begin_bit, begin_bit + bits, t, o)
                       : primlab::distributed_sort_keys(ex, key_shard.data(), order, begin_bit, begin_bit + bits, t, o);
  else
    out.status = pairs ? primlab::distributed_partition_pairs(ex, shard.data(), begin_bit, bits, t, o)
                       : primlab::distributed_partition_keys(ex, key_shard.data(), begin_bit, bits, t, o);
  out.error = ex.last_error();
  if (!pairs)
    for (int r = 0; r < G; ++r) shard[r].count = key_shard[r].count;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int r = 0; r < G; ++r) {
    out.inputs_intact = out.inputs_intact && first_bit_mismatch(to_host(buf[r].keys_in, shards[r].size()), shards[r]) == -1;
    if (pairs) out.inputs_intact = out.inputs_intact && to_host(buf[r].values_in, values[r].size()) == values[r];
    out.counts.push_back(shard[r].count);
    if (out.status != Status::Success) continue;
    out.keys.push_back(to_host_at(buf[r].keys_out, at, shard[r].count));
    if (pairs) out.values.push_back(to_host_at(buf[r].values_out, at, shard[r].count));
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

// Both schemes with every count of pieces (three of them at the steepest growth, the first a 21st
// of a rank's range), on every rank count each takes, with shards of uneven
// sizes, keys and pairs, ascending and descending: keys whose cuts are top-digit edges (one radix
// partition pass), few distinct keys (cuts inside runs of equal keys, pieces that stay empty),
// Zipf keys (cuts and pieces that take a second splitter round) and sorted ones.
template <class K>
void every_scheme_and_pipeline(std::int64_t n) {
  for (int G : {1, 2, 3, 4, 5, 8})
    for (DistributedScheme scheme : {DistributedScheme::PartitionFirst, DistributedScheme::SortFirst})
      for (int pieces : {1, 3, 16}) {
        if (scheme == DistributedScheme::SortFirst && G > 4) continue;
        for (Dist d : {Dist::Uniform, Dist::FewDistinct, Dist::Zipf, Dist::Sorted})
          for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending}) {
            SCOPED_TRACE(testing::Message() << type_name<K>() << " " << dist_name(d) << " G " << G
                                            << (scheme == DistributedScheme::SortFirst ? " sort-first" : " partition-first")
                                            << " pieces " << pieces << (order == SortOrder::Descending ? " descending" : ""));
            const auto shards = split(make_keys<K>(d, n, 7), G, true);
            const auto ids = global_positions(shards);
            CallSetup setup;
            const double growth = pieces == 3 ? primlab::kDistributedMaxPieceGrowth : 0;
            setup.options = {scheme, pieces, growth};
            const int bits = int(sizeof(K) * 8);
            const auto with_values = run<K, std::uint32_t>(Op::Sort, shards, ids, order, 0, bits, setup);
            expect_result<K>(Op::Sort, shards, with_values, order, 0, bits, true);
            EXPECT_EQ(with_values.times.scheme, scheme);
            EXPECT_EQ(with_values.times.pieces, pieces);
            if (growth > 0) EXPECT_EQ(with_values.times.piece_growth, growth);
            else EXPECT_GE(with_values.times.piece_growth, 1.0);
            expect_result<K>(Op::Sort, shards, run<K, std::uint32_t>(Op::Sort, shards, {}, order, 0, bits, setup), order, 0,
                             bits, false);
          }
      }
}

TEST(Distributed, EverySchemeAndPipelineSortsStably) {
  every_scheme_and_pipeline<std::uint32_t>(60001);
  every_scheme_and_pipeline<std::uint64_t>(20001);
}

// Whether Auto turns partition-first to sort first, as primlab/distributed.h states the rule: the
// library's search (SplitterSearch, each cut within N / (128 G) of a bucket edge) on host histograms
// of the top 8 bits of every rank's keys, then of the next 8 where one bucket holds every open cut
// but not every key, leaves a cut open (u64 keys, the whole 64-bit range, where no cut is a tie
// after two rounds).
bool two_rounds_leave_a_cut_open(const std::vector<std::vector<std::uint64_t>>& shards) {
  std::vector<std::int64_t> top(256, 0);
  for (const auto& s : shards)
    for (std::uint64_t k : s) ++top[k >> 56];
  const int G = int(shards.size());
  std::vector<std::int64_t> totals;
  std::int64_t n = 0;
  for (const auto& s : shards) n += totals.emplace_back(std::int64_t(s.size()));
  primlab::detail::SplitterSearch search(64, totals, n / (std::int64_t(G) * 128));
  auto second = [&] {  // one top digit holds every open cut, but not every key
    return search.queries().size() == 1 && top[search.queries()[0].prefix] < n;
  };
  while (!search.done() && search.rounds() < 2 && (search.rounds() == 0 || second())) {
    const auto queries = search.queries();
    const int d = search.digit_bits(), level = queries[0].level;
    std::vector<std::int64_t> counts((std::size_t(G) * queries.size()) << d, 0);
    for (int r = 0; r < G; ++r)
      for (std::uint64_t k : shards[r])
        for (std::size_t q = 0; q < queries.size(); ++q)
          if (level == 0 || k >> (64 - level) == queries[q].prefix)
            ++counts[((std::size_t(r) * queries.size() + q) << d) + ((k >> (64 - level - d)) & ((1u << d) - 1))];
    search.answer(counts);
  }
  return !search.done();
}

// The default (Auto) takes the scheme of kernels/tuning/distributed.cuh, and the tuned pieces; on
// up to 4 ranks, partition-first's choice sorts first where two splitter rounds leave a cut open
// (few distinct keys, and here uniform cases whose cuts land just past the slack inside buckets of
// the next 8 bits).
TEST(Distributed, EveryRankCountSortsStablyByDefault) {
  int turned = 0;
  for (int G = 2; G <= 8; ++G)
    for (Dist d : {Dist::Uniform, Dist::FewDistinct, Dist::Sorted}) {
      SCOPED_TRACE(testing::Message() << dist_name(d) << " G " << G);
      const std::vector<std::uint64_t> keys = make_keys<std::uint64_t>(d, 90001, 7);
      const auto shards = split(keys, G, true);
      const auto ids = global_positions(shards);
      const auto out = run<std::uint64_t, std::uint32_t>(Op::Sort, shards, ids, SortOrder::Ascending, 0, 64);
      expect_result<std::uint64_t>(Op::Sort, shards, out, SortOrder::Ascending, 0, 64, true);
      const auto tuned = primlab::detail::DistributedTuning::choice(G, true, 90001 / G);
      const bool turns = G <= 4 && tuned.scheme == DistributedScheme::PartitionFirst && two_rounds_leave_a_cut_open(shards);
      turned += turns;
      EXPECT_EQ(out.times.scheme, G > 4 ? DistributedScheme::PartitionFirst : turns ? DistributedScheme::SortFirst : tuned.scheme);
    }
  EXPECT_GT(turned, 0) << "no case turned partition first to sort first";
}

// Keys of which `tenths` tenths (70 %: the bench's skewed keys) share one top byte of the range
// (bits [begin_bit + bits - 8, begin_bit + bits)), their other bits uniform, and the rest uniform:
// every cut between ranks falls inside that byte's bucket.
template <class K>
std::vector<K> one_hot_byte(std::int64_t n, std::uint64_t seed, int begin_bit, int bits, std::uint32_t byte = 0x42,
                            std::uint32_t tenths = 7) {
  std::vector<K> keys = make_keys<K>(Dist::Uniform, n, seed);
  const std::vector<std::uint32_t> coin = make_keys<std::uint32_t>(Dist::Uniform, n, seed + 1);
  const int top = begin_bit + bits - 8;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (coin[i] % 10 < tenths) {
      const BitsOf<K> b = (BitsOf<K>(keys[i]) & ~(BitsOf<K>(0xFF) << top)) | (BitsOf<K>(byte) << top);
      keys[i] = K(b);
    }
  return keys;
}

// Skewed keys, whose cuts a second splitter round places in one hot top digit, are staged by the
// top digit and that digit's keys by the next (one split pass of 511 bins where the GPU gives it
// its shared memory, which also writes the own runs where they land in an ascending sort; else two
// partition passes) and sorted partition-first, by the table's choice or forced, every piece in
// the hot digit sorted by the digits below both: keys and pairs, 32- and 64-bit, ascending and
// descending, bit ranges, a hot digit in the middle and at either end (the first bin of the pass,
// or of the first of two passes, whose keys go aside below every other), uneven shards, 2 to 5 ranks.
TEST(Distributed, SkewedKeysAreStagedByTwoDigits) {
  primlab::detail::DeviceFacts facts;
  ASSERT_EQ(primlab::detail::device_facts(facts), Status::Success);
  // The stage's passes where the call's keys and values are K and V.
  auto stage_passes = [&](auto key, auto value, bool pairs) {
    using K = decltype(key);
    using V = decltype(value);
    return (pairs ? primlab::detail::onesweep::split_pass_runs_on<K, V, true>(facts)
                  : primlab::detail::onesweep::split_pass_runs_on<K, std::uint32_t, false>(facts)) ? 1 : 2;
  };
  int by_two_digits = 0;
  for (int G : {2, 3, 4, 5})
    for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending})
      for (int pieces : {0, 1, 3}) {
        SCOPED_TRACE(testing::Message() << "G " << G << " pieces " << pieces << (order == SortOrder::Ascending ? "" : " descending"));
        CallSetup setup;
        setup.options = {pieces == 0 ? DistributedScheme::Auto : DistributedScheme::PartitionFirst, pieces};
        for (const auto& [begin_bit, bits, byte] : {std::tuple{0, 32, 0x42u}, std::tuple{8, 24, 0x42u},
                                                    std::tuple{3, 21, 0x42u}, std::tuple{0, 32, 0x00u},
                                                    std::tuple{0, 32, 0xFFu}}) {
          SCOPED_TRACE(testing::Message() << "bits [" << begin_bit << ", " << begin_bit + bits << "), hot byte " << byte);
          const auto shards = split(one_hot_byte<std::uint32_t>(120001, 9, begin_bit, bits, byte), G, true);
          const auto ids = global_positions(shards);
          const auto with_values = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, ids, order, begin_bit, bits, setup);
          expect_result<std::uint32_t>(Op::Sort, shards, with_values, order, begin_bit, bits, true);
          const auto keys_only = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, {}, order, begin_bit, bits, setup);
          expect_result<std::uint32_t>(Op::Sort, shards, keys_only, order, begin_bit, bits, false);
          for (const auto& [t, pairs] : {std::pair{with_values.times, true}, std::pair{keys_only.times, false}}) {
            EXPECT_EQ(t.scheme, DistributedScheme::PartitionFirst);
            EXPECT_EQ(t.splitter_rounds, 2);
            EXPECT_EQ(t.splitter_launches, 1) << "the second round counted in the first";
            EXPECT_EQ(t.stage_passes, stage_passes(std::uint32_t{}, std::uint32_t{}, pairs));
            if (t.stage_passes == 1 && order == SortOrder::Ascending) EXPECT_EQ(t.copied, 0);
            EXPECT_EQ(t.realigned, 0);
            // 32 bits: the 3 passes below the top digit (2 in the hot digit's pieces); 24 and 21
            // bits, whose 2 passes below it would not end in the result: whole pieces, 3 passes.
            EXPECT_EQ(t.local_passes, 3);
          }
          by_two_digits += 2;
        }
        const auto shards64 = split(one_hot_byte<std::uint64_t>(60001, 4, 0, 64), G, true);
        const auto out64 = run<std::uint64_t, std::uint32_t>(Op::Sort, shards64, global_positions(shards64), order, 0, 64, setup);
        expect_result<std::uint64_t>(Op::Sort, shards64, out64, order, 0, 64, true);
        EXPECT_EQ(out64.times.stage_passes, stage_passes(std::uint64_t{}, std::uint32_t{}, true));
        EXPECT_EQ(out64.times.local_passes, 7);
        EXPECT_EQ(out64.times.splitter_launches, 1);
      }
  EXPECT_GT(by_two_digits, 0);
}

// Partition-first's first round also counts the next digits of the top digit that each rank's
// sample finds hot. Where every rank sampled the digit the second round refines, that round is
// answered from those counts; where a rank sampled nothing (an empty shard) or another digit, or
// the transport gathers fewer values a rank than the first round's 513 (here 512), it counts with
// a pass. The sort is the same either way.
TEST(Distributed, ASecondRoundIsCountedInTheFirstWhereEveryRankSampledItsDigit) {
  for (int G : {2, 3, 4})
    for (int variant : {0, 1, 2, 3}) {
      if (variant == 2 && G == 4) continue;  // its cuts need not all lie in 0x42
      SCOPED_TRACE(testing::Message() << "G " << G
                                      << (variant == 1   ? " last rank empty"
                                          : variant == 2 ? " last rank hot in 0x41"
                                          : variant == 3 ? " narrow gathers"
                                                         : ""));
      auto shards = split(one_hot_byte<std::uint32_t>(90001, 8, 0, 32, 0x42u), G, false);
      if (variant == 1) shards.back().clear();
      if (variant == 2) shards.back() = one_hot_byte<std::uint32_t>(shards.back().size(), 6, 0, 32, 0x41u, 5);
      CallSetup setup;
      setup.options = {DistributedScheme::PartitionFirst, 2};
      std::unique_ptr<CheckedExchange> narrow;
      if (variant == 3)
        setup.transport = [&](primlab::LoopbackExchange& l) -> primlab::Exchange& {
          narrow = std::make_unique<CheckedExchange>(l, -1, 2 * 256);
          return *narrow;
        };
      const auto out = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, global_positions(shards), SortOrder::Ascending, 0,
                                                         32, setup);
      expect_result<std::uint32_t>(Op::Sort, shards, out, SortOrder::Ascending, 0, 32, true);
      ASSERT_EQ(out.times.splitter_rounds, 2);
      EXPECT_EQ(out.times.splitter_launches, variant == 0 ? 1 : 2);
    }
}

// Where two splitter rounds leave a cut open (few distinct keys: cuts inside runs of equal keys), or
// the first leaves them in the one top digit that holds every key (small keys: no second round), a
// sort whose options leave the scheme to the call sorts first on up to 4 ranks; keys the top
// digit splits keep the table's partition-first; a forced scheme stays.
TEST(Distributed, FewDistinctKeysSortFirstWhereTheSchemeIsLeftToTheCall) {
  for (int G : {2, 4, 5}) {
    SCOPED_TRACE(testing::Message() << "G " << G);
    const auto small = split(one_hot_byte<std::uint32_t>(100001, 3, 0, 32, 0x00u, 10), G, true);
    const auto by_small = run<std::uint32_t, std::uint32_t>(Op::Sort, small, global_positions(small),
                                                             SortOrder::Ascending, 0, 32);
    expect_result<std::uint32_t>(Op::Sort, small, by_small, SortOrder::Ascending, 0, 32, true);
    EXPECT_EQ(by_small.times.scheme, G <= 4 ? DistributedScheme::SortFirst : DistributedScheme::PartitionFirst);
    const auto uniform = split(make_keys<std::uint32_t>(Dist::Uniform, 200001, 5), G, true);
    const auto skewed = split(make_keys<std::uint32_t>(Dist::FewDistinct, 200001, 5), G, true);
    const auto by_table = run<std::uint32_t, std::uint32_t>(Op::Sort, uniform, global_positions(uniform),
                                                             SortOrder::Ascending, 0, 32);
    expect_result<std::uint32_t>(Op::Sort, uniform, by_table, SortOrder::Ascending, 0, 32, true);
    EXPECT_EQ(by_table.times.scheme, primlab::detail::DistributedTuning::choice(G, true, 200001 / G).scheme);
    const auto by_skew = run<std::uint32_t, std::uint32_t>(Op::Sort, skewed, global_positions(skewed),
                                                            SortOrder::Ascending, 0, 32);
    expect_result<std::uint32_t>(Op::Sort, skewed, by_skew, SortOrder::Ascending, 0, 32, true);
    EXPECT_EQ(by_skew.times.scheme, G <= 4 ? DistributedScheme::SortFirst : DistributedScheme::PartitionFirst);
    CallSetup forced;
    forced.options = {DistributedScheme::PartitionFirst, 4};
    const auto kept = run<std::uint32_t, std::uint32_t>(Op::Sort, skewed, global_positions(skewed),
                                                         SortOrder::Ascending, 0, 32, forced);
    expect_result<std::uint32_t>(Op::Sort, skewed, kept, SortOrder::Ascending, 0, 32, true);
    EXPECT_EQ(kept.times.scheme, DistributedScheme::PartitionFirst);
  }
}

// Pieces go one transfer each (partition-first: its bodies, and after the first piece's bodies
// every piece's heads in one), and a piece with nothing to move makes none: keys all equal on
// ranks of equal shares move nothing.
TEST(Distributed, APieceWithNothingToMoveMakesNoTransfer) {
  for (DistributedScheme scheme : {DistributedScheme::PartitionFirst, DistributedScheme::SortFirst}) {
    SCOPED_TRACE(scheme == DistributedScheme::SortFirst ? "sort-first" : "partition-first");
    CallSetup setup;
    setup.options = {scheme, 4};
    const auto uniform = split(make_keys<std::uint32_t>(Dist::Uniform, 80000, 3), 4, false);
    const auto moving = run<std::uint32_t, std::uint32_t>(Op::Sort, uniform, {}, SortOrder::Ascending, 0, 32, setup);
    expect_result<std::uint32_t>(Op::Sort, uniform, moving, SortOrder::Ascending, 0, 32, false);
    EXPECT_GE(moving.times.transfers, 4);
    EXPECT_LE(moving.times.transfers, scheme == DistributedScheme::SortFirst ? 4 : 5);
    const auto equal = split(make_keys<std::uint32_t>(Dist::AllEqual, 80000, 3), 4, false);
    const auto still = run<std::uint32_t, std::uint32_t>(Op::Sort, equal, global_positions(equal), SortOrder::Ascending, 0, 32, setup);
    expect_result<std::uint32_t>(Op::Sort, equal, still, SortOrder::Ascending, 0, 32, true);
    EXPECT_EQ(still.times.moved, 0);
    EXPECT_EQ(still.times.transfers, 0);
  }
}

// The pass by the top digit writes each rank's own runs where they land in its received keys
// (nothing copied); a descending sort of several pieces, whose own pieces land in the reverse of
// the stage's digit order, copies them instead, and sorts alike.
TEST(Distributed, OwnRunsLandInPlaceOrAreCopied) {
  for (int G : {2, 4})
    for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending}) {
      SCOPED_TRACE(testing::Message() << "G " << G << (order == SortOrder::Ascending ? " ascending" : " descending"));
      const auto shards = split(make_keys<std::uint32_t>(Dist::Uniform, 200001, 5), G, false);
      const auto ids = global_positions(shards);
      CallSetup setup;
      setup.options = {DistributedScheme::PartitionFirst, 3};
      const auto out = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, ids, order, 0, 32, setup);
      expect_result<std::uint32_t>(Op::Sort, shards, out, order, 0, 32, true);
      ASSERT_EQ(out.times.splitter_rounds, 1);
      ASSERT_EQ(out.times.pieces, 3);
      if (order == SortOrder::Ascending) EXPECT_EQ(out.times.copied, 0);
      else EXPECT_GT(out.times.copied, 0);
    }
}

// Every message of 256 bytes or more leaves and lands on a 256-byte boundary, whatever the outputs'
// alignment (they start 0, 1 or 3 elements into their buffers), for both schemes. Partition-first
// by the top digit stages every run at its receiver's alignment (nothing is copied to give it one),
// and its pass by the top digit is the first of each piece's sort.
TEST(Distributed, EveryMessageLeavesAndLandsOnA256ByteBoundary) {
  int staged_by_top_digit = 0;
  for (int G : {2, 3, 4, 7})
    for (DistributedScheme scheme : {DistributedScheme::PartitionFirst, DistributedScheme::SortFirst})
      for (std::int64_t out_offset : {0, 1, 3}) {
        if (scheme == DistributedScheme::SortFirst && G > 4) continue;
        SCOPED_TRACE(testing::Message() << "G " << G << (scheme == DistributedScheme::SortFirst ? " sort-first" : " partition-first")
                                        << " outputs at +" << out_offset);
        const auto shards = split(make_keys<std::uint32_t>(Dist::Uniform, 50001, 3), G, true);
        const auto ids = global_positions(shards);
        int messages = 0, misaligned = 0;
        CallSetup setup;
        setup.options = {scheme, 3};
        setup.out_offset = out_offset;
        std::unique_ptr<CheckedExchange> checked;
        setup.transport = [&](primlab::LoopbackExchange& l) -> primlab::Exchange& {
          checked = std::make_unique<CheckedExchange>(l);
          return *checked;
        };
        const auto out = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, ids, SortOrder::Ascending, 0, 32, setup);
        expect_result<std::uint32_t>(Op::Sort, shards, out, SortOrder::Ascending, 0, 32, true);
        messages += checked->messages();
        misaligned += checked->misaligned();
        const auto shards64 = split(make_keys<std::uint64_t>(Dist::Uniform, 30001, 4), G, true);
        const auto out64 = run<std::uint64_t, std::uint32_t>(Op::Sort, shards64, {}, SortOrder::Ascending, 0, 64, setup);
        expect_result<std::uint64_t>(Op::Sort, shards64, out64, SortOrder::Ascending, 0, 64, false);
        messages += checked->messages();
        misaligned += checked->misaligned();
        EXPECT_GT(messages, 0);
        EXPECT_EQ(misaligned, 0) << "of " << messages << " messages";
        // Staged by the top digit, each piece's sort takes the passes below it: 3 for 32-bit keys, 7 for 64.
        if (scheme == DistributedScheme::PartitionFirst)
          for (const auto& [t, passes] : {std::pair{out.times, 3}, std::pair{out64.times, 7}}) {
            if (t.stage_passes == 0) {  // classes cut inside a digit: the class path, whole pieces
              EXPECT_EQ(t.local_passes, passes + 1);
              continue;
            }
            EXPECT_EQ(t.realigned, 0);
            if (t.stage_passes == 1) EXPECT_EQ(t.copied, 0) << "the own runs written where they land";
            EXPECT_EQ(t.local_passes, passes);
            ++staged_by_top_digit;
          }
      }
  EXPECT_GT(staged_by_top_digit, 0);
}

// A transport that fails mid-pipeline (after some transfers have gone) makes the call return
// CommError with the transport's message, leaves the inputs intact, and the next call sorts.
TEST(Distributed, ATransportFailureMidPipelineIsCommError) {
  for (int G : {2, 3, 4})
    for (DistributedScheme scheme : {DistributedScheme::PartitionFirst, DistributedScheme::SortFirst})
      for (int fail_at : {0, 1, 2}) {
        SCOPED_TRACE(testing::Message() << "G " << G << (scheme == DistributedScheme::SortFirst ? " sort-first" : " partition-first")
                                        << " failing transfer " << fail_at);
        const auto shards = split(make_keys<std::uint32_t>(Dist::Uniform, 40001, 9), G, true);
        const auto ids = global_positions(shards);
        CallSetup setup;
        setup.options = {scheme, 4};
        std::unique_ptr<CheckedExchange> failing;
        setup.transport = [&](primlab::LoopbackExchange& l) -> primlab::Exchange& {
          failing = std::make_unique<CheckedExchange>(l, fail_at);
          return *failing;
        };
        const auto out = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, ids, SortOrder::Ascending, 0, 32, setup);
        if (failing->transfers() <= fail_at) continue;  // this scheme made fewer transfers
        EXPECT_EQ(out.status, Status::CommError);
        EXPECT_EQ(out.error, "transport failed in transfer " + std::to_string(fail_at));
        EXPECT_TRUE(out.inputs_intact);
        setup.transport = nullptr;
        expect_result<std::uint32_t>(Op::Sort, shards, run<std::uint32_t, std::uint32_t>(Op::Sort, shards, ids, SortOrder::Ascending, 0, 32, setup),
                                     SortOrder::Ascending, 0, 32, true);
      }
}

// PeerExchange with every rank on this GPU (the copies stay on one device; the NCCL tests' binary
// runs it across GPUs): both schemes in one piece and several, keys and pairs, uniform and Zipf
// keys, and a partition, against the host; plans whose sides disagree, and a rank on a device that
// does not exist, are refused.
TEST(Distributed, PeerExchangeSortsAndPartitions) {
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  for (int G : {2, 3, 4}) {
    std::unique_ptr<primlab::PeerExchange> peer;
    std::string error;
    ASSERT_EQ(primlab::PeerExchange::create(std::vector<primlab::PeerRank>(std::size_t(G), {device, nullptr}), peer, &error),
              Status::Success)
        << error;
    EXPECT_EQ(peer->size(), G);
    CallSetup setup;
    setup.transport = [&](primlab::LoopbackExchange&) -> primlab::Exchange& { return *peer; };
    for (DistributedScheme scheme : {DistributedScheme::PartitionFirst, DistributedScheme::SortFirst})
      for (int pieces : {1, 4})
        for (Dist d : {Dist::Uniform, Dist::Zipf}) {
          SCOPED_TRACE(testing::Message() << "G " << G << " " << dist_name(d)
                                          << (scheme == DistributedScheme::SortFirst ? " sort-first" : " partition-first")
                                          << " pieces " << pieces);
          const auto shards = split(make_keys<std::uint32_t>(d, 50001, 3), G, true);
          const auto ids = global_positions(shards);
          setup.options = {scheme, pieces};
          const auto out = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, ids, SortOrder::Ascending, 0, 32, setup);
          expect_result<std::uint32_t>(Op::Sort, shards, out, SortOrder::Ascending, 0, 32, true);
          EXPECT_GT(out.times.transfers, 0);
          expect_result<std::uint32_t>(Op::Sort, shards,
                                       run<std::uint32_t, std::uint32_t>(Op::Sort, shards, {}, SortOrder::Ascending, 0, 32, setup),
                                       SortOrder::Ascending, 0, 32, false);
        }
    const auto shards = split(make_keys<std::uint32_t>(Dist::Uniform, 30001, 5), G, true);
    setup.options = {};
    expect_result<std::uint32_t>(Op::Partition, shards,
                                 run<std::uint32_t, std::uint32_t>(Op::Partition, shards, global_positions(shards),
                                                                   SortOrder::Ascending, 4, 8, setup),
                                 SortOrder::Ascending, 4, 8, true);
  }
  // Two sides that disagree on a message's size move nothing.
  std::unique_ptr<primlab::PeerExchange> two;
  ASSERT_EQ(primlab::PeerExchange::create({{device, nullptr}, {device, nullptr}}, two), Status::Success);
  primlab::DeviceBuffer<unsigned char> buf(4096);
  const std::size_t sends[2] = {0, 256}, nothing[2] = {0, 0}, at[2] = {0, 0};
  const primlab::ExchangePlan plans[2] = {{buf.get(), sends, at, buf.get(), nothing, at},
                                          {buf.get(), nothing, at, buf.get() + 2048, nothing, at}};
  int ticket = -1;
  EXPECT_EQ(two->all_to_all_v(plans, 1, &ticket), Status::InvalidArgument);
  EXPECT_EQ(ticket, -1);
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  std::unique_ptr<primlab::PeerExchange> none;
  std::string error;
  EXPECT_EQ(primlab::PeerExchange::create({{device, nullptr}, {devices, nullptr}}, none, &error), Status::InvalidArgument);
  EXPECT_EQ(none, nullptr);
  EXPECT_NE(error, "");
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
        for (bool pairs : {false, true})
          for (int pieces : {1, 5}) {
            SCOPED_TRACE(testing::Message() << dist_name(d) << " G " << G << " bits [" << begin << ", " << begin + bits << ")"
                                            << (pairs ? " pairs" : "") << " pieces " << pieces);
            const auto shards = split(make_keys<std::uint32_t>(d, 30001, 9), G, true);
            const auto ids = pairs ? global_positions(shards) : std::vector<std::vector<std::uint32_t>>{};
            CallSetup setup;
            setup.options.pieces = pieces;
            expect_result<std::uint32_t>(Op::Partition, shards,
                                         run<std::uint32_t, std::uint32_t>(Op::Partition, shards, ids, SortOrder::Ascending, begin, bits, setup),
                                         SortOrder::Ascending, begin, bits, pairs);
          }
}

TEST(Distributed, ASmallCapacityStopsEveryRankWithTheShares) {
  const auto shards = split(make_keys<std::uint32_t>(Dist::Uniform, 10000, 3), 4, false);
  CallSetup small;
  small.capacity = 1000;
  const auto out = run<std::uint32_t, std::uint32_t>(Op::Sort, shards, {}, SortOrder::Ascending, 0, 32, small);
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
  EXPECT_EQ(primlab::distributed_sort_keys(ex, shard.data(), SortOrder::Ascending, 0, 32, nullptr,
                                           {DistributedScheme::Auto, primlab::kDistributedMaxPieces + 1}),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::distributed_partition_keys(ex, shard.data(), 0, 8, nullptr, {DistributedScheme::SortFirst, 0}),
            Status::InvalidArgument);
  for (double growth : {0.5, -1.0, primlab::kDistributedMaxPieceGrowth + 0.5, std::nan(""), HUGE_VAL}) {
    SCOPED_TRACE(testing::Message() << "piece growth " << growth);
    EXPECT_EQ(primlab::distributed_sort_keys(ex, shard.data(), SortOrder::Ascending, 0, 32, nullptr,
                                             {DistributedScheme::PartitionFirst, 4, growth}),
              Status::InvalidArgument);
  }
  EXPECT_EQ(first_bit_mismatch(to_host(in[1], 1000), before), -1) << "the input is untouched";
  primlab::LoopbackExchange too_many(primlab::kDistributedMaxRanks + 1, nullptr);
  EXPECT_EQ(primlab::distributed_sort_keys(too_many, shard.data(), SortOrder::Ascending, 0, 32), Status::Unsupported);
  {
    // Sort-first merges at most 4 runs.
    std::vector<primlab::DeviceBuffer<unsigned char>> ws5;
    std::vector<primlab::Shard<std::uint32_t>> five(5);
    const primlab::DistributedOptions sort_first{DistributedScheme::SortFirst, 0};
    for (int r = 0; r < 5; ++r) {
      const std::size_t bytes = primlab::distributed_sort_keys_workspace_bytes<std::uint32_t>(1000, cap, 5, sort_first);
      ws5.push_back(workspace(bytes));
      five[r] = {in[r % G].get(), out[r % G].get(), 1000, cap, {ws5[r].get(), bytes}};
    }
    primlab::LoopbackExchange ex5(5, nullptr);
    EXPECT_EQ(primlab::distributed_sort_keys(ex5, five.data(), SortOrder::Ascending, 0, 32, nullptr, sort_first),
              Status::Unsupported);
  }
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
