// Onesweep LSD radix sort machinery (Adinets & Merrill 2022), shared by radix sort and radix
// partition: an upfront histogram kernel (all digit histograms in one read of the keys), then
// one kernel per 8-bit digit that ranks a tile by warp-level match, publishes its digit counts
// for a decoupled look-back, and scatters the tile through shared memory so that same-digit keys
// leave in runs.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "util/cuda_check.cuh"
#include "util/chained_launch.cuh"
#include "util/device_properties.cuh"
#include "thread/radix_key_codec.cuh"
#include "tuning/radix_sort.cuh"
#include "primlab/status.h"

namespace primlab::detail::onesweep {

constexpr int kRadixBits = 8;
constexpr int kRadix = 1 << kRadixBits;
// Look-back word: 0 = not yet published; top bit set = inclusive prefix of the digit over all
// tiles up to this one (31 bits: n <= 2^31 - 1); else the tile's own count + 1 (aggregate).
constexpr std::uint32_t kInclusive = 0x80000000u;
// How a warp finds the lanes that share a digit (RadixSortTuning::kPassMatch).
constexpr int kMatchBallot = 0;    // 8 ballots, one per digit bit
constexpr int kMatchAtomicOr = 1;  // lane bits ORed into a shared-memory word per digit
// As kMatchAtomicOr, with CUB's early counts: a per-warp histogram first, so that the counters
// hold each warp's tile-local digit starts before the ranking and the ranks come out final.
constexpr int kMatchEarlyCounts = 2;

// [SECTION] device helpers

__device__ __forceinline__ std::uint32_t ld_relaxed(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ std::uint32_t lanemask_lt() {
  std::uint32_t m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
// The lanes of the warp whose digit equals d: one ballot per digit bit. __match_any_sync costs
// about one pass per distinct value in the warp on sm_90 (v1 measured 2.9 ms per 2^28-key pass on
// uniform keys against 1.2 ms on all-equal ones); 8 ballots cost the same on any input.
__device__ __forceinline__ std::uint32_t match_digit(std::uint32_t d) {
  std::uint32_t peers = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < kRadixBits; ++b) {
    const bool bit = (d >> b) & 1u;
    const std::uint32_t vote = __ballot_sync(0xffffffffu, bit);
    peers &= bit ? vote : ~vote;
  }
  return peers;
}
template <class Bits>
__device__ __forceinline__ std::uint32_t digit_of(Bits b, int shift, std::uint32_t mask) {
  return static_cast<std::uint32_t>(b >> shift) & mask;
}

// Exclusive scans of two 256-entry columns held by threads 0..255 (others pass 0 and get 0).
// s_tmp: 16 words of shared memory. Ends with the block synchronised.
__device__ __forceinline__ void scan256_exclusive2(std::uint32_t a, std::uint32_t b,
                                                   std::uint32_t& ea, std::uint32_t& eb,
                                                   std::uint32_t* s_tmp) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  std::uint32_t ia = a, ib = b;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const std::uint32_t ta = __shfl_up_sync(0xffffffffu, ia, off);
    const std::uint32_t tb = __shfl_up_sync(0xffffffffu, ib, off);
    if (lane >= off) { ia += ta; ib += tb; }
  }
  if (lane == 31 && warp < 8) { s_tmp[warp] = ia; s_tmp[8 + warp] = ib; }
  __syncthreads();
  std::uint32_t pa = 0, pb = 0;
  if (warp < 8) {
    for (int w = 0; w < warp; ++w) { pa += s_tmp[w]; pb += s_tmp[8 + w]; }
  }
  ea = pa + ia - a;
  eb = pb + ib - b;
}

// [SECTION] upfront histogram: every pass's digit counts in one read of the keys

// One shared atomic per key and pass, keys read 16 bytes at a time. v1 run-length-aggregated
// each thread's digits first (so that equal keys would not serialise): ncu showed it
// instruction-bound, 0.92 ms for 2^28 u32 keys (81 % SM throughput, 24 % DRAM); the H200's
// shared atomics take same-address lanes in one go, so the plain form costs less on every input.
template <class Bits>
__device__ __forceinline__ void count_key(Bits b, int begin_bit, int passes, std::uint32_t last_mask,
                                          std::uint32_t* s_hist) {
  constexpr int kMaxPasses = sizeof(Bits);
#pragma unroll
  for (int p = 0; p < kMaxPasses; ++p) {
    if (p < passes) {
      const std::uint32_t d = digit_of(b, begin_bit + kRadixBits * p, p == passes - 1 ? last_mask : 0xffu);
      atomicAdd(&s_hist[p * kRadix + d], 1u);
    }
  }
}

