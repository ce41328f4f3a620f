// Sort and radix partition across the ranks of an Exchange: entry points, the steps of
// primlab/distributed.h, and explicit instantiations.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

#include "agent/distributed_kernels.cuh"
#include "agent/radix_histogram.cuh"
#include "device/distributed_plan.h"
#include "device/radix_onesweep_dispatch.cuh"
#include "primlab/distributed.h"
#include "primlab/radix_partition.h"
#include "primlab/scan.h"
#include "tuning/radix_sort.cuh"
#include "util/cuda_check.cuh"
#include "util/device_guard.h"
#include "util/device_properties.cuh"

namespace primlab {
namespace detail {
namespace {

constexpr std::size_t kAlign = 256;
// SortFirst sends each run from the boundary of this many bytes below it, into a receive buffer
// that lands it on one; 256 is past any alignment NCCL's copies ask for.
constexpr std::size_t kRunAlign = 256;
std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }
std::size_t offset_in(const void* p, std::size_t align) { return reinterpret_cast<std::uintptr_t>(p) % align; }

// Classes: at most two per cut between ranks, and one per bound between the pieces of a rank's
// range; a call cuts at most max_pieces(ranks) pieces, so that they fit kMaxClasses.
int max_pieces(int ranks) { return std::clamp((kMaxClasses + 1 - ranks) / ranks, 1, kDistributedMaxPieces); }
int max_classes(int ranks) {
  return std::min(kMaxClasses, std::max(2 * ranks - 1, 1) + ranks * (max_pieces(ranks) - 1));
}
std::int64_t tiles_of(std::int64_t n) { return (n + DistributedTuning::kTile - 1) / DistributedTuning::kTile; }

// What a call does with the keys that reach a rank.
enum class Local { Sort, Partition };

// How a call goes (primlab/distributed.h). PartitionFirst: partition each shard by destination
// and piece, send the pieces one after another, and sort (or partition) each piece once its runs
// are in while the next travels. SortFirst (a sort on 1 to 4 ranks): sort each shard, send the
// runs of each piece from where they lie, and merge each piece's G sorted runs while the next
// travels, in ceil(log2 G) rounds of pairwise merges.
using Scheme = DistributedScheme;
constexpr int kSortFirstMaxRanks = 4;

// The schemes a call may run with these options: where Auto may take either, the workspace holds
// either.
bool may_run(Scheme scheme, Local local, int ranks, Scheme asked) {
  if (local == Local::Partition || ranks > kSortFirstMaxRanks) return scheme == Scheme::PartitionFirst;
  return asked == Scheme::Auto || asked == scheme;
}

// One rank's workspace (Carved's order); a scheme leaves the other's regions empty.
//  PartitionFirst: `stage` holds the shard partitioned by destination and piece until the last
//  transfer has sent it; `recv` what arrives (and the rank's own runs, which a partition by the top
//  digit writes there); `aux` runs moved to their receiver's alignment, or the staged runs past the
//  own ones; `local` the workspace of that partition, then of the local sort or partition (apart
//  from the stage, since a piece is sorted while the next is sent); the class counts of the
//  shard's tiles and their scan; the pieces' partition offsets.
//  SortFirst: `sorted` holds the shard sorted, whose runs the exchange sends from where they lie;
//  `recv` the runs of the other ranks, each at its sender's offset from a kRunAlign boundary;
//  `spare` the local sort's workspace, then the merge rounds' second buffer.
// Every region is a whole number of kAlign bytes, so each starts where the workspace does modulo
// kAlign.
template <class K, class V, bool PAIRS>
struct Layout {
  std::size_t stage_keys = 0, stage_values = 0, local = 0, sorted_keys = 0, sorted_values = 0;
  std::size_t recv_keys = 0, recv_values = 0, aux_keys = 0, aux_values = 0;
  std::size_t spare_keys = 0, spare = 0, splits = 0;
  std::size_t tile_counts = 0, scan = 0, piece_offsets = 0;
  std::size_t histogram = 0, lower = 0, starts = 0;
  std::size_t total = 0;

  Layout(std::int64_t n, std::int64_t capacity, int ranks, Local local_step, int num_bits, Scheme scheme) {
    const std::size_t un = std::size_t(std::max<std::int64_t>(n, 0));
    const std::size_t cap = std::size_t(std::max<std::int64_t>(capacity, 0));
    // Messages per part: one per peer and piece.
    const std::size_t messages = std::size_t(ranks) * kDistributedMaxPieces;
    if (scheme == Scheme::SortFirst) {
      const std::size_t leads = 2 * kRunAlign * messages;  // before each run, and to a boundary
      sorted_keys = aligned(un * sizeof(K));
      sorted_values = PAIRS ? aligned(un * sizeof(V)) : 0;
      recv_keys = aligned(cap * sizeof(K) + leads);
      recv_values = PAIRS ? aligned(cap * sizeof(V) + leads) : 0;
      spare_keys = aligned(cap * sizeof(K));
      spare = std::max(spare_keys + (PAIRS ? aligned(cap * sizeof(V)) : 0), aligned(sort_ws(n)));
      splits = aligned((cap / DistributedTuning::kMinMergeTile + 2) * sizeof(std::int64_t));
      starts = aligned(kMaxClasses * sizeof(std::int64_t));
    } else {
      // The stage leaves a gap of under kRunGap elements before each run (stage_gaps). `aux` holds
      // either the aux copies of a call (at most the shard, plus under kExchangeAlign bytes of
      // padding per run) or the staged digits past the own runs (place_digits: the shard with its
      // gaps, moved by under 256 elements); the stage or aux also hold the hot digit's keys between
      // the two passes that stage skewed keys (hot_scratch). Keys' and values' regions hold the
      // same number of elements each, a multiple of 64 (256 bytes of the smallest element), so that
      // an element lies as many elements past the keys' stage as past the values'.
      const std::size_t gaps = std::size_t(kRunGap) * messages;
      auto elements = [](std::size_t n) { return (n + 63) / 64 * 64; };
      const std::size_t stage_n = elements(un + gaps), recv_n = elements(cap), aux_n = elements(un + gaps + 256);
      stage_keys = stage_n * sizeof(K);
      stage_values = PAIRS ? stage_n * sizeof(V) : 0;
      // `local` is also the workspace of the partition by the top digit, which is done before any
      // piece is sorted.
      local = PAIRS ? radix_partition_pairs_workspace_bytes<K, V>(n, kRadixBits)
                    : radix_partition_keys_workspace_bytes<K>(n, kRadixBits);
      recv_keys = recv_n * sizeof(K);
      recv_values = PAIRS ? recv_n * sizeof(V) : 0;
      if (local_step == Local::Sort) {
        local = aligned(std::max({local, sort_ws(capacity), segmented_ws(capacity, ranks)}));
      } else {
        local = aligned(std::max(local, PAIRS ? radix_partition_pairs_workspace_bytes<K, V>(capacity, num_bits)
                                              : radix_partition_keys_workspace_bytes<K>(capacity, num_bits)));
        piece_offsets = aligned(std::size_t(kDistributedMaxPieces) * ((std::size_t(1) << num_bits) + 1) * sizeof(std::uint32_t));
      }
      aux_keys = aux_n * sizeof(K);
      aux_values = PAIRS ? aux_n * sizeof(V) : 0;
      const std::size_t counts = std::size_t(max_classes(ranks)) * std::size_t(tiles_of(n));
      tile_counts = aligned(counts * sizeof(std::uint32_t));
      scan = aligned(scan_workspace_bytes<std::uint32_t>(std::int64_t(counts)));
    }
    // The splitters' rounds: one histogram per cut; the first round's two and its sampled digit.
    histogram = aligned(std::max<std::size_t>(std::size_t(std::max(ranks - 1, 1)) * kRadix, kFirstRoundWords) *
                        sizeof(std::uint32_t));
    lower = aligned(kMaxClasses * sizeof(std::uint64_t));
    total = stage_keys + stage_values + local + sorted_keys + sorted_values + recv_keys + recv_values + aux_keys +
            aux_values + spare + splits + tile_counts + scan + piece_offsets + histogram + lower +
            starts;
  }

  // Each piece's segmented sort (segmented_sorts): its tables, at most one tile per kTile keys plus
  // one per chunk (a rank's keys of one segment, at least one key) for pass 0, one per segment for
  // the later passes, a segment per bin (StageBins: at most 511) in all; its digit counts; the
  // state of one sort, for the widest key's passes; and the middle pass's output of the pieces
  // sorted by two digits.
  static std::size_t segmented_ws(std::int64_t capacity, int ranks) {
    using Bits = typename RadixKey<K>::Bits;
    using VBits = typename ValueBits<V>::type;
    constexpr int kTile = onesweep::SegmentedConfig<Bits, VBits, PAIRS>::kTile;
    const std::size_t cap = std::size_t(std::max<std::int64_t>(capacity, 0));
    const std::size_t segments = 2 * kRadix + kDistributedMaxPieces;
    const std::size_t chunks = std::min<std::size_t>(std::size_t(ranks) * segments, cap);
    const std::size_t first = cap / kTile + chunks + kDistributedMaxPieces, later = cap / kTile + segments;
    const std::size_t tables = (first + later) * sizeof(SegmentTile) + segments * sizeof(std::uint32_t) +
                               3 * kAlign * kDistributedMaxPieces;
    const std::size_t alt = aligned(cap * sizeof(K)) + (PAIRS ? aligned(cap * sizeof(V)) : 0);
    const int passes = int(sizeof(K)) - 1;
    return tables + aligned(onesweep::segmented_counts_bytes(passes, int(segments))) +
           aligned(onesweep::segmented_state_bytes(passes, std::uint32_t(first))) + alt;
  }
  static std::size_t sort_ws(std::int64_t count) {
    return PAIRS ? radix_sort_pairs_workspace_bytes<K, V>(count) : radix_sort_keys_workspace_bytes<K>(count);
  }
};

// The workspace a call with these options needs: the largest of the schemes it may run.
template <class K, class V, bool PAIRS>
std::size_t workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks, Local local, int num_bits, Scheme asked) {
  std::size_t bytes = 0;
  for (Scheme scheme : {Scheme::PartitionFirst, Scheme::SortFirst})
    if (may_run(scheme, local, ranks, asked))
      bytes = std::max(bytes, Layout<K, V, PAIRS>(n, capacity, ranks, local, num_bits, scheme).total);
  return bytes;
}

template <class K, class V, bool PAIRS>
struct Carved {
  unsigned char* stage;         // PartitionFirst: the partitioned keys
  unsigned char* stage_values;  // and values
  Workspace local;              // the partition's by the top digit, then the local step's workspace
  K* sorted_keys;               // SortFirst: the sorted shard
  V* sorted_values;
  unsigned char* recv_keys;
  unsigned char* recv_values;
  unsigned char* aux_keys;
  unsigned char* aux_values;
  std::int64_t aux_elements;    // of either part
  Workspace spare;              // SortFirst: the local sort's workspace, then the merges' buffer
  K* spare_keys;
  V* spare_values;
  std::int64_t* splits;         // the merge's tiles
  std::uint32_t* tile_counts;
  Workspace scan;
  std::uint32_t* piece_offsets;  // a partition's offsets per piece
  std::uint32_t* histogram;
  void* lower;
  std::int64_t* starts;

