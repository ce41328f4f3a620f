// Sort and radix partition across the ranks of a group (the GPUs of a node or of several nodes),
// over an Exchange (primlab/exchange.h): NCCL between real GPUs, or the loopback's virtual ranks.
// Each rank holds a shard of keys (or pairs) on its GPU; after the call, rank r holds the r-th
// range of the global order and Shard::count says how many keys that is.
//
// The steps, the same on every rank:
//  1. the ranks agree on the arguments and the total (an all-gather of a few numbers);
//  2. splitters: a histogram of the top 8 bits of the range on every rank, gathered; each cut
//     between ranks that falls inside a large bucket is refined with the next 8 bits of that
//     bucket, until it lands within 1/128 of a fair share of a bucket edge, or inside a run of
//     keys equal on the whole range, which is then split by position (input order, rank-major);
//  3. a stable local partition of the shard by destination;
//  4. the exchange (all_to_all_v), received in rank order;
//  5. a local stable radix sort (or radix partition) of what arrived.
// Steps 4 and 5 are a pipeline: every rank's range is cut into pieces by key (at bucket edges the
// splitters saw, DistributedOptions::pieces of them), the runs of piece k travel in a transfer of
// their own, and piece k is sorted while piece k + 1 travels; the pieces, sorted, lie in key order.
// A sort can also go the other way round (DistributedScheme::SortFirst, 1 to 4 ranks): 3. a local
// stable radix sort of the shard (before step 2, whose first histogram it counts and whose other
// rounds are binary searches in the sorted shard), whose destinations then lie side by side; 4. the
// exchange of those runs from where they lie, piece by piece; 5. the stable merge of the G sorted
// runs of each piece a rank holds (ceil(log2 G) rounds of pairwise merges), while the next piece
// travels. Which scheme runs by default is measured per rank count and size
// (kernels/tuning/distributed.cuh, bench/NOTES-distributed.md): partition first from 2 ranks, sort
// first on one (its sort is the whole call). Partition first stages a shard by its top 8 bits (one
// radix pass); where a second splitter round refined one bucket alone (skewed keys: one top digit
// holds every open cut), by those bits and that bucket's next 8 in the same pass (511 bins; two
// passes on a GPU that cannot give a block its shared memory). On 2 to 4 ranks, a sort with
// DistributedScheme::Auto sorts first where the splitter rounds leave a cut open: after the first
// where its open cuts lie in more than one top digit or in the one that holds every key, else after
// the second.
// Either way the result is the stable global order: equal keys keep the order of (rank, position).
// Every message of 256 bytes or more leaves and lands on a 256-byte boundary, where NCCL copies at
// full speed.
//
// Conventions as in primlab/ops.h, per rank: sizes and workspace per shard, from the queries
// below (about 3 shards' worth of keys and values), given the same options as the call. Nothing
// is allocated per call. Every rank of the group must make the same call (same order, bit range,
// key and value types, options); a rank whose arguments are invalid makes every rank return
// InvalidArgument, with nothing moved. A rank whose share exceeds its capacity makes every rank
// return OutputTooSmall, with nothing moved and each Shard::count set to its share.
// A transport failure is CommError (Exchange::last_error() has the message); the inputs are then
// intact but the outputs are undefined. Every transfer the call started is ordered before the
// work the caller queues next on each rank's stream, whatever the call returns.
// K: uint32, int32, float, uint64, int64, double; V: the same six. Up to kDistributedMaxRanks
// ranks, n <= 2^31 - 1 keys per rank before and after. Keys and values are not modified.
//
// Example (the loopback, G = 4 virtual ranks on one GPU; with NCCL use NcclExchange):
//   primlab::LoopbackExchange ex(4, stream);
//   std::int64_t cap = primlab::distributed_capacity(total_n, 4);
//   shard[r] = {d_in[r], d_out[r], n[r], cap, {d_ws[r], primlab::distributed_sort_keys_workspace_bytes<std::uint32_t>(n[r], cap, 4)}};
//   primlab::distributed_sort_keys(ex, shard, primlab::SortOrder::Ascending, 0, 32);
#pragma once
#include <cstddef>
#include <cstdint>

#include "primlab/exchange.h"
#include "primlab/radix_sort.h"
#include "primlab/status.h"

