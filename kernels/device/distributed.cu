// Sort and radix partition across the ranks of an Exchange: entry points, the steps of
// primlab/distributed.h, and explicit instantiations.
#include <algorithm>
#include <chrono>
#include <limits>
#include <tuple>
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
// NCCL moves a run at full speed only when its start has the same 16-byte alignment on both sides
// (H200, 2^28 u32 per GPU: 327 GB/s per GPU aligned, 139 at 4-byte offsets, as bytes or as u32
// elements; 327 with odd lengths; bench/NOTES-distributed.md).
constexpr std::size_t kExchangeAlign = 16;
// SortFirst sends each run from the boundary of this many bytes below it, into a receive buffer
// that lands it on one; 256 is past any alignment NCCL's copies ask for.
constexpr std::size_t kRunAlign = 256;
std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }
std::size_t offset_in(const void* p, std::size_t align) { return reinterpret_cast<std::uintptr_t>(p) % align; }
// PartitionFirst sends a run that starts `misalign` bytes past a 16-byte boundary as a head of
// under 16 bytes, then a body that starts on the boundary.
std::size_t head_bytes(std::size_t misalign, std::size_t bytes) {
  return std::min(bytes, (kExchangeAlign - misalign % kExchangeAlign) % kExchangeAlign);
}

int max_classes(int ranks) { return std::max(2 * ranks - 1, 1); }
std::int64_t tiles_of(std::int64_t n) { return (n + DistributedTuning::kTile - 1) / DistributedTuning::kTile; }

// What a call does with the keys that reach a rank.
enum class Local { Sort, Partition };

// How a call goes. PartitionFirst: partition each shard by destination, exchange, then sort (or
// partition) what arrived. SortFirst (a sort on 2 to 4 ranks): sort each shard, exchange its runs
// from where they lie, then merge the G sorted runs that a rank holds, in ceil(log2 G) rounds of
// pairwise merges. A merge round costs less than the partition pass it replaces (2 x H100, 2^28
// u32 per GPU: 1.0 ms against 1.8), and the runs need no move to the receiver's alignment
// (bench/NOTES-distributed.md).
enum class Scheme { PartitionFirst, SortFirst };
constexpr int kSortFirstMaxRanks = 4;
Scheme scheme_of(Local local, int ranks) {
  return local == Local::Sort && ranks >= 2 && ranks <= kSortFirstMaxRanks ? Scheme::SortFirst : Scheme::PartitionFirst;
}

// One rank's workspace, carved in this order; a scheme leaves the other's regions empty.
//  PartitionFirst: `stage` holds the shard partitioned by destination until the exchange has sent
//  it, then the local sort's or partition's workspace; `recv` what arrives, in rank order; `aux`
//  runs moved to their receiver's alignment.
//  SortFirst: `sorted` holds the shard sorted, whose runs the exchange sends from where they lie;
//  `recv` the runs of the other ranks, each at its sender's offset from a kRunAlign boundary;
//  `spare` the local sort's workspace, then the merge rounds' second buffer.
template <class K, class V, bool PAIRS>
struct Layout {
  std::size_t stage_keys = 0, stage_values = 0, stage = 0, sorted_keys = 0, sorted_values = 0;
  std::size_t recv_keys = 0, recv_values = 0, aux_keys = 0, aux_values = 0;
  std::size_t spare_keys = 0, spare = 0, splits = 0;
  std::size_t tile_counts = 0, scan = 0, bucket_ws = 0, buckets = 0;
  std::size_t histogram = 0, lower = 0, starts = 0;
  std::size_t total = 0;

  Layout(std::int64_t n, std::int64_t capacity, int ranks, Local local, int num_bits) {
    const std::size_t un = std::size_t(std::max<std::int64_t>(n, 0));
    const std::size_t cap = std::size_t(std::max<std::int64_t>(capacity, 0));
    const std::size_t pad = kExchangeAlign * std::size_t(ranks);
    if (scheme_of(local, ranks) == Scheme::SortFirst) {
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
      const std::size_t counts = std::size_t(max_classes(ranks)) * std::size_t(tiles_of(n));
      tile_counts = aligned(counts * sizeof(std::uint32_t));
      scan = aligned(scan_workspace_bytes<std::uint32_t>(std::int64_t(counts)));
      bucket_ws = aligned(PAIRS ? radix_partition_pairs_workspace_bytes<K, V>(n, kRadixBits)
                                : radix_partition_keys_workspace_bytes<K>(n, kRadixBits));
      buckets = aligned((kRadix + 1) * sizeof(std::uint32_t));
    }
    histogram = aligned(std::size_t(std::max(ranks - 1, 1)) * kRadix * sizeof(std::uint32_t));
    lower = aligned(kMaxClasses * sizeof(std::uint64_t));
    total = stage + sorted_keys + sorted_values + recv_keys + recv_values + aux_keys + aux_values + spare + splits +
            tile_counts + scan + bucket_ws + buckets + histogram + lower + starts;
  }