template <class Bits, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    histogram_kernel(const Bits* __restrict__ keys, std::int64_t n, int begin_bit, int passes,
                     std::uint32_t last_mask, Bits enc0, Bits enc1, std::uint32_t* hist) {
  constexpr int kMaxPasses = sizeof(Bits);
  constexpr int kVec = 16 / sizeof(Bits);
  __shared__ std::uint32_t s_hist[kMaxPasses * kRadix];
  for (int i = threadIdx.x; i < kMaxPasses * kRadix; i += THREADS) s_hist[i] = 0;
  __syncthreads();
  // The vector part: whole 16-byte groups from the first 16-byte boundary.
  const std::int64_t head = std::min<std::int64_t>(
      n, ((16 - (reinterpret_cast<std::uintptr_t>(keys) & 15)) & 15) / sizeof(Bits));
  const std::int64_t vecs = (n - head) / kVec;
  const uint4* v = reinterpret_cast<const uint4*>(keys + head);
  const std::int64_t chunk = std::int64_t(THREADS) * ITEMS;
  for (std::int64_t base = blockIdx.x * chunk; base < vecs; base += std::int64_t(gridDim.x) * chunk) {
    uint4 x[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const std::int64_t idx = base + i * THREADS + threadIdx.x;
      x[i] = idx < vecs ? __ldg(v + idx) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      if (base + i * THREADS + threadIdx.x < vecs) {
        Bits kk[kVec];
        memcpy(kk, &x[i], 16);
#pragma unroll
        for (int e = 0; e < kVec; ++e) count_key(xor_by_top(kk[e], enc0, enc1), begin_bit, passes, last_mask, s_hist);
      }
    }
  }
  // The scalar head and tail.
  const std::int64_t tail_begin = head + vecs * kVec;
  const std::int64_t g = std::int64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (g < head) count_key(xor_by_top(keys[g], enc0, enc1), begin_bit, passes, last_mask, s_hist);
  if (tail_begin + g < n) count_key(xor_by_top(keys[tail_begin + g], enc0, enc1), begin_bit, passes, last_mask, s_hist);
  __syncthreads();
  for (int i = threadIdx.x; i < passes * kRadix; i += THREADS)
    if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]);
}

// [SECTION] digit pass

template <class Bits, class VBits>
struct PassArgs {
  const Bits* keys_in;
  Bits* keys_out;
  const VBits* vals_in;
  VBits* vals_out;
  std::int64_t n;
  int shift;
  std::uint32_t mask;              // digit mask of this pass (0xff but for a narrow last pass)
  const std::uint32_t* hist;       // this pass's digit counts over all keys
  std::uint32_t* status;           // tiles x 256 look-back words, zeroed before the pass
  std::uint32_t* tile_counter;     // zeroed before the pass: tiles are taken in launch order
  Bits in0, in1;                   // encoding applied on load (first pass; else 0)
  Bits out0, out1;                 // decoding applied on store (last pass; else 0)
  std::uint32_t* offsets_out;      // mask + 2 digit offsets written by tile 0, or null
};

template <int THREADS, int ITEMS, class Bits, class VBits, bool PAIRS>
constexpr std::size_t pass_smem_bytes() {
  constexpr std::size_t wide = sizeof(Bits) > sizeof(VBits) || !PAIRS ? sizeof(Bits) : sizeof(VBits);
  return (THREADS / 32) * kRadix * 4 + kRadix * 4 + 64 + std::size_t(THREADS) * ITEMS * wide;
}

