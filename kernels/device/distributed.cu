// Sort and radix partition across the ranks of an Exchange: entry points, the steps of
// primlab/distributed.h, and explicit instantiations.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <memory>
#include <tuple>
#include <vector>

#include "agent/distributed_kernels.cuh"
#include "agent/radix_histogram.cuh"
#include "device/distributed_plan.h"
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
std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

int max_classes(int ranks) { return std::max(2 * ranks - 1, 1); }
std::int64_t tiles_of(std::int64_t n) { return (n + DistributedTuning::kTile - 1) / DistributedTuning::kTile; }

// What a call does with the keys that reach a rank.
enum class Local { Sort, Partition };

// One rank's workspace, carved in this order. `stage` holds the partitioned shard until the
// exchange has sent it, then the local sort's or partition's own workspace, or (a merging rank)
// the received keys sorted. `kept` and `kept_ws`: a merging rank's kept keys sorted during the
// exchange, and that sort's workspace (then the received keys' sort's).
template <class K, class V, bool PAIRS>
struct Layout {
  std::size_t stage_keys = 0, stage_values = 0, sorted_keys = 0, stage = 0;
  std::size_t recv_keys = 0, recv_values = 0;
  std::size_t aux_keys = 0, aux_values = 0;
  std::size_t kept_keys = 0, kept_values = 0, kept_ws = 0, splits = 0;
  std::size_t tile_counts = 0, scan = 0, histogram = 0, lower = 0, bucket_ws = 0, buckets = 0;
  std::size_t total = 0;

  Layout(std::int64_t n, std::int64_t capacity, int ranks, Local local, int num_bits) {
    const std::size_t un = std::size_t(std::max<std::int64_t>(n, 0));
    const std::size_t cap = std::size_t(std::max<std::int64_t>(capacity, 0));
    stage_keys = aligned(un * sizeof(K));
    stage_values = PAIRS ? aligned(un * sizeof(V)) : 0;
    std::size_t local_ws = 0;
    if (local == Local::Sort) {
      local_ws = sort_ws(capacity);
      sorted_keys = aligned(cap * sizeof(K));
      local_ws = std::max(local_ws, sorted_keys + (PAIRS ? aligned(cap * sizeof(V)) : 0));
      kept_keys = stage_keys;
      kept_values = stage_values;
      kept_ws = aligned(sort_ws(std::max<std::int64_t>(n, capacity)));
      splits = aligned((std::size_t(cap / DistributedTuning::kMergeTile) + 2) * sizeof(std::int64_t));
    } else {
      local_ws = PAIRS ? radix_partition_pairs_workspace_bytes<K, V>(capacity, num_bits)
                       : radix_partition_keys_workspace_bytes<K>(capacity, num_bits);
      recv_keys = aligned(cap * sizeof(K));
      recv_values = PAIRS ? aligned(cap * sizeof(V)) : 0;
    }
    stage = std::max(stage_keys + stage_values, aligned(local_ws));
    aux_keys = aligned(un * sizeof(K) + kExchangeAlign * std::size_t(ranks));
    aux_values = PAIRS ? aligned(un * sizeof(V) + kExchangeAlign * std::size_t(ranks)) : 0;
    const std::size_t counts = std::size_t(max_classes(ranks)) * std::size_t(tiles_of(n));
    tile_counts = aligned(counts * sizeof(std::uint32_t));
    scan = aligned(scan_workspace_bytes<std::uint32_t>(std::int64_t(counts)));
    histogram = aligned(std::size_t(std::max(ranks - 1, 1)) * kRadix * sizeof(std::uint32_t));
    lower = aligned(kMaxClasses * sizeof(std::uint64_t));
    bucket_ws = aligned(PAIRS ? radix_partition_pairs_workspace_bytes<K, V>(n, kRadixBits)
                              : radix_partition_keys_workspace_bytes<K>(n, kRadixBits));
    buckets = aligned((kRadix + 1) * sizeof(std::uint32_t));
    total = stage + recv_keys + recv_values + aux_keys + aux_values + kept_keys + kept_values + kept_ws + splits +
            tile_counts + scan + histogram + lower + bucket_ws + buckets;
  }

