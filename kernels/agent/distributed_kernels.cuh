// The local kernels of the multi-GPU primitives: the splitter histograms (of one digit of the
// keys in given buckets: a pass over a shard, or binary searches in a sorted one), the stable
// partition of a shard into key classes (count, then scatter at the exclusive scan of the
// class-major tile counts), where the classes begin in a sorted shard, the sum of the pieces'
// partition offsets, and the stable merge of two sorted runs.
#pragma once
#include <cstdint>

#include "primlab/distributed.h"
#include "thread/radix_key_codec.cuh"
#include "thread/vector_io.cuh"
#include "tuning/distributed.cuh"

namespace primlab::detail {

// Classes of a partition: each cut between ranks adds at most two, each bound between the pieces
// of a rank's range one (the pieces a call cuts are capped to fit).
constexpr int kMaxClasses = 256;

// A key's range bits as an unsigned `width`-bit value: the radix image's bits [begin, begin + width).
template <class Bits>
struct RangeImage {
  Bits enc0, enc1;
  int begin_bit, width;
  __device__ __forceinline__ Bits operator()(Bits raw) const {
    const Bits b = xor_by_top(raw, enc0, enc1) >> begin_bit;
    return width >= int(sizeof(Bits) * 8) ? b : (b & ((Bits(1) << width) - 1));
  }
};

template <class Bits>
struct SplitterQueries {
  Bits prefix[DistributedTuning::kMaxQueries];
  int count;
  int level;        // bits of each prefix
  int digit_bits;   // of the histogram below the prefix
};

// This block's tile of keys, item j of a thread at base + j * kThreads + thread (0 past the end):
// all loads first, so that they are in flight together.
template <class Bits>
__device__ __forceinline__ void load_tile(const Bits* __restrict__ keys, std::int64_t n, std::int64_t base,
                                          Bits (&key)[DistributedTuning::kItems]) {
#pragma unroll
  for (int j = 0; j < DistributedTuning::kItems; ++j) {
    const std::int64_t i = base + j * DistributedTuning::kThreads + threadIdx.x;
    key[j] = i < n ? keys[i] : Bits(0);
  }
}

// The top `level` bits of a range image; a shift by the full width is undefined, and level 0
// matches every key.
template <class Bits>
__device__ __forceinline__ Bits prefix_of(Bits x, int width, int level) {
  return level == 0 ? Bits(0) : (x >> (width - level));
}

// counts[q * 2^digit_bits + d] += keys in bucket q.prefix whose next digit is d. Grid-stride over
// 16-byte vectors, kItems / 4 of them a thread in flight together (the keys before the first
// 16-byte boundary and after the last whole vector one a thread): one load per thread at a time
// reached a quarter of the copy rate (4 x H200, 2^28 keys: 1.1-1.2 ms a round, f0a1a4d), 16 scalar
// loads half of it (2 x H200, 0.54 ms against the sort's upfront histogram's 0.25).
template <class Bits>
__global__ void __launch_bounds__(DistributedTuning::kThreads)
    splitter_histogram_kernel(const Bits* __restrict__ keys, std::int64_t n, RangeImage<Bits> image,
                              SplitterQueries<Bits> queries, std::uint32_t* counts) {
  extern __shared__ std::uint32_t hist[];
  // The prefixes in shared memory: indexed in the parameter, they were copied to local memory and
  // read from there for every key.
  __shared__ Bits prefix[DistributedTuning::kMaxQueries];
  const int buckets = 1 << queries.digit_bits, count = queries.count, level = queries.level;
  const int slots = count * buckets;
  for (int i = threadIdx.x; i < slots; i += blockDim.x) hist[i] = 0;
  if (threadIdx.x < count) prefix[threadIdx.x] = queries.prefix[threadIdx.x];
  __syncthreads();
  const int rest = image.width - level - queries.digit_bits;
  const Bits digit_mask = Bits(buckets - 1);
  auto count_key = [&](Bits key) {
    const Bits x = image(key);
    const Bits top = prefix_of(x, image.width, level);
    for (int q = 0; q < count; ++q) {
      if (top != prefix[q]) continue;
      atomicAdd(&hist[q * buckets + int((x >> rest) & digit_mask)], 1u);
      break;
    }
  };
  for_each_vectorized<DistributedTuning::kItems / 4>(keys, n, 0, 1, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                                    std::int64_t(gridDim.x) * blockDim.x, count_key);
  __syncthreads();
  for (int i = threadIdx.x; i < slots; i += blockDim.x)
    if (hist[i]) atomicAdd(&counts[i], hist[i]);
}

// Partition-first's first round, which would otherwise leave skewed keys a second one that reads
// the shard again: counts[d] += keys whose top digit (of the range image, width >= 16) is d, and,
// where a sample of the shard (kSampleKeys keys spread over it, which every block reads alike)
// holds a quarter of its keys or more, but not all, in one top digit h (the second round's bucket
// when one top digit holds the cuts), counts[256 + e] += keys of top digit h whose next digit is
// e; counts[512] = h (every block writes it), or ~0u where the sample has no such digit.
// counts[0, 512) are zeroed by the caller. The shape of the sort's upfront histogram (THREADS x
// ITEMS vectors a block at a time), which it replaces.
constexpr int kFirstRoundWords = 2 * kRadix + 1;
template <class Bits, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    first_round_histogram_kernel(const Bits* __restrict__ keys, std::int64_t n, RangeImage<Bits> image,
                                 std::uint32_t* counts) {
  constexpr int kSampleKeys = 4096;
  __shared__ std::uint32_t hist[2 * kRadix];  // the top digits, then the sample's, then h's next digits
  __shared__ std::uint32_t s_best[THREADS / 32];
  const int top_shift = image.width - kRadixBits, next_shift = top_shift - kRadixBits;
  for (int i = threadIdx.x; i < 2 * kRadix; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  const int sample = int(n < kSampleKeys ? n : kSampleKeys);
  for (int i = threadIdx.x; i < sample; i += blockDim.x)
    atomicAdd(&hist[kRadix + int(image(keys[n * i / sample]) >> top_shift)], 1u);
  __syncthreads();
  // The sample's most frequent top digit (the lowest of equals): count in the high 16 bits, 255 -
  // digit in the low ones, the largest over the block.
  std::uint32_t best = 0;
  for (int t = threadIdx.x; t < kRadix; t += blockDim.x) best = max(best, (hist[kRadix + t] << 16) | (kRadix - 1 - t));
  for (int off = 16; off > 0; off >>= 1) best = max(best, __shfl_xor_sync(0xffffffffu, best, off));
  if ((threadIdx.x & 31) == 0) s_best[threadIdx.x >> 5] = best;
  __syncthreads();
  for (int w = 0; w < THREADS / 32; ++w) best = max(best, s_best[w]);
  const std::uint32_t most = best >> 16;
  const std::uint32_t hot = most * 4 >= std::uint32_t(sample) && most < std::uint32_t(sample) ? kRadix - 1 - (best & 0xffffu) : ~0u;
  for (int i = kRadix + threadIdx.x; i < 2 * kRadix; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  auto count_key = [&](Bits key) {
    const Bits x = image(key);
    const std::uint32_t top = std::uint32_t(x >> top_shift);
    atomicAdd(&hist[top], 1u);
    if (top == hot) atomicAdd(&hist[kRadix + int((x >> next_shift) & Bits(kRadix - 1))], 1u);
  };
  for_each_vectorized<ITEMS>(keys, n, blockIdx.x, gridDim.x, threadIdx.x, THREADS, count_key);
  __syncthreads();
  for (int i = threadIdx.x; i < (hot == ~0u ? kRadix : 2 * kRadix); i += blockDim.x)
    if (hist[i]) atomicAdd(&counts[i], hist[i]);
  if (threadIdx.x == 0) counts[2 * kRadix] = hot;
}

// The same counts in keys sorted by their range image, one block per query: a digit's keys lie
// between the binary searches for its two edges, so a round costs searches instead of a pass.
template <class Bits>
__global__ void __launch_bounds__(DistributedTuning::kThreads)
    sorted_histogram_kernel(const Bits* __restrict__ keys, std::int64_t n, RangeImage<Bits> image,
                            SplitterQueries<Bits> queries, std::uint32_t* counts) {
  __shared__ std::int64_t edge[kRadix + 1];
  const int buckets = 1 << queries.digit_bits;
  const int rest = image.width - queries.level - queries.digit_bits;
  const Bits prefix = queries.prefix[blockIdx.x];
  // Edge t: the first key whose (prefix, digit) is at least (prefix, t); t = buckets is the
  // bucket's end.
  for (int t = threadIdx.x; t <= buckets; t += blockDim.x) {
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      const Bits x = image(keys[mid]);
      const Bits top = prefix_of(x, image.width, queries.level);
      const int digit = int((x >> rest) & Bits(buckets - 1));
      if (top < prefix || (top == prefix && digit < t)) lo = mid + 1; else hi = mid;
    }
    edge[t] = lo;
  }
  __syncthreads();
  for (int t = threadIdx.x; t < buckets; t += blockDim.x)
    counts[blockIdx.x * buckets + t] = std::uint32_t(edge[t + 1] - edge[t]);
}

// The class of x: the last c with lower[c] <= x (lower[0] = 0, ascending).
template <class Bits>
__device__ __forceinline__ int class_of(const Bits* lower, int classes, Bits x) {
  int lo = 0, hi = classes;  // lower[lo] <= x < lower[hi]
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (lower[mid] <= x) lo = mid; else hi = mid;
  }
  return lo;
}

template <class Bits>
__device__ __forceinline__ void load_classes(const Bits* __restrict__ d_lower, int classes, Bits* lower) {
  for (int i = threadIdx.x; i < classes; i += blockDim.x) lower[i] = d_lower[i];
  __syncthreads();
}

// counts[c * tiles + t] = keys of class c in tile t.
template <class Bits>
__global__ void __launch_bounds__(DistributedTuning::kThreads)
    class_count_kernel(const Bits* __restrict__ keys, std::int64_t n, RangeImage<Bits> image,
                       const Bits* __restrict__ d_lower, int classes, std::uint32_t* counts) {
  __shared__ Bits lower[kMaxClasses];
  __shared__ std::uint32_t count[kMaxClasses];
  for (int i = threadIdx.x; i < classes; i += blockDim.x) count[i] = 0;
  load_classes(d_lower, classes, lower);
  const std::int64_t base = std::int64_t(blockIdx.x) * DistributedTuning::kTile;
  Bits key[DistributedTuning::kItems];
  load_tile(keys, n, base, key);
#pragma unroll
  for (int j = 0; j < DistributedTuning::kItems; ++j)
    if (base + j * DistributedTuning::kThreads + threadIdx.x < n) atomicAdd(&count[class_of(lower, classes, image(key[j]))], 1u);
  __syncthreads();
  for (int c = threadIdx.x; c < classes; c += blockDim.x) counts[std::int64_t(c) * gridDim.x + blockIdx.x] = count[c];
}

// starts[c] = where class c begins in keys sorted by their image: the first key whose image is at
// least lower[c]. One thread per class.
template <class Bits>
__global__ void class_starts_kernel(const Bits* __restrict__ keys, std::int64_t n, RangeImage<Bits> image,
                                    const Bits* __restrict__ lower, int classes, std::int64_t* starts) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= classes) return;
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (image(keys[mid]) < lower[c]) lo = mid + 1; else hi = mid;
  }
  starts[c] = lo;
}

