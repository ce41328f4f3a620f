// Sort and radix partition across the ranks of an Exchange: entry points, the steps of
// primlab/distributed.h, and explicit instantiations.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
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

int max_classes(int ranks) { return std::max(2 * ranks - 1, 1); }
std::int64_t tiles_of(std::int64_t n) { return (n + DistributedTuning::kTile - 1) / DistributedTuning::kTile; }

// What a call does with the keys that reach a rank.
enum class Local { Sort, Partition };

// How a call goes (primlab/distributed.h). PartitionFirst: partition each shard by destination
// and exchange it, chunk by chunk, then sort (or partition) what arrived. SortFirst (a sort on 1
// to 4 ranks): sort each shard, exchange its runs from where they lie, then merge the G sorted
// runs a rank holds, in ceil(log2 G) rounds of pairwise merges.
using Scheme = DistributedScheme;
constexpr int kSortFirstMaxRanks = 4;

// The schemes a call may run with these options: where Auto may take either, the workspace holds
// either.
bool may_run(Scheme scheme, Local local, int ranks, Scheme asked) {
  if (local == Local::Partition || ranks > kSortFirstMaxRanks) return scheme == Scheme::PartitionFirst;
  return asked == Scheme::Auto || asked == scheme;
}

// One rank's workspace, carved in this order; a scheme leaves the other's regions empty.
//  PartitionFirst: `stage` holds the shard partitioned by destination, chunk by chunk in the
//  shard's order, until the exchange has sent it, then the local sort's or partition's
//  workspace; `recv` what arrives (for a sort, d_keys_out instead); `aux` runs moved to their
//  receiver's alignment; per chunk, the class counts of its tiles and their scan.
//  SortFirst: `sorted` holds the shard sorted, whose runs the exchange sends from where they lie;
//  `recv` the runs of the other ranks, each at its sender's offset from a kRunAlign boundary;
//  `spare` the local sort's workspace, then the merge rounds' second buffer.
// Every region is a whole number of kAlign bytes, so each starts where the workspace does modulo
// kAlign.
template <class K, class V, bool PAIRS>
struct Layout {
  std::size_t stage_keys = 0, stage_values = 0, stage = 0, sorted_keys = 0, sorted_values = 0;
  std::size_t recv_keys = 0, recv_values = 0, aux_keys = 0, aux_values = 0;
  std::size_t spare_keys = 0, spare = 0, splits = 0;
  std::size_t tile_counts = 0, scan = 0, bucket_ws = 0, buckets = 0;
  std::size_t histogram = 0, lower = 0, starts = 0;
  std::size_t total = 0;