  static std::size_t sort_ws(std::int64_t count) {
    return PAIRS ? radix_sort_pairs_workspace_bytes<K, V>(count) : radix_sort_keys_workspace_bytes<K>(count);
  }
};

template <class K, class V, bool PAIRS>
struct Carved {
  unsigned char* stage;          // the partitioned keys
  unsigned char* stage_values;   // and values
  K* sorted_keys;                // a merging rank's received keys, sorted (over `stage`)
  V* sorted_values;
  K* recv_keys;
  V* recv_values;
  unsigned char* aux_keys;    // runs moved to their receiver's alignment
  unsigned char* aux_values;
  K* kept_keys;               // a merging rank's kept keys, sorted
  V* kept_values;
  Workspace kept_ws;
  std::int64_t* splits;       // the merge's tiles
  std::uint32_t* tile_counts;
  Workspace scan;
  std::uint32_t* histogram;
  void* lower;
  Workspace bucket_ws;       // the partition by the top digit
  std::uint32_t* buckets;    // and its offsets
  Workspace local;

  Carved(const Layout<K, V, PAIRS>& l, Workspace ws) {
    unsigned char* p = static_cast<unsigned char*>(ws.ptr);
    stage = p;
    stage_values = p + l.stage_keys;
    sorted_keys = reinterpret_cast<K*>(p);
    sorted_values = reinterpret_cast<V*>(p + l.sorted_keys);
    local = {p, l.stage};
    p += l.stage;
    recv_keys = reinterpret_cast<K*>(p);
    p += l.recv_keys;
    recv_values = reinterpret_cast<V*>(p);
    p += l.recv_values;
    aux_keys = p;
    p += l.aux_keys;
    aux_values = p;
    p += l.aux_values;
    kept_keys = reinterpret_cast<K*>(p);
    p += l.kept_keys;
    kept_values = reinterpret_cast<V*>(p);
    p += l.kept_values;
    kept_ws = {p, l.kept_ws};
    p += l.kept_ws;
    splits = reinterpret_cast<std::int64_t*>(p);
    p += l.splits;
    tile_counts = reinterpret_cast<std::uint32_t*>(p);
    p += l.tile_counts;
    scan = {p, l.scan};
    p += l.scan;
    histogram = reinterpret_cast<std::uint32_t*>(p);
    p += l.histogram;
    lower = p;
    p += l.lower;
    bucket_ws = {p, l.bucket_ws};
    p += l.bucket_ws;
    buckets = reinterpret_cast<std::uint32_t*>(p);
  }
};