template <class Bits, class VBits, bool PAIRS, int THREADS, int ITEMS, int MIN_BLOCKS, int MATCH>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS) pass_kernel(PassArgs<Bits, VBits> a) {
  constexpr int kWarps = THREADS / 32;
  constexpr int kTile = THREADS * ITEMS;
  static_assert(THREADS >= kRadix && THREADS % 32 == 0, "one thread per digit");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  std::uint32_t* s_warp = reinterpret_cast<std::uint32_t*>(smem_raw);  // [warp][digit] counts
  std::uint32_t* s_base = s_warp + kWarps * kRadix;                     // global pos - tile pos
  std::uint32_t* s_tmp = s_base + kRadix;                               // 16 words
  Bits* s_keys = reinterpret_cast<Bits*>(s_tmp + 16);                   // the tile exchange
  VBits* s_vals = reinterpret_cast<VBits*>(s_tmp + 16);                 // same storage, later
  __shared__ std::uint32_t s_tile;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  // The tile id first: its round trip overlaps the clearing (issued after the clearing, it cost
  // 7 % of a 2^28 sort). The counter was zeroed before the histogram kernel, so taking an id
  // before chain_wait() is safe.
  if (tid == 0) s_tile = atomicAdd(a.tile_counter, 1u);
  for (int i = tid; i < kWarps * kRadix; i += THREADS) s_warp[i] = 0;
  if constexpr (MATCH != kMatchBallot) {  // the mask rows of the ranking
    std::uint32_t* s_match = reinterpret_cast<std::uint32_t*>(s_keys);
    for (int i = tid; i < kWarps * kRadix; i += THREADS) s_match[i] = 0;
  }
  chain_wait();  // the previous pass (or the histogram) has finished
  chain_release();
  __syncthreads();
  const std::uint32_t tile = s_tile;
  const std::int64_t tile_begin = std::int64_t(tile) * kTile;
  const int valid = static_cast<int>(std::min<std::int64_t>(kTile, a.n - tile_begin));
  const int warp_first = warp * 32 * ITEMS + lane;  // tile-local index of item 0 (warp-striped)

  // Load: warp w takes the w-th run of 32 * ITEMS keys; item i of a lane is at i * 32 + lane.
  Bits k[ITEMS];
  const bool encode = (a.in0 | a.in1) != 0;
  if (valid == kTile) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) k[i] = a.keys_in[tile_begin + warp_first + i * 32];
    if (encode) {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) k[i] = xor_by_top(k[i], a.in0, a.in1);
    }
  } else {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int li = warp_first + i * 32;
      // Padding takes the largest digit, so it ranks after every real key of the tile.
      k[i] = li < valid ? xor_by_top(a.keys_in[tile_begin + li], a.in0, a.in1) : ~Bits(0);
    }
  }

  std::uint32_t rank[ITEMS];
  std::uint32_t* wh = s_warp + warp * kRadix;
  const std::uint32_t lt = lanemask_lt();
  // CUB's ATOMIC_OR ranking of every item: each lane sets its bit in its digit's mask word
  // (wm: this warp's row), the highest peer bumps the warp's counter for all of them and clears
  // the word; a lane's rank is the counter before the bump plus its lower peers.
  // True when every key of the warp has one digit, d0 (all-equal or presorted input): the
  // ranking then takes one counter update. Every lane runs the collectives, before any test.
  auto warp_has_one_digit = [&](std::uint32_t& d0) {
    Bits diff = 0;
#pragma unroll
    for (int i = 1; i < ITEMS; ++i) diff |= k[i] ^ k[0];
    d0 = digit_of(k[0], a.shift, a.mask);
    const std::uint32_t lane0_d0 = __shfl_sync(0xffffffffu, d0, 0);
    return __all_sync(0xffffffffu, (digit_of(diff, a.shift, a.mask) == 0) & (d0 == lane0_d0));
  };
  auto rank_by_peer_masks = [&](std::uint32_t* wm) {
    const std::uint32_t bit = 1u << lane;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const std::uint32_t d = digit_of(k[i], a.shift, a.mask);
      atomicOr(&wm[d], bit);
      __syncwarp();
      const std::uint32_t peers = wm[d];
      const int leader = 31 - __clz(peers);
      std::uint32_t before = 0;
      if (lane == leader) before = atomicAdd(&wh[d], static_cast<std::uint32_t>(__popc(peers)));
      before = __shfl_sync(0xffffffffu, before, leader);  // every lane has read its mask word
      if (lane == leader) wm[d] = 0;
      __syncwarp();
      rank[i] = before + __popc(peers & lt);
    }
  };
  // Per digit: warp-exclusive counts, the tile count (published at once for the look-back),
  // the tile-local and global digit starts. Runs with the counts of every warp in s_warp; ends
  // with the block synchronised and s_warp[w][d] = tile-local start of warp w's keys of digit d.
  std::uint32_t total = 0;
  std::uint32_t* my_status = a.status + std::size_t(tile) * kRadix + tid;
  std::uint32_t tile_excl, glob_excl;
  auto digest = [&]() {
    if (tid < kRadix) {
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const std::uint32_t c = s_warp[w * kRadix + tid];
        s_warp[w * kRadix + tid] = total;
        total += c;
      }
      st_relaxed(my_status, tile == 0 ? (kInclusive | total) : total + 1);
    }
    const std::uint32_t gcount = tid < kRadix ? a.hist[tid] : 0u;
    scan256_exclusive2(total, gcount, tile_excl, glob_excl, s_tmp);
    if (tid < kRadix) {
#pragma unroll
      for (int w = 0; w < kWarps; ++w) s_warp[w * kRadix + tid] += tile_excl;
      if (a.offsets_out != nullptr && tile == 0 && tid <= static_cast<int>(a.mask)) {
        a.offsets_out[tid] = glob_excl;
        if (tid == static_cast<int>(a.mask)) a.offsets_out[tid + 1] = glob_excl + gcount;
      }
    }
    __syncthreads();
  };
  if constexpr (MATCH == kMatchEarlyCounts) {
    // Early counts (CUB's BlockRadixRankMatchEarlyCounts): each warp counts its digits with one
    // shared atomic per key (independent of each other, no chain), the digest turns the counts
    // into tile-local starts and publishes the tile's counts before the ranking, and the
    // ranking's counter bumps return final tile positions: no counter re-read per key at the
    // exchange. The one-digit warp test as in kMatchAtomicOr.
    std::uint32_t* wm = reinterpret_cast<std::uint32_t*>(s_keys) + warp * kRadix;
    std::uint32_t d0 = 0;
    const bool one_digit = warp_has_one_digit(d0);
    if (one_digit) {
      if (lane == 0) atomicAdd(&wh[d0], 32u * ITEMS);
    } else {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) atomicAdd(&wh[digit_of(k[i], a.shift, a.mask)], 1u);
    }
    __syncthreads();
    digest();
    if (one_digit) {
      const std::uint32_t before = wh[d0];  // one word, read by all lanes
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) rank[i] = before + i * 32 + lane;
    } else {
      rank_by_peer_masks(wm);
    }
    __syncthreads();  // the mask rows alias the exchange buffer
  } else {
    if constexpr (MATCH == kMatchBallot) {
      // First every item's peer mask (independent ballots: instruction-level parallelism), then
      // the chain of counter updates, which must run in item order.
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) rank[i] = match_digit(digit_of(k[i], a.shift, a.mask));
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const std::uint32_t d = digit_of(k[i], a.shift, a.mask);
        const std::uint32_t peers = rank[i];
        const int leader = 31 - __clz(peers);
        std::uint32_t before = 0;
        if (lane == leader) {
          before = wh[d];
          wh[d] = before + __popc(peers);
        }
        before = __shfl_sync(0xffffffffu, before, leader);
        rank[i] = before + __popc(peers & lt);
        __syncwarp();
      }
    } else {
      // Peer masks through shared memory (CUB's WARP_MATCH_ATOMIC_OR): every lane ORs its bit
      // into its digit's word of the warp's mask row, reads the word back, and the highest peer
      // bumps the counter and clears the word. A few instructions per key against 8 ballots
      // with their bit tests and selects (~30 integer instructions per key). The mask rows live
      // in the exchange buffer, unused until the ranking is over (zeroed at the kernel's start).
      // A warp whose keys all share one digit (all-equal or presorted input) takes one counter
      // update instead: 32 lanes ORing into one word serialise (v7 measured all-equal keys
      // 6.95 -> 7.61 ms without this). The test costs one LOP3 per key.
      std::uint32_t* wm = reinterpret_cast<std::uint32_t*>(s_keys) + warp * kRadix;
      std::uint32_t d0 = 0;
      const bool one_digit = warp_has_one_digit(d0);
      if (one_digit) {
        std::uint32_t before = 0;
        if (lane == 0) before = atomicAdd(&wh[d0], 32u * ITEMS);
        before = __shfl_sync(0xffffffffu, before, 0);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) rank[i] = before + i * 32 + lane;
      } else {
        rank_by_peer_masks(wm);
      }
    }
    __syncthreads();
    digest();
  }

  // Exchange: keys to their tile position (needs only tile-local offsets, so it runs before the
  // look-back and gives the predecessors time to publish inclusive prefixes).
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if constexpr (MATCH != kMatchEarlyCounts) rank[i] += wh[digit_of(k[i], a.shift, a.mask)];
    s_keys[rank[i]] = k[i];
  }
  // Look-back: one thread per digit sums the predecessors' aggregates back to the first
  // inclusive prefix.
  if (tid < kRadix) {
    std::uint32_t excl = 0;
    if (tile > 0) {
      const std::uint32_t* p = my_status - kRadix;
      for (;;) {
        const std::uint32_t v = ld_relaxed(p);
        if (v == 0) continue;
        if (v & kInclusive) { excl += v & ~kInclusive; break; }
        excl += v - 1;
        p -= kRadix;
      }
      st_relaxed(my_status, kInclusive | (excl + total));
    }
    s_base[tid] = glob_excl + excl - tile_excl;
  }
  __syncthreads();
  // Out in tile order, so that consecutive threads write consecutive addresses within each
  // digit's run.
  std::uint32_t dst[PAIRS ? ITEMS : 1];
  const bool decode = (a.out0 | a.out1) != 0;
  if (valid == kTile && !decode) {  // the common case, without per-key tests
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int j = s * THREADS + tid;
      const Bits key = s_keys[j];
      const std::uint32_t g = s_base[digit_of(key, a.shift, a.mask)] + j;
      a.keys_out[g] = key;
      if constexpr (PAIRS) dst[s] = g;
    }
  } else {
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int j = s * THREADS + tid;
      const Bits key = s_keys[j];
      const std::uint32_t g = s_base[digit_of(key, a.shift, a.mask)] + j;
      if (j < valid) a.keys_out[g] = decode ? xor_by_top(key, a.out0, a.out1) : key;
      if constexpr (PAIRS) dst[s] = g;
    }
  }
  if constexpr (PAIRS) {
    VBits v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int li = warp_first + i * 32;
      v[i] = (valid == kTile || li < valid) ? a.vals_in[tile_begin + li] : VBits(0);
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) s_vals[rank[i]] = v[i];
    __syncthreads();
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int j = s * THREADS + tid;
      if (j < valid) a.vals_out[dst[s]] = s_vals[j];
    }
  }
}

