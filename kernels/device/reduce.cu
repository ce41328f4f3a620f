// Device-wide reduction: a single-launch cluster path for small n on Hopper, two passes otherwise.
#include <algorithm>
#include <cstdint>

#include "agent/reduce_kernel.cuh"
#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"
#include "util/launch_features.cuh"
#include "tuning/reduce.cuh"
#include "primlab/reduce.h"

namespace primlab {
namespace detail {

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