// Writes each key (and value) of tile t to out[offsets[c * tiles + t] + its rank among the tile's
// keys of class c], in input order: the partition is stable.
template <class Bits, class VBits, bool PAIRS>
__global__ void __launch_bounds__(DistributedTuning::kThreads)
    class_scatter_kernel(const Bits* __restrict__ keys, const VBits* __restrict__ values, std::int64_t n,
                         RangeImage<Bits> image, const Bits* __restrict__ d_lower, int classes,
                         const std::uint32_t* __restrict__ offsets, Bits* __restrict__ keys_out,
                         VBits* __restrict__ values_out) {
  constexpr int kWarps = DistributedTuning::kThreads / 32;
  __shared__ Bits lower[kMaxClasses];
  __shared__ std::uint32_t next[kMaxClasses];  // the class's next output index
  __shared__ std::uint32_t warp_count[kWarps][kMaxClasses];  // the round's keys per warp and class
  __shared__ std::uint32_t warp_first[kWarps][kMaxClasses];  // the warp's first output index in the class
  for (int c = threadIdx.x; c < classes; c += blockDim.x) {
    next[c] = offsets[std::int64_t(c) * gridDim.x + blockIdx.x];
    for (int w = 0; w < kWarps; ++w) warp_count[w][c] = 0;
  }
  load_classes(d_lower, classes, lower);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t base = std::int64_t(blockIdx.x) * DistributedTuning::kTile;
  Bits tile_keys[DistributedTuning::kItems];
  load_tile(keys, n, base, tile_keys);
#pragma unroll
  for (int j = 0; j < DistributedTuning::kItems; ++j) {
    // One round: 256 consecutive keys, one per thread; ranks within a warp from the lanes of the
    // same class, across warps from the warps' counts in order.
    const std::int64_t i = base + j * DistributedTuning::kThreads + threadIdx.x;
    const bool valid = i < n;
    const Bits key = tile_keys[j];
    VBits value = 0;
    int c = classes;  // past every class: the tail's idle lanes
    if (valid) {
      if (PAIRS) value = values[i];
      c = class_of(lower, classes, image(key));
    }
    const unsigned peers = __match_any_sync(0xffffffffu, c);
    const unsigned rank = __popc(peers & ((1u << lane) - 1));
    if (valid && rank == 0) warp_count[warp][c] = __popc(peers);
    __syncthreads();
    for (int k = threadIdx.x; k < classes; k += blockDim.x) {
      std::uint32_t at = next[k];
      for (int w = 0; w < kWarps; ++w) {
        warp_first[w][k] = at;
        at += warp_count[w][k];
        warp_count[w][k] = 0;
      }
      next[k] = at;
    }
    __syncthreads();
    if (valid) {
      const std::uint32_t dst = warp_first[warp][c] + rank;
      keys_out[dst] = key;
      if (PAIRS) values_out[dst] = value;
    }
  }
}