  Carved(const Layout<K, V, PAIRS>& l, Workspace ws) {
    unsigned char* p = static_cast<unsigned char*>(ws.ptr);
    auto take = [&p](std::size_t bytes) { unsigned char* at = p; p += bytes; return at; };
    // Keys' stage, receive buffer and aux, then the values' in the same order (Layout).
    stage = take(l.stage_keys);
    recv_keys = take(l.recv_keys);
    aux_keys = take(l.aux_keys);
    stage_values = take(l.stage_values);
    recv_values = take(l.recv_values);
    aux_values = take(l.aux_values);
    aux_elements = std::int64_t(l.aux_keys / sizeof(K));
    local = {take(l.local), l.local};
    sorted_keys = reinterpret_cast<K*>(take(l.sorted_keys));
    sorted_values = reinterpret_cast<V*>(take(l.sorted_values));
    spare = {p, l.spare};
    spare_keys = reinterpret_cast<K*>(p);
    spare_values = reinterpret_cast<V*>(p + l.spare_keys);
    take(l.spare);
    splits = reinterpret_cast<std::int64_t*>(take(l.splits));
    tile_counts = reinterpret_cast<std::uint32_t*>(take(l.tile_counts));
    scan = {take(l.scan), l.scan};
    piece_offsets = reinterpret_cast<std::uint32_t*>(take(l.piece_offsets));
    histogram = reinterpret_cast<std::uint32_t*>(take(l.histogram));
    lower = take(l.lower);
    starts = reinterpret_cast<std::int64_t*>(take(l.starts));
  }
};

class Stopwatch {
 public:
  explicit Stopwatch(Exchange& ex, bool on) : ex_(ex), on_(on) { start_ = std::chrono::steady_clock::now(); }
  bool on() const { return on_; }
  // Waits for every driven rank (when timing) and adds the time since the last lap to `into`.
  Status lap(double* into) {
    if (!on_) return Status::Success;
    for (int l = 0; l < ex_.local_count(); ++l) {
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex_.device(l)));
      PRIMLAB_CUDA_TRY(cudaStreamSynchronize(ex_.stream(l)));
    }
    const auto now = std::chrono::steady_clock::now();
    *into += std::chrono::duration<double, std::milli>(now - start_).count();
    start_ = now;
    return Status::Success;
  }

 private:
  Exchange& ex_;
  bool on_;
  std::chrono::steady_clock::time_point start_;
};

// The first collective: every rank's status and arguments, so that all ranks go on or all stop;
// and where its workspace starts past a kRunAlign boundary, as every region of it does: SortFirst's
// receivers find the runs in the messages by it, PartitionFirst's senders cut each run at the
// receiver's boundary. The fields from kBegin on must agree.
static_assert(kRunAlign == kExchangeAlign, "one alignment tells both schemes where a rank's regions start");
enum Header {
  kStatus, kCount, kCapacity, kWorkspaceAt,
  kBegin, kBits, kOrder, kLocal, kKeySize, kValueSize, kScheme, kPieces, kGrowth, kHeaderSize
};

template <class K, class V, bool PAIRS>
Status check_shard(const Shard<K, V>& s, int ranks, Local local, int begin_bit, int num_bits,
                   const DistributedOptions& options) {
  constexpr int kKeyBits = int(sizeof(K) * 8);
  if (s.n < 0 || s.capacity < 0 || begin_bit < 0 || num_bits < 0 || begin_bit + num_bits > kKeyBits)
    return Status::InvalidArgument;
  if (local == Local::Partition && (num_bits < 1 || num_bits > kRadixPartitionMaxBits || s.d_offsets == nullptr))
    return Status::InvalidArgument;
  if (options.pieces < 0 || options.pieces > kDistributedMaxPieces ||
      !(options.piece_growth == 0 || (options.piece_growth >= 1 && options.piece_growth <= kDistributedMaxPieceGrowth)) ||
      (local == Local::Partition && options.scheme == Scheme::SortFirst))
    return Status::InvalidArgument;
  if (options.scheme == Scheme::SortFirst && ranks > kSortFirstMaxRanks) return Status::Unsupported;
  if (s.n > std::numeric_limits<std::int32_t>::max() || s.capacity > std::numeric_limits<std::int32_t>::max())
    return Status::Unsupported;
  if ((s.n > 0 && (!s.d_keys_in || (PAIRS && !s.d_values_in))) ||
      (s.capacity > 0 && (!s.d_keys_out || (PAIRS && !s.d_values_out))))
    return Status::InvalidArgument;
  if (s.n > 0 && s.capacity > 0 &&
      (static_cast<const void*>(s.d_keys_in) == s.d_keys_out ||
       (PAIRS && static_cast<const void*>(s.d_values_in) == s.d_values_out)))
    return Status::InvalidArgument;
  if (s.ws.bytes < workspace_bytes<K, V, PAIRS>(s.n, s.capacity, ranks, local, num_bits, options.scheme))
    return Status::WorkspaceTooSmall;
  if (s.ws.ptr == nullptr) return Status::InvalidArgument;
  return Status::Success;
}

