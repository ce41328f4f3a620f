// Chains of dependent kernels (the bitonic sort's 2 log n launches) with programmatic dependent
// launch (sm_90+): a kernel's blocks are scheduled while its predecessor drains, and wait in
// chain_wait() until the predecessor has finished and its writes are visible. Every kernel
// launched this way calls chain_wait() before it touches global memory. Where the device or the
// kernel's loaded image lacks the feature (launch_features.cuh), the launch is an ordinary one.
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "util/cuda_check.cuh"
#include "util/launch_features.cuh"

namespace primlab::detail {

__device__ __forceinline__ void chain_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
// Lets the next kernel of the chain be scheduled (its blocks then wait in chain_wait()).
__device__ __forceinline__ void chain_release() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

template <class... Params, class... Args>
Status chained_launch(bool programmatic, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                      cudaStream_t stream, Args&&... args) {
  if (programmatic) PRIMLAB_TRY(has_sm90_launch_features(kernel, programmatic));
  const cudaLaunchAttribute attr = programmatic_attribute();
  return launch_with_attribute(programmatic ? &attr : nullptr, kernel, grid, block, smem, stream,
                               std::forward<Args>(args)...);
}

}  // namespace primlab::detail