// out[i] = the sum of the pieces' partition offsets parts[j * count + i]: each piece holds a range
// of digits, so a digit starts after every earlier piece's keys (their offsets there are their
// counts) and at its own piece's offset (later pieces' offsets there are 0).
template <class Offset>
__global__ void sum_offsets_kernel(const Offset* __restrict__ parts, int pieces, int count, Offset* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  Offset sum = 0;
  for (int j = 0; j < pieces; ++j) sum += parts[std::int64_t(j) * count + i];
  out[i] = sum;
}

// dst[i] = src[i]: a run moved to another alignment. Element-wise loads and stores coalesce at
// any 4-byte alignment, where cudaMemcpy of a misaligned run ran at a third of the copy rate.
template <class T>
__global__ void __launch_bounds__(DistributedTuning::kThreads)
    copy_run_kernel(const T* __restrict__ src, T* __restrict__ dst, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

// [SECTION] the merge of two sorted runs

// The order the merge compares in: keys encoded to their radix image (a bijection, so the merge
// moves encoded keys and decodes them on the way out), compared on the range's bits.
template <class Bits>
struct MergeOrder {
  Bits enc0, enc1, dec0, dec1;
  Bits range;  // bits [begin_bit, end_bit) set
  __device__ __forceinline__ Bits encode(Bits raw) const { return xor_by_top(raw, enc0, enc1); }
  __device__ __forceinline__ Bits decode(Bits e) const { return xor_by_top(e, dec0, dec1); }
  __device__ __forceinline__ bool less(Bits x, Bits y) const { return (x & range) < (y & range); }
};

// How many of a's keys are among the first d of the stable merge of a and b (a's first among
// keys equal on the range): where the merge path crosses diagonal d. a(i) and b(i) read the
// encoded keys.
template <class I, class Bits, class A, class B>
__device__ __forceinline__ I merge_path(A a, I na, B b, I nb, I d, const MergeOrder<Bits>& order) {
  I lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const I mid = (lo + hi) >> 1;
    if (order.less(b(d - 1 - mid), a(mid))) hi = mid; else lo = mid + 1;
  }
  return lo;
}