// dst = src, `count` elements of `elem` bytes, at any 4-byte alignment: element-wise loads and
// stores coalesce where cudaMemcpy of a misaligned run ran at a third of the copy rate.
Status copy_run(const void* src, void* dst, std::int64_t count, std::size_t elem, cudaStream_t stream) {
  if (count == 0) return Status::Success;
  DeviceFacts facts;
  PRIMLAB_TRY(device_facts(facts));
  const int grid = int(std::min<std::int64_t>((count + DistributedTuning::kThreads - 1) / DistributedTuning::kThreads,
                                              std::int64_t(facts.sm_count) * DistributedTuning::kHistogramBlocksPerSm));
  if (elem == 8)
    copy_run_kernel<std::uint64_t><<<grid, DistributedTuning::kThreads, 0, stream>>>(
        static_cast<const std::uint64_t*>(src), static_cast<std::uint64_t*>(dst), count);
  else
    copy_run_kernel<std::uint32_t><<<grid, DistributedTuning::kThreads, 0, stream>>>(
        static_cast<const std::uint32_t*>(src), static_cast<std::uint32_t*>(dst), count);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// [SECTION] the merge of sorted runs

// A sorted run, and the transfer after which it is in place (-1: it is already).
template <class Bits, class VBits>
struct SortedRun {
  const Bits* keys;
  const VBits* values;
  std::int64_t count;
  int ticket;
};

// out = the stable merge of a and b, a's keys first among equal ones.
template <class Bits, class VBits, bool PAIRS>
Status merge_two(const SortedRun<Bits, VBits>& a, const SortedRun<Bits, VBits>& b, const MergeOrder<Bits>& order,
                 std::int64_t* d_splits, Bits* out, VBits* out_values, cudaStream_t stream) {
  constexpr int kTile = DistributedTuning::kThreads * DistributedTuning::merge_items(sizeof(Bits), PAIRS ? sizeof(VBits) : 0);
  const std::int64_t tiles = (a.count + b.count + kTile - 1) / kTile;
  constexpr int kSplitThreads = 256;
  merge_split_kernel<Bits><<<unsigned((tiles + kSplitThreads) / kSplitThreads), kSplitThreads, 0, stream>>>(
      a.keys, a.count, b.keys, b.count, order, tiles, kTile, d_splits);
  PRIMLAB_LAUNCH_TRY();
  merge_kernel<Bits, VBits, PAIRS><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(
      a.keys, a.values, a.count, b.keys, b.values, b.count, order, d_splits, out, out_values);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// out = the stable merge of at most kSortFirstMaxRanks runs, in their order (the ranks' runs, in
// rank order): one round merges neighbours pairwise into `spare` (with 3 runs the third stays
// where it arrived), the last merges into out; a lone run is copied to out. Each merge waits
// (wait_for(ticket)) only for the transfers that bring its two runs, and the pairs whose runs are
// there first go first, so that they are merged while the others travel.
template <class Bits, class VBits, bool PAIRS, class WaitFor>
Status merge_runs(std::vector<SortedRun<Bits, VBits>> runs, const MergeOrder<Bits>& order, std::int64_t* d_splits, Bits* out,
                  VBits* out_values, Bits* spare, VBits* spare_values, WaitFor wait_for, cudaStream_t stream) {
  runs.erase(std::remove_if(runs.begin(), runs.end(), [](const SortedRun<Bits, VBits>& r) { return r.count == 0; }),
             runs.end());
  if (runs.empty()) return Status::Success;
  if (runs.size() == 1) {
    PRIMLAB_TRY(wait_for(runs[0].ticket));
    PRIMLAB_TRY(copy_run(runs[0].keys, out, runs[0].count, sizeof(Bits), stream));
    return PAIRS ? copy_run(runs[0].values, out_values, runs[0].count, sizeof(VBits), stream) : Status::Success;
  }
  if (runs.size() > 2) {
    // The first round's merges (a lone last run stays), in rank order, and where each lands.
    struct Merge {
      std::size_t first;  // runs[first] and runs[first + 1]
      Bits* keys;
      VBits* values;
    };
    std::vector<SortedRun<Bits, VBits>> next;
    std::vector<Merge> merges;
    std::int64_t at = 0;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      if (i + 1 == runs.size()) {
        next.push_back(runs[i]);
        break;
      }
      merges.push_back({i, spare + at, PAIRS ? spare_values + at : nullptr});
      next.push_back({merges.back().keys, merges.back().values, runs[i].count + runs[i + 1].count, -1});
      at += next.back().count;
    }
    auto ready = [&](const Merge& m) { return std::max(runs[m.first].ticket, runs[m.first + 1].ticket); };
    std::stable_sort(merges.begin(), merges.end(), [&](const Merge& a, const Merge& b) { return ready(a) < ready(b); });
    for (const Merge& m : merges) {
      PRIMLAB_TRY(wait_for(ready(m)));
      PRIMLAB_TRY((merge_two<Bits, VBits, PAIRS>(runs[m.first], runs[m.first + 1], order, d_splits, m.keys, m.values,
                                                 stream)));
    }
    runs = next;
  }
  PRIMLAB_TRY(wait_for(std::max(runs[0].ticket, runs[1].ticket)));
  return merge_two<Bits, VBits, PAIRS>(runs[0], runs[1], order, d_splits, out, out_values, stream);
}

// [SECTION] the steps

// One call's arguments and state, the same on every rank.
template <class K, class V, bool PAIRS>
struct Call {
  using Bits = typename RadixKey<K>::Bits;
  using VBits = typename ValueBits<V>::type;
  Exchange& ex;
  Shard<K, V>* shards;
  Local local;
  SortOrder order;
  int begin_bit, num_bits;
  DistributedOptions options;
  int G, L;
  KeyCodec<Bits> codec;
  RangeImage<Bits> image;
  Stopwatch clock;
  Scheme scheme = Scheme::PartitionFirst;
  int pieces = 1;
  double growth = 1.0;  // of each piece over the one before (DistributedTuning::piece_growth)
  std::vector<Carved<K, V, PAIRS>> ws;
  std::vector<std::int64_t> counts, capacities, ws_at;  // per rank
  std::vector<std::int64_t> top_counts;  // every rank's first splitter histogram, rank r's at [r * slots]
  // Where the second round refined one top digit alone (skewed keys): that digit, and every rank's
  // histogram of its sub-digit, rank r's at [r * kRadix].
  int hot = -1;
  std::vector<std::int64_t> hot_counts;
  // Every rank's counts of the next digits of the top digit its first round's sample found hot,
  // and that digit (first_round_histogram_kernel's counts[256, 513), rank r's at [r * 257]).
  std::vector<std::int64_t> next_counts;
  std::int64_t total = 0;
  int last_ticket = -1;  // the last transfer started
  DistributedTimes t;

  // Starts a transfer.
  Status transfer(const std::vector<ExchangePlan>& plans, int parts, int* ticket) {
    PRIMLAB_TRY(ex.all_to_all_v(plans.data(), parts, ticket));
    last_ticket = *ticket;
    ++t.transfers;
    return Status::Success;
  }
  // Once a scheme has started every transfer; when timing, waits for them: the exchange step is
  // the call's transfers back to back, as it makes them, with nothing beside them.
  Status transfers_started() {
    if (!clock.on()) return Status::Success;
    PRIMLAB_TRY(join_all(last_ticket));
    return clock.lap(&t.exchange);
  }
  // Every driven rank's stream waits for the transfer `ticket` and those before it.
  Status join_all(int ticket) {
    for (int l = 0; l < L && ticket >= 0; ++l) PRIMLAB_TRY(ex.join(l, ticket));
    return Status::Success;
  }
};

// The pieces of the call's scheme and their growth: the options' where they say, else the measured ones.
template <class K, class V, bool PAIRS>
void choose_pieces(Call<K, V, PAIRS>& c) {
  const std::int64_t per_rank = c.total / c.G;
  const DistributedTuning::Choice tuned = DistributedTuning::choice(c.G, PAIRS, per_rank);
  if (c.options.pieces > 0) {
    c.pieces = c.options.pieces;
  } else {
    c.pieces = tuned.scheme == c.scheme ? tuned.pieces : DistributedTuning::kDefaultPieces;
    c.pieces = int(std::max<std::int64_t>(1, std::min<std::int64_t>(c.pieces, per_rank / DistributedTuning::kMinPieceKeys)));
  }
  c.pieces = std::min(c.pieces, max_pieces(c.G));
  if (c.options.piece_growth > 0) c.growth = c.options.piece_growth;
  else c.growth = tuned.scheme == c.scheme ? tuned.growth : DistributedTuning::piece_growth(c.scheme, PAIRS);
  c.t.scheme = c.scheme;
  c.t.pieces = c.pieces;
  c.t.piece_growth = c.growth;
}

// Which scheme and how many pieces: the options' where they say, else the measured choice for
// the rank count and the keys per rank (kernels/tuning/distributed.cuh). The same on every rank:
// it reads only what the ranks agreed on.
template <class K, class V, bool PAIRS>
void choose(Call<K, V, PAIRS>& c) {
  const DistributedTuning::Choice tuned = DistributedTuning::choice(c.G, PAIRS, c.total / c.G);
  if (c.local == Local::Partition || c.G > kSortFirstMaxRanks) c.scheme = Scheme::PartitionFirst;
  else c.scheme = c.options.scheme != Scheme::Auto ? c.options.scheme : tuned.scheme;
  choose_pieces(c);
}

// Each driven rank's workspace carved for the call's scheme.
template <class K, class V, bool PAIRS>
void carve(Call<K, V, PAIRS>& c) {
  c.ws.clear();
  for (int l = 0; l < c.L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    c.ws.emplace_back(Layout<K, V, PAIRS>(s.n, s.capacity, c.G, c.local, c.num_bits, c.scheme), s.ws);
  }
}

// 1. Every rank's status and arguments: all ranks go on, or all stop with the first error. Then
// the scheme, and each driven rank's workspace carved for it.
template <class K, class V, bool PAIRS>
Status agree(Call<K, V, PAIRS>& c) {
  std::vector<std::int64_t> h_local(std::size_t(c.L) * kHeaderSize), h_all(std::size_t(c.G) * kHeaderSize);
  for (int l = 0; l < c.L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    std::int64_t* h = &h_local[std::size_t(l) * kHeaderSize];
    h[kStatus] = int(check_shard<K, V, PAIRS>(s, c.G, c.local, c.begin_bit, c.num_bits, c.options));
    h[kCount] = s.n;
    h[kCapacity] = s.capacity;
    // Every region of the workspace starts where the workspace does, modulo kAlign.
    h[kWorkspaceAt] = std::int64_t(offset_in(s.ws.ptr, kRunAlign));
    h[kBegin] = c.begin_bit;
    h[kBits] = c.num_bits;
    h[kOrder] = int(c.order);
    h[kLocal] = int(c.local);
    h[kKeySize] = sizeof(K) | (int(RadixKey<K>::kind) << 8);
    h[kValueSize] = PAIRS ? sizeof(V) : 0;
    h[kScheme] = int(c.options.scheme);
    h[kPieces] = c.options.pieces;
    std::memcpy(&h[kGrowth], &c.options.piece_growth, sizeof(double));
  }
  PRIMLAB_TRY(c.ex.all_gather(h_local.data(), kHeaderSize, h_all.data()));
  for (int r = 0; r < c.G; ++r) {
    const std::int64_t* h = &h_all[std::size_t(r) * kHeaderSize];
    if (h[kStatus] != 0) return static_cast<Status>(h[kStatus]);
    if (!std::equal(h + kBegin, h + kHeaderSize, &h_local[kBegin])) return Status::InvalidArgument;
    c.counts.push_back(h[kCount]);
    c.capacities.push_back(h[kCapacity]);
    c.ws_at.push_back(h[kWorkspaceAt]);
    c.total += h[kCount];
  }
  choose(c);
  carve(c);
  return c.clock.lap(&c.t.agree);
}

// A sort's cuts may land within 1/128 of a fair share of a bucket edge; a partition's are exact.
template <class K, class V, bool PAIRS>
SplitterSearch make_search(const Call<K, V, PAIRS>& c) {
  return SplitterSearch(c.num_bits, c.counts, c.local == Local::Sort ? c.total / (std::int64_t(c.G) * 128) : 0);
}

// 2. Splitters: histograms of the buckets that hold a cut, until every cut is placed; every rank's
// first one (of the range's top digit) is kept in c.top_counts. PartitionFirst counts with
// a pass over the shard (the first round with the sort's own upfront histogram kernel; on ranges
// of 16 bits or more, first_round_histogram_kernel, which also counts the next digits of the top
// digit that a sample holds a quarter of: a second round that refines that digit alone on every
// rank, as skewed keys take, is answered from them without a pass). SortFirst
// (`sorted`: each driven rank's sorted shard) reads the first round back from the sort's digit
// counts (sorted_counts[l], where the range is whole digits) and finds the others with binary
// searches in the sorted shard: a refinement round no longer reads the shard (it cost 1.2 ms at
// 2^28 keys, 4 x H200, f0a1a4d).
template <class K, class V, bool PAIRS>
Status find_cuts(Call<K, V, PAIRS>& c, SplitterSearch& search, const std::vector<const typename Call<K, V, PAIRS>::Bits*>& sorted,
                 const std::vector<const std::uint32_t*>& sorted_counts, int max_rounds = -1) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  std::vector<std::uint32_t> h_hist;
  while (!search.done() && search.rounds() != max_rounds) {
    const std::vector<SplitterQuery> queries = search.queries();
    const int d = search.digit_bits();
    const bool first_round = queries.size() == 1 && queries[0].level == 0;
    const bool with_next = first_round && sorted.empty() && c.num_bits >= 2 * kRadixBits && d == kRadixBits &&
                           std::size_t(kFirstRoundWords) <= c.ex.max_gather_count();
    const std::size_t slots = queries.size() << d, words = with_next ? kFirstRoundWords : slots;
    // A second round of one top digit that every rank's first round counted the next digits of.
    bool counted = !c.next_counts.empty() && queries.size() == 1 && queries[0].level == kRadixBits && d == kRadixBits;
    for (int r = 0; r < c.G && counted; ++r)
      counted = c.next_counts[std::size_t(r) * (kRadix + 1) + kRadix] == std::int64_t(queries[0].prefix);
    if (counted) {
      std::vector<std::int64_t> h_gathered(slots * c.G);
      for (int r = 0; r < c.G; ++r)
        std::copy_n(&c.next_counts[std::size_t(r) * (kRadix + 1)], kRadix, &h_gathered[slots * r]);
      c.hot = int(queries[0].prefix);
      c.hot_counts = h_gathered;
      search.answer(h_gathered);
      continue;
    }
    ++c.t.splitter_launches;
    // Where driven rank l's counts of this round are read back from.
    auto counted_by_sort = [&](int l) { return first_round && !sorted_counts.empty() && c.shards[l].n > 0; };
    h_hist.assign(words * c.L, 0);
    for (int l = 0; l < c.L; ++l) {
      const Shard<K, V>& s = c.shards[l];
      if (counted_by_sort(l)) continue;
      PRIMLAB_CUDA_TRY(cudaSetDevice(c.ex.device(l)));
      const cudaStream_t stream = c.ex.stream(l);
      PRIMLAB_CUDA_TRY(cudaMemsetAsync(c.ws[l].histogram, 0, words * sizeof(std::uint32_t), stream));
      if (s.n == 0) continue;
      DeviceFacts facts;
      PRIMLAB_TRY(device_facts(facts));
      using T = RadixSortTuning;
      constexpr int kChunk = T::kHistThreads * T::kHistItems;
      const int hist_grid = int(std::min<std::int64_t>((s.n + kChunk - 1) / kChunk, std::int64_t(facts.sm_count) * T::kHistBlocksPerSm));
      if (with_next) {
        first_round_histogram_kernel<Bits, T::kHistThreads, T::kHistItems><<<hist_grid, T::kHistThreads, 0, stream>>>(
            reinterpret_cast<const Bits*>(s.d_keys_in), s.n, c.image, c.ws[l].histogram);
        PRIMLAB_LAUNCH_TRY();
        continue;
      }
      if (first_round && sorted.empty()) {
        // A plain histogram of the top digit: the sort's upfront histogram kernel.
        onesweep::histogram_kernel<Bits, T::kHistThreads, T::kHistItems><<<hist_grid, T::kHistThreads, 0, stream>>>(
            reinterpret_cast<const Bits*>(s.d_keys_in), s.n, c.begin_bit + c.num_bits - d, 1, (1u << d) - 1,
            c.codec.enc0, c.codec.enc1, c.ws[l].histogram, onesweep::ZeroFirst{});
        PRIMLAB_LAUNCH_TRY();
        continue;
      }
      const int grid = int(std::min<std::int64_t>(tiles_of(s.n), std::int64_t(facts.sm_count) * DistributedTuning::kHistogramBlocksPerSm));
      for (std::size_t q0 = 0; q0 < queries.size(); q0 += DistributedTuning::kMaxQueries) {
        SplitterQueries<Bits> batch{};
        batch.count = int(std::min<std::size_t>(DistributedTuning::kMaxQueries, queries.size() - q0));
        batch.level = queries[q0].level;
        batch.digit_bits = d;
        for (int q = 0; q < batch.count; ++q) batch.prefix[q] = Bits(queries[q0 + q].prefix);
        std::uint32_t* counts = c.ws[l].histogram + (q0 << d);
        if (!sorted.empty()) {
          sorted_histogram_kernel<Bits><<<unsigned(batch.count), DistributedTuning::kThreads, 0, stream>>>(
              sorted[l], s.n, c.image, batch, counts);
        } else {
          splitter_histogram_kernel<Bits><<<grid, DistributedTuning::kThreads, (std::size_t(batch.count) << d) * sizeof(std::uint32_t), stream>>>(
              reinterpret_cast<const Bits*>(s.d_keys_in), s.n, c.image, batch, counts);
        }
        PRIMLAB_LAUNCH_TRY();
      }
    }
    // Read back once every rank's kernels are queued (a copy to pageable memory waits for them).
    for (int l = 0; l < c.L; ++l) {
      PRIMLAB_CUDA_TRY(cudaSetDevice(c.ex.device(l)));
      const std::uint32_t* counts = counted_by_sort(l) ? sorted_counts[l] : c.ws[l].histogram;
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_hist[words * l], counts, words * sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                                       c.ex.stream(l)));
      PRIMLAB_CUDA_TRY(cudaStreamSynchronize(c.ex.stream(l)));
      // An empty shard's kernel did not run: no sampled digit.
      if (with_next && c.shards[l].n == 0) h_hist[words * l + 2 * kRadix] = ~0u;
    }
    std::vector<std::int64_t> h_counts(h_hist.begin(), h_hist.end()), h_gathered(words * c.G);
    PRIMLAB_TRY(c.ex.all_gather(h_counts.data(), words, h_gathered.data()));
    if (with_next) {  // the top digits' counts to the search, the rest kept for a second round
      c.next_counts.clear();
      for (int r = 0; r < c.G; ++r) {
        const auto rank = h_gathered.begin() + std::ptrdiff_t(words * r);
        std::copy(rank, rank + kRadix, h_gathered.begin() + std::ptrdiff_t(slots * r));
        c.next_counts.insert(c.next_counts.end(), rank + kRadix, rank + std::ptrdiff_t(words));
      }
      h_gathered.resize(slots * c.G);
    }
    if (first_round) c.top_counts = h_gathered;
    if (search.rounds() == 1 && queries.size() == 1 && d == kRadixBits) {
      c.hot = int(queries[0].prefix);
      c.hot_counts = h_gathered;
    }
    search.answer(h_gathered);
  }
  c.t.splitter_rounds = search.rounds();
  return c.clock.lap(&c.t.splitters);
}