  Layout(std::int64_t n, std::int64_t capacity, int ranks, Local local, int num_bits, Scheme scheme) {
    const std::size_t un = std::size_t(std::max<std::int64_t>(n, 0));
    const std::size_t cap = std::size_t(std::max<std::int64_t>(capacity, 0));
    if (scheme == Scheme::SortFirst) {
      const std::size_t leads = 2 * kRunAlign * std::size_t(ranks);  // before each run, and to a boundary
      sorted_keys = aligned(un * sizeof(K));
      sorted_values = PAIRS ? aligned(un * sizeof(V)) : 0;
      recv_keys = aligned(cap * sizeof(K) + leads);
      recv_values = PAIRS ? aligned(cap * sizeof(V) + leads) : 0;
      spare_keys = aligned(cap * sizeof(K));
      spare = std::max(spare_keys + (PAIRS ? aligned(cap * sizeof(V)) : 0), aligned(sort_ws(n)));
      splits = aligned((cap / DistributedTuning::kMinMergeTile + 2) * sizeof(std::int64_t));
      starts = aligned(kMaxClasses * sizeof(std::int64_t));
    } else {
      // The aux copies of a call: at most the shard, plus under 16 bytes of padding per run.
      const std::size_t pad = kExchangeAlign * std::size_t(ranks) * kDistributedMaxChunks;
      stage_keys = aligned(un * sizeof(K));
      stage_values = PAIRS ? aligned(un * sizeof(V)) : 0;
      std::size_t local_ws = 0;
      if (local == Local::Sort) {
        local_ws = sort_ws(capacity);
      } else {
        local_ws = PAIRS ? radix_partition_pairs_workspace_bytes<K, V>(capacity, num_bits)
                         : radix_partition_keys_workspace_bytes<K>(capacity, num_bits);
        recv_keys = aligned(cap * sizeof(K));
        recv_values = PAIRS ? aligned(cap * sizeof(V)) : 0;
      }
      stage = std::max(stage_keys + stage_values, aligned(local_ws));
      aux_keys = aligned(un * sizeof(K) + pad);
      aux_values = PAIRS ? aligned(un * sizeof(V) + pad) : 0;
      // Chunks are whole tiles but the last, so that their tiles add up to the shard's.
      const std::size_t counts = std::size_t(max_classes(ranks)) * std::size_t(tiles_of(n));
      tile_counts = aligned(counts * sizeof(std::uint32_t));
      scan = aligned(scan_workspace_bytes<std::uint32_t>(std::int64_t(counts)));
      bucket_ws = aligned(PAIRS ? radix_partition_pairs_workspace_bytes<K, V>(n, kRadixBits)
                                : radix_partition_keys_workspace_bytes<K>(n, kRadixBits));
      buckets = aligned((kRadix + 1) * sizeof(std::uint32_t));
    }
    // The splitters' rounds: one histogram per cut, or the first round's per chunk.
    histogram = aligned(std::size_t(std::max({ranks - 1, kDistributedMaxChunks, 1})) * kRadix * sizeof(std::uint32_t));
    lower = aligned(kMaxClasses * sizeof(std::uint64_t));
    total = stage + sorted_keys + sorted_values + recv_keys + recv_values + aux_keys + aux_values + spare + splits +
            tile_counts + scan + bucket_ws + buckets + histogram + lower + starts;
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
  Workspace local;              // then the local step's workspace
  K* sorted_keys;               // SortFirst: the sorted shard
  V* sorted_values;
  unsigned char* recv_keys;
  unsigned char* recv_values;
  unsigned char* aux_keys;
  unsigned char* aux_values;
  Workspace spare;              // SortFirst: the local sort's workspace, then the merges' buffer
  K* spare_keys;
  V* spare_values;
  std::int64_t* splits;         // the merge's tiles
  std::uint32_t* tile_counts;
  Workspace scan;
  Workspace bucket_ws;          // the partition by the top digit
  std::uint32_t* buckets;       // and its offsets
  std::uint32_t* histogram;
  void* lower;
  std::int64_t* starts;

  Carved(const Layout<K, V, PAIRS>& l, Workspace ws) {
    unsigned char* p = static_cast<unsigned char*>(ws.ptr);
    auto take = [&p](std::size_t bytes) { unsigned char* at = p; p += bytes; return at; };
    stage = p;
    stage_values = p + l.stage_keys;
    local = {take(l.stage), l.stage};
    sorted_keys = reinterpret_cast<K*>(take(l.sorted_keys));
    sorted_values = reinterpret_cast<V*>(take(l.sorted_values));
    recv_keys = take(l.recv_keys);
    recv_values = take(l.recv_values);
    aux_keys = take(l.aux_keys);
    aux_values = take(l.aux_values);
    spare = {p, l.spare};
    spare_keys = reinterpret_cast<K*>(p);
    spare_values = reinterpret_cast<V*>(p + l.spare_keys);
    take(l.spare);
    splits = reinterpret_cast<std::int64_t*>(take(l.splits));
    tile_counts = reinterpret_cast<std::uint32_t*>(take(l.tile_counts));
    scan = {take(l.scan), l.scan};
    bucket_ws = {take(l.bucket_ws), l.bucket_ws};
    buckets = reinterpret_cast<std::uint32_t*>(take(l.buckets));
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
// where its workspace starts past a kRunAlign boundary (SortFirst's receivers need it to find the
// runs in the messages) and where its receive buffers start past a 16-byte boundary
// (PartitionFirst's senders cut each run at the receiver's boundary). The fields from kBegin on
// must agree.
enum Header {
  kStatus, kCount, kCapacity, kWorkspaceAt, kKeysRecvAt, kValuesRecvAt,
  kBegin, kBits, kOrder, kLocal, kKeySize, kValueSize, kScheme, kChunks, kHeaderSize
};

template <class K, class V, bool PAIRS>
Status check_shard(const Shard<K, V>& s, int ranks, Local local, int begin_bit, int num_bits,
                   const DistributedOptions& options) {
  constexpr int kKeyBits = int(sizeof(K) * 8);
  if (s.n < 0 || s.capacity < 0 || begin_bit < 0 || num_bits < 0 || begin_bit + num_bits > kKeyBits)
    return Status::InvalidArgument;
  if (local == Local::Partition && (num_bits < 1 || num_bits > kRadixPartitionMaxBits || s.d_offsets == nullptr))
    return Status::InvalidArgument;
  if (options.chunks < 0 || options.chunks > kDistributedMaxChunks ||
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
  int chunks = 1;
  std::vector<Carved<K, V, PAIRS>> ws;
  std::vector<std::int64_t> counts, capacities, ws_at, keys_recv_at, values_recv_at;  // per rank
  std::int64_t total = 0;
  int last_ticket = -1;  // the last transfer started
  DistributedTimes t;

  // Starts a transfer; when timing, waits for it.
  Status transfer(const std::vector<ExchangePlan>& plans, int parts, int* ticket) {
    PRIMLAB_TRY(ex.all_to_all_v(plans.data(), parts, ticket));
    last_ticket = *ticket;
    if (!clock.on()) return Status::Success;
    PRIMLAB_TRY(join_all(*ticket));
    return clock.lap(&t.exchange);
  }
  // Every driven rank's stream waits for the transfer `ticket` and those before it.
  Status join_all(int ticket) {
    for (int l = 0; l < L && ticket >= 0; ++l) PRIMLAB_TRY(ex.join(l, ticket));
    return Status::Success;
  }
};

// Which scheme and how many pieces: the options' where they say, else the measured choice for
// the rank count and the keys per rank (kernels/tuning/distributed.cuh). The same on every rank:
// it reads only what the ranks agreed on.
template <class K, class V, bool PAIRS>
void choose(Call<K, V, PAIRS>& c) {
  const std::int64_t per_rank = c.total / c.G;
  const DistributedTuning::Choice tuned = DistributedTuning::choice(c.G, PAIRS, per_rank);
  if (c.local == Local::Partition || c.G > kSortFirstMaxRanks) c.scheme = Scheme::PartitionFirst;
  else c.scheme = c.options.scheme != Scheme::Auto ? c.options.scheme : tuned.scheme;
  if (c.options.chunks > 0) {
    c.chunks = c.options.chunks;
  } else {
    c.chunks = tuned.scheme == c.scheme ? tuned.chunks : DistributedTuning::default_chunks(c.scheme);
    if (c.scheme == Scheme::PartitionFirst)
      c.chunks = int(std::max<std::int64_t>(1, std::min<std::int64_t>(c.chunks, per_rank / DistributedTuning::kMinChunkKeys)));
  }
  c.t.scheme = c.scheme;
  c.t.chunks = c.chunks;
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
    const bool to_out = c.local == Local::Sort;  // a sort receives into d_keys_out, a partition into `recv`
    h[kKeysRecvAt] = std::int64_t(offset_in(to_out ? static_cast<const void*>(s.d_keys_out) : s.ws.ptr, kExchangeAlign));
    h[kValuesRecvAt] = std::int64_t(offset_in(to_out ? static_cast<const void*>(s.d_values_out) : s.ws.ptr, kExchangeAlign));
    h[kBegin] = c.begin_bit;
    h[kBits] = c.num_bits;
    h[kOrder] = int(c.order);
    h[kLocal] = int(c.local);
    h[kKeySize] = sizeof(K) | (int(RadixKey<K>::kind) << 8);
    h[kValueSize] = PAIRS ? sizeof(V) : 0;
    h[kScheme] = int(c.options.scheme);
    h[kChunks] = c.options.chunks;
  }
  PRIMLAB_TRY(c.ex.all_gather(h_local.data(), kHeaderSize, h_all.data()));
  for (int r = 0; r < c.G; ++r) {
    const std::int64_t* h = &h_all[std::size_t(r) * kHeaderSize];
    if (h[kStatus] != 0) return static_cast<Status>(h[kStatus]);
    if (!std::equal(h + kBegin, h + kHeaderSize, &h_local[kBegin])) return Status::InvalidArgument;
    c.counts.push_back(h[kCount]);
    c.capacities.push_back(h[kCapacity]);
    c.ws_at.push_back(h[kWorkspaceAt]);
    c.keys_recv_at.push_back(h[kKeysRecvAt]);
    c.values_recv_at.push_back(h[kValuesRecvAt]);
    c.total += h[kCount];
  }
  choose(c);
  for (int l = 0; l < c.L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    c.ws.emplace_back(Layout<K, V, PAIRS>(s.n, s.capacity, c.G, c.local, c.num_bits, c.scheme), s.ws);
  }
  return c.clock.lap(&c.t.agree);
}

// A sort's cuts may land within 1/128 of a fair share of a bucket edge; a partition's are exact.
template <class K, class V, bool PAIRS>
SplitterSearch make_search(const Call<K, V, PAIRS>& c) {
  return SplitterSearch(c.num_bits, c.counts, c.local == Local::Sort ? c.total / (std::int64_t(c.G) * 128) : 0);
}

// PartitionFirst's chunk k of a shard of n keys: [first, end). Chunks are whole partition tiles
// but the last (some may be empty), so that their tiles add up to the shard's.
std::pair<std::int64_t, std::int64_t> chunk_range(std::int64_t n, int chunks, int k) {
  const std::int64_t len = tiles_of((n + chunks - 1) / chunks) * DistributedTuning::kTile;
  const std::int64_t first = std::min(n, k * len);
  return {first, std::min(n, first + len)};
}

// 2. Splitters: histograms of the buckets that hold a cut, until every cut is placed. The first
// round is a histogram of the range's top digit; where the shard's sort has counted it already
// (sorted_counts[l], SortFirst), it is read back from there. With chunk_counts, the first round
// counts each of the call's chunks apart and keeps their counts there ([l][chunk * 256 + digit]),
// for PartitionFirst to know each chunk's runs before it partitions.
template <class K, class V, bool PAIRS>
Status find_cuts(Call<K, V, PAIRS>& c, SplitterSearch& search, const std::vector<const std::uint32_t*>& sorted_counts,
                 std::vector<std::vector<std::uint32_t>>* chunk_counts) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  std::vector<std::uint32_t> h_hist;
  while (!search.done()) {
    const std::vector<SplitterQuery> queries = search.queries();
    const int d = search.digit_bits();
    const std::size_t slots = queries.size() << d;
    const bool first_round = queries.size() == 1 && queries[0].level == 0;
    // Where driven rank l's counts of this round are read back from.
    auto counted_by_sort = [&](int l) { return first_round && !sorted_counts.empty() && c.shards[l].n > 0; };
    const int pieces = first_round && chunk_counts ? c.chunks : 1;  // histograms per rank this round
    h_hist.assign(slots * pieces * c.L, 0);
    for (int l = 0; l < c.L; ++l) {
      const Shard<K, V>& s = c.shards[l];
      if (counted_by_sort(l)) continue;
      PRIMLAB_CUDA_TRY(cudaSetDevice(c.ex.device(l)));
      const cudaStream_t stream = c.ex.stream(l);
      PRIMLAB_CUDA_TRY(cudaMemsetAsync(c.ws[l].histogram, 0, slots * pieces * sizeof(std::uint32_t), stream));
      if (s.n == 0) continue;
      DeviceFacts facts;
      PRIMLAB_TRY(device_facts(facts));
      const Bits* keys = reinterpret_cast<const Bits*>(s.d_keys_in);
      if (first_round) {
        // A plain histogram of the top digit, per piece: the sort's upfront histogram kernel.
        using T = RadixSortTuning;
        constexpr int kChunk = T::kHistThreads * T::kHistItems;
        for (int k = 0; k < pieces; ++k) {
          const auto [first, end] = pieces > 1 ? chunk_range(s.n, pieces, k) : std::make_pair(std::int64_t(0), s.n);
          if (end == first) continue;
          const int grid = int(std::min<std::int64_t>((end - first + kChunk - 1) / kChunk,
                                                      std::int64_t(facts.sm_count) * T::kHistBlocksPerSm));
          onesweep::histogram_kernel<Bits, T::kHistThreads, T::kHistItems><<<grid, T::kHistThreads, 0, stream>>>(
              keys + first, end - first, c.begin_bit + c.num_bits - d, 1, (1u << d) - 1, c.codec.enc0, c.codec.enc1,
              c.ws[l].histogram + std::size_t(k) * slots, onesweep::ZeroFirst{});
          PRIMLAB_LAUNCH_TRY();
        }
        continue;
      }
      const std::int64_t blocks_needed = (s.n + DistributedTuning::kThreads - 1) / DistributedTuning::kThreads;
      const int grid = int(std::min<std::int64_t>(blocks_needed, std::int64_t(facts.sm_count) * DistributedTuning::kHistogramBlocksPerSm));
      for (std::size_t q0 = 0; q0 < queries.size(); q0 += DistributedTuning::kMaxQueries) {
        SplitterQueries<Bits> batch{};
        batch.count = int(std::min<std::size_t>(DistributedTuning::kMaxQueries, queries.size() - q0));
        batch.level = queries[q0].level;
        batch.digit_bits = d;
        for (int q = 0; q < batch.count; ++q) batch.prefix[q] = Bits(queries[q0 + q].prefix);
        splitter_histogram_kernel<Bits><<<grid, DistributedTuning::kThreads, (std::size_t(batch.count) << d) * sizeof(std::uint32_t), stream>>>(
            keys, s.n, c.image, batch, c.ws[l].histogram + (q0 << d));
        PRIMLAB_LAUNCH_TRY();
      }
    }
    // Read back once every rank's kernels are queued (a copy to pageable memory waits for them).
    for (int l = 0; l < c.L; ++l) {
      PRIMLAB_CUDA_TRY(cudaSetDevice(c.ex.device(l)));
      const std::uint32_t* counts = counted_by_sort(l) ? sorted_counts[l] : c.ws[l].histogram;
      const std::size_t words = counted_by_sort(l) ? slots : slots * pieces;
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_hist[slots * pieces * l], counts, words * sizeof(std::uint32_t),
                                       cudaMemcpyDeviceToHost, c.ex.stream(l)));
      PRIMLAB_CUDA_TRY(cudaStreamSynchronize(c.ex.stream(l)));
    }
    // The search sees each rank's whole histogram: the sum of its pieces'.
    std::vector<std::int64_t> h_counts(slots * c.L, 0), h_gathered(slots * c.G);
    for (int l = 0; l < c.L; ++l)
      for (int k = 0; k < pieces; ++k)
        for (std::size_t i = 0; i < slots; ++i) h_counts[slots * l + i] += h_hist[(std::size_t(l) * pieces + k) * slots + i];
    if (first_round && chunk_counts) {
      chunk_counts->assign(c.L, {});
      for (int l = 0; l < c.L; ++l)
        (*chunk_counts)[l].assign(h_hist.begin() + std::ptrdiff_t(slots * pieces * l),
                                  h_hist.begin() + std::ptrdiff_t(slots * pieces * (l + 1)));
    }
    PRIMLAB_TRY(c.ex.all_gather(h_counts.data(), slots, h_gathered.data()));
    search.answer(h_gathered);
  }
  c.t.splitter_rounds = search.rounds();
  return c.clock.lap(&c.t.splitters);
}