  static std::size_t sort_ws(std::int64_t count) {
    return PAIRS ? radix_sort_pairs_workspace_bytes<K, V>(count) : radix_sort_keys_workspace_bytes<K>(count);
  }
};

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

// The first collective: every rank's status and arguments, so that all ranks go on or all stop,
// and where its sorted keys and values start past a kRunAlign boundary (SortFirst's receivers
// need it to find the runs in the messages). The fields from kBegin on must agree.
enum Header {
  kStatus, kCount, kCapacity, kKeysAt, kValuesAt, kBegin, kBits, kOrder, kLocal, kKeySize, kValueSize, kHeaderSize
};

template <class K, class V, bool PAIRS>
Status check_shard(const Shard<K, V>& s, int ranks, Local local, int begin_bit, int num_bits) {
  constexpr int kKeyBits = int(sizeof(K) * 8);
  if (s.n < 0 || s.capacity < 0 || begin_bit < 0 || num_bits < 0 || begin_bit + num_bits > kKeyBits)
    return Status::InvalidArgument;
  if (local == Local::Partition && (num_bits < 1 || num_bits > kRadixPartitionMaxBits || s.d_offsets == nullptr))
    return Status::InvalidArgument;
  if (s.n > std::numeric_limits<std::int32_t>::max() || s.capacity > std::numeric_limits<std::int32_t>::max())
    return Status::Unsupported;
  if ((s.n > 0 && (!s.d_keys_in || (PAIRS && !s.d_values_in))) ||
      (s.capacity > 0 && (!s.d_keys_out || (PAIRS && !s.d_values_out))))
    return Status::InvalidArgument;
  if (s.n > 0 && s.capacity > 0 &&
      (static_cast<const void*>(s.d_keys_in) == s.d_keys_out ||
       (PAIRS && static_cast<const void*>(s.d_values_in) == s.d_values_out)))
    return Status::InvalidArgument;
  const Layout<K, V, PAIRS> layout(s.n, s.capacity, ranks, local, num_bits);
  if (s.ws.bytes < layout.total) return Status::WorkspaceTooSmall;
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

template <class Bits, class VBits>
struct SortedRun {
  const Bits* keys;
  const VBits* values;
  std::int64_t count;
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
// where it arrived), the last merges into out. A lone run is copied to out.
template <class Bits, class VBits, bool PAIRS>
Status merge_runs(std::vector<SortedRun<Bits, VBits>> runs, const MergeOrder<Bits>& order, std::int64_t* d_splits, Bits* out,
                  VBits* out_values, Bits* spare, VBits* spare_values, cudaStream_t stream) {
  runs.erase(std::remove_if(runs.begin(), runs.end(), [](const SortedRun<Bits, VBits>& r) { return r.count == 0; }),
             runs.end());
  if (runs.empty()) return Status::Success;
  if (runs.size() == 1) {
    PRIMLAB_TRY(copy_run(runs[0].keys, out, runs[0].count, sizeof(Bits), stream));
    return PAIRS ? copy_run(runs[0].values, out_values, runs[0].count, sizeof(VBits), stream) : Status::Success;
  }
  if (runs.size() > 2) {
    std::vector<SortedRun<Bits, VBits>> next;
    std::int64_t at = 0;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      if (i + 1 == runs.size()) {
        next.push_back(runs[i]);
        break;
      }
      Bits* keys = spare + at;
      VBits* values = PAIRS ? spare_values + at : nullptr;
      PRIMLAB_TRY((merge_two<Bits, VBits, PAIRS>(runs[i], runs[i + 1], order, d_splits, keys, values, stream)));
      next.push_back({keys, values, runs[i].count + runs[i + 1].count});
      at += next.back().count;
    }
    runs = next;
  }
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
  int G, L;
  std::vector<Carved<K, V, PAIRS>> ws;
  KeyCodec<Bits> codec;
  RangeImage<Bits> image;
  std::vector<std::int64_t> counts, capacities, keys_at, values_at;  // per rank
  std::int64_t total = 0;
  DistributedTimes t;
  Stopwatch clock;
};

// 1. Every rank's status and arguments: all ranks go on, or all stop with the first error.
template <class K, class V, bool PAIRS>
Status agree(Call<K, V, PAIRS>& c) {
  std::vector<std::int64_t> h_local(std::size_t(c.L) * kHeaderSize), h_all(std::size_t(c.G) * kHeaderSize);
  for (int l = 0; l < c.L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    std::int64_t* h = &h_local[std::size_t(l) * kHeaderSize];
    h[kStatus] = int(check_shard<K, V, PAIRS>(s, c.G, c.local, c.begin_bit, c.num_bits));
    h[kCount] = s.n;
    h[kCapacity] = s.capacity;
    if (h[kStatus] == 0) {
      c.ws.emplace_back(Layout<K, V, PAIRS>(s.n, s.capacity, c.G, c.local, c.num_bits), s.ws);
      h[kKeysAt] = std::int64_t(offset_in(c.ws.back().sorted_keys, kRunAlign));
      h[kValuesAt] = std::int64_t(offset_in(c.ws.back().sorted_values, kRunAlign));
    }
    h[kBegin] = c.begin_bit;
    h[kBits] = c.num_bits;
    h[kOrder] = int(c.order);
    h[kLocal] = int(c.local);
    h[kKeySize] = sizeof(K) | (int(RadixKey<K>::kind) << 8);
    h[kValueSize] = PAIRS ? sizeof(V) : 0;
  }
  PRIMLAB_TRY(c.ex.all_gather(h_local.data(), kHeaderSize, h_all.data()));
  for (int r = 0; r < c.G; ++r) {
    const std::int64_t* h = &h_all[std::size_t(r) * kHeaderSize];
    if (h[kStatus] != 0) return static_cast<Status>(h[kStatus]);
    if (!std::equal(h + kBegin, h + kHeaderSize, &h_local[kBegin])) return Status::InvalidArgument;
    c.counts.push_back(h[kCount]);
    c.capacities.push_back(h[kCapacity]);
    c.keys_at.push_back(h[kKeysAt]);
    c.values_at.push_back(h[kValuesAt]);
    c.total += h[kCount];
  }
  return c.clock.lap(&c.t.agree);
}

// A sort's cuts may land within 1/128 of a fair share of a bucket edge; a partition's are exact.
template <class K, class V, bool PAIRS>
SplitterSearch make_search(const Call<K, V, PAIRS>& c) {
  return SplitterSearch(c.num_bits, c.counts, c.local == Local::Sort ? c.total / (std::int64_t(c.G) * 128) : 0);
}

// 2. Splitters: histograms of the buckets that hold a cut, until every cut is placed. The first
// round is a histogram of the range's top digit; where the shard's sort has counted it already
// (sorted_counts[l], SortFirst), it is read back from there.
template <class K, class V, bool PAIRS>
Status find_cuts(Call<K, V, PAIRS>& c, SplitterSearch& search,
                 const std::vector<const std::uint32_t*>& sorted_counts = {}) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  std::vector<std::uint32_t> h_hist;
  while (!search.done()) {
    const std::vector<SplitterQuery> queries = search.queries();
    const int d = search.digit_bits();
    const std::size_t slots = queries.size() << d;
    const bool first_round = queries.size() == 1 && queries[0].level == 0;
    // Where driven rank l's counts of this round are read back from.
    auto counted_by_sort = [&](int l) { return first_round && !sorted_counts.empty() && c.shards[l].n > 0; };
    h_hist.assign(slots * c.L, 0);
    for (int l = 0; l < c.L; ++l) {
      const Shard<K, V>& s = c.shards[l];
      if (counted_by_sort(l)) continue;
      PRIMLAB_CUDA_TRY(cudaSetDevice(c.ex.device(l)));
      const cudaStream_t stream = c.ex.stream(l);
      PRIMLAB_CUDA_TRY(cudaMemsetAsync(c.ws[l].histogram, 0, slots * sizeof(std::uint32_t), stream));
      if (s.n == 0) continue;
      DeviceFacts facts;
      PRIMLAB_TRY(device_facts(facts));
      const Bits* keys = reinterpret_cast<const Bits*>(s.d_keys_in);
      if (first_round) {
        // A plain histogram of the top digit: the sort's upfront histogram kernel.
        using T = RadixSortTuning;
        constexpr int kChunk = T::kHistThreads * T::kHistItems;
        const int grid = int(std::min<std::int64_t>((s.n + kChunk - 1) / kChunk, std::int64_t(facts.sm_count) * T::kHistBlocksPerSm));
        onesweep::histogram_kernel<Bits, T::kHistThreads, T::kHistItems><<<grid, T::kHistThreads, 0, stream>>>(
            keys, s.n, c.begin_bit + c.num_bits - d, 1, (1u << d) - 1, c.codec.enc0, c.codec.enc1, c.ws[l].histogram,
            onesweep::ZeroFirst{});
        PRIMLAB_LAUNCH_TRY();
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
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_hist[slots * l], counts, slots * sizeof(std::uint32_t),
                                       cudaMemcpyDeviceToHost, c.ex.stream(l)));
      PRIMLAB_CUDA_TRY(cudaStreamSynchronize(c.ex.stream(l)));
    }
    std::vector<std::int64_t> h_counts(h_hist.begin(), h_hist.end()), h_gathered(slots * c.G);
    PRIMLAB_TRY(c.ex.all_gather(h_counts.data(), slots, h_gathered.data()));
    search.answer(h_gathered);
  }
  c.t.splitter_rounds = search.rounds();
  return c.clock.lap(&c.t.splitters);
}

