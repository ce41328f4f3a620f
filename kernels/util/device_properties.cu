// Device facts the fast paths size their grids from (multiprocessor count, L2 size), cached per device.
#include <cuda_runtime.h>

#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"

namespace primlab::detail {

Status device_facts(DeviceFacts& out) {
  int dev = 0;
  PRIMLAB_CUDA_TRY(cudaGetDevice(&dev));
  static thread_local int cached_dev = -1;
  static thread_local DeviceFacts cached{};
  if (dev != cached_dev) {
    PRIMLAB_CUDA_TRY(cudaDeviceGetAttribute(&cached.sm_count, cudaDevAttrMultiProcessorCount, dev));
    PRIMLAB_CUDA_TRY(cudaDeviceGetAttribute(&cached.l2_bytes, cudaDevAttrL2CacheSize, dev));
    PRIMLAB_CUDA_TRY(cudaDeviceGetAttribute(&cached.max_smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    PRIMLAB_CUDA_TRY(cudaDeviceGetAttribute(&cached.cc_major, cudaDevAttrComputeCapabilityMajor, dev));
    int cooperative = 0;
    PRIMLAB_CUDA_TRY(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, dev));
    cached.cooperative = cooperative != 0;
    cached_dev = dev;
  }
  out = cached;
  return Status::Success;
}

}  // namespace primlab::detail
