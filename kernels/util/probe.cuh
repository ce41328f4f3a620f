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
//   probe.branch(path)                                 warp-collective: the path each lane takes
//   probe.shared_access(word)                          warp-collective: a shared-memory access
//   probe.match(row, i, key)                           warp-collective: lanes with the same key
//   probe.on_chip(row, data, base, count)              shared memory or registers shown as a row
//   probe.value(row, i, v)                             a value held in a register, shown in a row
//   probe.barrier() / probe.warp_barrier()             after __syncthreads() / __syncwarp(): a step ends
//   probe.event(what, a, b, value)                     what a library kernel did (ProbeEvent below)
// and in the host code, before each launch:
//   probe.launch(stream)
#pragma once
#include <cuda_runtime_api.h>

namespace primlab {

// What a library kernel tells its probe with probe.event(what, a, b, value). The library names no
// lab type (no trace rows, op kinds or counters), so its kernels say what they did in these words,
// and the lab's probe for the kernel turns them into ops, rows and counters. `value` is the
// element's or the word's value; a and b as listed.
enum class ProbeEvent : int {
  kLoad,            // a = element, b = item: the thread loaded an input element into a register
  kPrefix,          // a = element, b = row of items: the thread's prefix before its items from a on
  kSharedRead,      // a = word, or -1 in a lane that reads none, b = 0: a read of the block's shared array
  kSharedWrite,     // a = word, b = 0: a write of the block's shared array
  kTilePublish,     // a = tile, b = status: the thread wrote the tile's state word
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

}  // namespace primlab