// 4. Who sends what: send[q * G + s] keys from sender q (rank q / per_rank's piece q % per_rank)
// to rank s. Every rank learns its share; if one does not fit, every rank stops before anything
// moves.
template <class K, class V, bool PAIRS>
Status plan_shares(Call<K, V, PAIRS>& c, int per_rank, int classes, const std::vector<std::int64_t>& class_all,
                   const std::vector<std::int64_t>& positions, std::vector<std::int64_t>& send) {
  const int G = c.G, Q = G * per_rank;
  send = send_counts(Q, G, classes, class_all, positions);
  std::vector<std::int64_t> share(G, 0);
  for (int q = 0; q < Q; ++q)
    for (int s = 0; s < G; ++s) {
      share[s] += send[std::size_t(q) * G + s];
      if (q / per_rank != s) c.t.moved += send[std::size_t(q) * G + s];
    }
  bool fits = true;
  for (int r = 0; r < G; ++r) fits = fits && share[r] <= c.capacities[r];
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

// PartitionFirst, steps 3 to 6: count each chunk's classes, then per chunk partition it by
// destination class and send it (chunk k travels while chunk k + 1 is partitioned), then sort or
// partition what arrived.
template <class K, class V, bool PAIRS>
Status partition_first(Call<K, V, PAIRS>& c) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  using VBits = typename Call<K, V, PAIRS>::VBits;
  const int G = c.G, L = c.L, KC = c.chunks, Q = G * KC;
  Exchange& ex = c.ex;
  SplitterSearch search = make_search(c);
  std::vector<std::vector<std::uint32_t>> chunk_hist;  // [l][chunk * 256 + digit of the order's image]
  PRIMLAB_TRY(find_cuts(c, search, {}, &chunk_hist));
  // [SECTION] 3. The classes, and every chunk's class counts and class starts in its staged keys.
  const std::vector<std::uint64_t> lower64 = class_lower_bounds(search.cuts(), c.num_bits);
  const std::vector<Bits> lower(lower64.begin(), lower64.end());
  const int C = int(lower.size());
  // Where every cut is a top-digit edge (the usual case, one round), the classes are runs of top
  // digits: a radix partition by that digit (one Onesweep pass) stages each chunk, in digit order
  // of the ascending image (for a descending order, its reverse), and the first round's counts
  // of the chunk give where each class lands. Otherwise a count kernel and a scan per chunk.
  const bool by_top_digit =
      c.num_bits >= kRadixBits && search.rounds() == 1 &&
      std::none_of(search.cuts().begin(), search.cuts().end(), [](const SplitterSearch::Cut& cut) { return cut.tie; });
  const int top_shift = c.num_bits - kRadixBits;
  const int top_begin = c.begin_bit + top_shift;
  const bool reversed = c.order == SortOrder::Descending;
  std::vector<std::int64_t> h_start(std::size_t(L) * KC * C, 0), h_class(std::size_t(L) * KC * C, 0);
  auto at = [&](int l, int k, int cls) { return (std::size_t(l) * KC + k) * C + cls; };
  std::vector<std::int64_t> tile_base(std::size_t(L) * KC, 0);  // chunk k's first tile count
  if (by_top_digit) {
    for (int l = 0; l < L; ++l)
      for (int k = 0; k < KC; ++k) {
        // Offsets of the ascending image's top digits in the staged chunk.
        const std::uint32_t* hist = &chunk_hist[l][std::size_t(k) * kRadix];
        std::vector<std::int64_t> off(kRadix + 1, 0);
        for (int d = 0; d < kRadix; ++d) off[d + 1] = off[d] + hist[reversed ? kRadix - 1 - d : d];
        for (int cls = 0; cls < C; ++cls) {
          // Class cls holds the top digits [lo, hi) of the order's image; reversed, the ascending
          // image's digits [256 - hi, 256 - lo).
          int lo = int(lower[cls] >> top_shift), hi = cls + 1 < C ? int(lower[cls + 1] >> top_shift) : kRadix;
          if (reversed) std::tie(lo, hi) = std::make_pair(kRadix - hi, kRadix - lo);
          h_start[at(l, k, cls)] = off[lo];
          h_class[at(l, k, cls)] = off[hi] - off[lo];
        }
      }
  } else {
    std::vector<std::uint32_t> h_first(std::size_t(L) * KC * C, 0);
    for (int l = 0; l < L; ++l) {
      const Shard<K, V>& s = c.shards[l];
      if (s.n == 0) continue;
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      const cudaStream_t stream = ex.stream(l);
      const Bits* d_lower = static_cast<const Bits*>(c.ws[l].lower);
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(c.ws[l].lower, lower.data(), C * sizeof(Bits), cudaMemcpyHostToDevice, stream));
      std::int64_t base = 0;
      for (int k = 0; k < KC; ++k) {
        const auto [first, end] = chunk_range(s.n, KC, k);
        tile_base[std::size_t(l) * KC + k] = base;
        const std::int64_t tiles = tiles_of(end - first);
        if (tiles == 0) continue;
        std::uint32_t* counts = c.ws[l].tile_counts + base;
        class_count_kernel<Bits><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(
            reinterpret_cast<const Bits*>(s.d_keys_in) + first, end - first, c.image, d_lower, C, counts);
        PRIMLAB_LAUNCH_TRY();
        PRIMLAB_TRY(exclusive_scan(counts, counts, std::int64_t(C) * tiles, 0u, Sum{}, c.ws[l].scan, stream));
        // The first tile's offset of each class: where the class starts in the chunk.
        PRIMLAB_CUDA_TRY(cudaMemcpy2DAsync(&h_first[at(l, k, 0)], sizeof(std::uint32_t), counts, tiles * sizeof(std::uint32_t),
                                           sizeof(std::uint32_t), C, cudaMemcpyDeviceToHost, stream));
        base += std::int64_t(C) * tiles;
      }
    }
    for (int l = 0; l < L; ++l) {
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      PRIMLAB_CUDA_TRY(cudaStreamSynchronize(ex.stream(l)));
      for (int k = 0; k < KC; ++k) {
        const auto [first, end] = chunk_range(c.shards[l].n, KC, k);
        for (int cls = 0; cls < C; ++cls) {
          const std::int64_t from = first == end ? 0 : h_first[at(l, k, cls)];
          const std::int64_t to = first == end ? 0 : cls + 1 < C ? h_first[at(l, k, cls + 1)] : end - first;
          h_start[at(l, k, cls)] = from;
          h_class[at(l, k, cls)] = to - from;
        }
      }
    }
  }
  std::vector<std::int64_t> h_class_all(std::size_t(Q) * C);
  PRIMLAB_TRY(ex.all_gather(h_class.data(), std::size_t(KC) * C, h_class_all.data()));
  PRIMLAB_TRY(c.clock.lap(&c.t.partition));

  // [SECTION] 4. Who sends what: the senders are the ranks' chunks, in the global input order.
  std::vector<std::int64_t> positions, send;
  for (const SplitterSearch::Cut& cut : search.cuts()) positions.push_back(cut.position);
  PRIMLAB_TRY(plan_shares(c, KC, C, h_class_all, positions, send));
  const std::vector<std::int64_t> landing = landing_offsets(Q, G, send);

  // [SECTION] 5. The pipeline: chunk by chunk, the partition, then its runs on their way. A
  // rank's own run is a device copy. A run to another rank lands in its place in the receiver's
  // result, and goes as a head of under 16 bytes and a body that starts on a 16-byte boundary on
  // both sides (from the staged keys where the run's start has the receiver's alignment, else
  // from a copy in `aux` that has it): NCCL copies a body with misaligned ends at 43 % of its
  // speed. The bodies of a chunk go in one transfer; every chunk's heads go last in one more: a
  // head in its body's NCCL group, to the same peer, halved the body's rate (2 x H100, 184
  // against 344 GB/s, bench/NOTES-distributed.md).
  const bool sort = c.local == Local::Sort;
  const int parts = PAIRS ? 2 : 1;
  auto recv_of = [&](int l, int part) -> unsigned char* {
    if (sort) return reinterpret_cast<unsigned char*>(part == 0 ? static_cast<void*>(c.shards[l].d_keys_out)
                                                                : static_cast<void*>(c.shards[l].d_values_out));
    return part == 0 ? c.ws[l].recv_keys : c.ws[l].recv_values;
  };
  auto stage_of = [&](int l, int part) { return part == 0 ? c.ws[l].stage : c.ws[l].stage_values; };
  auto aux_of = [&](int l, int part) { return part == 0 ? c.ws[l].aux_keys : c.ws[l].aux_values; };
  auto recv_at = [&](int r, int part) { return std::size_t(part == 0 ? c.keys_recv_at[r] : c.values_recv_at[r]); };
  const std::size_t elems[2] = {sizeof(Bits), sizeof(VBits)};
  Plans heads(G, L, KC * parts);
  std::vector<std::size_t> aux_used(std::size_t(L) * parts, 0);
  // Chunk k's moves of one part on driven rank l: the copies, and the bodies' and heads' sizes.
  auto plan = [&](int l, int k, int part, Plans& bodies) -> Status {
    const int me = ex.rank(l), q = me * KC + k;
    const std::size_t elem = elems[part];
    const cudaStream_t stream = ex.stream(l);
    unsigned char* base = static_cast<unsigned char*>(c.shards[l].ws.ptr);
    unsigned char* recv = recv_of(l, part);
    unsigned char* aux = aux_of(l, part);
    const unsigned char* chunk = stage_of(l, part) + std::size_t(chunk_range(c.shards[l].n, KC, k).first) * elem;
    const std::vector<std::int64_t> class_start(h_start.begin() + std::ptrdiff_t(at(l, k, 0)),
                                                h_start.begin() + std::ptrdiff_t(at(l, k, 0) + C));
    const std::vector<Run> runs = send_runs(Q, G, C, h_class_all, positions, q, class_start);
    std::size_t* head = heads.sizes(l, k * parts + part);
    std::size_t* body = bodies.sizes(l, part);
    for (int s = 0; s < G; ++s) {
      // Receiving from rank s its chunk k's run, which lands at `in_at`.
      const std::size_t in = std::size_t(send[(std::size_t(s) * KC + k) * G + me]) * elem;
      const std::size_t in_at = std::size_t(landing[(std::size_t(s) * KC + k) * G + me]) * elem;
      const std::size_t in_head = s == me ? 0 : head_bytes(recv_at(me, part) + in_at, in);
      head[2 * G + s] = in_head;
      head[3 * G + s] = in_at;
      body[2 * G + s] = s == me ? 0 : in - in_head;
      body[3 * G + s] = in_at + in_head;
      // Sending to rank s: the run lands at `out_at` of its receive buffer.
      const std::size_t out = std::size_t(runs[s].count) * elem;
      const std::size_t out_at = std::size_t(landing[std::size_t(q) * G + s]) * elem;
      const unsigned char* from = chunk + std::size_t(runs[s].offset) * elem;
      head[s] = body[s] = head[G + s] = body[G + s] = 0;
      if (s == me) {
        PRIMLAB_TRY(copy_run(from, recv + out_at, runs[s].count, elem, stream));
        continue;
      }
      if (out == 0) continue;
      const std::size_t dst = (recv_at(s, part) + out_at) % kExchangeAlign;  // the run's start at the receiver
      const std::size_t h = head_bytes(dst, out);
      if (out > h && (reinterpret_cast<std::uintptr_t>(from) + h) % kExchangeAlign != 0) {
        std::size_t& used = aux_used[std::size_t(l) * parts + part];
        used += (dst + kExchangeAlign - reinterpret_cast<std::uintptr_t>(aux + used) % kExchangeAlign) % kExchangeAlign;
        PRIMLAB_TRY(copy_run(from, aux + used, runs[s].count, elem, stream));
        from = aux + used;
        used += out;
      }
      head[s] = h;
      head[G + s] = std::size_t(from - base);
      body[s] = out - h;
      body[G + s] = head[G + s] + h;
    }
    heads.set(l, k * parts + part, base, recv);
    bodies.set(l, part, base, recv);
    return Status::Success;
  };
  int ticket = -1;
  for (int k = 0; k < KC; ++k) {
    for (int l = 0; l < L; ++l) {
      const Shard<K, V>& s = c.shards[l];
      const auto [first, end] = chunk_range(s.n, KC, k);
      if (end == first) continue;
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      const cudaStream_t stream = ex.stream(l);
      const K* keys_in = s.d_keys_in + first;
      const V* values_in = PAIRS ? s.d_values_in + first : nullptr;
      K* stage_keys = reinterpret_cast<K*>(c.ws[l].stage) + first;
      V* stage_values = reinterpret_cast<V*>(c.ws[l].stage_values) + first;
      if (by_top_digit) {
        if (PAIRS) {
          PRIMLAB_TRY(radix_partition_pairs(keys_in, stage_keys, values_in, stage_values, c.ws[l].buckets, end - first,
                                            top_begin, kRadixBits, c.ws[l].bucket_ws, stream));
        } else {
          PRIMLAB_TRY(radix_partition_keys(keys_in, stage_keys, c.ws[l].buckets, end - first, top_begin, kRadixBits,
                                           c.ws[l].bucket_ws, stream));
        }
        continue;
      }
      class_scatter_kernel<Bits, VBits, PAIRS><<<unsigned(tiles_of(end - first)), DistributedTuning::kThreads, 0, stream>>>(
          reinterpret_cast<const Bits*>(keys_in), reinterpret_cast<const VBits*>(values_in), end - first, c.image,
          static_cast<const Bits*>(c.ws[l].lower), C, c.ws[l].tile_counts + tile_base[std::size_t(l) * KC + k],
          reinterpret_cast<Bits*>(stage_keys), reinterpret_cast<VBits*>(stage_values));
      PRIMLAB_LAUNCH_TRY();
    }
    PRIMLAB_TRY(c.clock.lap(&c.t.partition));
    Plans bodies(G, L, parts);
    for (int l = 0; l < L; ++l) {
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      for (int part = 0; part < parts; ++part) PRIMLAB_TRY(plan(l, k, part, bodies));
    }
    PRIMLAB_TRY(c.transfer(bodies.plans, parts, &ticket));
  }
  PRIMLAB_TRY(c.transfer(heads.plans, KC * parts, &ticket));
  PRIMLAB_TRY(c.join_all(ticket));

  // [SECTION] 6. The local sort (or partition) of what arrived, in the stage's place.
  for (int l = 0; l < L; ++l) {
    Shard<K, V>& s = c.shards[l];
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    const int end_bit = c.begin_bit + c.num_bits;
    if (sort) {
      if (PAIRS) {
        PRIMLAB_TRY(radix_sort_pairs(s.d_keys_out, s.d_keys_out, s.d_values_out, s.d_values_out, s.count, c.order,
                                     c.begin_bit, end_bit, c.ws[l].local, stream));
      } else {
        PRIMLAB_TRY(radix_sort_keys(s.d_keys_out, s.d_keys_out, s.count, c.order, c.begin_bit, end_bit, c.ws[l].local, stream));
      }
    } else if (PAIRS) {
      PRIMLAB_TRY(radix_partition_pairs(reinterpret_cast<const K*>(c.ws[l].recv_keys), s.d_keys_out,
                                        reinterpret_cast<const V*>(c.ws[l].recv_values), s.d_values_out, s.d_offsets,
                                        s.count, c.begin_bit, c.num_bits, c.ws[l].local, stream));
    } else {
      PRIMLAB_TRY(radix_partition_keys(reinterpret_cast<const K*>(c.ws[l].recv_keys), s.d_keys_out, s.d_offsets, s.count,
                                       c.begin_bit, c.num_bits, c.ws[l].local, stream));
    }
  }
  return c.clock.lap(&c.t.local);
}