// Who sends what, piece by piece (send_counts' indexing: (q * G + s) * pieces + j), and where it
// lands. Every rank learns its share; if one does not fit, every rank stops before anything moves.
struct Routes {
  int G, P;
  std::vector<std::int64_t> send, landing;
  std::size_t at(int q, int s, int j) const { return (std::size_t(q) * G + s) * P + j; }
  std::int64_t piece_start(int s, int j) const { return landing[at(0, s, j)]; }
  std::int64_t piece_count(int s, int j) const {
    std::int64_t n = 0;
    for (int q = 0; q < G; ++q) n += send[at(q, s, j)];
    return n;
  }
  // Whether any rank sends another a key in piece j.
  bool crosses(int j) const {
    for (int q = 0; q < G; ++q)
      for (int s = 0; s < G; ++s)
        if (q != s && send[at(q, s, j)] > 0) return true;
    return false;
  }
};

template <class K, class V, bool PAIRS>
Status plan_routes(Call<K, V, PAIRS>& c, const SplitterSearch& search, const Classes& classes,
                   const std::vector<std::int64_t>& class_all, Routes& r) {
  const int G = c.G, P = classes.pieces;
  std::vector<std::int64_t> positions;
  for (const SplitterSearch::Cut& cut : search.cuts()) positions.push_back(cut.position);
  r = Routes{G, P, send_counts(G, classes, class_all, positions), {}};
  r.landing = landing_offsets(G, P, r.send);
  std::vector<std::int64_t> share(G, 0);
  for (int q = 0; q < G; ++q)
    for (int s = 0; s < G; ++s)
      for (int j = 0; j < P; ++j) {
        share[s] += r.send[r.at(q, s, j)];
        if (q != s) c.t.moved += r.send[r.at(q, s, j)];
      }
  bool fits = true;
  for (int s = 0; s < G; ++s) fits = fits && share[s] <= c.capacities[s];
  for (int l = 0; l < c.L; ++l) c.shards[l].count = share[c.ex.rank(l)];
  c.t.largest = *std::max_element(share.begin(), share.end());
  c.t.total = c.total;
  return fits ? Status::Success : Status::OutputTooSmall;
}

// Plans per driven rank and part, each four arrays of G sizes (send bytes, send offsets, receive
// bytes, receive offsets) for ExchangePlan to point to.
struct Plans {
  int G, parts;
  std::vector<std::size_t> words;
  std::vector<ExchangePlan> plans;
  Plans(int ranks, int local_count, int parts_) : G(ranks), parts(parts_), words(std::size_t(local_count) * parts_ * 4 * ranks),
                                                 plans(std::size_t(local_count) * parts_) {}
  std::size_t* sizes(int l, int part) { return &words[(std::size_t(l) * parts + part) * 4 * G]; }
  void set(int l, int part, const void* send_base, void* recv_base) {
    std::size_t* w = sizes(l, part);
    plans[std::size_t(l) * parts + part] = {send_base, w, w + G, recv_base, w + 2 * G, w + 3 * G};
  }
};

// A piece's segmented sort (onesweep::run_segmented): its tables in the local workspace.
struct SegmentedPiece {
  const SegmentTile* first = nullptr;
  const SegmentTile* later = nullptr;
  const std::uint32_t* start = nullptr;
  std::uint32_t first_count = 0, later_count = 0;
  int segments = 0;
  int digits = 1;  // the digits the partition sorted it by: 2 where its segments are sub-digits
  std::uint32_t* counts = nullptr;  // its segments' digit counts (onesweep::count_segments)
};
struct Segmented {
  bool on = false;
  std::vector<SegmentedPiece> pieces;
  void* counts = nullptr;  // every piece's, one after another
  std::size_t counts_bytes = 0;
  void* state = nullptr;  // one sort's at a time
  void* alt_keys = nullptr;  // the middle pass's output of a piece sorted by two digits
  void* alt_values = nullptr;
};

// A sort staged by the top digit sorts each piece top digit by top digit, by the bits below it
// (onesweep::run_segmented): the partition was the sort's first pass, and 32-bit keys take three
// passes instead of four (seven of eight for 64-bit ones). A piece whose keys all lie in the hot
// digit (StageBins), staged by its sub-digit too, is sorted sub-digit by sub-digit by the bits below
// both: two passes (six), through `alt` in the workspace. Every driven rank's tables, for all its
// pieces, are cut on its GPU (onesweep::cut_tiles, from spans in the launches' parameters) into the
// start of its local workspace, after the partition on its stream; a rank whose workspace cannot
// hold them (with `alt`, else by top digits only), or whose device cannot run the pass, or a range
// whose passes below the top digit are even (the passes alternate between the received keys and
// the result), sorts whole pieces.
template <class K, class V, bool PAIRS>
Status segmented_sorts(Call<K, V, PAIRS>& c, const Routes& routes, bool by_top_digit, const StageBins& bins,
                       const std::vector<std::int64_t>& bin_counts, std::vector<Segmented>& out) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  using VBits = typename Call<K, V, PAIRS>::VBits;
  const int G = c.G, P = routes.P, B = bins.size();
  const int passes = (c.num_bits - 1) / kRadixBits;  // below the top digit
  out.assign(std::size_t(c.L), {});
  c.t.local_passes = c.local == Local::Sort ? (c.num_bits + kRadixBits - 1) / kRadixBits : 0;
  DeviceFacts facts;
  PRIMLAB_TRY(device_facts(facts));
  if (c.local != Local::Sort || !by_top_digit || passes % 2 == 0 || !onesweep::segmented_runs_on<Bits, VBits, PAIRS>(facts))
    return Status::Success;
  constexpr int kTile = onesweep::SegmentedConfig<Bits, VBits, PAIRS>::kTile;
  // Segments by top digit (a bin's top digit), or by bin where piece_chunks takes no segments (the
  // hot digit's sub-digits).
  std::vector<int> by_top(std::size_t(B), 0);
  for (int f = 0; f < B; ++f) by_top[std::size_t(f)] = bins.top_of(f);
  const bool reversed = c.order == SortOrder::Descending;
  for (int l = 0; l < c.L; ++l) {
    const int me = c.ex.rank(l);
    // Every piece's plan, by sub-digit where `fine` lets a piece in the hot digit be; false where
    // some piece's chunks miss some of its keys.
    std::vector<SegmentPlan> plans(static_cast<std::size_t>(P));
    std::vector<int> digits(static_cast<std::size_t>(P), 1);
    std::size_t bytes = 0, counts = 0, state = 0, alt = 0;
    auto plan_pieces = [&](bool fine) {
      bytes = counts = state = alt = 0;
      // Rank q's run of piece j holds its keys after those it sends to earlier (rank, piece)s.
      std::vector<std::int64_t> first(G, 0);
      for (int q = 0; q < G; ++q)
        for (int s = 0; s < me; ++s)
          for (int k = 0; k < P; ++k) first[q] += routes.send[routes.at(q, s, k)];
      for (int j = 0; j < P; ++j) {
        std::vector<std::int64_t> count(G, 0), landing(G, 0);
        for (int q = 0; q < G; ++q) {
          count[q] = routes.send[routes.at(q, me, j)];
          landing[q] = routes.landing[routes.at(q, me, j)] - routes.piece_start(me, j);
        }
        int lowest = 0;
        std::vector<SegmentChunk> chunks = piece_chunks(G, bin_counts, first, count, landing, reversed, by_top, &lowest);
        const bool in_hot = !chunks.empty() && chunks.back().seg == 0 && lowest == bins.hot;
        digits[std::size_t(j)] = fine && in_hot ? 2 : 1;
        if (digits[std::size_t(j)] == 2) chunks = piece_chunks(G, bin_counts, first, count, landing, reversed);
        for (int q = 0; q < G; ++q) first[q] += count[q];
        std::int64_t keys = 0;
        for (const SegmentChunk& ch : chunks) keys += ch.count;
        if (keys != routes.piece_count(me, j)) return false;
        const int segments = chunks.empty() ? 0 : chunks.back().seg + 1;
        SegmentPlan& p = plans[std::size_t(j)];
        p = segment_plan(chunks, segments, kTile);
        bytes += aligned(p.first_tiles * sizeof(SegmentTile)) + aligned(p.later_tiles * sizeof(SegmentTile)) +
                 aligned(p.start.size() * sizeof(std::uint32_t));
        const int piece_passes = passes + 1 - digits[std::size_t(j)];
        counts += onesweep::segmented_counts_bytes(piece_passes, int(p.start.size()));
        state = std::max(state, onesweep::segmented_state_bytes(piece_passes, std::max(p.first_tiles, p.later_tiles)));
        if (digits[std::size_t(j)] == 2) alt = std::max(alt, std::size_t(keys));
      }
      return true;
    };
    Workspace& ws = c.ws[l].local;
    auto alt_bytes = [&] { return aligned(alt * sizeof(Bits)) + (PAIRS ? aligned(alt * sizeof(VBits)) : 0); };
    const bool fine = bins.hot >= 0 && passes > 1;
    if (!plan_pieces(fine)) continue;
    auto need = [&] { return bytes + aligned(counts) + aligned(state) + alt_bytes(); };
    if (need() > ws.bytes && fine && !plan_pieces(false)) continue;
    if (need() > ws.bytes) continue;
    // Every piece's tables, cut after the partition that used this workspace.
    PRIMLAB_CUDA_TRY(cudaSetDevice(c.ex.device(l)));
    unsigned char* at = static_cast<unsigned char*>(ws.ptr);
    auto take = [&at](std::size_t n) {
      unsigned char* region = at;
      at += aligned(n);
      return region;
    };
    Segmented& seg = out[std::size_t(l)];
    seg.counts_bytes = counts;
    seg.counts = take(counts);
    std::uint32_t* piece_counts = static_cast<std::uint32_t*>(seg.counts);
    for (std::size_t j = 0; j < plans.size(); ++j) {
      const SegmentPlan& p = plans[j];
      SegmentTile* first = reinterpret_cast<SegmentTile*>(take(p.first_tiles * sizeof(SegmentTile)));
      SegmentTile* later = reinterpret_cast<SegmentTile*>(take(p.later_tiles * sizeof(SegmentTile)));
      std::uint32_t* start = reinterpret_cast<std::uint32_t*>(take(p.start.size() * sizeof(std::uint32_t)));
      PRIMLAB_TRY(onesweep::cut_tiles(p.first, p.first_tiles, kTile, first, nullptr, c.ex.stream(l)));
      PRIMLAB_TRY(onesweep::cut_tiles(p.later, p.later_tiles, kTile, later, start, c.ex.stream(l)));
      seg.pieces.push_back({first, later, start, p.first_tiles, p.later_tiles, int(p.start.size()), digits[j], piece_counts});
      piece_counts += onesweep::segmented_counts_bytes(passes + 1 - digits[j], int(p.start.size())) / sizeof(std::uint32_t);
    }
    seg.state = take(state);
    seg.alt_keys = take(alt * sizeof(Bits));
    seg.alt_values = take(PAIRS ? alt * sizeof(VBits) : 0);
    seg.on = true;
  }
  if (c.L > 0 && out[0].on) c.t.local_passes = passes;
  return Status::Success;
}

// Whether top digit `digit` of the range holds every key of every rank (the first round's counts).
template <class K, class V, bool PAIRS>
bool holds_every_key(const Call<K, V, PAIRS>& c, std::uint64_t digit) {
  for (int r = 0; r < c.G; ++r)
    if (c.top_counts[std::size_t(r) * kRadix + digit] != c.counts[r]) return false;
  return true;
}

