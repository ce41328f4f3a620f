// The device-wide reduction's kernels: a grid-stride pass that leaves one partial per block (run
// again on the partials), and a single-launch cluster kernel for small n on Hopper.
#pragma once
#include <cooperative_groups.h>

#include <cstdint>

#include "block/block_reduce.cuh"
#include "thread/vector_io.cuh"

namespace primlab::detail {
namespace cg = cooperative_groups;

// [SECTION] Thread-level grid-stride accumulation
// Elements [0, n) split over `workers` threads of index `w`: 16-byte vectors with kUnroll
// independent loads in flight when the input is aligned, scalars otherwise.
template <class Tuning, class T, class Op>
__device__ __forceinline__ T thread_accumulate(const T* __restrict__ d_in, std::int64_t n, Op op,
                                               bool vector_ok, std::int64_t w,
                                               std::int64_t workers) {
  constexpr int kVec = Tuning::kVec;
  constexpr int kU = Tuning::kUnroll;
  using Vec = Vec16<T>;
  T acc = Op::template identity<T>();
  std::int64_t done = 0;
  if (vector_ok) {
    const std::int64_t nvec = n / kVec;
    const uint4* v_in = reinterpret_cast<const uint4*>(d_in);
    std::int64_t i = w;
    for (; i + (kU - 1) * workers < nvec; i += kU * workers) {
      Vec v[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u) v[u].u = __ldcs(v_in + i + u * workers);
#pragma unroll
      for (int u = 0; u < kU; ++u)
#pragma unroll
        for (int j = 0; j < kVec; ++j) acc = op(acc, v[u].t[j]);
    }
    for (; i < nvec; i += workers) {
      Vec v;
      v.u = __ldcs(v_in + i);
#pragma unroll
      for (int j = 0; j < kVec; ++j) acc = op(acc, v.t[j]);
    }
    done = nvec * kVec;
  }
  for (std::int64_t i = done + w; i < n; i += workers) acc = op(acc, d_in[i]);
  return acc;
}

// [SECTION] Kernels
// Pass 1 (or the only pass when gridDim.x == 1): one partial per block.
template <class Tuning, class T, class Op>
__global__ void __launch_bounds__(Tuning::kThreads)
reduce_kernel(const T* __restrict__ d_in, T* d_out, std::int64_t n, Op op, bool vector_ok) {
  const std::int64_t workers = std::int64_t(gridDim.x) * Tuning::kThreads;
  const std::int64_t w = std::int64_t(blockIdx.x) * Tuning::kThreads + threadIdx.x;
  T acc = thread_accumulate<Tuning>(d_in, n, op, vector_ok, w, workers);
  acc = block_reduce<Tuning::kThreads>(acc, op);
  if (threadIdx.x == 0) d_out[blockIdx.x] = acc;
}

// Small n: one cluster; block 0 folds the blocks' partials out of their shared memory. Launched
// with a cluster dimension of Tuning::kClusterBlocks, only where launch_features.cuh allows; an
// image for an older architecture has an empty body.
template <class Tuning, class T, class Op>
__global__ void __launch_bounds__(Tuning::kClusterThreads)
reduce_cluster_kernel(const T* __restrict__ d_in, T* d_out, std::int64_t n, Op op, bool vector_ok) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ T s_partial;
  cg::cluster_group cluster = cg::this_cluster();
  const std::int64_t workers = std::int64_t(Tuning::kClusterBlocks) * Tuning::kClusterThreads;
  const std::int64_t w = std::int64_t(cluster.block_rank()) * Tuning::kClusterThreads + threadIdx.x;
  T acc = thread_accumulate<Tuning>(d_in, n, op, vector_ok, w, workers);
  acc = block_reduce<Tuning::kClusterThreads>(acc, op);
  if (threadIdx.x == 0) s_partial = acc;
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x < 32) {
    T v = threadIdx.x < Tuning::kClusterBlocks
              ? *cluster.map_shared_rank(&s_partial, threadIdx.x)
              : Op::template identity<T>();
    v = warp_reduce(v, op);
    if (threadIdx.x == 0) *d_out = v;
  }
  cluster.sync();  // keep every block's shared memory alive until block 0 has read it
#else
  (void)d_in, (void)d_out, (void)n, (void)op, (void)vector_ok;
#endif
}

template <class T>
__global__ void write_value_kernel(T* d_out, T v) { *d_out = v; }

}  // namespace primlab::detail