// A stream beside a driven rank's: a merging rank sorts its kept keys there during the exchange.
class Fork {
 public:
  Fork() = default;
  Fork(const Fork&) = delete;
  Fork& operator=(const Fork&) = delete;
  ~Fork() {
    if (!stream_) return;
    cudaSetDevice(device_);
    cudaEventDestroy(fork_);
    cudaEventDestroy(join_);
    cudaStreamDestroy(stream_);
  }
  // Creates the stream on `device` and makes it wait for the work queued so far on `main`.
  Status open(int device, cudaStream_t main) {
    device_ = device;
    PRIMLAB_CUDA_TRY(cudaSetDevice(device));
    PRIMLAB_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PRIMLAB_CUDA_TRY(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    PRIMLAB_CUDA_TRY(cudaEventCreateWithFlags(&join_, cudaEventDisableTiming));
    PRIMLAB_CUDA_TRY(cudaEventRecord(fork_, main));
    PRIMLAB_CUDA_TRY(cudaStreamWaitEvent(stream_, fork_, 0));
    return Status::Success;
  }
  // Makes `main` wait for the work queued so far on this stream.
  Status join(cudaStream_t main) {
    PRIMLAB_CUDA_TRY(cudaSetDevice(device_));
    PRIMLAB_CUDA_TRY(cudaEventRecord(join_, stream_));
    PRIMLAB_CUDA_TRY(cudaStreamWaitEvent(main, join_, 0));
    return Status::Success;
  }
  cudaStream_t stream() const { return stream_; }

 private:
  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t fork_ = nullptr, join_ = nullptr;
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

// The first collective: every rank's status and arguments, so that all ranks go on or all stop.
enum Header { kStatus, kCount, kCapacity, kBegin, kBits, kOrder, kLocal, kKeySize, kValueSize, kHeaderSize };

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

// out = the stable merge of the sorted runs kept (nk) and other (no); kept first among equal keys
// when kept_first, else after.
template <class Bits, class VBits, bool PAIRS, class K, class V>
Status merge_runs(bool kept_first, const K* kept, const V* kept_values, std::int64_t nk, const K* other,
                  const V* other_values, std::int64_t no, RangeImage<Bits> image, std::int64_t* splits, K* out,
                  V* out_values, cudaStream_t stream) {
  const Bits* a = reinterpret_cast<const Bits*>(kept_first ? kept : other);
  const Bits* b = reinterpret_cast<const Bits*>(kept_first ? other : kept);
  const VBits* av = reinterpret_cast<const VBits*>(kept_first ? kept_values : other_values);
  const VBits* bv = reinterpret_cast<const VBits*>(kept_first ? other_values : kept_values);
  const std::int64_t na = kept_first ? nk : no, nb = kept_first ? no : nk;
  const std::int64_t tiles = (na + nb + DistributedTuning::kMergeTile - 1) / DistributedTuning::kMergeTile;
  constexpr int kSplitThreads = 256;
  merge_split_kernel<Bits><<<unsigned((tiles + kSplitThreads) / kSplitThreads), kSplitThreads, 0, stream>>>(
      a, na, b, nb, image, tiles, splits);
  PRIMLAB_LAUNCH_TRY();
  merge_kernel<Bits, VBits, PAIRS><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(
      a, av, na, b, bv, nb, image, splits, reinterpret_cast<Bits*>(out), reinterpret_cast<VBits*>(out_values));
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

template <class K, class V, bool PAIRS>
Status run(Exchange& ex, Shard<K, V>* shards, Local local, SortOrder order, int begin_bit, int num_bits,
           DistributedTimes* times) {
  using Bits = typename RadixKey<K>::Bits;
  using VBits = typename ValueBits<V>::type;
  const int G = ex.size(), L = ex.local_count();
  if (G < 1 || G > kDistributedMaxRanks || L < 1 || L > G) return Status::Unsupported;
  if (shards == nullptr) return Status::InvalidArgument;
  DeviceGuard restore_device;
  DistributedTimes t;
  Stopwatch clock(ex, times != nullptr);

  // [SECTION] 1. Agree on the arguments; every rank stops on the first rank's error.
  std::vector<std::int64_t> h_local(std::size_t(L) * kHeaderSize), h_all(std::size_t(G) * kHeaderSize);
  for (int l = 0; l < L; ++l) {
    std::int64_t* h = &h_local[std::size_t(l) * kHeaderSize];
    h[kStatus] = int(check_shard<K, V, PAIRS>(shards[l], G, local, begin_bit, num_bits));
    h[kCount] = shards[l].n;
    h[kCapacity] = shards[l].capacity;
    h[kBegin] = begin_bit;
    h[kBits] = num_bits;
    h[kOrder] = int(order);
    h[kLocal] = int(local);
    h[kKeySize] = sizeof(K) | (int(RadixKey<K>::kind) << 8);
    h[kValueSize] = PAIRS ? sizeof(V) : 0;
  }
  PRIMLAB_TRY(ex.all_gather(h_local.data(), kHeaderSize, h_all.data()));
  std::vector<std::int64_t> counts(G), capacities(G);
  for (int r = 0; r < G; ++r) {
    const std::int64_t* h = &h_all[std::size_t(r) * kHeaderSize];
    if (h[kStatus] != 0) return static_cast<Status>(h[kStatus]);
    if (!std::equal(h + kBegin, h + kHeaderSize, &h_local[kBegin])) return Status::InvalidArgument;
    counts[r] = h[kCount];
    capacities[r] = h[kCapacity];
  }
  PRIMLAB_TRY(clock.lap(&t.agree));

  std::vector<Carved<K, V, PAIRS>> ws;
  for (int l = 0; l < L; ++l) ws.emplace_back(Layout<K, V, PAIRS>(shards[l].n, shards[l].capacity, G, local, num_bits), shards[l].ws);
  const KeyCodec<Bits> codec = make_codec<K>(order == SortOrder::Descending);
  const RangeImage<Bits> image{codec.enc0, codec.enc1, begin_bit, num_bits};

  // [SECTION] 2. Splitters: histograms of the buckets that hold a cut, until every cut is placed.
  const std::int64_t total = [&] { std::int64_t s = 0; for (std::int64_t c : counts) s += c; return s; }();
  SplitterSearch search(num_bits, counts, local == Local::Sort ? total / (std::int64_t(G) * 128) : 0);
  std::vector<std::uint32_t> h_hist;
  while (!search.done()) {
    const std::vector<SplitterQuery> queries = search.queries();
    const int d = search.digit_bits();
    const std::size_t slots = queries.size() << d;
    h_hist.assign(slots * L, 0);
    for (int l = 0; l < L; ++l) {
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      const cudaStream_t stream = ex.stream(l);
      PRIMLAB_CUDA_TRY(cudaMemsetAsync(ws[l].histogram, 0, slots * sizeof(std::uint32_t), stream));
      if (shards[l].n > 0) {
        DeviceFacts facts;
        PRIMLAB_TRY(device_facts(facts));
        const Bits* keys = reinterpret_cast<const Bits*>(shards[l].d_keys_in);
        if (queries.size() == 1 && queries[0].level == 0) {
          // The first round is a plain histogram of the top digit: the sort's upfront histogram.
          using T = RadixSortTuning;
          constexpr int kChunk = T::kHistThreads * T::kHistItems;
          const int grid = int(std::min<std::int64_t>((shards[l].n + kChunk - 1) / kChunk,
                                                      std::int64_t(facts.sm_count) * T::kHistBlocksPerSm));
          onesweep::histogram_kernel<Bits, T::kHistThreads, T::kHistItems><<<grid, T::kHistThreads, 0, stream>>>(
              keys, shards[l].n, begin_bit + num_bits - d, 1, (1u << d) - 1, codec.enc0, codec.enc1, ws[l].histogram,
              onesweep::ZeroFirst{});
          PRIMLAB_LAUNCH_TRY();
        } else {
          const std::int64_t blocks_needed = (shards[l].n + DistributedTuning::kThreads - 1) / DistributedTuning::kThreads;
          const int grid = int(std::min<std::int64_t>(blocks_needed, std::int64_t(facts.sm_count) * DistributedTuning::kHistogramBlocksPerSm));
          for (std::size_t q0 = 0; q0 < queries.size(); q0 += DistributedTuning::kMaxQueries) {
            SplitterQueries<Bits> batch{};
            batch.count = int(std::min<std::size_t>(DistributedTuning::kMaxQueries, queries.size() - q0));
            batch.level = queries[q0].level;
            batch.digit_bits = d;
            for (int q = 0; q < batch.count; ++q) batch.prefix[q] = Bits(queries[q0 + q].prefix);
            splitter_histogram_kernel<Bits><<<grid, DistributedTuning::kThreads, (std::size_t(batch.count) << d) * sizeof(std::uint32_t), stream>>>(
                keys, shards[l].n, image, batch, ws[l].histogram + (q0 << d));
            PRIMLAB_LAUNCH_TRY();
          }
        }
      }
    }
    // Read back once every rank's kernels are queued (a copy to pageable memory waits for them).
    for (int l = 0; l < L; ++l) {
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_hist[slots * l], ws[l].histogram, slots * sizeof(std::uint32_t),
                                       cudaMemcpyDeviceToHost, ex.stream(l)));
      PRIMLAB_CUDA_TRY(cudaStreamSynchronize(ex.stream(l)));
    }
    std::vector<std::int64_t> h_counts(h_hist.begin(), h_hist.end()), h_gathered(slots * G);
    PRIMLAB_TRY(ex.all_gather(h_counts.data(), slots, h_gathered.data()));
    search.answer(h_gathered);
  }
  t.splitter_rounds = search.rounds();
  PRIMLAB_TRY(clock.lap(&t.splitters));

  // [SECTION] 3. The stable local partition into classes, and every rank's class counts.
  const std::vector<std::uint64_t> lower64 = class_lower_bounds(search.cuts(), num_bits);
  const std::vector<Bits> lower(lower64.begin(), lower64.end());
  const int C = int(lower.size());
  // Where every cut is a top-digit edge (the usual case, one round), the classes are runs of top
  // digits: a radix partition by that digit (one Onesweep pass) stages them, in digit order of
  // the ascending image (for a descending order, its reverse).
  const bool by_top_digit =
      num_bits >= kRadixBits && search.rounds() == 1 &&
      std::none_of(search.cuts().begin(), search.cuts().end(), [](const SplitterSearch::Cut& c) { return c.tie; });
  const int top_shift = num_bits - kRadixBits;
  const int top_begin = begin_bit + top_shift;
  const bool reversed = order == SortOrder::Descending;
  std::vector<std::uint32_t> h_first(std::size_t(by_top_digit ? kRadix + 1 : C) * L);
  for (int l = 0; l < L; ++l) {
    const Shard<K, V>& s = shards[l];
    if (s.n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    K* stage_keys = reinterpret_cast<K*>(ws[l].stage);
    V* stage_values = reinterpret_cast<V*>(ws[l].stage_values);
    if (by_top_digit) {
      if (PAIRS) {
        PRIMLAB_TRY(radix_partition_pairs(s.d_keys_in, stage_keys, s.d_values_in, stage_values, ws[l].buckets, s.n,
                                          top_begin, kRadixBits, ws[l].bucket_ws, stream));
      } else {
        PRIMLAB_TRY(radix_partition_keys(s.d_keys_in, stage_keys, ws[l].buckets, s.n, top_begin, kRadixBits,
                                         ws[l].bucket_ws, stream));
      }
      continue;
    }
    const std::int64_t tiles = tiles_of(s.n);
    const Bits* d_lower = static_cast<const Bits*>(ws[l].lower);
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(ws[l].lower, lower.data(), C * sizeof(Bits), cudaMemcpyHostToDevice, stream));
    const Bits* keys = reinterpret_cast<const Bits*>(s.d_keys_in);
    class_count_kernel<Bits><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(keys, s.n, image, d_lower, C,
                                                                                    ws[l].tile_counts);
    PRIMLAB_LAUNCH_TRY();
    PRIMLAB_TRY(exclusive_scan(ws[l].tile_counts, ws[l].tile_counts, std::int64_t(C) * tiles, 0u, Sum{}, ws[l].scan, stream));
    class_scatter_kernel<Bits, VBits, PAIRS><<<unsigned(tiles), DistributedTuning::kThreads, 0, stream>>>(
        keys, reinterpret_cast<const VBits*>(s.d_values_in), s.n, image, d_lower, C, ws[l].tile_counts,
        reinterpret_cast<Bits*>(stage_keys), reinterpret_cast<VBits*>(stage_values));
    PRIMLAB_LAUNCH_TRY();
  }
  // Per driven rank: where each class starts in its staged keys, and how many it holds.
  std::vector<std::int64_t> h_start(std::size_t(C) * L, 0), h_class(std::size_t(C) * L, 0),
      h_class_all(std::size_t(C) * G);
  for (int l = 0; l < L; ++l) {
    if (shards[l].n == 0) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    if (by_top_digit) {
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_first[std::size_t(kRadix + 1) * l], ws[l].buckets,
                                       (kRadix + 1) * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
    } else {  // the first tile's offset of each class: where the class starts
      const std::int64_t tiles = tiles_of(shards[l].n);
      PRIMLAB_CUDA_TRY(cudaMemcpy2DAsync(&h_first[std::size_t(C) * l], sizeof(std::uint32_t), ws[l].tile_counts,
                                         tiles * sizeof(std::uint32_t), sizeof(std::uint32_t), C,
                                         cudaMemcpyDeviceToHost, stream));
    }
    PRIMLAB_CUDA_TRY(cudaStreamSynchronize(stream));
    for (int c = 0; c < C; ++c) {
      std::int64_t first = 0, end = 0;
      if (by_top_digit) {
        // Class c holds the top digits [lo, hi) of the order's image; reversed, the ascending
        // image's digits [256 - hi, 256 - lo).
        const std::uint32_t* off = &h_first[std::size_t(kRadix + 1) * l];
        std::uint32_t lo = std::uint32_t(lower[c] >> top_shift), hi = c + 1 < C ? std::uint32_t(lower[c + 1] >> top_shift) : kRadix;
        if (reversed) std::tie(lo, hi) = std::make_pair(kRadix - hi, kRadix - lo);
        first = off[lo];
        end = off[hi];
      } else {
        first = h_first[std::size_t(C) * l + c];
        end = c + 1 < C ? h_first[std::size_t(C) * l + c + 1] : shards[l].n;
      }
      h_start[std::size_t(C) * l + c] = first;
      h_class[std::size_t(C) * l + c] = end - first;
    }
  }
  PRIMLAB_TRY(ex.all_gather(h_class.data(), C, h_class_all.data()));
  PRIMLAB_TRY(clock.lap(&t.partition));

  // [SECTION] 4. Who sends what; stop before anything moves if a share does not fit.
  std::vector<std::int64_t> positions;
  for (const SplitterSearch::Cut& c : search.cuts()) positions.push_back(c.position);
  const std::vector<std::int64_t> send = send_counts(G, C, h_class_all, positions);
  std::vector<std::int64_t> share(G, 0);
  for (int r = 0; r < G; ++r)
    for (int s = 0; s < G; ++s) share[s] += send[std::size_t(r) * G + s];
  bool fits = true;
  for (int r = 0; r < G; ++r) fits = fits && share[r] <= capacities[r];
  for (int l = 0; l < L; ++l) shards[l].count = share[ex.rank(l)];
  t.largest = *std::max_element(share.begin(), share.end());
  for (int r = 0; r < G; ++r) t.moved += share[r] - send[std::size_t(r) * G + r];
  t.total = total;
  if (!fits) return Status::OutputTooSmall;

  // [SECTION] 5. The exchange: keys and values in one transfer, received in rank order. A merging
  // rank keeps its own run where it was staged and sorts it meanwhile, on a stream of its own.
  const std::vector<bool> merging = local == Local::Sort ? merging_ranks(G, send) : std::vector<bool>(G, false);
  t.merged = int(std::count(merging.begin(), merging.end(), true));
  std::vector<std::vector<Run>> runs;
  for (int l = 0; l < L; ++l)
    runs.push_back(send_runs(G, C, h_class_all, positions, ex.rank(l),
                             std::vector<std::int64_t>(h_start.begin() + std::size_t(C) * l, h_start.begin() + std::size_t(C) * (l + 1))));
  // Plans per driven rank: key heads, key bodies (then value heads, value bodies), each four arrays
  // of G sizes: send bytes, send offsets, receive bytes, receive offsets.
  const int parts = PAIRS ? 4 : 2;
  std::vector<std::size_t> words(std::size_t(L) * parts * 4 * G);
  std::vector<ExchangePlan> plans(std::size_t(L) * parts);
  // A rank's run to itself is a device copy (none for a merging rank). A run to another rank goes
  // in two messages: a head of under 16 bytes, then the body, which starts 16-byte aligned on both
  // sides (from the staged keys where the run's start has the receiver's alignment, else from a
  // copy in `aux` that has it): NCCL copies a body with misaligned ends at 43 % of its speed.
  auto plan_runs = [&](int part, auto elem_tag, auto stage_of, auto aux_of, auto recv_of) -> Status {
    using E = decltype(elem_tag);
    constexpr std::size_t elem = sizeof(E);
    // The head of a run that starts `at` bytes into its receiver's buffer.
    auto head_of = [](std::size_t at, std::size_t run) { return std::min(run, (kExchangeAlign - at % kExchangeAlign) % kExchangeAlign); };
    for (int l = 0; l < L; ++l) {
      const int me = ex.rank(l);
      PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
      const cudaStream_t stream = ex.stream(l);
      DeviceFacts facts;
      PRIMLAB_TRY(device_facts(facts));
      auto copy = [&](const unsigned char* from, unsigned char* to, std::size_t run_bytes) -> Status {
        const std::int64_t count = std::int64_t(run_bytes / elem);
        if (count == 0) return Status::Success;
        const int grid = int(std::min<std::int64_t>((count + DistributedTuning::kThreads - 1) / DistributedTuning::kThreads,
                                                    std::int64_t(facts.sm_count) * DistributedTuning::kHistogramBlocksPerSm));
        copy_run_kernel<E><<<grid, DistributedTuning::kThreads, 0, stream>>>(reinterpret_cast<const E*>(from),
                                                                             reinterpret_cast<E*>(to), count);
        PRIMLAB_LAUNCH_TRY();
        return Status::Success;
      };
      unsigned char* base = static_cast<unsigned char*>(shards[l].ws.ptr);
      const unsigned char* stage = static_cast<const unsigned char*>(stage_of(l));
      unsigned char* aux = aux_of(l);
      unsigned char* recv = static_cast<unsigned char*>(recv_of(l));
      std::size_t* head = &words[(std::size_t(l) * parts + part) * 4 * G];
      std::size_t* body = head + 4 * G;
      std::size_t aux_used = 0;
      for (int s = 0; s < G; ++s) {
        // Receiving from rank s.
        const std::size_t in = s == me ? 0 : std::size_t(send[std::size_t(s) * G + me]) * elem;
        const std::size_t ro = std::size_t(receive_offset(G, send, merging, s, me)) * elem;
        const std::size_t in_head = head_of(ro, in);
        head[2 * G + s] = in_head;
        head[3 * G + s] = ro;
        body[2 * G + s] = in - in_head;
        body[3 * G + s] = ro + in_head;
        // Sending to rank s.
        const std::size_t run = std::size_t(runs[l][s].count) * elem;
        const unsigned char* from = stage + std::size_t(runs[l][s].offset) * elem;
        const std::size_t at_receiver = std::size_t(receive_offset(G, send, merging, me, s)) * elem;
        head[s] = body[s] = head[G + s] = body[G + s] = 0;
        if (s == me) {
          if (!merging[me]) PRIMLAB_TRY(copy(from, recv + at_receiver, run));
          continue;
        }
        const std::size_t h = head_of(at_receiver, run);
        if (run > h && (reinterpret_cast<std::uintptr_t>(from) - at_receiver) % kExchangeAlign != 0) {
          aux_used += (at_receiver - reinterpret_cast<std::uintptr_t>(aux + aux_used)) % kExchangeAlign;
          PRIMLAB_TRY(copy(from, aux + aux_used, run));
          from = aux + aux_used;
          aux_used += run;
        }
        head[s] = h;
        head[G + s] = std::size_t(from - base);
        body[s] = run - h;
        body[G + s] = head[G + s] + h;
      }
      plans[std::size_t(l) * parts + part] = {base, head, head + G, recv, head + 2 * G, head + 3 * G};
      plans[std::size_t(l) * parts + part + 1] = {base, body, body + G, recv, body + 2 * G, body + 3 * G};
    }
    return Status::Success;
  };
  auto recv_keys = [&](int l) -> void* { return local == Local::Sort ? static_cast<void*>(shards[l].d_keys_out) : ws[l].recv_keys; };
  auto recv_values = [&](int l) -> void* { return local == Local::Sort ? static_cast<void*>(shards[l].d_values_out) : ws[l].recv_values; };
  PRIMLAB_TRY(plan_runs(0, Bits{}, [&](int l) -> const void* { return ws[l].stage; }, [&](int l) { return ws[l].aux_keys; },
                        recv_keys));
  if (PAIRS) {
    PRIMLAB_TRY(plan_runs(2, VBits{}, [&](int l) -> const void* { return ws[l].stage_values; },
                          [&](int l) { return ws[l].aux_values; }, recv_values));
  }
  std::vector<std::unique_ptr<Fork>> forks(L);
  for (int l = 0; l < L; ++l) {
    if (!merging[ex.rank(l)]) continue;
    forks[l] = std::make_unique<Fork>();
    PRIMLAB_TRY(forks[l]->open(ex.device(l), ex.stream(l)));
  }
  PRIMLAB_TRY(ex.all_to_all_v(plans.data(), parts));
  const int end_bit = begin_bit + num_bits;
  for (int l = 0; l < L; ++l) {
    const int me = ex.rank(l);
    if (!merging[me]) continue;
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const std::int64_t kept = send[std::size_t(me) * G + me];
    const std::size_t at = std::size_t(runs[l][me].offset);
    const K* keys = reinterpret_cast<const K*>(ws[l].stage) + at;
    if (PAIRS) {
      PRIMLAB_TRY(radix_sort_pairs(keys, ws[l].kept_keys, reinterpret_cast<const V*>(ws[l].stage_values) + at,
                                   ws[l].kept_values, kept, order, begin_bit, end_bit, ws[l].kept_ws, forks[l]->stream()));
    } else {
      PRIMLAB_TRY(radix_sort_keys(keys, ws[l].kept_keys, kept, order, begin_bit, end_bit, ws[l].kept_ws, forks[l]->stream()));
    }
  }
  PRIMLAB_TRY(clock.lap(&t.exchange));

  // [SECTION] 6. The local sort (or partition) of what arrived; a merging rank sorts what it
  // received, then merges it with its kept keys (sorted by now): the keys from the ranks below
  // come first among equal keys, those from the ranks above after.
  for (int l = 0; l < L; ++l) {
    Shard<K, V>& s = shards[l];
    const int me = ex.rank(l);
    PRIMLAB_CUDA_TRY(cudaSetDevice(ex.device(l)));
    const cudaStream_t stream = ex.stream(l);
    if (merging[me]) {
      PRIMLAB_TRY(forks[l]->join(stream));
      const std::int64_t kept = send[std::size_t(me) * G + me], received = s.count - kept;
      if (PAIRS) {
        PRIMLAB_TRY(radix_sort_pairs(s.d_keys_out, ws[l].sorted_keys, s.d_values_out, ws[l].sorted_values, received,
                                     order, begin_bit, end_bit, ws[l].kept_ws, stream));
      } else {
        PRIMLAB_TRY(radix_sort_keys(s.d_keys_out, ws[l].sorted_keys, received, order, begin_bit, end_bit, ws[l].kept_ws,
                                    stream));
      }
      const bool none_from_below = receive_offset(G, send, merging, me, me) == 0;
      PRIMLAB_TRY((merge_runs<Bits, VBits, PAIRS>(none_from_below, ws[l].kept_keys, ws[l].kept_values, kept, ws[l].sorted_keys,
                                                 ws[l].sorted_values, received, image, ws[l].splits, s.d_keys_out,
                                                 s.d_values_out, stream)));
    } else if (local == Local::Sort) {
      if (PAIRS) {
        PRIMLAB_TRY(radix_sort_pairs(s.d_keys_out, s.d_keys_out, s.d_values_out, s.d_values_out, s.count, order,
                                     begin_bit, end_bit, ws[l].local, stream));
      } else {
        PRIMLAB_TRY(radix_sort_keys(s.d_keys_out, s.d_keys_out, s.count, order, begin_bit, end_bit, ws[l].local, stream));
      }
    } else if (PAIRS) {
      PRIMLAB_TRY(radix_partition_pairs(ws[l].recv_keys, s.d_keys_out, ws[l].recv_values, s.d_values_out, s.d_offsets,
                                        s.count, begin_bit, num_bits, ws[l].local, stream));
    } else {
      PRIMLAB_TRY(radix_partition_keys(ws[l].recv_keys, s.d_keys_out, s.d_offsets, s.count, begin_bit, num_bits,
                                       ws[l].local, stream));
    }
  }
  PRIMLAB_TRY(clock.lap(&t.local));
  if (times) *times = t;
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
