// The Onesweep digit pass (Adinets & Merrill 2022), shared by radix sort and radix partition:
// one kernel per 8-bit digit that ranks a tile (BlockRadixRank), publishes the tile's digit counts
// for a decoupled look-back, and scatters the tile through shared memory so that same-digit keys
// leave in runs. The digit counts over all keys come from agent/radix_histogram.cuh. Both kernels
// take a probe (util/probe.cuh): NoProbe in the library, the lab's recording probe where the Step
// tab steps one pass on small tiles (radix-onesweep), which lists them.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "agent/radix_histogram.cuh"
#include "block/block_radix_rank.cuh"
#include "thread/radix_key_codec.cuh"
#include "thread/vector_io.cuh"
#include "util/chained_launch.cuh"
#include "util/device_properties.cuh"
#include "util/probe.cuh"
#include "util/segment_tile.h"

namespace primlab::detail::onesweep {

// Look-back word: 0 = not yet published; top bit set = inclusive prefix of the digit over all
// tiles up to this one (31 bits: n <= 2^31 - 1); else the tile's own count + 1 (aggregate).
constexpr std::uint32_t kInclusive = 0x80000000u;

// [SECTION] device helpers

__device__ __forceinline__ std::uint32_t ld_relaxed(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// listing: radix-onesweep
// Exclusive scans of two BINS-entry columns held by threads 0..BINS-1 (others pass 0 and get 0).
// s_tmp: BINS / 16 words of shared memory. Ends with the block synchronised.
template <int BINS, class Probe>
__device__ __forceinline__ void scan_exclusive2(std::uint32_t a, std::uint32_t b,
                                                   std::uint32_t& ea, std::uint32_t& eb,
                                                   std::uint32_t* s_tmp, Probe& probe) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;                  // step: publish (scan)
  std::uint32_t ia = a, ib = b;                                                // step: publish (scan)
#pragma unroll  // step: publish (scan)
  for (int off = 1; off < 32; off <<= 1) {                                     // step: publish (scan)
    const std::uint32_t ta = __shfl_up_sync(0xffffffffu, ia, off);             // step: publish (scan)
    const std::uint32_t tb = __shfl_up_sync(0xffffffffu, ib, off);             // step: publish (scan)
    if (lane >= off) { ia += ta; ib += tb; }                                   // step: publish (scan)
  }                                                                            // step: publish (scan)
  constexpr int kWarps = BINS / 32;                                            // step: publish (scan)
  if (lane == 31 && warp < kWarps) { s_tmp[warp] = ia; s_tmp[kWarps + warp] = ib; }  // step: publish (scan)
  probe.event(OnesweepEvent::kScanTotals, lane == 31 && warp < kWarps ? warp : -1);
  __syncthreads();                                                             // step: publish (scan)
  probe.barrier();
  std::uint32_t pa = 0, pb = 0;                                                // step: starts
  if (warp < kWarps) {                                                         // step: starts
    for (int w = 0; w < warp; ++w) {                                           // step: starts
      pa += s_tmp[w];                                                          // step: starts
      pb += s_tmp[kWarps + w];                                                 // step: starts
    }                                                                          // step: starts
    probe.event(OnesweepEvent::kScanRead, warp);
  }                                                                            // step: starts
  ea = pa + ia - a;                                                            // step: starts
  eb = pb + ib - b;                                                            // step: starts
}
// listing: end

// [SECTION] the pass kernel

template <class Bits, class VBits>
struct PassArgs {
  const Bits* keys_in;
  Bits* keys_out;
  const VBits* vals_in;
  VBits* vals_out;
  std::int64_t n;
  int shift;
  std::uint32_t mask;              // digit mask of this pass (0xff but for a narrow last pass)
  std::uint32_t* hist;             // this pass's digit counts over all keys (a first pass that
                                   // counts every pass's digits writes every pass's)
  std::uint32_t* status;           // tiles x 256 look-back words, zeroed before the pass
  std::uint32_t* tile_counter;     // zeroed before the pass: tiles are taken in launch order;
                                   // null: the tile is the block's index (at most one wave of tiles)
  Bits in0, in1;                   // encoding applied on load (first pass; else 0)
  Bits out0, out1;                 // decoding applied on store (last pass; else 0)
  std::uint32_t* offsets_out;      // mask + 2 digit offsets written by tile 0, or null
  int passes = 1;                  // the sort's passes and its last pass's digit mask: read by a
  std::uint32_t last_mask = 0xffu; // first pass that counts every pass's digits (COUNTS_ALL)
};

// A segmented pass (SEGMENTED) sorts segments each on its own: tile t takes its keys, segment and
// the segment's first tile from seg_tiles[t]; segment s's digit counts are seg_counts[s * 256 + d],
// and its keys go from seg_start[s] on. Its own type, so that the other passes' arguments (and
// their code: 24 bytes more of them changed the SASS of the 64-bit passes) stay as they are.
template <class Bits, class VBits>
struct SegmentedPassArgs : PassArgs<Bits, VBits> {
  const SegmentTile* seg_tiles = nullptr;
  const std::uint32_t* seg_counts = nullptr;
  const std::uint32_t* seg_start = nullptr;
};
// A pass with a hot digit (HOT): the digit that a quarter of its keys or more hold
// (RadixSortTuning::hot_digit); of a split pass (SPLIT), its hot top digit. Its own type, as the
// segmented pass's.
template <class Bits, class VBits>
struct HotPassArgs : PassArgs<Bits, VBits> {
  std::uint32_t hot = 0;
};
template <class Bits, class VBits>
HotPassArgs<Bits, VBits> with_hot_digit(const PassArgs<Bits, VBits>& a, int hot) {
  HotPassArgs<Bits, VBits> h;
  static_cast<PassArgs<Bits, VBits>&>(h) = a;
  h.hot = static_cast<std::uint32_t>(hot);
  return h;
}
template <class Bits, class VBits, bool SEGMENTED, bool HOT = false>
using PassArgsOf = std::conditional_t<SEGMENTED, SegmentedPassArgs<Bits, VBits>,
                                      std::conditional_t<HOT, HotPassArgs<Bits, VBits>, PassArgs<Bits, VBits>>>;
template <class Bits, class VBits>
__device__ __forceinline__ std::uint32_t hot_digit_of(const HotPassArgs<Bits, VBits>& a) {
  return a.hot;
}
template <class Bits, class VBits>
__device__ __forceinline__ std::uint32_t hot_digit_of(const PassArgs<Bits, VBits>&) {
  return 0;
}

// [SECTION] a small sort's first pass counts every pass's digits

// A sort of at most one wave of tiles, launched cooperatively, has no histogram kernel: its first
// pass (pass_kernel's COUNTS_ALL) counts its tile's keys for every pass and stores the counts in
// the passes' look-back words (tile t's count of digit d for pass p at status[(p * tiles + t) * 256
// + d]), then waits at a grid barrier. It sums its predecessors' first-pass counts instead of
// looking back, and the grid's threads sum the later passes' counts into hist, zeroing each word
// they read for that pass's look-back. One launch less on a sort that is bound by its launches.
// Its dynamic shared memory adds 256 counters per later pass after pass_smem_bytes().
template <class Bits>
constexpr std::size_t later_counts_bytes() {
  return (sizeof(Bits) - 1) * kRadix * 4;
}

__device__ __forceinline__ void clear_later_counts(std::uint32_t* s_later, int passes) {
  for (int i = threadIdx.x; i < (passes - 1) * kRadix; i += blockDim.x) s_later[i] = 0;
}

// The tile's real keys (warp-striped from warp_first, padding left out) by every pass after the first.
template <class Bits, int ITEMS>
__device__ __forceinline__ void count_later_passes(const Bits (&k)[ITEMS], int warp_first, int valid, int shift,
                                                   int passes, std::uint32_t last_mask, std::uint32_t* s_later) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (warp_first + i * 32 < valid) count_key(k[i], shift + kRadixBits, passes - 1, last_mask, s_later);
}