// [SECTION] host side

// The pass's shape: threads, keys per thread, blocks per SM, peer matching. The library uses
// the defaults (0: RadixSortTuning::pass_shape); other shapes are for measuring.
template <int THREADS = 0, int ITEMS = 0, int MIN_BLOCKS = 0, int MATCH = RadixSortTuning::kPassMatch>
struct Shape {};

template <class Bits, class VBits, bool PAIRS, class S = Shape<>>
struct Config;
template <class Bits, class VBits, bool PAIRS, int THREADS, int ITEMS, int MIN_BLOCKS, int MATCH>
struct Config<Bits, VBits, PAIRS, Shape<THREADS, ITEMS, MIN_BLOCKS, MATCH>> {
  static constexpr RadixSortTuning::PassShape kTuned =
      RadixSortTuning::pass_shape(sizeof(Bits), PAIRS ? sizeof(VBits) : 0);
  static constexpr int kThreads = THREADS > 0 ? THREADS : kTuned.threads;
  static constexpr int kItems = ITEMS > 0 ? ITEMS : kTuned.items;
  static constexpr int kTile = kThreads * kItems;
  static constexpr int kMinBlocks = MIN_BLOCKS > 0 ? MIN_BLOCKS : kTuned.min_blocks;
  static constexpr int kMatch = MATCH;
  static constexpr std::size_t kSmem = pass_smem_bytes<kThreads, kItems, Bits, VBits, PAIRS>();
  static constexpr int kMaxPasses = sizeof(Bits);
  static_assert(MATCH == kMatchBallot || std::size_t(kThreads) * kItems * sizeof(Bits) >= std::size_t(kThreads / 32) * kRadix * 4,
                "the match rows fit in the exchange buffer");
};