// 4. Who sends what: send[r * G + s] keys from rank r to rank s. Every rank learns its share; if
// one does not fit, every rank stops before anything moves.
template <class K, class V, bool PAIRS>
Status plan_shares(Call<K, V, PAIRS>& c, int classes, const std::vector<std::int64_t>& class_all,
                   const std::vector<std::int64_t>& positions, std::vector<std::int64_t>& send) {
  const int G = c.G;
  send = send_counts(G, classes, class_all, positions);
  std::vector<std::int64_t> share(G, 0);
  for (int r = 0; r < G; ++r)
    for (int s = 0; s < G; ++s) share[s] += send[std::size_t(r) * G + s];
  bool fits = true;
  for (int r = 0; r < G; ++r) fits = fits && share[r] <= c.capacities[r];
  for (int l = 0; l < c.L; ++l) c.shards[l].count = share[c.ex.rank(l)];
  c.t.largest = *std::max_element(share.begin(), share.end());
  for (int r = 0; r < G; ++r) c.t.moved += share[r] - send[std::size_t(r) * G + r];
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

// PartitionFirst, steps 3 to 6: partition each shard by destination class, exchange, then sort or
// partition what arrived.
template <class K, class V, bool PAIRS>
Status partition_first(Call<K, V, PAIRS>& c) {
  using Bits = typename Call<K, V, PAIRS>::Bits;
  using VBits = typename Call<K, V, PAIRS>::VBits;
  const int G = c.G, L = c.L;
  Exchange& ex = c.ex;
  SplitterSearch search = make_search(c);
  PRIMLAB_TRY(find_cuts(c, search));
  // [SECTION] 3. The stable local partition into classes, and every rank's class counts.
  const std::vector<std::uint64_t> lower64 = class_lower_bounds(search.cuts(), c.num_bits);
  const std::vector<Bits> lower(lower64.begin(), lower64.end());
  const int C = int(lower.size());
  // Where every cut is a top-digit edge (the usual case, one round), the classes are runs of top
  // digits: a radix partition by that digit (one Onesweep pass) stages them, in digit order of
  // the ascending image (for a descending order, its reverse).
  const bool by_top_digit =
      c.num_bits >= kRadixBits && search.rounds() == 1 &&
      std::none_of(search.cuts().begin(), search.cuts().end(), [](const SplitterSearch::Cut& cut) { return cut.tie; });
  const int top_shift = c.num_bits - kRadixBits;
  const int top_begin = c.begin_bit + top_shift;
  const bool reversed = c.order == SortOrder::Descending;
  std::vector<std::uint32_t> h_first(std::size_t(by_top_digit ? kRadix + 1 : C) * L);
  for (int l = 0; l < L; ++l) {
    const Shard<K, V>& s = c.shards[l];
    if (s.n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    K* stage_keys = reinterpret_cast<K*>(c.ws[l].stage);
    V* stage_values = reinterpret_cast<V*>(c.ws[l].stage_values);
    if (by_top_digit) {
      if (PAIRS) {
        PRIMLAB_TRY(radix_partition_pairs(s.d_keys_in, stage_keys, s.d_values_in, stage_values, c.ws[l].buckets, s.n,
                                          top_begin, kRadixBits, c.ws[l].bucket_ws, stream));
      } else {
        PRIMLAB_TRY(radix_partition_keys(s.d_keys_in, stage_keys, c.ws[l].buckets, s.n, top_begin, kRadixBits,
                                         c.ws[l].bucket_ws, stream));
      }
      continue;
    }
    const std::int64_t tiles = tiles_of(s.n);
    const Bits* d_lower = static_cast<const Bits*>(c.ws[l].lower);
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(c.ws[l].lower, lower.data(), C * sizeof(Bits), cudaMemcpyHostToDevice, stream));
    const Bits* keys = reinterpret_cast<const Bits*>(s.d_keys_in);
    class_count_kernel<Bits><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(keys, s.n, c.image, d_lower, C,
                                                                                    c.ws[l].tile_counts);
    PRIMLAB_LAUNCH_TRY();
    PRIMLAB_TRY(exclusive_scan(c.ws[l].tile_counts, c.ws[l].tile_counts, std::int64_t(C) * tiles, 0u, Sum{}, c.ws[l].scan, stream));
    class_scatter_kernel<Bits, VBits, PAIRS><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(
        keys, reinterpret_cast<const VBits*>(s.d_values_in), s.n, c.image, d_lower, C, c.ws[l].tile_counts,
        reinterpret_cast<Bits*>(stage_keys), reinterpret_cast<VBits*>(stage_values));
    PRIMLAB_LAUNCH_TRY();
  }
  // Per driven rank: where each class starts in its staged keys, and how many it holds.
  std::vector<std::int64_t> h_start(std::size_t(C) * L, 0), h_class(std::size_t(C) * L, 0),
      h_class_all(std::size_t(C) * G);
  for (int l = 0; l < L; ++l) {
    if (c.shards[l].n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    if (by_top_digit) {
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_first[std::size_t(kRadix + 1) * l], c.ws[l].buckets,
                                       (kRadix + 1) * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
    } else {  // the first tile's offset of each class: where the class starts
      const std::int64_t tiles = tiles_of(c.shards[l].n);
      PRIMLAB_CUDA_TRY(cudaMemcpy2DAsync(&h_first[std::size_t(C) * l], sizeof(std::uint32_t), c.ws[l].tile_counts,
                                         tiles * sizeof(std::uint32_t), sizeof(std::uint32_t), C,
                                         cudaMemcpyDeviceToHost, stream));
    }
    PRIMLAB_CUDA_TRY(cudaStreamSynchronize(stream));
    for (int k = 0; k < C; ++k) {
      std::int64_t first = 0, end = 0;
      if (by_top_digit) {
        // Class k holds the top digits [lo, hi) of the order's image; reversed, the ascending
        // image's digits [256 - hi, 256 - lo).
        const std::uint32_t* off = &h_first[std::size_t(kRadix + 1) * l];
        std::uint32_t lo = std::uint32_t(lower[k] >> top_shift), hi = k + 1 < C ? std::uint32_t(lower[k + 1] >> top_shift) : kRadix;
        if (reversed) std::tie(lo, hi) = std::make_pair(kRadix - hi, kRadix - lo);
        first = off[lo];
        end = off[hi];
      } else {
        first = h_first[std::size_t(C) * l + k];
        end = k + 1 < C ? h_first[std::size_t(C) * l + k + 1] : c.shards[l].n;
      }
      h_start[std::size_t(C) * l + k] = first;
      h_class[std::size_t(C) * l + k] = end - first;
    }
  }
  PRIMLAB_TRY(ex.all_gather(h_class.data(), C, h_class_all.data()));
  PRIMLAB_TRY(c.clock.lap(&c.t.partition));

  // [SECTION] 4. Who sends what.
  std::vector<std::int64_t> positions, send;
  for (const SplitterSearch::Cut& cut : search.cuts()) positions.push_back(cut.position);
  PRIMLAB_TRY(plan_shares(c, C, h_class_all, positions, send));

  // [SECTION] 5. The exchange, received in rank order. A rank's run to itself is a device copy. A
  // run to another rank goes in two messages: a head of under 16 bytes, then the body, which starts
  // 16-byte aligned on both sides (from the staged keys where the run's start has the receiver's
  // alignment, else from a copy in `aux` that has it): NCCL copies a body with misaligned ends at
  // 43 % of its speed. The heads (keys and values) go in one transfer, the bodies in the next: a
  // head in the body's NCCL group, to the same peer, halved the body's rate (2 x H100, 184
  // against 344 GB/s, bench/NOTES-distributed.md).
  std::vector<std::vector<Run>> runs;
  for (int l = 0; l < L; ++l)
    runs.push_back(send_runs(G, C, h_class_all, positions, ex.rank(l),
                             std::vector<std::int64_t>(h_start.begin() + std::size_t(C) * l, h_start.begin() + std::size_t(C) * (l + 1))));
  Plans heads(G, L, PAIRS ? 2 : 1), bodies(G, L, PAIRS ? 2 : 1);
  auto plan = [&](int part, std::size_t elem, auto stage_of, auto aux_of, auto recv_of) -> Status {
    for (int l = 0; l < L; ++l) {
      const int me = ex.rank(l);
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      unsigned char* base = static_cast<unsigned char*>(c.shards[l].ws.ptr);
      const unsigned char* stage = static_cast<const unsigned char*>(stage_of(l));
      unsigned char* aux = aux_of(l);
      unsigned char* recv = static_cast<unsigned char*>(recv_of(l));
      std::size_t* head = heads.sizes(l, part);
      std::size_t* body = bodies.sizes(l, part);
      std::size_t ro = 0, aux_used = 0;
      for (int s = 0; s < G; ++s) {
        // Receiving from rank s: its run lands at ro.
        const std::size_t in = std::size_t(send[std::size_t(s) * G + me]) * elem;
        const std::size_t in_head = s == me ? 0 : head_bytes(ro, in);
        head[2 * G + s] = in_head;
        head[3 * G + s] = ro;
        body[2 * G + s] = s == me ? 0 : in - in_head;
        body[3 * G + s] = ro + in_head;
        ro += in;
        // Sending to rank s: the run lands after the runs of the smaller ranks.
        const std::size_t run = std::size_t(runs[l][s].count) * elem;
        const unsigned char* from = stage + std::size_t(runs[l][s].offset) * elem;
        std::size_t at_receiver = 0;
        for (int r = 0; r < me; ++r) at_receiver += std::size_t(send[std::size_t(r) * G + s]) * elem;
        head[s] = body[s] = head[G + s] = body[G + s] = 0;
        if (s == me) {
          PRIMLAB_TRY(copy_run(from, recv + at_receiver, std::int64_t(run / elem), elem, ex.stream(l)));
          continue;
        }
        const std::size_t h = head_bytes(at_receiver, run);
        if (run > h && (reinterpret_cast<std::uintptr_t>(from) - at_receiver) % kExchangeAlign != 0) {
          aux_used += (at_receiver - reinterpret_cast<std::uintptr_t>(aux + aux_used)) % kExchangeAlign;
          PRIMLAB_TRY(copy_run(from, aux + aux_used, std::int64_t(run / elem), elem, ex.stream(l)));
          from = aux + aux_used;
          aux_used += run;
        }
        head[s] = h;
        head[G + s] = std::size_t(from - base);
        body[s] = run - h;
        body[G + s] = head[G + s] + h;
      }
      heads.set(l, part, base, recv);
      bodies.set(l, part, base, recv);
    }
    return Status::Success;
  };
  const bool sort = c.local == Local::Sort;
  auto recv_keys = [&](int l) -> void* { return sort ? static_cast<void*>(c.shards[l].d_keys_out) : c.ws[l].recv_keys; };
  auto recv_values = [&](int l) -> void* { return sort ? static_cast<void*>(c.shards[l].d_values_out) : c.ws[l].recv_values; };
  PRIMLAB_TRY(plan(0, sizeof(Bits), [&](int l) -> const void* { return c.ws[l].stage; }, [&](int l) { return c.ws[l].aux_keys; },
                   recv_keys));
  if (PAIRS) {
    PRIMLAB_TRY(plan(1, sizeof(VBits), [&](int l) -> const void* { return c.ws[l].stage_values; },
                     [&](int l) { return c.ws[l].aux_values; }, recv_values));
  }
  PRIMLAB_TRY(ex.all_to_all_v(heads.plans.data(), heads.parts));
  PRIMLAB_TRY(ex.all_to_all_v(bodies.plans.data(), bodies.parts));
  PRIMLAB_TRY(c.clock.lap(&c.t.exchange));

  // [SECTION] 6. The local sort (or partition) of what arrived.
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
  PRIMLAB_TRY(find_cuts(c, search, sorted_counts));
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
  PRIMLAB_TRY(plan_shares(c, C, h_class_all, positions, send));
  std::vector<std::vector<Run>> runs_of(G);  // runs_of[r][s]: rank r's run for rank s
  for (int r = 0; r < G; ++r) {
    std::vector<std::int64_t> start(C, 0);
    for (int k = 1; k < C; ++k) start[k] = start[k - 1] + h_class_all[std::size_t(C) * r + k - 1];
    runs_of[r] = send_runs(G, C, h_class_all, positions, r, start);
  }

  // [SECTION] 5. The exchange, keys and values in one transfer. Each run goes from where it lies in
  // its sender's sorted shard, as one message from the kRunAlign boundary below it (the bytes
  // before the run come along); the receiver lands the message on a boundary of its own, so that
  // both ends are aligned and nothing is copied first. A rank's own run stays where it is.
  Plans plans(G, L, PAIRS ? 2 : 1);
  std::vector<std::size_t> landed(std::size_t(L) * G * 2);  // [l][s][keys, values]: the run's byte offset in recv
  auto plan = [&](int part, std::size_t elem, const std::vector<std::int64_t>& sender_at, auto sorted_of, auto recv_of) {
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
        const std::size_t in_off = std::size_t(in.offset) * elem, in_lead = lead(std::size_t(sender_at[s]), in_off);
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
  plan(0, sizeof(Bits), c.keys_at, [&](int l) { return c.ws[l].sorted_keys; }, [&](int l) { return c.ws[l].recv_keys; });
  if (PAIRS)
    plan(1, sizeof(VBits), c.values_at, [&](int l) { return c.ws[l].sorted_values; }, [&](int l) { return c.ws[l].recv_values; });
  PRIMLAB_TRY(ex.all_to_all_v(plans.plans.data(), plans.parts));
  PRIMLAB_TRY(c.clock.lap(&c.t.exchange));

  // [SECTION] 6. The merge of the G sorted runs a rank holds, in rank order: equal keys keep the
  // order of (rank, position).
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
                        reinterpret_cast<const VBits*>(w.sorted_values) + runs_of[me][me].offset, count});
      } else {
        runs.push_back({reinterpret_cast<const Bits*>(w.recv_keys + at[0]),
                        reinterpret_cast<const VBits*>(w.recv_values + at[1]), count});
      }
    }
    PRIMLAB_TRY((merge_runs<Bits, VBits, PAIRS>(runs, merge_order, w.splits, reinterpret_cast<Bits*>(s.d_keys_out),
                                                reinterpret_cast<VBits*>(s.d_values_out), reinterpret_cast<Bits*>(w.spare_keys),
                                                reinterpret_cast<VBits*>(w.spare_values), ex.stream(l))));
  }
  return c.clock.lap(&c.t.local);
}