// Thread d of tile `tile`: the tile's count of digit d for every pass, into the look-back words.
__device__ __forceinline__ void store_tile_counts(std::uint32_t* status, std::uint32_t tiles, std::uint32_t tile,
                                                  int d, std::uint32_t first, int passes,
                                                  const std::uint32_t* s_later) {
  status[std::size_t(tile) * kRadix + d] = first;
  for (int p = 1; p < passes; ++p) status[(std::size_t(p) * tiles + tile) * kRadix + d] = s_later[(p - 1) * kRadix + d];
}

// After the grid barrier: one digit's words of every tile (w[t * 256], t < tiles), summed over all
// tiles (returned) and over the tiles before `tile` (before), sixteen independent loads a round trip.
__device__ __forceinline__ std::uint32_t sum_over_tiles(const std::uint32_t* w, std::uint32_t tiles,
                                                        std::uint32_t tile, std::uint32_t& before) {
  std::uint32_t all = 0;
  before = 0;
  for (std::uint32_t t0 = 0; t0 < tiles; t0 += 16) {
    std::uint32_t v[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) v[i] = t0 + i < tiles ? __ldcg(w + std::size_t(t0 + i) * kRadix) : 0u;
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      all += v[i];
      before += t0 + i < tile ? v[i] : 0u;
    }
  }
  return all;
}

