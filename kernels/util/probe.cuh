// The probe a kernel calls where the lab's stepped form records what the kernel does. Every
// kernel that the lab steps takes it as its last template parameter and kernel argument, and the
// host code that launches the kernels takes it too. NoProbe, the default, is what the library and
// the timed forms run: its calls are empty and compile to nothing, so the shipped kernels' machine
// code does not change. The lab's recording probe (kernels/lab/run/recording_probe.cuh) has the
// same calls and writes the trace.
//
// The calls, in a kernel (`probe` is the probe argument; the lab's listings hide these lines):
//   probe.op(slot, kind, src_row, src, dst_row, dst)   one operation of this thread (src = dst = -1: none)
//   probe.compare_swap(slot, row, first, second, swapped)  a comparator of a sorting network
//   probe.count(counter, amount)                       a counter of the step
//   probe.branch(path)                                 warp-wide: the path each lane takes
//   probe.shared_access(word)                          warp-wide: a shared-memory access (-1: none)
//   probe.match(row, i, key)                           warp-collective: lanes with the same key
//   probe.on_chip(row, data, base, count)              shared memory or registers shown as a row
//   probe.value(row, i, v)                             a value held in a register, shown in a row
//   probe.barrier() / probe.warp_barrier()             after __syncthreads() / __syncwarp(): a step ends
//   probe.event(what, ...)                             what a library kernel did (ScanEvent, OnesweepEvent)
// and in the host code, before each launch:
//   probe.launch(stream)
#pragma once
#include <cuda_runtime_api.h>

namespace primlab {

// What the single-pass scan tells its probe (agent/scan_kernel.cuh, block/tile_state.cuh) with
// probe.event(what, a, b, value). The library names no lab type (no trace rows, op kinds or
// counters), so its kernels say what they did in these words, and the lab's probe for the scan
// (scan-lookback) turns them into ops, rows and counters. `value` is the element's or the word's
// value; a and b as listed.
enum class ScanEvent : int {
  kLoad,            // a = element, b = item: the thread loaded an input element into a register
  kPrefix,          // a = element, b = row of items: the thread's prefix before its items from a on
  kSharedRead,      // a = word, or -1 in a lane that reads none, b = 0: a read of the block's shared array
  kSharedWrite,     // a = word, b = 0: a write of the block's shared array
  kTilePublish,     // a = tile, b = status: the thread writes the tile's state word on the next line
                    // (called before the store, so that the probe can number the publication before
                    // another tile sees the word)
  kTileRead,        // a = tile, b = status: the thread read a predecessor's state word
  kLookBackPoll,    // a = the window's nearest tile, b = 0: every lane, after each poll of the window
  kLookBackWindow,  // a = the window's nearest tile, b = the stopping lane or -1: warp-collective,
                    // after each window; value = the prefix folded so far
  kStore,           // a = element, b = item: the thread's output for an element (stored where a < n)
};

// The arguments are taken by value: a reference to a loop variable changed one kernel's register
// allocation.
struct NoProbe {
  template <class... A> __device__ __forceinline__ void op(A...) const {}
  template <class... A> __device__ __forceinline__ void compare_swap(A...) const {}
  template <class... A> __device__ __forceinline__ void count(A...) const {}
  template <class... A> __device__ __forceinline__ void branch(A...) const {}
  template <class... A> __device__ __forceinline__ void shared_access(A...) const {}
  template <class... A> __device__ __forceinline__ void match(A...) const {}
  template <class... A> __device__ __forceinline__ void on_chip(A...) const {}
  template <class... A> __device__ __forceinline__ void value(A...) const {}
  template <class... A> __device__ __forceinline__ void event(A...) const {}
  __device__ __forceinline__ void barrier() const {}
  __device__ __forceinline__ void warp_barrier() const {}
  __host__ void launch(cudaStream_t) const {}
};

// What the Onesweep digit pass tells its probe (agent/radix_histogram.cuh, agent/radix_onesweep.cuh,
// block/block_radix_rank.cuh): probe.event(what, arguments as listed). The library names no lab
// type, so the lab's probe for the pass (radix-onesweep) turns these into ops, rows and counters.
// "Warp": every lane of the warp makes the call together.
enum class OnesweepEvent : int {
  kSharedCounts,  // (counts): the block's shared digit counters (s_hist; the ranking's [warp][digit] rows)
  kHistClear,     // (i): s_hist[i] = 0. Warp
  kHistKeys,      // (first, count, group): the lane counted keys first..first + count - 1 (none: first < 0). Warp
  kHistMerge,     // (i, count): hist[i] += count where count != 0. Warp
  kClear,         // (i, masks): the ranking's counter word i (masks: its peer-mask word i) = 0. Warp
  kLoad,          // (k, first, valid): k[i] is the tile's key first + 32 i (padding from valid on)
  kCount,         // (i, d, amount, peers): the lane added amount to its warp's count of digit d (d < 0: none). Warp
  kColumn,        // (w, d, value, add): warp w's count of digit d = value (add: += value). Warp
  kPublish,       // (tile, d, word): the look-back word of (tile, digit d) is stored on the next line
                  // (called before the store, as ScanEvent::kTilePublish)
  kHistRead,      // (d, count): hist[d] read (d < 0: none)
  kScanTotals,    // (w): warp w's two totals stored for the block's scan (w < 0: none). Warp
  kScanRead,      // (w): the totals of warps 0..w - 1 read. Warp
  kRankRun,       // (rank, d): the ranks of a warp whose keys all have digit d. Warp
  kRankKey,       // (i, d, peers, rank, masks): key i's peers and rank (masks: matched in shared memory). Warp
  kExchange,      // (k, rank): s_keys[rank[i]] = k[i]. Warp
  kLookBack,      // (v, nearest, folded): v[w] read from tile nearest - w, the first `folded` of them added
  kBase,          // (d, base): s_base[d] = base. Warp
  kScatter,       // (j, key, g): the tile's key j (in digit order) stored at g where j is a real key. Warp
};

}  // namespace primlab