template <class K, class V, bool PAIRS>
Status run(Exchange& ex, Shard<K, V>* shards, Local local, SortOrder order, int begin_bit, int num_bits,
           DistributedTimes* times) {
  using Bits = typename RadixKey<K>::Bits;
  const int G = ex.size(), L = ex.local_count();
  if (G < 1 || G > kDistributedMaxRanks || L < 1 || L > G) return Status::Unsupported;
  if (shards == nullptr) return Status::InvalidArgument;
  DeviceGuard restore_device;
  const KeyCodec<Bits> codec = make_codec<K>(order == SortOrder::Descending);
  Call<K, V, PAIRS> c{ex, shards, local, order, begin_bit, num_bits, G, L, {}, codec,
                      RangeImage<Bits>{codec.enc0, codec.enc1, begin_bit, num_bits}, {}, {}, {}, {}, 0, {},
                      Stopwatch(ex, times != nullptr)};
  PRIMLAB_TRY(agree(c));
  PRIMLAB_TRY(scheme_of(local, G) == Scheme::SortFirst ? sort_first(c) : partition_first(c));
  if (times) *times = c.t;
  return Status::Success;
}

}  // namespace
}  // namespace detail

std::int64_t distributed_capacity(std::int64_t total_n, int ranks) {
  if (total_n <= 0 || ranks <= 0) return 0;
  const std::int64_t fair = (total_n + ranks - 1) / ranks;
  return fair + 2 * (total_n / (std::int64_t(ranks) * 128)) + 1;
}