// SortFirst's exchange in steps: at step j (1 to G - 1) rank r sends to peer_to(r, j) and receives
// from peer_from(r, j), so that every pair of ranks meets in one step. For a power of two the
// peers pair up (r xor j): at step 1 every rank has the partner its first merge needs.
int peer_to(int me, int step, int G) { return (G & (G - 1)) == 0 ? me ^ step : (me + step) % G; }
int peer_from(int me, int step, int G) { return (G & (G - 1)) == 0 ? me ^ step : (me - step + G) % G; }

// SortFirst, steps 3 to 6: sort each shard, find where its classes begin, exchange the runs from
// where they lie, then merge the runs each rank holds.
template <class K, class V, bool PAIRS>
Status sort_first(Call<K, V, PAIRS>& c) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  using VBits = typename Call<K, V, PAIRS>::VBits;
  const int G = c.G, L = c.L;
  Exchange& ex = c.ex;
  const int end_bit = c.begin_bit + c.num_bits;
  // [SECTION] 3. The local sort, then the splitters (the sort has taken their first histogram
  // where the range is whole digits), then where each class begins: in a sorted shard, the
  // classes lie in class order.
  std::vector<const std::uint32_t*> sorted_counts;
  const int passes = (c.num_bits + kRadixBits - 1) / kRadixBits;
  for (int l = 0; l < L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    const Carved<K, V, PAIRS>& w = c.ws[l];
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
  PRIMLAB_TRY(find_cuts(c, search, sorted_counts, nullptr));
  const std::vector<std::uint64_t> lower64 = class_lower_bounds(search.cuts(), c.num_bits);
  const std::vector<Bits> lower(lower64.begin(), lower64.end());
  const int C = int(lower.size());
  for (int l = 0; l < L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    if (s.n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    const Carved<K, V, PAIRS>& w = c.ws[l];
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(w.lower, lower.data(), C * sizeof(Bits), cudaMemcpyHostToDevice, stream));
    class_starts_kernel<Bits><<<1, kMaxClasses, 0, stream>>>(reinterpret_cast<const Bits*>(w.sorted_keys), s.n, c.image,
                                                             static_cast<const Bits*>(w.lower), C, w.starts);
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

  // [SECTION] 4. Who sends what, and where every rank's runs lie in its sorted shard.
  std::vector<std::int64_t> positions, send;
  for (const SplitterSearch::Cut& cut : search.cuts()) positions.push_back(cut.position);
  PRIMLAB_TRY(plan_shares(c, 1, C, h_class_all, positions, send));
  std::vector<std::vector<Run>> runs_of(G);  // runs_of[r][s]: rank r's run for rank s
  for (int r = 0; r < G; ++r) {
    std::vector<std::int64_t> start(C, 0);
    for (int k = 1; k < C; ++k) start[k] = start[k - 1] + h_class_all[std::size_t(C) * r + k - 1];
    runs_of[r] = send_runs(G, G, C, h_class_all, positions, r, start);
  }

  // [SECTION] 5. The exchange, keys and values in one transfer. Each run goes from where it lies in
  // its sender's sorted shard, as one message from the kRunAlign boundary below it (the bytes
  // before the run come along); the receiver lands the message on a boundary of its own, so that
  // both ends are aligned and nothing is copied first. A rank's own run stays where it is.
  const int parts = PAIRS ? 2 : 1;
  Plans plans(G, L, parts);
  std::vector<std::size_t> landed(std::size_t(L) * G * 2);  // [l][s][keys, values]: the run's byte offset in recv
  auto plan = [&](int part, std::size_t elem, auto sorted_of, auto recv_of) {
    for (int l = 0; l < L; ++l) {
      const int me = ex.rank(l);
      const unsigned char* base = reinterpret_cast<const unsigned char*>(sorted_of(l));
      unsigned char* recv = recv_of(l);
      std::size_t* w = plans.sizes(l, part);  // send bytes, send offsets, receive bytes, receive offsets
      std::fill(w, w + 4 * G, std::size_t(0));
      std::size_t at = 0;
      for (int s = 0; s < G; ++s) {
        if (s == me) continue;
        // The bytes before a run that its message carries: to the boundary below it, where the
        // shard has them (a shard that starts off a boundary may not).
        auto lead = [&](std::size_t shard_at, std::size_t off) { return std::min((shard_at + off) % kRunAlign, off); };
        const Run& in = runs_of[s][me];
        const std::size_t in_off = std::size_t(in.offset) * elem, in_lead = lead(std::size_t(c.ws_at[s]), in_off);
        at += (kRunAlign - offset_in(recv + at, kRunAlign)) % kRunAlign;
        w[2 * G + s] = in.count > 0 ? in_lead + std::size_t(in.count) * elem : 0;
        w[3 * G + s] = at;
        landed[(std::size_t(l) * G + s) * 2 + part] = at + in_lead;
        at += w[2 * G + s];
        const Run& out = runs_of[me][s];
        const std::size_t out_off = std::size_t(out.offset) * elem, out_lead = lead(offset_in(base, kRunAlign), out_off);
        w[s] = out.count > 0 ? out_lead + std::size_t(out.count) * elem : 0;
        w[G + s] = out_off - out_lead;
      }
      plans.set(l, part, base, recv);
    }
  };
  plan(0, sizeof(Bits), [&](int l) { return c.ws[l].sorted_keys; }, [&](int l) { return c.ws[l].recv_keys; });
  if (PAIRS) plan(1, sizeof(VBits), [&](int l) { return c.ws[l].sorted_values; }, [&](int l) { return c.ws[l].recv_values; });
  // In one transfer, or peer by peer (chunks > 1): arrival[l * G + r] is the transfer that brings
  // rank r's run to driven rank l.
  std::vector<int> arrival(std::size_t(L) * G, -1);
  int ticket = -1;
  if (c.chunks <= 1 || G <= 2) {
    PRIMLAB_TRY(c.transfer(plans.plans, parts, &ticket));
    for (int l = 0; l < L; ++l)
      for (int r = 0; r < G; ++r)
        if (r != ex.rank(l)) arrival[std::size_t(l) * G + r] = ticket;
  } else {
    for (int step = 1; step < G; ++step) {
      Plans one(G, L, parts);
      for (int l = 0; l < L; ++l) {
        const int me = ex.rank(l), to = peer_to(me, step, G), from = peer_from(me, step, G);
        for (int part = 0; part < parts; ++part) {
          const std::size_t* w = plans.sizes(l, part);
          std::size_t* v = one.sizes(l, part);
          v[to] = w[to];
          v[G + to] = w[G + to];
          v[2 * G + from] = w[2 * G + from];
          v[3 * G + from] = w[3 * G + from];
          const ExchangePlan& p = plans.plans[std::size_t(l) * parts + part];
          one.set(l, part, p.d_send, p.d_recv);
        }
      }
      PRIMLAB_TRY(c.transfer(one.plans, parts, &ticket));
      for (int l = 0; l < L; ++l) arrival[std::size_t(l) * G + peer_from(ex.rank(l), step, G)] = ticket;
    }
  }

  // [SECTION] 6. The merge of the G sorted runs a rank holds, in rank order: equal keys keep the
  // order of (rank, position). A merge waits only for the transfers of its own runs.
  constexpr int kKeyBits = int(sizeof(Bits) * 8);
  const Bits range = c.num_bits == kKeyBits ? ~Bits(0)
                                            : Bits(((Bits(1) << c.num_bits) - 1) << c.begin_bit);
  const MergeOrder<Bits> merge_order{c.codec.enc0, c.codec.enc1, c.codec.dec0, c.codec.dec1, range};
  for (int l = 0; l < L; ++l) {
    Shard<K, V>& s = c.shards[l];
    const Carved<K, V, PAIRS>& w = c.ws[l];
    const int me = ex.rank(l);
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    std::vector<SortedRun<Bits, VBits>> runs;
    for (int r = 0; r < G; ++r) {
      const std::int64_t count = runs_of[r][me].count;
      const std::size_t* at = &landed[(std::size_t(l) * G + r) * 2];
      if (r == me) {
        runs.push_back({reinterpret_cast<const Bits*>(w.sorted_keys) + runs_of[me][me].offset,
                        reinterpret_cast<const VBits*>(w.sorted_values) + runs_of[me][me].offset, count, -1});
      } else {
        runs.push_back({reinterpret_cast<const Bits*>(w.recv_keys + at[0]),
                        reinterpret_cast<const VBits*>(w.recv_values + at[1]), count, arrival[std::size_t(l) * G + r]});
      }
    }
    auto wait_for = [&](int t) { return t >= 0 ? ex.join(l, t) : Status::Success; };
    PRIMLAB_TRY((merge_runs<Bits, VBits, PAIRS>(runs, merge_order, w.splits, reinterpret_cast<Bits*>(s.d_keys_out),
                                                reinterpret_cast<VBits*>(s.d_values_out), reinterpret_cast<Bits*>(w.spare_keys),
                                                reinterpret_cast<VBits*>(w.spare_values), wait_for, ex.stream(l))));
  }
  return c.clock.lap(&c.t.local);
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
  if (st == Status::Success) st = c.scheme == Scheme::SortFirst ? sort_first(c) : partition_first(c);
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