// Whether a search leaves every cut and piece bound on a bin edge of StageBins that a partition can
// stage by: after one round (the top digits), or after a second that refined one top digit alone,
// where every rank's stage, receive buffer and aux lie within 2^32 elements (the passes reach them
// all from one base, given_counts). Ties (a cut inside a run of equal keys) are no bin edge.
template <class K, class V, bool PAIRS>
bool stages_by_bins(const Call<K, V, PAIRS>& c, const SplitterSearch& search) {
  if (c.num_bits < kRadixBits || !search.done() ||
      std::any_of(search.cuts().begin(), search.cuts().end(), [](const SplitterSearch::Cut& cut) { return cut.tie; }))
    return false;
  if (search.rounds() == 1) return true;
  if (search.rounds() != 2 || c.hot < 0 || c.num_bits < 2 * kRadixBits) return false;
  for (int r = 0; r < c.G; ++r) {
    const Layout<K, V, PAIRS> l(c.counts[r], c.capacities[r], c.G, c.local, c.num_bits, Scheme::PartitionFirst);
    if ((l.stage_keys + l.recv_keys + l.aux_keys) / sizeof(K) > std::numeric_limits<std::uint32_t>::max()) return false;
  }
  return true;
}

// PartitionFirst, steps 3 to 7, once the splitters are found: the classes and their counts; who
// sends what; the partition of each shard by class; then piece by piece the runs on their way, and
// each piece sorted (or partitioned) once its runs are in, while the next travels.
template <class K, class V, bool PAIRS>
Status partition_first(Call<K, V, PAIRS>& c, const SplitterSearch& search) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  using VBits = typename Call<K, V, PAIRS>::VBits;
  const int G = c.G, L = c.L;
  Exchange& ex = c.ex;
  // [SECTION] 3. The classes (the cuts' and the pieces' bounds), and every class's count and start
  // in the staged shard.
  const Classes classes = make_classes(search, c.num_bits, c.pieces, c.growth);
  const int P = classes.pieces;
  const std::vector<Bits> lower(classes.lower.begin(), classes.lower.end());
  const int C = int(lower.size());
  // Where every cut and piece bound is a bin edge (StageBins: the top digits, the usual case of one
  // round; and the hot digit's sub-digits where a second round refined one top digit alone, as
  // skewed keys give), the classes are runs of bins: a radix partition by the top digit (one
  // Onesweep pass, and a second by the sub-digit of the hot digit's keys) stages the shard, in bin
  // order of the ascending image (for a descending order, its reverse), and the rounds' counts give
  // where each class lands. Otherwise a count kernel and a scan.
  bool by_top_digit = stages_by_bins(c, search);
  StageBins bins;
  if (by_top_digit && search.rounds() == 2) bins.hot = c.hot;
  const int B = bins.size();
  std::vector<int> class_bin(std::size_t(C) + 1, B);  // class cls holds bins [class_bin[cls], class_bin[cls + 1])
  for (int cls = 0; cls < C && by_top_digit; ++cls) {
    class_bin[std::size_t(cls)] = bins.bin_at(classes.lower[std::size_t(cls)], false, c.num_bits);
    by_top_digit = class_bin[std::size_t(cls)] >= 0;
  }
  const int top_shift = c.num_bits - kRadixBits;
  const int top_begin = c.begin_bit + top_shift;
  const bool reversed = c.order == SortOrder::Descending;
  c.t.stage_passes = by_top_digit ? 1 : 0;  // 2 where a rank splits its hot digit in a pass of its own
  std::vector<std::int64_t> h_start(std::size_t(L) * C, 0);
  // By the bins: every rank's keys per bin of the order's image (rank r's at [r * B]), and where
  // each bin of the ascending image starts in driven rank l's staged shard, without the stage's gaps.
  std::vector<std::int64_t> bin_counts;
  std::vector<std::vector<std::int64_t>> digit_start(by_top_digit ? L : 0, std::vector<std::int64_t>(std::size_t(B) + 1, 0));
  if (by_top_digit)
    for (int r = 0; r < G; ++r) {
      const std::vector<std::int64_t> n = bins.counts(&c.top_counts[std::size_t(r) * kRadix],
                                                      bins.hot >= 0 ? &c.hot_counts[std::size_t(r) * kRadix] : nullptr);
      bin_counts.insert(bin_counts.end(), n.begin(), n.end());
    }
  for (std::size_t l = 0; l < digit_start.size(); ++l) {
    const std::int64_t* counts = &bin_counts[std::size_t(ex.rank(int(l))) * B];
    for (int f = 0; f < B; ++f) digit_start[l][f + 1] = digit_start[l][f] + counts[reversed ? B - 1 - f : f];
  }
  std::vector<std::int64_t> h_class_all(std::size_t(G) * C);
  if (by_top_digit) {
    // Class cls holds the bins [lo, hi) of the order's image; reversed, the ascending image's bins
    // [B - hi, B - lo). Every rank's class counts are sums of its bin counts, which every rank
    // holds: no exchange of them.
    for (int cls = 0; cls < C; ++cls) {
      const int lo = class_bin[std::size_t(cls)], hi = class_bin[std::size_t(cls) + 1];
      for (int l = 0; l < L; ++l) h_start[std::size_t(l) * C + cls] = digit_start[l][std::size_t(reversed ? B - hi : lo)];
      for (int r = 0; r < G; ++r) {
        const std::int64_t* counts = &bin_counts[std::size_t(r) * B];
        h_class_all[std::size_t(r) * C + cls] = std::accumulate(counts + lo, counts + hi, std::int64_t(0));
      }
    }
  } else {
    std::vector<std::uint32_t> h_first(std::size_t(L) * C, 0);
    std::vector<std::int64_t> h_class(std::size_t(L) * C, 0);
    for (int l = 0; l < L; ++l) {
      const Shard<K, V>& s = c.shards[l];
      if (s.n == 0) continue;
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      const cudaStream_t stream = ex.stream(l);
      const std::int64_t tiles = tiles_of(s.n);
      std::uint32_t* counts = c.ws[l].tile_counts;
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(c.ws[l].lower, lower.data(), C * sizeof(Bits), cudaMemcpyHostToDevice, stream));
      class_count_kernel<Bits><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(
          reinterpret_cast<const Bits*>(s.d_keys_in), s.n, c.image, static_cast<const Bits*>(c.ws[l].lower), C, counts);
      PRIMLAB_LAUNCH_TRY();
      PRIMLAB_TRY(exclusive_scan(counts, counts, std::int64_t(C) * tiles, 0u, Sum{}, c.ws[l].scan, stream));
      // The first tile's offset of each class: where the class starts in the shard.
      PRIMLAB_CUDA_TRY(cudaMemcpy2DAsync(&h_first[std::size_t(l) * C], sizeof(std::uint32_t), counts,
                                         tiles * sizeof(std::uint32_t), sizeof(std::uint32_t), C, cudaMemcpyDeviceToHost,
                                         stream));
    }
    for (int l = 0; l < L; ++l) {
      const std::int64_t n = c.shards[l].n;
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      PRIMLAB_CUDA_TRY(cudaStreamSynchronize(ex.stream(l)));
      for (int cls = 0; cls < C && n > 0; ++cls) {
        const std::int64_t from = h_first[std::size_t(l) * C + cls];
        h_start[std::size_t(l) * C + cls] = from;
        h_class[std::size_t(l) * C + cls] = (cls + 1 < C ? h_first[std::size_t(l) * C + cls + 1] : n) - from;
      }
    }
    PRIMLAB_TRY(ex.all_gather(h_class.data(), C, h_class_all.data()));
  }
  PRIMLAB_TRY(c.clock.lap(&c.t.partition));

  // [SECTION] 4. Who sends what, piece by piece, and every driven rank's runs in its staged shard.
  Routes routes;
  PRIMLAB_TRY(plan_routes(c, search, classes, h_class_all, routes));
  std::vector<std::int64_t> positions;
  for (const SplitterSearch::Cut& cut : search.cuts()) positions.push_back(cut.position);
  std::vector<std::vector<Run>> runs(L);  // runs[l][s * P + j]
  for (int l = 0; l < L; ++l) {
    const std::vector<std::int64_t> class_start(h_start.begin() + std::ptrdiff_t(std::size_t(l) * C),
                                                h_start.begin() + std::ptrdiff_t(std::size_t(l + 1) * C));
    runs[l] = send_runs(G, classes, h_class_all, positions, ex.rank(l), class_start);
  }

  // [SECTION] 5. The partition of each shard by class, into the stage. By the bins it is one
  // Onesweep pass by the top digit, in which the hot digit's keys go by their sub-digit too (a
  // split pass: 511 bins; on a GPU without its shared memory, a second pass over the hot digit's
  // keys), that takes the splitter rounds' counts (no histogram kernel), with a gap before each
  // run to another rank that gives the run its receiver's alignment (stage_gaps), so that it
  // leaves from where it lies.
  const int parts = PAIRS ? 2 : 1;
  const std::size_t elems[2] = {sizeof(Bits), sizeof(VBits)};
  auto stage_of = [&](int l, int part) { return part == 0 ? c.ws[l].stage : c.ws[l].stage_values; };
  // Where rank r's receive buffers start past a boundary: where its workspace does.
  auto recv_at = [&](int r) { return std::size_t(c.ws_at[r]); };
  std::vector<bool> own_in_place(std::size_t(L), false);  // the partition put the own runs where they land
  for (int l = 0; l < L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    if (s.n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    K* stage_keys = reinterpret_cast<K*>(c.ws[l].stage);
    V* stage_values = reinterpret_cast<V*>(c.ws[l].stage_values);
    if (by_top_digit) {
      using PV = std::conditional_t<PAIRS, V, std::uint32_t>;  // a keys-only partition's workspace
      const int me = ex.rank(l);
      const std::vector<std::int64_t>& start = digit_start[l];
      StageLayout layout;
      layout.parts = parts;
      std::vector<StagedRun> staged;
      for (int p = 0; p < parts; ++p) {
        layout.elem[p] = elems[p];
        layout.stage_at[p] = offset_in(stage_of(l, p), kExchangeAlign);
      }
      for (int r = 0; r < G; ++r)
        for (int j = 0; j < P; ++j) {
          const Run& run = runs[l][std::size_t(r) * P + j];
          if (r == me || run.count == 0) continue;
          StagedRun staged_run{run.offset};
          const std::size_t landing = std::size_t(routes.landing[routes.at(me, r, j)]);
          for (int p = 0; p < parts; ++p) staged_run.want[p] = (recv_at(r) + landing * elems[p]) % kExchangeAlign;
          staged.push_back(staged_run);
        }
      const std::vector<std::int64_t> gap = stage_gaps(start, staged, layout);
      // The own runs go straight to where they land in the receive buffer (place_digits), where
      // every run to another rank keeps its receiver's alignment there; otherwise `plan` copies them.
      const Carved<K, V, PAIRS>& w = c.ws[l];
      std::vector<OwnRun> own;
      for (int j = 0; j < P; ++j) {
        const Run& run = runs[l][std::size_t(me) * P + j];
        own.push_back({run.offset, run.count, routes.landing[routes.at(me, me, j)]});
      }
      const std::int64_t recv_e = (w.recv_keys - w.stage) / std::int64_t(sizeof(Bits));
      const std::int64_t aux_e = (w.aux_keys - w.stage) / std::int64_t(sizeof(Bits));
      const DigitPlacement place = place_digits(start, gap, own, recv_e, aux_e, w.aux_elements);
      bool in_place = !place.at.empty();
      if (PAIRS)
        in_place = in_place && w.recv_values - w.stage_values == recv_e * std::int64_t(sizeof(VBits)) &&
                   w.aux_values - w.stage_values == aux_e * std::int64_t(sizeof(VBits));
      for (const StagedRun& run : staged)
        for (int p = 0; p < parts && in_place; ++p)
          in_place = (layout.stage_at[p] + std::size_t(place.place(start, gap, run.offset)) * elems[p]) % kExchangeAlign ==
                     run.want[p] % kExchangeAlign;
      // Where each bin's keys go: placed, or in the stage with its gaps.
      auto places = [&](bool placed) {
        if (placed) return place.at;
        std::vector<std::int64_t> at(std::size_t(B) + 1, gap[0]);
        for (int f = 0; f < B; ++f) at[f + 1] = at[f] + start[f + 1] - start[f] + (f + 1 < B ? gap[f + 1] : 0);
        return at;
      };
      std::vector<std::int64_t> at = places(in_place);
      // The hot digit (ascending image's top digit hot_raw, bins [hot_raw, hot_raw + 256)): one split
      // pass where the GPU gives it its shared memory. Otherwise its keys go aside first, where
      // neither pass writes (hot_scratch); where no stretch is free with the own runs placed, the
      // own runs are copied instead. Where the hot digit is the first pass's first, its keys must
      // lie below every other place (given_counts): at the stage's start, with every bin moved to
      // aux by a multiple of 256 elements (which keeps every part's alignment).
      const int hot_raw = bins.hot < 0 ? -1 : reversed ? kRadix - 1 - bins.hot : bins.hot;
      const std::int64_t hot_keys = hot_raw < 0 ? 0 : start[std::size_t(hot_raw) + kRadix] - start[std::size_t(hot_raw)];
      DeviceFacts facts;
      PRIMLAB_TRY(device_facts(facts));
      const bool split = hot_raw >= 0 && onesweep::split_pass_runs_on<K, PV, PAIRS>(facts);
      if (hot_raw >= 0 && !split) c.t.stage_passes = 2;
      std::int64_t scratch = -1, moved = 0;
      if (hot_raw == 0 && !split) {
        in_place = false;
        at = places(false);
        moved = keeping_alignment(aux_e - at[0]);
        for (std::int64_t& a : at) a += moved;
        scratch = 0;
      } else if (hot_raw > 0 && !split) {
        scratch = hot_scratch(at, start, hot_keys, recv_e, aux_e, w.aux_elements);
        if (scratch < 0 && in_place) {
          in_place = false;
          at = places(false);
          scratch = hot_scratch(at, start, hot_keys, recv_e, aux_e, w.aux_elements);
        }
        if (scratch < 0) return Status::Unsupported;  // aux holds a shard: not reached
      }
      own_in_place[std::size_t(l)] = in_place;
      for (Run& run : runs[l])
        run.offset = in_place ? place.place(start, gap, run.offset) : with_gaps(start, gap, run.offset) + moved;
      // A pass over n keys that puts bin t's keys place_of[t] elements past the stage: by the digit
      // at bits [begin, begin + 8) of the ascending image, or a split pass of bits [begin, begin +
      // 16) whose hot top digit is split_hot (>= 0).
      auto stage_pass = [&](const K* keys_in, const PV* values_in, std::int64_t n, const std::vector<std::int64_t>& place_of,
                            const std::vector<std::int64_t>& keys, int begin, int split_hot) -> Status {
        if (n == 0) return Status::Success;
        std::int64_t base = 0;
        std::vector<std::uint32_t> counts = given_counts(place_of, keys, base);
        // place_digits and stages_by_bins keep every place within reach of the base: not reached.
        if (counts.empty()) return Status::Unsupported;
        PV* values_out = nullptr;
        if constexpr (PAIRS) values_out = stage_values + base;
        if (split_hot >= 0) {
          counts.push_back(0);  // the split pass's 512th bin, which no key takes
          return onesweep::run_split<K, PV, PAIRS>(keys_in, stage_keys + base, values_in, values_out, n, begin,
                                                   split_hot, make_codec<K>(false), c.ws[l].local.ptr, stream,
                                                   counts.data());
        }
        return onesweep::run_tuned<K, PV, PAIRS, true>(keys_in, stage_keys + base, values_in, values_out, n, begin,
                                                       begin + kRadixBits, make_codec<K>(false), c.ws[l].local.ptr,
                                                       nullptr, stream, counts.data(),
                                                       RadixSortTuning::hot_digit(keys.data(), n));
      };
      const PV* values_in = nullptr;
      if constexpr (PAIRS) values_in = s.d_values_in;
      if (split) {  // every bin to its place
        std::vector<std::int64_t> bin_keys(static_cast<std::size_t>(B));
        for (int f = 0; f < B; ++f) bin_keys[std::size_t(f)] = start[std::size_t(f) + 1] - start[std::size_t(f)];
        const std::vector<std::int64_t> bin_at(at.begin(), at.begin() + B);
        PRIMLAB_TRY(stage_pass(s.d_keys_in, values_in, s.n, bin_at, bin_keys, top_begin - kRadixBits, hot_raw));
        continue;
      }
      // By the top digit: every digit to its bin's place, the hot digit's aside; then the hot
      // digit's keys by their sub-digit, each to its bin's place.
      std::vector<std::int64_t> place_of(kRadix), keys(kRadix);
      for (int t = 0; t < kRadix; ++t) {
        const int f = hot_raw < 0 || t <= hot_raw ? t : t + kRadix - 1;
        place_of[t] = t == hot_raw ? scratch : at[std::size_t(f)];
        keys[t] = t == hot_raw ? hot_keys : start[std::size_t(f) + 1] - start[std::size_t(f)];
      }
      PRIMLAB_TRY(stage_pass(s.d_keys_in, values_in, s.n, place_of, keys, top_begin, -1));
      if (hot_raw >= 0) {
        for (int b = 0; b < kRadix; ++b) {
          const std::size_t f = std::size_t(hot_raw + b);
          place_of[b] = at[f];
          keys[b] = start[f + 1] - start[f];
        }
        const PV* hot_values = nullptr;
        if constexpr (PAIRS) hot_values = stage_values + scratch;
        PRIMLAB_TRY(stage_pass(stage_keys + scratch, hot_values, hot_keys, place_of, keys, top_begin - kRadixBits, -1));
      }
      continue;
    }
    class_scatter_kernel<Bits, VBits, PAIRS><<<unsigned(tiles_of(s.n)), DistributedTuning::kThreads, 0, stream>>>(
        reinterpret_cast<const Bits*>(s.d_keys_in), reinterpret_cast<const VBits*>(s.d_values_in), s.n, c.image,
        static_cast<const Bits*>(c.ws[l].lower), C, c.ws[l].tile_counts, reinterpret_cast<Bits*>(stage_keys),
        reinterpret_cast<VBits*>(stage_values));
    PRIMLAB_LAUNCH_TRY();
  }
  std::vector<Segmented> segmented;
  PRIMLAB_TRY(segmented_sorts(c, routes, by_top_digit, bins, bin_counts, segmented));
  PRIMLAB_TRY(c.clock.lap(&c.t.partition));

  // [SECTION] 6. The pieces on their way. A rank's own run is a device copy. A run to another
  // rank lands in its place in the receiver's result, and goes as a head of under kExchangeAlign
  // bytes and a body that starts on a kExchangeAlign boundary on both sides (from the staged keys
  // where the run's start has the receiver's alignment, as the stage's gaps give it where the
  // partition is by the top digit, else from a copy in `aux` that has it):
  // NCCL copies a body with ends off 16 bytes at 43 % of its speed, off 256 at 64-77 %. A piece's
  // bodies go in one transfer; every piece's heads in one transfer after the first piece's bodies:
  // a head in a body's NCCL group, to the same peer, halved the body's rate (2 x H100, 184 against
  // 344 GB/s, bench/NOTES-distributed.md), and each group costs NCCL a launch. A transfer with
  // nothing to move (every rank knows every run) is not made.
  const bool sort = c.local == Local::Sort;
  auto recv_of = [&](int l, int part) { return part == 0 ? c.ws[l].recv_keys : c.ws[l].recv_values; };
  auto aux_of = [&](int l, int part) { return part == 0 ? c.ws[l].aux_keys : c.ws[l].aux_values; };
  // The head of the run from q to s in piece j, in bytes.
  auto head_of = [&](int q, int s, int j, int part) {
    const std::size_t i = routes.at(q, s, j);
    return head_bytes(recv_at(s) + std::size_t(routes.landing[i]) * elems[part],
                      std::size_t(routes.send[i]) * elems[part]);
  };
  auto any_head = [&](int j) {
    for (int q = 0; q < G; ++q)
      for (int s = 0; s < G; ++s)
        for (int part = 0; part < parts; ++part)
          if (q != s && head_of(q, s, j, part) > 0) return true;
    return false;
  };
  std::vector<std::size_t> aux_used(std::size_t(L) * parts, 0);
  // Piece j's moves of one part on driven rank l: the copies, and the bodies' and heads' sizes
  // (the heads' as part j * parts + part of every piece's heads).
  auto plan = [&](int l, int j, int part, Plans& bodies, Plans& heads) -> Status {
    const int head_part = j * parts + part;
    const int me = ex.rank(l);
    const std::size_t elem = elems[part];
    const cudaStream_t stream = ex.stream(l);
    unsigned char* base = static_cast<unsigned char*>(c.shards[l].ws.ptr);
    unsigned char* recv = recv_of(l, part);
    unsigned char* aux = aux_of(l, part);
    const unsigned char* staged = stage_of(l, part);
    std::size_t* head = heads.sizes(l, head_part);
    std::size_t* body = bodies.sizes(l, part);
    for (int s = 0; s < G; ++s) {
      // Receiving from rank s its run of piece j, which lands at `in_at`.
      const std::size_t in = std::size_t(routes.send[routes.at(s, me, j)]) * elem;
      const std::size_t in_at = std::size_t(routes.landing[routes.at(s, me, j)]) * elem;
      const std::size_t in_head = s == me ? 0 : head_of(s, me, j, part);
      head[2 * G + s] = in_head;
      head[3 * G + s] = in_at;
      body[2 * G + s] = s == me ? 0 : in - in_head;
      body[3 * G + s] = in_at + in_head;
      // Sending to rank s: the run lands at `out_at` of its receive buffer.
      const Run& run = runs[l][std::size_t(s) * P + j];
      const std::size_t out = std::size_t(run.count) * elem;
      const std::size_t out_at = std::size_t(routes.landing[routes.at(me, s, j)]) * elem;
      const unsigned char* from = staged + std::size_t(run.offset) * elem;
      head[s] = body[s] = head[G + s] = body[G + s] = 0;
      if (s == me) {
        if (!own_in_place[std::size_t(l)]) {
          PRIMLAB_TRY(copy_run(from, recv + out_at, run.count, elem, stream));
          c.t.copied += run.count;
        }
        continue;
      }
      if (out == 0) continue;
      const std::size_t h = head_of(me, s, j, part);
      if (out > h && (reinterpret_cast<std::uintptr_t>(from) + h) % kExchangeAlign != 0) {
        const std::size_t dst = (recv_at(s) + out_at) % kExchangeAlign;  // the run's start at the receiver
        std::size_t& used = aux_used[std::size_t(l) * parts + part];
        used += (dst + kExchangeAlign - reinterpret_cast<std::uintptr_t>(aux + used) % kExchangeAlign) % kExchangeAlign;
        PRIMLAB_TRY(copy_run(from, aux + used, run.count, elem, stream));
        c.t.realigned += run.count;
        from = aux + used;
        used += out;
      }
      head[s] = h;
      head[G + s] = std::size_t(from - base);
      body[s] = out - h;
      body[G + s] = head[G + s] + h;
    }
    heads.set(l, head_part, base, recv);
    bodies.set(l, part, base, recv);
    return Status::Success;
  };
  std::vector<Plans> bodies;
  Plans heads(G, L, P * parts);
  std::vector<bool> has_heads;  // per piece
  bool some_head = false;
  for (int j = 0; j < P; ++j) {
    bodies.emplace_back(G, L, parts);
    has_heads.push_back(any_head(j));
    some_head = some_head || has_heads.back();
  }
  for (int l = 0; l < L; ++l) {
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    for (int j = 0; j < P; ++j)
      for (int part = 0; part < parts; ++part) PRIMLAB_TRY(plan(l, j, part, bodies[std::size_t(j)], heads));
  }
  PRIMLAB_TRY(c.clock.lap(&c.t.partition));  // the copies
  std::vector<int> arrival(P, -1);  // the transfer after which piece j's runs are in (-1: none)
  int heads_ticket = -1;
  for (int j = 0; j < P; ++j) {
    if (routes.crosses(j)) PRIMLAB_TRY(c.transfer(bodies[std::size_t(j)].plans, parts, &arrival[j]));
    if (some_head && heads_ticket < 0 && arrival[j] >= 0) PRIMLAB_TRY(c.transfer(heads.plans, P * parts, &heads_ticket));
    if (has_heads[std::size_t(j)]) arrival[j] = std::max(arrival[j], heads_ticket);
  }
  PRIMLAB_TRY(c.transfers_started());

  // [SECTION] 7. The local sort (or partition) of each piece once its runs are in, in its place in
  // the result; a partition's offsets are the sum of its pieces'. A segmented sort counts the
  // digits of every piece's own run first, which lies in place once the partition is done, while
  // the first piece travels; a piece's received keys once they are in.
  const int end_bit = c.begin_bit + c.num_bits;
  const std::size_t offsets = (std::size_t(1) << c.num_bits) + 1;
  auto count_piece = [&](int l, int j, bool own) {
    const SegmentedPiece& piece = segmented[l].pieces[std::size_t(j)];
    const int me = ex.rank(l);
    const std::size_t i = routes.at(me, me, j);
    const std::int64_t at = routes.piece_start(me, j);
    return onesweep::count_segments<Bits>(reinterpret_cast<const Bits*>(c.ws[l].recv_keys) + at, piece.first,
                                          piece.first_count, std::uint32_t(routes.landing[i] - at),
                                          std::uint32_t(routes.send[i]), own, piece.segments, c.begin_bit,
                                          end_bit - kRadixBits * piece.digits, c.codec, piece.counts, ex.stream(l));
  };
  for (int l = 0; l < L; ++l) {
    if (!sort || !segmented[l].on) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(segmented[l].counts, 0, segmented[l].counts_bytes, ex.stream(l)));
    for (int j = 0; j < P; ++j) PRIMLAB_TRY(count_piece(l, j, true));
  }
  for (int j = 0; j < P; ++j) {
    for (int l = 0; l < L; ++l) {
      Shard<K, V>& s = c.shards[l];
      const int me = ex.rank(l);
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      const cudaStream_t stream = ex.stream(l);
      if (arrival[j] >= 0) PRIMLAB_TRY(ex.join(l, arrival[j]));
      const std::int64_t at = routes.piece_start(me, j), n = routes.piece_count(me, j);
      K* keys = s.d_keys_out + at;
      V* values = PAIRS ? s.d_values_out + at : nullptr;
      K* recv_keys = reinterpret_cast<K*>(c.ws[l].recv_keys) + at;
      V* recv_values = PAIRS ? reinterpret_cast<V*>(c.ws[l].recv_values) + at : nullptr;
      if (sort && segmented[l].on) {
        // Three passes for 32-bit keys (seven for 64): recv -> out -> recv -> out; by two digits
        // two (six): recv -> alt -> out.
        const Segmented& seg = segmented[l];
        const SegmentedPiece& piece = seg.pieces[std::size_t(j)];
        PRIMLAB_TRY(count_piece(l, j, false));
        Bits* alt_keys = piece.digits == 2 ? static_cast<Bits*>(seg.alt_keys) : reinterpret_cast<Bits*>(recv_keys);
        VBits* alt_values = piece.digits == 2 ? static_cast<VBits*>(seg.alt_values) : reinterpret_cast<VBits*>(recv_values);
        PRIMLAB_TRY((onesweep::run_segmented<Bits, VBits, PAIRS>(
            reinterpret_cast<const Bits*>(recv_keys), reinterpret_cast<Bits*>(keys), alt_keys,
            reinterpret_cast<const VBits*>(recv_values), reinterpret_cast<VBits*>(values), alt_values, piece.first,
            piece.first_count, piece.later, piece.later_count, piece.segments, piece.start, c.begin_bit,
            end_bit - kRadixBits * piece.digits, c.codec, piece.counts, seg.state, stream)));
        continue;
      }
      if (sort) {
        if (PAIRS) {
          PRIMLAB_TRY(radix_sort_pairs(recv_keys, keys, recv_values, values, n, c.order, c.begin_bit, end_bit, c.ws[l].local, stream));
        } else {
          PRIMLAB_TRY(radix_sort_keys(recv_keys, keys, n, c.order, c.begin_bit, end_bit, c.ws[l].local, stream));
        }
        continue;
      }
      std::uint32_t* piece_offsets = c.ws[l].piece_offsets + std::size_t(j) * offsets;
      if (PAIRS) {
        PRIMLAB_TRY(radix_partition_pairs(recv_keys, keys, recv_values, values, piece_offsets, n, c.begin_bit, c.num_bits,
                                          c.ws[l].local, stream));
      } else {
        PRIMLAB_TRY(radix_partition_keys(recv_keys, keys, piece_offsets, n, c.begin_bit, c.num_bits, c.ws[l].local, stream));
      }
    }
    PRIMLAB_TRY(c.clock.lap(&c.t.local));
  }
  if (sort) return Status::Success;
  for (int l = 0; l < L; ++l) {
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    constexpr int kThreads = 256;
    sum_offsets_kernel<std::uint32_t><<<unsigned((offsets + kThreads - 1) / kThreads), kThreads, 0, ex.stream(l)>>>(
        c.ws[l].piece_offsets, P, int(offsets), c.shards[l].d_offsets);
    PRIMLAB_LAUNCH_TRY();
  }
  return c.clock.lap(&c.t.local);
}