constexpr std::size_t align256(std::size_t b) { return (b + 255) & ~std::size_t(255); }

// Workspace: [alt keys][alt values][hist: passes x 256][tile counters: 64][status: passes x tiles x 256]
template <class Bits, class VBits, bool PAIRS, class S = Shape<>>
std::size_t workspace_bytes(std::int64_t n) {
  using C = Config<Bits, VBits, PAIRS, S>;
  if (n <= 0) return 0;
  const std::size_t tiles = (std::size_t(n) + C::kTile - 1) / C::kTile;
  return align256(std::size_t(n) * sizeof(Bits)) + (PAIRS ? align256(std::size_t(n) * sizeof(VBits)) : 0) +
         align256(C::kMaxPasses * kRadix * 4 + 64 * 4) + std::size_t(C::kMaxPasses) * tiles * kRadix * 4;
}

// Tiles of a shape with min_blocks blocks per SM that are resident at once.
inline std::int64_t wave_tiles(const DeviceFacts& facts, int min_blocks) {
  return std::int64_t(facts.sm_count) * min_blocks;
}

// Sorts n <= 2^31 - 1 keys (and values) by bits [begin_bit, end_bit) of their encoded image.
// Arguments are checked by the caller; ws is at least workspace_bytes(n). When offsets_out is
// set, the first pass's tile 0 writes the digit offsets (for a one-pass partition).
template <class Bits, class VBits, bool PAIRS, class S = Shape<>>
Status run(const Bits* keys_in, Bits* keys_out, const VBits* vals_in, VBits* vals_out, std::int64_t n,
           int begin_bit, int end_bit, const KeyCodec<Bits>& codec, void* ws, std::uint32_t* offsets_out,
           const DeviceFacts& facts, cudaStream_t stream) {
  using C = Config<Bits, VBits, PAIRS, S>;
  using T = RadixSortTuning;
  const int passes = (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
  const std::size_t tiles = (std::size_t(n) + C::kTile - 1) / C::kTile;
  unsigned char* w = static_cast<unsigned char*>(ws);
  Bits* alt_keys = reinterpret_cast<Bits*>(w);
  w += align256(std::size_t(n) * sizeof(Bits));
  VBits* alt_vals = nullptr;
  if (PAIRS) {
    alt_vals = reinterpret_cast<VBits*>(w);
    w += align256(std::size_t(n) * sizeof(VBits));
  }
  std::uint32_t* hist = reinterpret_cast<std::uint32_t*>(w);
  std::uint32_t* counters = hist + C::kMaxPasses * kRadix;
  std::uint32_t* status = reinterpret_cast<std::uint32_t*>(w + align256(C::kMaxPasses * kRadix * 4 + 64 * 4));
  const std::size_t zero_bytes =
      align256(C::kMaxPasses * kRadix * 4 + 64 * 4) + std::size_t(passes) * tiles * kRadix * 4;
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(hist, 0, zero_bytes, stream));

  const int last_bits = end_bit - begin_bit - kRadixBits * (passes - 1);
  const std::uint32_t last_mask = (1u << last_bits) - 1u;
  {
    constexpr int kChunk = T::kHistThreads * T::kHistItems;
    const std::int64_t chunks = (n + kChunk - 1) / kChunk;
    const int grid = static_cast<int>(std::min<std::int64_t>(chunks, std::int64_t(facts.sm_count) * T::kHistBlocksPerSm));
    histogram_kernel<Bits, T::kHistThreads, T::kHistItems><<<grid, T::kHistThreads, 0, stream>>>(
        keys_in, n, begin_bit, passes, last_mask, codec.enc0, codec.enc1, hist);
    PRIMLAB_LAUNCH_TRY();
  }

  auto kernel = pass_kernel<Bits, VBits, PAIRS, C::kThreads, C::kItems, C::kMinBlocks, C::kMatch>;
  static const cudaError_t attr_err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(C::kSmem));
  PRIMLAB_CUDA_TRY(attr_err);

  // Passes of at most one wave of tiles are chained with programmatic dependent launch. H200,
  // u32 keys, whole sort chained (every size) against unchained (the run before): 2^16
  // 0.036 ms against 0.047; 2^28 (110 waves) 6.15 against 5.72, a 7 % loss, hence the limit.
  const bool chained = std::int64_t(tiles) <= wave_tiles(facts, C::kMinBlocks);

  // Ping-pong so that the last pass lands in keys_out. When the caller sorts in place and the
  // pass count is odd, the passes end in the workspace and one copy brings the result back.
  const bool aliased = (static_cast<const void*>(keys_in) == keys_out) ||
                       (PAIRS && static_cast<const void*>(vals_in) == vals_out);
  const bool copy_back = aliased && (passes % 2 == 1);
  const Bits* src_k = keys_in;
  const VBits* src_v = vals_in;
  for (int p = 0; p < passes; ++p) {
    const bool to_out = copy_back ? (p % 2 == 1) : ((passes - 1 - p) % 2 == 0);
    Bits* dst_k = to_out ? keys_out : alt_keys;
    VBits* dst_v = to_out ? vals_out : alt_vals;
    PassArgs<Bits, VBits> a;
    a.keys_in = src_k;
    a.keys_out = dst_k;
    a.vals_in = src_v;
    a.vals_out = dst_v;
    a.n = n;
    a.shift = begin_bit + kRadixBits * p;
    a.mask = p == passes - 1 ? last_mask : 0xffu;
    a.hist = hist + p * kRadix;
    a.status = status + std::size_t(p) * tiles * kRadix;
    a.tile_counter = counters + p;
    a.in0 = p == 0 ? codec.enc0 : Bits(0);
    a.in1 = p == 0 ? codec.enc1 : Bits(0);
    a.out0 = p == passes - 1 ? codec.dec0 : Bits(0);
    a.out1 = p == passes - 1 ? codec.dec1 : Bits(0);
    a.offsets_out = p == 0 ? offsets_out : nullptr;
    PRIMLAB_TRY(chained_launch(chained, kernel, static_cast<unsigned>(tiles), C::kThreads, C::kSmem, stream, a));
    src_k = dst_k;
    src_v = dst_v;
  }
  if (copy_back) {
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(keys_out, alt_keys, std::size_t(n) * sizeof(Bits), cudaMemcpyDeviceToDevice, stream));
    if (PAIRS)
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(vals_out, alt_vals, std::size_t(n) * sizeof(VBits), cudaMemcpyDeviceToDevice, stream));
  }
  return Status::Success;
}