// After the grid barrier: the later passes' counts over all tiles into hist (pass p's at
// hist[p * 256]), one (pass, digit) per thread of the grid; each word is zeroed once read.
__device__ __forceinline__ void sum_later_passes(std::uint32_t* status, std::uint32_t* hist, std::uint32_t tiles,
                                                 int passes) {
  const int pairs = (passes - 1) * kRadix;
  for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < pairs; q += gridDim.x * blockDim.x) {
    std::uint32_t* w = status + std::size_t(1 + q / kRadix) * tiles * kRadix + q % kRadix;
    std::uint32_t unused;
    hist[kRadix + q] = sum_over_tiles(w, tiles, 0, unused);
    for (std::uint32_t t = 0; t < tiles; ++t) w[std::size_t(t) * kRadix] = 0;
  }
}

// Dynamic shared memory: [warp][digit] counters, BINS digit bases, BINS / 16 scan words, the
// exchange buffer (the tile's keys, then its values; the ranking's mask rows before them, so that
// it is at least as large as the counters: the library's 256-digit tiles always are, the lab's
// small ones and split passes' not always).
template <int THREADS, int ITEMS, class Bits, class VBits, bool PAIRS, int BINS = kRadix>
constexpr std::size_t pass_smem_bytes() {
  constexpr std::size_t wide = sizeof(Bits) > sizeof(VBits) || !PAIRS ? sizeof(Bits) : sizeof(VBits);
  constexpr std::size_t counters = (THREADS / 32) * BINS * 4;
  constexpr std::size_t exchange = std::size_t(THREADS) * ITEMS * wide;
  return counters + BINS * 4 + BINS / 4 + (exchange > counters ? exchange : counters);
}

// WINDOW: predecessors whose look-back words one digit's thread reads per round trip.
// FEW_DIGITS: BlockRadixRank's threshold for ranking a warp by __match_any_sync.
// COUNTS_ALL: the first pass of a sort of one wave of tiles, launched cooperatively, counts every
// pass's digits itself (above); its dynamic shared memory adds later_counts_bytes<Bits>().
// SEGMENTED: a pass over segments (PassArgs::seg_tiles), each ranked on its own.
// HOT: a pass with a hot digit (HotPassArgs::hot), which BlockRadixRank ranks by ballot.
// SPLIT: a split pass (radix_key_codec.cuh): 511 bins of the top digit at a.shift + 8 and of the
// sub-digit of its hot top digit HotPassArgs::hot; a.mask is 0xffff (BlockRadixRank).
// One thread per digit: a.mask < THREADS, and a split pass's 512 bins. The library's shapes have
// kRadix threads or more; the lab steps blocks of 32 or 64 threads with digits of at most 5 bits.
// listing: radix-onesweep
template <class Bits, class VBits, bool PAIRS, int THREADS, int ITEMS, int MIN_BLOCKS, int WINDOW, int FEW_DIGITS,
          class Probe = NoProbe, bool COUNTS_ALL = false, bool SEGMENTED = false, bool HOT = false, bool SPLIT = false>