// SortFirst, steps 3 to 7: sort each shard, then the splitters and where each class begins (in a
// sorted shard, the classes lie in class order); who sends what; the runs of each piece from where
// they lie; each piece's runs merged once they are in, while the next piece travels.
template <class K, class V, bool PAIRS>
Status sort_first(Call<K, V, PAIRS>& c) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  using VBits = typename Call<K, V, PAIRS>::VBits;
  const int G = c.G, L = c.L;
  Exchange& ex = c.ex;
  const int end_bit = c.begin_bit + c.num_bits;
  // [SECTION] 3. The local sort, then the splitters (the sort has taken their first histogram
  // where the range is whole digits), then the classes and where each begins.
  std::vector<const Bits*> sorted;
  std::vector<const std::uint32_t*> sorted_counts;
  const int passes = (c.num_bits + kRadixBits - 1) / kRadixBits;
  for (int l = 0; l < L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    const Carved<K, V, PAIRS>& w = c.ws[l];
    sorted.push_back(reinterpret_cast<const Bits*>(w.sorted_keys));
    if (c.num_bits > 0 && c.num_bits % kRadixBits == 0)
      sorted_counts.push_back(onesweep::digit_counts<Bits, VBits, PAIRS>(w.spare.ptr, s.n) + (passes - 1) * kRadix);
    if (s.n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    if (PAIRS) {
      PRIMLAB_TRY(radix_sort_pairs(s.d_keys_in, w.sorted_keys, s.d_values_in, w.sorted_values, s.n, c.order, c.begin_bit,
                                   end_bit, w.spare, ex.stream(l)));
    } else {
      PRIMLAB_TRY(radix_sort_keys(s.d_keys_in, w.sorted_keys, s.n, c.order, c.begin_bit, end_bit, w.spare, ex.stream(l)));
    }
  }
  PRIMLAB_TRY(c.clock.lap(&c.t.partition));
  SplitterSearch search = make_search(c);
  PRIMLAB_TRY(find_cuts(c, search, sorted, sorted_counts));
  const Classes classes = make_classes(search, c.num_bits, c.pieces, c.growth);
  const int P = classes.pieces;
  const std::vector<Bits> lower(classes.lower.begin(), classes.lower.end());
  const int C = int(lower.size());
  for (int l = 0; l < L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    if (s.n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    const Carved<K, V, PAIRS>& w = c.ws[l];
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(w.lower, lower.data(), C * sizeof(Bits), cudaMemcpyHostToDevice, stream));
    class_starts_kernel<Bits><<<1, kMaxClasses, 0, stream>>>(sorted[l], s.n, c.image, static_cast<const Bits*>(w.lower), C,
                                                             w.starts);
    PRIMLAB_LAUNCH_TRY();
  }
  std::vector<std::int64_t> h_starts(std::size_t(C) * L, 0), h_class(std::size_t(C) * L, 0), h_class_all(std::size_t(C) * G);
  for (int l = 0; l < L; ++l) {
    const std::int64_t n = c.shards[l].n;
    if (n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_starts[std::size_t(C) * l], c.ws[l].starts, C * sizeof(std::int64_t),
                                     cudaMemcpyDeviceToHost, ex.stream(l)));
    PRIMLAB_CUDA_TRY(cudaStreamSynchronize(ex.stream(l)));
    for (int k = 0; k < C; ++k)
      h_class[std::size_t(C) * l + k] = (k + 1 < C ? h_starts[std::size_t(C) * l + k + 1] : n) - h_starts[std::size_t(C) * l + k];
  }
  PRIMLAB_TRY(ex.all_gather(h_class.data(), C, h_class_all.data()));
  PRIMLAB_TRY(c.clock.lap(&c.t.partition));

  // [SECTION] 4. Who sends what, piece by piece, and where every rank's runs lie in its sorted shard.
  Routes routes;
  PRIMLAB_TRY(plan_routes(c, search, classes, h_class_all, routes));
  std::vector<std::int64_t> positions;
  for (const SplitterSearch::Cut& cut : search.cuts()) positions.push_back(cut.position);
  std::vector<std::vector<Run>> runs_of(G);  // runs_of[r][s * P + j]: rank r's run for rank s in piece j
  for (int r = 0; r < G; ++r) {
    std::vector<std::int64_t> start(C, 0);
    for (int k = 1; k < C; ++k) start[k] = start[k - 1] + h_class_all[std::size_t(C) * r + k - 1];
    runs_of[r] = send_runs(G, classes, h_class_all, positions, r, start);
  }

  // [SECTION] 5. The exchange, piece by piece, keys and values in one transfer. Each run goes from
  // where it lies in its sender's sorted shard, as one message from the kRunAlign boundary below
  // it (the bytes before the run come along); the receiver lands the message on a boundary of its
  // own, so that both ends are aligned and nothing is copied first. A rank's own run stays where
  // it is. A piece with nothing to move (every rank knows every run) makes no transfer.
  const int parts = PAIRS ? 2 : 1;
  std::vector<std::size_t> landed(std::size_t(L) * P * G * 2);  // [l][j][s][part]: the run's byte offset in recv
  std::vector<std::size_t> recv_used(std::size_t(L) * 2, 0);     // [l][part]
  auto plan = [&](int j, Plans& plans, int part, std::size_t elem, auto sorted_of, auto recv_of) {
    for (int l = 0; l < L; ++l) {
      const int me = ex.rank(l);
      const unsigned char* base = reinterpret_cast<const unsigned char*>(sorted_of(l));
      unsigned char* recv = recv_of(l);
      std::size_t* w = plans.sizes(l, part);  // send bytes, send offsets, receive bytes, receive offsets
      std::fill(w, w + 4 * G, std::size_t(0));
      std::size_t& at = recv_used[std::size_t(l) * 2 + part];
      for (int s = 0; s < G; ++s) {
        if (s == me) continue;
        // The bytes before a run that its message carries: to the boundary below it, where the
        // shard has them (a shard that starts off a boundary may not).
        auto lead = [&](std::size_t shard_at, std::size_t off) { return std::min((shard_at + off) % kRunAlign, off); };
        const Run& in = runs_of[s][std::size_t(me) * P + j];
        const std::size_t in_off = std::size_t(in.offset) * elem, in_lead = lead(std::size_t(c.ws_at[s]), in_off);
        at += (kRunAlign - offset_in(recv + at, kRunAlign)) % kRunAlign;
        w[2 * G + s] = in.count > 0 ? in_lead + std::size_t(in.count) * elem : 0;
        w[3 * G + s] = at;
        landed[((std::size_t(l) * P + j) * G + s) * 2 + part] = at + in_lead;
        at += w[2 * G + s];
        const Run& out = runs_of[me][std::size_t(s) * P + j];
        const std::size_t out_off = std::size_t(out.offset) * elem, out_lead = lead(offset_in(base, kRunAlign), out_off);
        w[s] = out.count > 0 ? out_lead + std::size_t(out.count) * elem : 0;
        w[G + s] = out_off - out_lead;
      }
      plans.set(l, part, base, recv);
    }
  };
  std::vector<int> arrival(P, -1);  // the transfer that brings piece j's runs (-1: none)
  for (int j = 0; j < P; ++j) {
    Plans plans(G, L, parts);
    plan(j, plans, 0, sizeof(Bits), [&](int l) { return c.ws[l].sorted_keys; }, [&](int l) { return c.ws[l].recv_keys; });
    if (PAIRS)
      plan(j, plans, 1, sizeof(VBits), [&](int l) { return c.ws[l].sorted_values; }, [&](int l) { return c.ws[l].recv_values; });
    if (routes.crosses(j)) PRIMLAB_TRY(c.transfer(plans.plans, parts, &arrival[j]));
  }
  PRIMLAB_TRY(c.transfers_started());

  // [SECTION] 6. The merge of each piece's G sorted runs, in rank order (equal keys keep the order
  // of (rank, position)), into its place in the result, once the piece's transfer is in.
  constexpr int kKeyBits = int(sizeof(Bits) * 8);
  const Bits range = c.num_bits == kKeyBits ? ~Bits(0)
                                            : Bits(((Bits(1) << c.num_bits) - 1) << c.begin_bit);
  const MergeOrder<Bits> merge_order{c.codec.enc0, c.codec.enc1, c.codec.dec0, c.codec.dec1, range};
  for (int j = 0; j < P; ++j) {
    for (int l = 0; l < L; ++l) {
      Shard<K, V>& s = c.shards[l];
      const Carved<K, V, PAIRS>& w = c.ws[l];
      const int me = ex.rank(l);
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      std::vector<SortedRun<Bits, VBits>> runs;
      for (int r = 0; r < G; ++r) {
        const Run& run = runs_of[r][std::size_t(me) * P + j];
        const std::size_t* at = &landed[((std::size_t(l) * P + j) * G + r) * 2];
        if (r == me) {
          runs.push_back({reinterpret_cast<const Bits*>(w.sorted_keys) + run.offset,
                          reinterpret_cast<const VBits*>(w.sorted_values) + run.offset, run.count, -1});
        } else {
          runs.push_back({reinterpret_cast<const Bits*>(w.recv_keys + at[0]),
                          reinterpret_cast<const VBits*>(w.recv_values + at[1]), run.count, arrival[j]});
        }
      }
      const std::int64_t start = routes.piece_start(me, j);
      auto wait_for = [&](int t) { return t >= 0 ? ex.join(l, t) : Status::Success; };
      PRIMLAB_TRY((merge_runs<Bits, VBits, PAIRS>(
          runs, merge_order, w.splits, reinterpret_cast<Bits*>(s.d_keys_out) + start,
          PAIRS ? reinterpret_cast<VBits*>(s.d_values_out) + start : nullptr, reinterpret_cast<Bits*>(w.spare_keys) + start,
          PAIRS ? reinterpret_cast<VBits*>(w.spare_values) + start : nullptr, wait_for, ex.stream(l))));
    }
    PRIMLAB_TRY(c.clock.lap(&c.t.local));
  }
  return Status::Success;
}