// The library's entry points: the tuned shape, or the small-sort shape when the tuned tiles
// would not fill one wave (RadixSortTuning::small_pass_shape) or need more shared memory than the
// device gives a block. The small shape fits every GPU; the workspace fits either.
template <class Bits, class VBits, bool PAIRS>
struct Tuned {
  static constexpr RadixSortTuning::PassShape kSmall =
      RadixSortTuning::small_pass_shape(sizeof(Bits), PAIRS ? sizeof(VBits) : 0);
  using Small = Shape<kSmall.threads, kSmall.items, kSmall.min_blocks>;
  using Big = Config<Bits, VBits, PAIRS, Shape<>>;
  static constexpr bool kTwoShapes =
      kSmall.threads != Big::kThreads || kSmall.items != Big::kItems || kSmall.min_blocks != Big::kMinBlocks;
  static_assert(Config<Bits, VBits, PAIRS, Small>::kSmem <= kPortableSmem, "the small shape runs on every GPU");
};

template <class Bits, class VBits, bool PAIRS>
std::size_t tuned_workspace_bytes(std::int64_t n) {
  using T = Tuned<Bits, VBits, PAIRS>;
  return std::max(workspace_bytes<Bits, VBits, PAIRS, Shape<>>(n), workspace_bytes<Bits, VBits, PAIRS, typename T::Small>(n));
}

template <class Bits, class VBits, bool PAIRS>
Status run_tuned(const Bits* keys_in, Bits* keys_out, const VBits* vals_in, VBits* vals_out, std::int64_t n,
                 int begin_bit, int end_bit, const KeyCodec<Bits>& codec, void* ws, std::uint32_t* offsets_out,
                 cudaStream_t stream) {
  using T = Tuned<Bits, VBits, PAIRS>;
  DeviceFacts facts;
  const Status st = device_facts(facts);
  if (st != Status::Success) return st;
  if constexpr (T::kTwoShapes) {
    const std::int64_t big_tiles = (n + T::Big::kTile - 1) / T::Big::kTile;
    if (big_tiles < wave_tiles(facts, T::Big::kMinBlocks) || T::Big::kSmem > std::size_t(facts.max_smem_optin))
      return run<Bits, VBits, PAIRS, typename T::Small>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit,
                                                        codec, ws, offsets_out, facts, stream);
  }
  return run<Bits, VBits, PAIRS>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, codec, ws, offsets_out,
                                 facts, stream);
}

}  // namespace primlab::detail::onesweep
