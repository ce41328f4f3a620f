// Chains of dependent kernels (the bitonic sort's 2 log n launches) with programmatic dependent
// launch (sm_90+): a kernel's blocks are scheduled while its predecessor drains, and wait in
// chain_wait() until the predecessor has finished and its writes are visible. Every kernel
// launched this way calls chain_wait() before it touches global memory; on older devices the
// launch is an ordinary one and chain_wait() does nothing.
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "cuda/cuda_check.cuh"

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
cudaError_t chained_launch(bool programmatic, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                           cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = programmatic ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(std::forward<Args>(args))...);
}

}  // namespace primlab::detail