namespace primlab {

constexpr int kDistributedMaxRanks = 64;

// One driven rank's part of the call. For keys-only calls the value pointers are ignored; for
// partition calls d_offsets (2^num_bits + 1 entries) receives the offsets of the partitions in
// this rank's result, as radix_partition_keys gives them.
template <class K, class V = K>
struct Shard {
  const K* d_keys_in = nullptr;
  K* d_keys_out = nullptr;             // room for `capacity` keys
  std::int64_t n = 0;                  // keys this rank holds
  std::int64_t capacity = 0;           // keys d_keys_out (and d_values_out) can take
  Workspace ws;                        // sized by the query for (n, capacity)
  const V* d_values_in = nullptr;      // pairs only
  V* d_values_out = nullptr;           // pairs only
  std::uint32_t* d_offsets = nullptr;  // partition only
  std::int64_t count = 0;              // out: keys this rank holds after the call
};

// Which way a sort goes (the steps above). Auto takes the measured choice for the rank count, the
// keys per rank and keys or pairs (kernels/tuning/distributed.cuh). A partition always partitions
// first.
enum class DistributedScheme { Auto, PartitionFirst, SortFirst };

// How a call runs. The defaults are the measured ones; the bench and the tests force each way.
struct DistributedOptions {
  DistributedScheme scheme = DistributedScheme::Auto;
  // Pieces every rank's range is cut into by key (1 to kDistributedMaxPieces): piece k is sorted
  // (PartitionFirst) or merged (SortFirst) while piece k + 1 travels. A rank whose keys are equal
  // on the range gets one piece; past 15 ranks a call cuts fewer, (257 - G) / G, so that the
  // pieces' bounds fit 256 key classes. 0: the tuned count.
  int pieces = 0;
  // How many times larger each piece is than the one before it (1 to kDistributedMaxPieceGrowth):
  // the first piece's transfer is the one nothing hides, and each later one travels while the piece
  // before it is sorted. 0: the tuned growth.
  double piece_growth = 0;
};
constexpr int kDistributedMaxPieces = 16;
constexpr double kDistributedMaxPieceGrowth = 4.0;

// Wall-clock milliseconds of each step, summed over the driven ranks' streams. The call waits
// for each step (the partition, the transfers, each piece's sort) when given one of these, so
// times are exact but nothing overlaps: their sum less the time of a call without them is what
// the overlap hides. `partition` is step 3 with the copies that ready the runs to go (for
// SortFirst, the local sort), `exchange` the transfers alone (every piece's, back to back, as the
// call starts them), `local` step 5 (for SortFirst, the merges).
struct DistributedTimes {
  double agree = 0, splitters = 0, partition = 0, exchange = 0, local = 0;
  DistributedScheme scheme = DistributedScheme::Auto;  // the scheme that ran
  int pieces = 0;                                      // and its pieces
  double piece_growth = 0;                             // and how each grew over the one before
  int splitter_rounds = 0;     // histogram passes (1 when the top 8 bits balance the ranks)
  int splitter_launches = 0;   // the rounds that launched their counting (partition-first's second
                               // round of the top digit that its first round's sample found hot
                               // was counted in the first: skewed keys take one pass)
  int transfers = 0;           // all_to_all_v calls (a piece with nothing to move makes none)
  std::int64_t largest = 0;    // the largest rank's share
  std::int64_t total = 0;      // keys over all ranks
  std::int64_t moved = 0;      // keys sent to another rank, over all ranks
  std::int64_t realigned = 0;  // keys and values this process copied before sending, so that a
                               // run leaves on its receiver's alignment
  std::int64_t copied = 0;     // keys and values this process copied from a rank's stage into its
                               // received keys: its own runs, where the partition could not write
                               // them there (partition-first)
  int local_passes = 0;        // digit passes of a piece's sort on this process's first rank
                               // (partition-first; below the top digit where the partition by it
                               // was the sort's first pass)
  int stage_passes = 0;        // partition-first: the radix passes that staged the shard by
                               // destination (1: by the top digit, and where one top digit holds
                               // the cuts (skewed keys), that digit's keys by the next in the same
                               // pass; 2: those by a second pass, on a GPU without the first's
                               // shared memory; 0: a count and a scatter by class)
};

// The most keys any rank receives when the group holds total_n keys: a fair share plus the
// splitters' slack (1/128 of it per cut). Capacities of at least this never give OutputTooSmall.
std::int64_t distributed_capacity(std::int64_t total_n, int ranks);

// With DistributedScheme::Auto, the room of either scheme.
template <class K>
std::size_t distributed_sort_keys_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks,
                                                  const DistributedOptions& options = {});
template <class K, class V>
std::size_t distributed_sort_pairs_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks,
                                                   const DistributedOptions& options = {});
template <class K>
std::size_t distributed_partition_keys_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks, int num_bits);
template <class K, class V>
std::size_t distributed_partition_pairs_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks,
                                                        int num_bits);

// shards: one per rank this process drives (ex.local_count()), in local order.
// SortFirst on more than 4 ranks is Unsupported.
template <class K>
Status distributed_sort_keys(Exchange& ex, Shard<K>* shards, SortOrder order, int begin_bit, int end_bit,
                             DistributedTimes* times = nullptr, const DistributedOptions& options = {});
template <class K, class V>
Status distributed_sort_pairs(Exchange& ex, Shard<K, V>* shards, SortOrder order, int begin_bit, int end_bit,
                              DistributedTimes* times = nullptr, const DistributedOptions& options = {});

// The stable global radix partition by bits [begin_bit, begin_bit + num_bits) (1 to 12 bits):
// partitions in digit order over the ranks, each in input order (rank, position), the ranks
// balanced to within one key (a partition is split between ranks where needed).
// options.scheme must be Auto or PartitionFirst.
template <class K>
Status distributed_partition_keys(Exchange& ex, Shard<K>* shards, int begin_bit, int num_bits,
                                  DistributedTimes* times = nullptr, const DistributedOptions& options = {});
template <class K, class V>
Status distributed_partition_pairs(Exchange& ex, Shard<K, V>* shards, int begin_bit, int num_bits,
                                   DistributedTimes* times = nullptr, const DistributedOptions& options = {});

}  // namespace primlab