// split[t] = a's keys among the outputs before tile t (t = 0 .. tiles), tiles of `tile` outputs.
template <class Bits>
__global__ void merge_split_kernel(const Bits* __restrict__ a, std::int64_t na, const Bits* __restrict__ b,
                                   std::int64_t nb, MergeOrder<Bits> order, std::int64_t tiles, int tile,
                                   std::int64_t* split) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t > tiles) return;
  split[t] = merge_path([&](std::int64_t i) { return order.encode(a[i]); }, na,
                        [&](std::int64_t i) { return order.encode(b[i]); }, nb, min(t * tile, na + nb), order);
}

// out = the stable merge of a and b (a first among equal keys), one tile of kThreads * kItems
// outputs per block: the tile's inputs are staged in shared memory, encoded; each thread merges
// kItems of them from its own crossing of the path; the tile is written back in order. Shared
// memory holds element o at o + o / 32, so that the threads' searches and runs of outputs,
// kItems apart, fall in different banks.
template <class Bits, class VBits, bool PAIRS, int kThreads = DistributedTuning::kThreads,
          int kItems = DistributedTuning::merge_items(sizeof(Bits), PAIRS ? sizeof(VBits) : 0)>
__global__ void __launch_bounds__(kThreads)
    merge_kernel(const Bits* __restrict__ a, const VBits* __restrict__ a_values, std::int64_t na,
                 const Bits* __restrict__ b, const VBits* __restrict__ b_values, std::int64_t nb,
                 MergeOrder<Bits> order, const std::int64_t* __restrict__ split, Bits* __restrict__ out,
                 VBits* __restrict__ out_values) {
  constexpr int kTile = kThreads * kItems;
  __shared__ Bits keys[kTile + kTile / 32];
  __shared__ VBits values[PAIRS ? kTile + kTile / 32 : 1];
  auto at = [](unsigned o) { return o + (o >> 5); };
  const std::int64_t first = std::int64_t(blockIdx.x) * kTile;
  const std::int64_t a0 = split[blockIdx.x], b0 = first - a0;
  const int len = int(min(std::int64_t(kTile), na + nb - first));
  const int la = int(split[blockIdx.x + 1] - a0), lb = len - la;
  {
    // Every load of the tile first, so that they are in flight together.
    Bits in[kItems];
    VBits in_values[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int o = k * kThreads + threadIdx.x;
      if (o >= len) continue;
      in[k] = o < la ? a[a0 + o] : b[b0 + o - la];
      if (PAIRS) in_values[k] = o < la ? a_values[a0 + o] : b_values[b0 + o - la];
    }
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int o = k * kThreads + threadIdx.x;
      if (o >= len) continue;
      keys[at(o)] = order.encode(in[k]);
      if (PAIRS) values[at(o)] = in_values[k];
    }
  }
  __syncthreads();
  const int d = min(int(threadIdx.x) * kItems, len);
  int i = merge_path([&](int x) { return keys[at(x)]; }, la, [&](int x) { return keys[at(la + x)]; }, lb, d, order);
  int j = d - i;
  // The next key of each side, read once: one shared-memory read per output.
  Bits next_a = i < la ? keys[at(i)] : Bits(0), next_b = j < lb ? keys[at(la + j)] : Bits(0);
  Bits key[kItems];
  int from[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const bool take_a = j >= lb || (i < la && !order.less(next_b, next_a));
    key[k] = take_a ? next_a : next_b;
    from[k] = take_a ? i : la + j;
    if (take_a) {
      ++i;
      next_a = i < la ? keys[at(i)] : Bits(0);
    } else {
      ++j;
      next_b = j < lb ? keys[at(la + j)] : Bits(0);
    }
  }
  VBits value[kItems];
  if (PAIRS) {
#pragma unroll
    for (int k = 0; k < kItems; ++k)
      if (d + k < len) value[k] = values[at(from[k])];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    if (d + k >= len) break;
    keys[at(d + k)] = key[k];
    if (PAIRS) values[at(d + k)] = value[k];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int o = k * kThreads + threadIdx.x;
    if (o >= len) continue;
    out[first + o] = order.decode(keys[at(o)]);
    if (PAIRS) out_values[first + o] = values[at(o)];
  }
}

}  // namespace primlab::detail