template <class K>
std::size_t distributed_sort_keys_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks) {
  return detail::Layout<K, K, false>(n, capacity, ranks, detail::Local::Sort, 0).total;
}
template <class K, class V>
std::size_t distributed_sort_pairs_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks) {
  return detail::Layout<K, V, true>(n, capacity, ranks, detail::Local::Sort, 0).total;
}
template <class K>
std::size_t distributed_partition_keys_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks, int num_bits) {
  return detail::Layout<K, K, false>(n, capacity, ranks, detail::Local::Partition, num_bits).total;
}
template <class K, class V>
std::size_t distributed_partition_pairs_workspace_bytes(std::int64_t n, std::int64_t capacity, int ranks,
                                                        int num_bits) {
  return detail::Layout<K, V, true>(n, capacity, ranks, detail::Local::Partition, num_bits).total;
}

template <class K>
Status distributed_sort_keys(Exchange& ex, Shard<K>* shards, SortOrder order, int begin_bit, int end_bit,
                             DistributedTimes* times) {
  return detail::run<K, K, false>(ex, shards, detail::Local::Sort, order, begin_bit, end_bit - begin_bit, times);
}
template <class K, class V>
Status distributed_sort_pairs(Exchange& ex, Shard<K, V>* shards, SortOrder order, int begin_bit, int end_bit,
                              DistributedTimes* times) {
  return detail::run<K, V, true>(ex, shards, detail::Local::Sort, order, begin_bit, end_bit - begin_bit, times);
}
template <class K>
Status distributed_partition_keys(Exchange& ex, Shard<K>* shards, int begin_bit, int num_bits, DistributedTimes* times) {
  return detail::run<K, K, false>(ex, shards, detail::Local::Partition, SortOrder::Ascending, begin_bit, num_bits, times);
}
template <class K, class V>
Status distributed_partition_pairs(Exchange& ex, Shard<K, V>* shards, int begin_bit, int num_bits,
                                   DistributedTimes* times) {
  return detail::run<K, V, true>(ex, shards, detail::Local::Partition, SortOrder::Ascending, begin_bit, num_bits, times);
}

#define PRIMLAB_DISTRIBUTED_KEYS(K)                                                                                \
  template std::size_t distributed_sort_keys_workspace_bytes<K>(std::int64_t, std::int64_t, int);                   \
  template std::size_t distributed_partition_keys_workspace_bytes<K>(std::int64_t, std::int64_t, int, int);         \
  template Status distributed_sort_keys<K>(Exchange&, Shard<K>*, SortOrder, int, int, DistributedTimes*);           \
  template Status distributed_partition_keys<K>(Exchange&, Shard<K>*, int, int, DistributedTimes*);
#define PRIMLAB_DISTRIBUTED_PAIRS(K, V)                                                                            \
  template std::size_t distributed_sort_pairs_workspace_bytes<K, V>(std::int64_t, std::int64_t, int);               \
  template std::size_t distributed_partition_pairs_workspace_bytes<K, V>(std::int64_t, std::int64_t, int, int);     \
  template Status distributed_sort_pairs<K, V>(Exchange&, Shard<K, V>*, SortOrder, int, int, DistributedTimes*);    \
  template Status distributed_partition_pairs<K, V>(Exchange&, Shard<K, V>*, int, int, DistributedTimes*);
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
