// Decoupled look-back tile states (Merrill & Garland 2016): each tile publishes its aggregate,
// then its inclusive prefix; a successor's one warp reads a window of 32 predecessors at a
// time (ballot on the status) and folds aggregates until it meets an inclusive prefix.
// Types of 4 bytes pack status and value in one 64-bit word, 8-byte types in one 16-byte word
// (one load per poll, one store per publication).
#pragma once
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "util/probe.cuh"
#include "warp/warp_scan.cuh"

namespace primlab::detail {

// listing: scan-lookback
enum TileStatus : unsigned { kTileInvalid = 0, kTileAggregate = 1, kTileInclusive = 2 };
// listing: end

template <class T, bool kPacked = (sizeof(T) <= 4)>
struct TileState;

// listing: scan-lookback
// A packed word of a type of up to 4 bytes: (value bits << 32) | status.
template <class T>
__device__ __forceinline__ std::uint64_t pack_tile_word(TileStatus s, T v) {
  std::uint32_t bits = 0;
  memcpy(&bits, &v, sizeof(T));
  return (std::uint64_t(bits) << 32) | s;
}
template <class T>
__device__ __forceinline__ unsigned unpack_tile_word(std::uint64_t x, T* v) {
  const std::uint32_t bits = std::uint32_t(x >> 32);
  memcpy(v, &bits, sizeof(T));
  return unsigned(x & 3u);
}

// Packed: one pack_tile_word per tile, tile t's word at t * kStride (a stride spreads the words
// of neighbouring tiles over more L2 sectors). The workspace is zeroed.
template <class T, int kStride>
struct PackedTileState {
  std::uint64_t* words;
  static constexpr std::size_t bytes_per_tile() { return 8 * kStride; }
  __device__ __forceinline__ void publish(std::int64_t tile, TileStatus s, T v) const {
    cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> w(words[tile * kStride]);
    w.store(pack_tile_word(s, v), cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ unsigned read(std::int64_t tile, T* v) const {
    cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> w(words[tile * kStride]);
    return unpack_tile_word(w.load(cuda::memory_order_relaxed), v);
  }
};
// listing: end
template <class T>
struct TileState<T, true> : PackedTileState<T, 1> {};

// 8-byte types: {status, value} in one 16-byte word, written and read with single 16-byte
// L2 accesses (st.cg / ld.cg .v2.u64), as CUB's tile state does: one load per poll, and a
// status is never seen without its value. Tile t's word at t * kStride. Zeroed workspace.
template <class T, int kStride>
struct WideTileState {
  static_assert(sizeof(T) == 8, "tile states hold types of up to 8 bytes");
  ulonglong2* words;
  static constexpr std::size_t bytes_per_tile() { return 16 * kStride; }
  __device__ __forceinline__ void publish(std::int64_t tile, TileStatus s, T v) const {
    ulonglong2 w;
    w.x = s;
    memcpy(&w.y, &v, 8);
    __stcg(words + tile * kStride, w);
  }
  __device__ __forceinline__ unsigned read(std::int64_t tile, T* v) const {
    const ulonglong2 w = __ldcg(words + tile * kStride);
    memcpy(v, &w.y, 8);
    return unsigned(w.x);
  }
};
template <class T>
struct TileState<T, false> : WideTileState<T, 1> {};

// A cluster's tile states in its blocks' shared memory (one tile per block, tile = block rank):
// the look-back of a scan that fits one cluster reads its predecessors through distributed shared
// memory, and no workspace is cleared before the launch. Types of up to 4 bytes, in one
// pack_tile_word, with one relaxed cluster-scope store and load (a status is never
// seen without its value). compute-sanitizer's racecheck reports these strong relaxed accesses
// as hazards; the atomic read-modify-write forms it would accept hung the scan on the H100
// (bench/NOTES-reduce-scan.md). Each block zeroes its word, and the cluster synchronises, before
// any publish or read.
template <class T>
struct ClusterTileState {
  static_assert(sizeof(T) <= 4, "the cluster's tile words pack 4-byte values");
  std::uint64_t* word;  // this block's word in its shared memory
  __device__ __forceinline__ void publish(std::int64_t, TileStatus s, T v) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("st.relaxed.cluster.u64 [%0], %1;" ::"l"(word), "l"(pack_tile_word(s, v)) : "memory");
#else
    (void)s, (void)v;
#endif
  }
  __device__ __forceinline__ unsigned read(std::int64_t tile, T* v) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const std::uint64_t* remote = cooperative_groups::this_cluster().map_shared_rank(word, unsigned(tile));
    std::uint64_t x;
    asm volatile("ld.relaxed.cluster.u64 %0, [%1];" : "=l"(x) : "l"(remote) : "memory");
    return unpack_tile_word(x, v);
#else
    (void)tile, (void)v;
    return kTileInvalid;
#endif
  }
};

// The state of a scan of T with tiles' words kStrideBytes apart (>= the word's size).
template <class T, int kStrideBytes>
using StridedTileState =
    std::conditional_t<(sizeof(T) <= 4), PackedTileState<T, (kStrideBytes < 8 ? 1 : kStrideBytes / 8)>,
                       WideTileState<T, (kStrideBytes < 16 ? 1 : kStrideBytes / 16)>>;

template <class State>
constexpr std::size_t state_bytes(std::int64_t num_tiles) {
  return (std::size_t(num_tiles) * State::bytes_per_tile() + 255) & ~std::size_t(255);
}

// In a kernel launched by launch_with_cleared_tile_states with zero_first (util/launch_features.cuh):
// each block clears its tile's state, and the grid waits for every tile's before any is published.
template <class State>
__device__ __forceinline__ void clear_tile_state_then_sync_grid(const State& state, std::int64_t tile) {
  if (threadIdx.x == 0) state.publish(tile, kTileInvalid, {});
  cooperative_groups::this_grid().sync();
}

// A tile state for running counts (selection): word = (count << 2) | status, 62-bit counts.
template <int kStride>
struct CountTileStateT {
  std::uint64_t* words;
  static constexpr std::size_t bytes_per_tile() { return 8 * kStride; }
  __device__ __forceinline__ void publish(std::int64_t tile, TileStatus s, std::int64_t v) const {
    cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> w(words[tile * kStride]);
    w.store((std::uint64_t(v) << 2) | s, cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ unsigned read(std::int64_t tile, std::int64_t* v) const {
    cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> w(words[tile * kStride]);
    std::uint64_t x = w.load(cuda::memory_order_relaxed);
    *v = std::int64_t(x >> 2);
    return unsigned(x & 3u);
  }
};
using CountTileState = CountTileStateT<1>;

// Called by one full warp of tile `tile` (> 0) after it published its aggregate: returns the
// exclusive prefix of the tile (op over all earlier tiles in order), in every lane.
// The window is 32 * kWords predecessors: lane l reads tiles base - l * kWords - w, w < kWords
// (w = 0 nearest). The warp waits until the whole window has published, folds everything up to
// the nearest inclusive prefix, farthest first, and moves the window back if there is none.
// The inclusive front therefore advances 32 * kWords tiles per L2 round trip.
// listing: scan-lookback
template <class T, int kWords = 1, int kSleepNs = 0, int kInitialDelayNs = 0,
          int kDelayMinGrid = 512, class State, class Op, class Probe = NoProbe>
__device__ __forceinline__ T look_back(const State& st, std::int64_t tile, Op op, Probe&& probe = Probe{}) {
  const int lane = threadIdx.x & 31;
  const T ident = Op::template identity<T>();
  T prefix{};
  bool have_prefix = false;
  std::int64_t base = tile - 1;
  // Give the predecessors time to publish inclusive prefixes before the first poll (CUB's
  // "L2 write latency" delay): fewer polls of the hot status lines near the inclusive front.
  // Only on large grids, where it pays; small grids keep their latency.
  if (kInitialDelayNs > 0 && gridDim.x >= kDelayMinGrid) __nanosleep(kInitialDelayNs);
  for (;;) {
    T v[kWords];
    unsigned s[kWords];
#pragma unroll
    for (int w = 0; w < kWords; ++w) {
      v[w] = ident;  // predecessors before tile 0 count as an inclusive identity
      s[w] = base - lane * kWords - w >= 0 ? unsigned(kTileInvalid) : unsigned(kTileInclusive);
    }
    for (;;) {
      bool ok = true;
#pragma unroll
      for (int w = 0; w < kWords; ++w) {
        const std::int64_t pred = base - lane * kWords - w;
        if (pred >= 0 && s[w] != kTileInclusive) {  // step: look-back (poll)
          s[w] = st.read(pred, &v[w]);              // step: look-back (poll)
          probe.event(ScanEvent::kTileRead, pred, s[w], v[w]);
        }
        ok = ok && s[w] != kTileInvalid;
      }
      probe.event(ScanEvent::kLookBackPoll, base, 0, 0);
      if (__all_sync(kFullMask, ok)) break;  // step: look-back (poll)
      if (kSleepNs > 0) __nanosleep(kSleepNs);  // back off: fewer polls of the hot status lines
    }
    // This lane's nearest inclusive entry, and the first lane that has one.
    int stop_w = kWords;
#pragma unroll
    for (int w = kWords - 1; w >= 0; --w)
      if (s[w] == kTileInclusive) stop_w = w;
    const unsigned incl = __ballot_sync(kFullMask, stop_w < kWords);  // step: look-back (fold)
    const int stop_lane = incl ? __ffs(incl) - 1 : 31;                 // step: look-back (fold)
    // The lane's fold, farthest first: v[last] op ... op v[0], cut at its inclusive entry.
    T x = ident;
    bool has = false;
#pragma unroll
    for (int w = kWords - 1; w >= 0; --w) {
      if (w <= stop_w || stop_w == kWords) {
        x = has ? op(x, v[w]) : v[w];  // step: look-back (fold)
        has = true;
      }
    }
    if (lane > stop_lane) x = ident;  // step: look-back (fold)
    // x[l] = x[l+d] op x[l]: lane 0 ends with the whole window, farthest tile first.
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      T y = __shfl_down_sync(kFullMask, x, d);
      if (lane + d < 32) x = op(y, x);  // step: look-back (fold)
    }
    const T window = __shfl_sync(kFullMask, x, 0);      // step: look-back (fold)
    prefix = have_prefix ? op(window, prefix) : window;  // step: look-back (fold)
    have_prefix = true;                                  // step: look-back (fold)
    probe.event(ScanEvent::kLookBackWindow, base, incl ? stop_lane : -1, prefix);
    if (incl) break;       // step: look-back (fold)
    base -= 32 * kWords;   // step: look-back (fold)
  }
  return prefix;
}
// listing: end

}  // namespace primlab::detail