__global__ void __launch_bounds__(THREADS, resident_blocks_bound(THREADS, MIN_BLOCKS))
    pass_kernel(PassArgsOf<Bits, VBits, SEGMENTED, HOT || SPLIT> a, Probe probe = {}) {
  static_assert(!((HOT || SPLIT) && (COUNTS_ALL || SEGMENTED)), "a hot digit is given with the pass's counts");
  constexpr int kBins = SPLIT ? kSplitBins : kRadix;
  using Rank = BlockRadixRank<Bits, THREADS, ITEMS, FEW_DIGITS, HOT, kBins>;
  constexpr int kTile = THREADS * ITEMS;
  static_assert(THREADS % 32 == 0, "whole warps");
  static_assert(THREADS >= kBins || !SPLIT, "a thread for each bin");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  std::uint32_t* s_warp = reinterpret_cast<std::uint32_t*>(smem_raw);  // [warp][digit] counts
  std::uint32_t* s_base = s_warp + Rank::kRowWords;                     // global pos - tile pos
  std::uint32_t* s_tmp = s_base + kBins;                                // kBins / 16 words
  Bits* s_keys = reinterpret_cast<Bits*>(s_tmp + kBins / 16);           // the tile exchange
  VBits* s_vals = reinterpret_cast<VBits*>(s_tmp + kBins / 16);         // same storage, later
  std::uint32_t* s_later =
      reinterpret_cast<std::uint32_t*>(smem_raw + pass_smem_bytes<THREADS, ITEMS, Bits, VBits, PAIRS, kBins>());
  __shared__ std::uint32_t s_tile;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  Rank ranker(s_warp, reinterpret_cast<std::uint32_t*>(s_keys), a.shift, a.mask, hot_digit_of(a));
  probe.event(OnesweepEvent::kSharedCounts, s_warp);
  // The tile id first: its round trip overlaps the clearing (issued after the clearing, it cost
  // 7 % of a 2^28 sort). A pass with a tile counter is not chained to the kernel that zeroed it,
  // so taking an id before chain_wait() is safe. A chained pass (at most one wave of tiles, all
  // resident at once) takes its block's index.
  if (tid == 0) s_tile = a.tile_counter != nullptr ? atomicAdd(a.tile_counter, 1u) : blockIdx.x;  // step: clear
  ranker.clear(probe);                                                                            // step: clear
  if constexpr (COUNTS_ALL) clear_later_counts(s_later, a.passes);
  chain_wait();  // the previous pass (or the histogram) has finished                             // step: clear
  chain_release();                                                                                // step: clear
  // The pass's digit count over all keys, read now so that its round trip overlaps the tile's (a
  // first pass that counts every pass's digits sums it after the grid barrier).
  std::uint32_t gcount = !COUNTS_ALL && tid < kBins ? a.hist[tid] : 0u;                           // step: clear
  probe.event(OnesweepEvent::kHistRead, tid < kBins ? tid : -1, gcount);
  __syncthreads();                                                                                // step: clear
  probe.barrier();
  const std::uint32_t tile = s_tile;                                                   // step: load
  SegmentTile span{0, 0, 0, 0};  // a segmented pass's tile; the others look back to tile 0
  if constexpr (SEGMENTED) {
    span = a.seg_tiles[tile];
    if (tid < kRadix) gcount = a.seg_counts[std::size_t(span.seg) * kRadix + tid];
  }
  const std::int64_t tile_begin = SEGMENTED ? span.src : std::int64_t(tile) * kTile;  // step: load
  const int valid = SEGMENTED ? int(span.count)                                        // step: load
                              : static_cast<int>(std::min<std::int64_t>(kTile, a.n - tile_begin));  // step: load
  const std::uint32_t first = span.first;  // the first tile of the look-back           // step: load
  const int warp_first = warp * 32 * ITEMS + lane;  // tile-local index of item 0 (warp-striped)  // step: load

  // Load: warp w takes the w-th run of 32 * ITEMS keys; item i of a lane is at i * 32 + lane.
  Bits k[ITEMS];                                                                       // step: load
  const bool encode = (a.in0 | a.in1) != 0;                                            // step: load
  if (valid == kTile) {                                                                // step: load
#pragma unroll  // step: load
    for (int i = 0; i < ITEMS; ++i) k[i] = a.keys_in[tile_begin + warp_first + i * 32];  // step: load
    if (encode) {                                                                      // step: load
#pragma unroll  // step: load
      for (int i = 0; i < ITEMS; ++i) k[i] = xor_by_top(k[i], a.in0, a.in1);           // step: load
    }                                                                                  // step: load
  } else {                                                                             // step: load
#pragma unroll  // step: load
    for (int i = 0; i < ITEMS; ++i) {                                                  // step: load
      const int li = warp_first + i * 32;                                              // step: load
      // Padding takes the largest digit, so it ranks after every real key of the tile.
      k[i] = li < valid ? xor_by_top(a.keys_in[tile_begin + li], a.in0, a.in1) : ~Bits(0);  // step: load
    }                                                                                  // step: load
  }                                                                                    // step: load
  probe.event(OnesweepEvent::kLoad, k, warp_first, valid);

  // Rank with early counts: the tile's digit counts are published for the look-back before the
  // ranking, and the ranks come out final. Per digit: the tile count (published at once for the
  // look-back), the tile-local and the global digit starts.
  std::uint32_t total = 0;                                                             // step: load
  std::uint32_t* my_status = a.status + std::size_t(tile) * kBins + tid;               // step: load
  std::uint32_t tile_excl, glob_excl;                                                  // step: load
  if constexpr (COUNTS_ALL) count_later_passes(k, warp_first, valid, a.shift, a.passes, a.last_mask, s_later);
  ranker.count_digits(k, probe);                                                       // step: load
  __syncthreads();                                                                     // step: load
  probe.barrier();
  if (tid < kBins) {                                                                   // step: publish
    total = ranker.to_warp_starts(tid, probe);                                         // step: publish
    if constexpr (SEGMENTED) {
      // A segment's partial tile is no pass's last: its padding (the largest digit, which comes
      // last in the tile, so that no digit's start moves) is not a key of the look-back.
      if (tid == static_cast<int>(a.mask)) total -= kTile - valid;
    }
    if constexpr (COUNTS_ALL) {
      // The padding (largest digit) is not a key of the sort.
      const std::uint32_t padding = tid == static_cast<int>(a.mask) ? kTile - valid : 0u;
      store_tile_counts(a.status, gridDim.x, tile, tid, total - padding, a.passes, s_later);
    } else {
      probe.event(OnesweepEvent::kPublish, tile, tid, tile == first ? (kInclusive | total) : total + 1);
      st_relaxed(my_status, tile == first ? (kInclusive | total) : total + 1);         // step: publish
    }
  }                                                                                    // step: publish
  std::uint32_t counted_before = 0;                                                    // step: publish
  if constexpr (COUNTS_ALL) {
    if (gridDim.x > 1) {
      cooperative_groups::this_grid().sync();
    } else {
      __syncthreads();
    }
    if (tid < kRadix) gcount = sum_over_tiles(a.status + tid, gridDim.x, tile, counted_before);
    if (tid < kRadix && tile == 0) a.hist[tid] = gcount;
    sum_later_passes(a.status, a.hist, gridDim.x, a.passes);
  }
  scan_exclusive2<kBins>(total, gcount, tile_excl, glob_excl, s_tmp, probe);           // step: publish
  if constexpr (SEGMENTED) glob_excl += a.seg_start[span.seg];
  if (tid < kBins) {                                                                   // step: starts
    ranker.add_tile_start(tid, tile_excl, probe);                                      // step: starts
    if (a.offsets_out != nullptr && tile == 0 && tid <= static_cast<int>(a.mask)) {
      a.offsets_out[tid] = glob_excl;
      if (tid == static_cast<int>(a.mask)) a.offsets_out[tid + 1] = glob_excl + gcount;
    }
  }                                                                                    // step: starts
  __syncthreads();                                                                     // step: starts
  probe.barrier();
  std::uint32_t rank[ITEMS];                                                           // step: rank
  ranker.rank_keys(k, rank, probe);                                                    // step: rank
  __syncthreads();  // the mask rows alias the exchange buffer                         // step: rank
  probe.barrier();

  // Exchange: keys to their tile position (needs only tile-local offsets, so it runs before the
  // look-back and gives the predecessors time to publish inclusive prefixes).
#pragma unroll  // step: look-back (exchange)
  for (int i = 0; i < ITEMS; ++i) s_keys[rank[i]] = k[i];  // step: look-back (exchange)
  probe.event(OnesweepEvent::kExchange, k, rank);
  // Look-back: one thread per digit sums the predecessors' aggregates back to the first
  // inclusive prefix, WINDOW predecessors per round trip. A small sort starts all its tiles at
  // once: walking one predecessor at a time, the last tile would wait about tiles / 2 round trips.
  if (tid < kBins) {                                                                   // step: look-back
    std::uint32_t excl = 0;                                                            // step: look-back
    if constexpr (COUNTS_ALL) {
      excl = counted_before;
    } else if (tile > first) {                                                         // step: look-back
      const std::uint32_t* p = my_status - kBins;  // the nearest predecessor not yet folded  // step: look-back
      std::uint32_t left = tile - first;             // predecessors not yet folded     // step: look-back
      for (;;) {                                                                       // step: look-back
        std::uint32_t v[WINDOW];                                                       // step: look-back
#pragma unroll  // step: look-back
        for (int w = 0; w < WINDOW; ++w) v[w] = w < int(left) ? ld_relaxed(p - std::size_t(w) * kBins) : 0u;  // step: look-back
        // Fold the published words, nearest first, up to an inclusive one or the first unpublished.
        int folded = 0;                                                                // step: look-back
        bool inclusive = false;                                                        // step: look-back
#pragma unroll  // step: look-back
        for (int w = 0; w < WINDOW; ++w) {                                             // step: look-back
          if (folded == w && !inclusive && v[w] != 0) {                                // step: look-back
            inclusive = (v[w] & kInclusive) != 0;                                      // step: look-back
            excl += inclusive ? v[w] & ~kInclusive : v[w] - 1;                         // step: look-back
            folded = w + 1;                                                            // step: look-back
          }                                                                            // step: look-back
        }                                                                              // step: look-back
        probe.event(OnesweepEvent::kLookBack, v, left - 1, folded);
        if (inclusive) break;                                                          // step: look-back
        p -= std::size_t(folded) * kBins;                                              // step: look-back
        left -= folded;                                                                // step: look-back
      }                                                                                // step: look-back
      probe.event(OnesweepEvent::kPublish, tile, tid, kInclusive | (excl + total));
      st_relaxed(my_status, kInclusive | (excl + total));                              // step: look-back
    }                                                                                  // step: look-back
    s_base[tid] = glob_excl + excl - tile_excl;                                        // step: look-back
    probe.event(OnesweepEvent::kBase, tid, glob_excl + excl - tile_excl);
  }                                                                                    // step: look-back
  __syncthreads();                                                                     // step: look-back
  probe.barrier();
  // Out in tile order, so that consecutive threads write consecutive addresses within each
  // digit's run.
  std::uint32_t dst[PAIRS ? ITEMS : 1];                                                // step: scatter
  const bool decode = (a.out0 | a.out1) != 0;                                          // step: scatter
  if (valid == kTile && !decode) {  // the common case, without per-key tests          // step: scatter
#pragma unroll  // step: scatter
    for (int s = 0; s < ITEMS; ++s) {                                                  // step: scatter
      const int j = s * THREADS + tid;                                                 // step: scatter
      const Bits key = s_keys[j];                                                      // step: scatter
      const std::uint32_t g = s_base[pass_digit<SPLIT>(key, a.shift, a.mask, hot_digit_of(a))] + j;  // step: scatter
      a.keys_out[g] = key;                                                             // step: scatter
      probe.event(OnesweepEvent::kScatter, j, key, g);
      if constexpr (PAIRS) dst[s] = g;
    }                                                                                  // step: scatter
  } else {                                                                             // step: scatter
#pragma unroll  // step: scatter
    for (int s = 0; s < ITEMS; ++s) {                                                  // step: scatter
      const int j = s * THREADS + tid;                                                 // step: scatter
      const Bits key = s_keys[j];                                                      // step: scatter
      const std::uint32_t g = s_base[pass_digit<SPLIT>(key, a.shift, a.mask, hot_digit_of(a))] + j;  // step: scatter
      if (j < valid) a.keys_out[g] = decode ? xor_by_top(key, a.out0, a.out1) : key;   // step: scatter
      probe.event(OnesweepEvent::kScatter, j, key, g);
      if constexpr (PAIRS) dst[s] = g;
    }                                                                                  // step: scatter
  }                                                                                    // step: scatter
  if constexpr (PAIRS) {
    VBits v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int li = warp_first + i * 32;
      v[i] = (valid == kTile || li < valid) ? a.vals_in[tile_begin + li] : VBits(0);
    }
    __syncthreads();
    probe.barrier();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) s_vals[rank[i]] = v[i];
    __syncthreads();
    probe.barrier();
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int j = s * THREADS + tid;
      if (j < valid) a.vals_out[dst[s]] = s_vals[j];
    }
  }
}
// listing: end