template <class K, class V, bool PAIRS>
Status run(Exchange& ex, Shard<K, V>* shards, Local local, SortOrder order, int begin_bit, int num_bits,
           DistributedTimes* times, const DistributedOptions& options) {
  using Bits = typename RadixKey<K>::Bits;
  const int G = ex.size(), L = ex.local_count();
  if (G < 1 || G > kDistributedMaxRanks || L < 1 || L > G) return Status::Unsupported;
  if (shards == nullptr) return Status::InvalidArgument;
  DeviceGuard restore_device;
  const KeyCodec<Bits> codec = make_codec<K>(order == SortOrder::Descending);
  Call<K, V, PAIRS> c{ex, shards, local, order, begin_bit, num_bits, options, G, L, codec,
                      RangeImage<Bits>{codec.enc0, codec.enc1, begin_bit, num_bits}, Stopwatch(ex, times != nullptr)};
  Status st = agree(c);
  if (st == Status::Success && c.scheme == Scheme::PartitionFirst) {
    // Where the cuts are not bin edges (StageBins) after at most two rounds, partition-first stages
    // the shard by a count, a scan and a scatter and sorts whole pieces (4 x H200, 2^28 keys a
    // rank: 13.77 ms against sort-first:4's 9.69). A sort whose options leave the scheme to the
    // call, on ranks that sort-first takes, sorts first then: a second round is spent only where
    // one top digit holds every open cut (one query) but not every key (all keys equal spent
    // 0.4-0.6 ms more on it at 2^28 keys a rank, 4 x H200, and still sorted first).
    SplitterSearch search = make_search(c);
    const bool may_sort_first =
        c.options.scheme == Scheme::Auto && may_run(Scheme::SortFirst, c.local, c.G, c.options.scheme);
    st = find_cuts(c, search, {}, {}, may_sort_first ? 1 : -1);
    if (st == Status::Success && may_sort_first && !search.done() && search.queries().size() == 1 &&
        c.num_bits >= 2 * kRadixBits && !holds_every_key(c, search.queries()[0].prefix))
      st = find_cuts(c, search, {}, {}, 2);
    const bool open = !search.done() || (search.rounds() == 2 && !stages_by_bins(c, search));
    if (st == Status::Success && may_sort_first && open) {
      c.scheme = Scheme::SortFirst;
      choose_pieces(c);
      carve(c);
    } else if (st == Status::Success) {
      st = partition_first(c, search);
    }
  }
  if (st == Status::Success && c.scheme == Scheme::SortFirst) st = sort_first(c);
  // Whatever happened, the work the caller queues next waits for every transfer started.
  const Status joined = c.join_all(c.last_ticket);
  if (st == Status::Success) st = joined;
  if (times && st == Status::Success) *times = c.t;
  return st;
}

}  // namespace
}  // namespace detail

