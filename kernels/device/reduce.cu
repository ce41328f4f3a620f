// Device-wide reduction: a single-launch cluster path for small n on Hopper, two passes otherwise.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>

#include "block/block_reduce.cuh"
#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"
#include "util/launch_features.cuh"
#include "tuning/reduce.cuh"
#include "primlab/reduce.h"

namespace primlab {
namespace detail {
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
  union Vec {
    uint4 u;
    T t[kVec];
  };
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

// [SECTION] Dispatch
template <class T>
int reduce_grid(std::int64_t n, int sm_count) {
  using Tuning = ReduceTuning<T>;
  const std::int64_t per_block = std::int64_t(Tuning::kThreads) * Tuning::kVec * Tuning::kUnroll;
  std::int64_t g = (n + per_block - 1) / per_block;
  std::int64_t cap = std::int64_t(sm_count) * Tuning::kBlocksPerSm;
  if (cap > Tuning::kMaxGrid) cap = Tuning::kMaxGrid;
  if (g > cap) g = cap;
  return g < 1 ? 1 : int(g);
}

}  // namespace detail

// The partials of the two-pass path; the cluster path needs none, but whether it runs is known
// only on the device, so the query covers the two passes for every n.
template <class T>
std::size_t reduce_workspace_bytes(std::int64_t n) {
  using Tuning = detail::ReduceTuning<T>;
  if (n <= 0) return 0;
  const std::int64_t per_block = std::int64_t(Tuning::kThreads) * Tuning::kVec * Tuning::kUnroll;
  const std::int64_t partials = std::min<std::int64_t>((n + per_block - 1) / per_block, Tuning::kMaxGrid);
  return (std::size_t(partials) * sizeof(T) + 255) & ~std::size_t(255);
}

template <class T, class Op>
Status reduce(const T* d_in, T* d_out, std::int64_t n, Op op, Workspace ws, cudaStream_t stream) {
  using Tuning = detail::ReduceTuning<T>;
  if (n < 0 || !d_out) return Status::InvalidArgument;
  if (n == 0) {
    detail::write_value_kernel<<<1, 1, 0, stream>>>(d_out, Op::template identity<T>());
    PRIMLAB_LAUNCH_TRY();
    return Status::Success;
  }
  if (!d_in) return Status::InvalidArgument;
  if (ws.bytes < reduce_workspace_bytes<T>(n) || !ws.ptr) return Status::WorkspaceTooSmall;
  const bool vector_ok = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0;
  if (n <= Tuning::kClusterMaxItems) {
    auto kernel = detail::reduce_cluster_kernel<Tuning, T, Op>;
    bool cluster = false;
    PRIMLAB_TRY(detail::has_sm90_launch_features(kernel, cluster));
    if (cluster) {
      const cudaLaunchAttribute attr = detail::cluster_attribute(Tuning::kClusterBlocks);
      return detail::launch_with_attribute(&attr, kernel, Tuning::kClusterBlocks, Tuning::kClusterThreads, 0, stream,
                                           d_in, d_out, n, op, vector_ok);
    }
  }
  detail::DeviceFacts facts;
  PRIMLAB_TRY(detail::device_facts(facts));
  const int grid = detail::reduce_grid<T>(n, facts.sm_count);
  T* d_partials = static_cast<T*>(ws.ptr);
  detail::reduce_kernel<Tuning><<<grid, Tuning::kThreads, 0, stream>>>(d_in, d_partials, n, op,
                                                                       vector_ok);
  PRIMLAB_LAUNCH_TRY();
  detail::reduce_kernel<Tuning><<<1, Tuning::kThreads, 0, stream>>>(d_partials, d_out, grid, op,
                                                                    false);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

#define PRIMLAB_REDUCE_INSTANTIATE(T)                                                         \
  template std::size_t reduce_workspace_bytes<T>(std::int64_t);                               \
  template Status reduce<T, Sum>(const T*, T*, std::int64_t, Sum, Workspace, cudaStream_t);   \
  template Status reduce<T, Min>(const T*, T*, std::int64_t, Min, Workspace, cudaStream_t);   \
  template Status reduce<T, Max>(const T*, T*, std::int64_t, Max, Workspace, cudaStream_t);

PRIMLAB_REDUCE_INSTANTIATE(std::int32_t)
PRIMLAB_REDUCE_INSTANTIATE(std::uint32_t)
PRIMLAB_REDUCE_INSTANTIATE(float)
PRIMLAB_REDUCE_INSTANTIATE(std::int64_t)
PRIMLAB_REDUCE_INSTANTIATE(double)

}  // namespace primlab