// [SECTION] the tables of a segmented sort

// A batch of spans travels in the launch's parameters (no copy from the host, which would wait
// for the stream): 1024 of them are 20 KB of the 32 KB a launch takes from Volta on.
constexpr int kSpanBatch = 1024;
struct SpanBatch {
  TileSpan spans[kSpanBatch];
  int n;
  std::uint32_t tile_begin, tile_end;  // the tiles the batch's spans cut
};

// tiles[t] for the batch's tiles, one thread each; where `start` is set (the later passes' table,
// one span per segment from its start), start[seg] of each span too.
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
    cut_tiles_kernel(SpanBatch b, std::uint32_t tile, SegmentTile* tiles, std::uint32_t* start) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (b.tile_begin + i < b.tile_end) tiles[b.tile_begin + i] = tile_of(b.spans, b.n, b.tile_begin + i, tile);
  if (start != nullptr && i < std::uint32_t(b.n)) start[b.spans[i].seg] = b.spans[i].src;
}

// [SECTION] the digit counts of a segmented sort

// Segment s's count of digit d in pass p is added to counts[(p * segments + s) * 256 + d], for the
// tiles whose keys start inside keys[from, from + span) (`inside`) or outside it. Block b counts
// tiles [b * per_block, (b + 1) * per_block) of the table, in shared memory, and adds its counts to
// a segment's when the segment changes: a segment's tiles are consecutive. A tile's keys are read
// in 16-byte loads from its first 16-byte boundary, ITEMS of them in flight per thread.
template <class Bits, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    segment_histogram_kernel(const Bits* __restrict__ keys, const SegmentTile* __restrict__ tiles,
                             std::uint32_t tile_count, std::uint32_t per_block, std::uint32_t from, std::uint32_t span,
                             bool inside, int segments, int begin_bit, int passes, std::uint32_t last_mask, Bits enc0,
                             Bits enc1, std::uint32_t* counts) {
  constexpr int kMaxPasses = sizeof(Bits);
  __shared__ std::uint32_t s_hist[kMaxPasses * kRadix];
  const std::uint32_t t0 = blockIdx.x * per_block, t1 = min(tile_count, t0 + per_block);
  for (int i = threadIdx.x; i < passes * kRadix; i += THREADS) s_hist[i] = 0;
  __syncthreads();
  auto flush = [&](std::uint32_t seg) {
    for (int i = threadIdx.x; i < passes * kRadix; i += THREADS) {
      const std::uint32_t v = s_hist[i];
      if (v) atomicAdd(&counts[(std::size_t(i / kRadix) * segments + seg) * kRadix + i % kRadix], v);
      s_hist[i] = 0;
    }
  };
  auto count = [&](Bits k) { count_key(xor_by_top(k, enc0, enc1), begin_bit, passes, last_mask, s_hist); };
  std::uint32_t seg = t0 < t1 ? tiles[t0].seg : 0u;
  for (std::uint32_t t = t0; t < t1; ++t) {
    const SegmentTile tile = tiles[t];
    if ((tile.src - from < span) != inside) continue;
    if (tile.seg != seg) {
      __syncthreads();
      flush(seg);
      __syncthreads();
      seg = tile.seg;
    }
    for_each_vectorized<ITEMS>(keys + tile.src, tile.count, 0, 1, threadIdx.x, THREADS, count);
  }
  __syncthreads();
  if (t0 < t1) flush(seg);
}

}  // namespace primlab::detail::onesweep