std::int64_t distributed_capacity(std::int64_t total_n, int ranks) {
  if (total_n <= 0 || ranks <= 0) return 0;
  const std::int64_t fair = (total_n + ranks - 1) / ranks;
  return fair + 2 * (total_n / (std::int64_t(ranks) * 128)) + 1;
}

template <class K>
std::size_t distributed_sort_keys_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks,
                                                  const DistributedOptions& options) {
  return detail::workspace_bytes<K, K, false>(n, capacity, ranks, detail::Local::Sort, 0, options.scheme);
}
template <class K, class V>
std::size_t distributed_sort_pairs_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks,
                                                   const DistributedOptions& options) {
  return detail::workspace_bytes<K, V, true>(n, capacity, ranks, detail::Local::Sort, 0, options.scheme);
}
template <class K>
std::size_t distributed_partition_keys_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks, int num_bits) {
  return detail::workspace_bytes<K, K, false>(n, capacity, ranks, detail::Local::Partition, num_bits,
                                              DistributedScheme::PartitionFirst);
}
template <class K, class V>
std::size_t distributed_partition_pairs_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks,
                                                        int num_bits) {
  return detail::workspace_bytes<K, V, true>(n, capacity, ranks, detail::Local::Partition, num_bits,
                                             DistributedScheme::PartitionFirst);
}

template <class K>
Status distributed_sort_keys(Exchange& ex, Shard<K>* shards, SortOrder order, int begin_bit, int end_bit,
                             DistributedTimes* times, const DistributedOptions& options) {
  return detail::run<K, K, false>(ex, shards, detail::Local::Sort, order, begin_bit, end_bit - begin_bit, times, options);
}
template <class K, class V>
Status distributed_sort_pairs(Exchange& ex, Shard<K, V>* shards, SortOrder order, int begin_bit, int end_bit,
                              DistributedTimes* times, const DistributedOptions& options) {
  return detail::run<K, V, true>(ex, shards, detail::Local::Sort, order, begin_bit, end_bit - begin_bit, times, options);
}
template <class K>
Status distributed_partition_keys(Exchange& ex, Shard<K>* shards, int begin_bit, int num_bits, DistributedTimes* times,
                                  const DistributedOptions& options) {
  return detail::run<K, K, false>(ex, shards, detail::Local::Partition, SortOrder::Ascending, begin_bit, num_bits, times,
                                  options);
}
template <class K, class V>
Status distributed_partition_pairs(Exchange& ex, Shard<K, V>* shards, int begin_bit, int num_bits,
                                   DistributedTimes* times, const DistributedOptions& options) {
  return detail::run<K, V, true>(ex, shards, detail::Local::Partition, SortOrder::Ascending, begin_bit, num_bits, times,
                                 options);
}

#define PRIMLAB_DISTRIBUTED_KEYS(K)                                                                                     \
  template std::size_t distributed_sort_keys_workspace_bytes<K>(std::int64_t, std::int64_t, int,                          \
                                                                const DistributedOptions&);                              \
  template std::size_t distributed_partition_keys_workspace_bytes<K>(std::int64_t, std::int64_t, int, int);              \
  template Status distributed_sort_keys<K>(Exchange&, Shard<K>*, SortOrder, int, int, DistributedTimes*,                 \
                                           const DistributedOptions&);                                                   \
  template Status distributed_partition_keys<K>(Exchange&, Shard<K>*, int, int, DistributedTimes*,                       \
                                                const DistributedOptions&);
#define PRIMLAB_DISTRIBUTED_PAIRS(K, V)                                                                                 \
  template std::size_t distributed_sort_pairs_workspace_bytes<K, V>(std::int64_t, std::int64_t, int,                     \
                                                                    const DistributedOptions&);                          \
  template std::size_t distributed_partition_pairs_workspace_bytes<K, V>(std::int64_t, std::int64_t, int, int);          \
  template Status distributed_sort_pairs<K, V>(Exchange&, Shard<K, V>*, SortOrder, int, int, DistributedTimes*,          \
                                               const DistributedOptions&);                                               \
  template Status distributed_partition_pairs<K, V>(Exchange&, Shard<K, V>*, int, int, DistributedTimes*,                \
                                                    const DistributedOptions&);
#define PRIMLAB_DISTRIBUTED_ALL_VALUES(K) \
  PRIMLAB_DISTRIBUTED_KEYS(K)             \
  PRIMLAB_DISTRIBUTED_PAIRS(K, std::uint32_t) \
  PRIMLAB_DISTRIBUTED_PAIRS(K, std::int32_t)  \
  PRIMLAB_DISTRIBUTED_PAIRS(K, float)         \
  PRIMLAB_DISTRIBUTED_PAIRS(K, std::uint64_t) \
  PRIMLAB_DISTRIBUTED_PAIRS(K, std::int64_t)  \
  PRIMLAB_DISTRIBUTED_PAIRS(K, double)
PRIMLAB_DISTRIBUTED_ALL_VALUES(std::uint32_t)
PRIMLAB_DISTRIBUTED_ALL_VALUES(std::int32_t)
PRIMLAB_DISTRIBUTED_ALL_VALUES(float)
PRIMLAB_DISTRIBUTED_ALL_VALUES(std::uint64_t)
PRIMLAB_DISTRIBUTED_ALL_VALUES(std::int64_t)
PRIMLAB_DISTRIBUTED_ALL_VALUES(double)
#undef PRIMLAB_DISTRIBUTED_ALL_VALUES
#undef PRIMLAB_DISTRIBUTED_PAIRS
#undef PRIMLAB_DISTRIBUTED_KEYS

}  // namespace primlab
