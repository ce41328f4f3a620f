// Hopper launch features (thread block clusters, programmatic dependent launch) are used only where
// both the device and the loaded kernel image have them. A device of compute capability 9.0 may run
// an image JIT-compiled from older PTX (a build for 75-virtual, say): that image has no cluster or
// griddepcontrol code in it, so the feature is decided per kernel from cudaFuncGetAttributes.
#pragma once
#include <cuda_runtime.h>

#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"

namespace primlab::detail {

// True when `kernel`, as loaded on the current device, was compiled from compute_90 or newer PTX
// and the device is a Hopper or newer. Cached per kernel, thread and device.
template <class... Params>
Status has_sm90_launch_features(void (*kernel)(Params...), bool& out) {
  static thread_local int cached_dev = -1;
  static thread_local bool cached = false;
  int dev = 0;
  PRIMLAB_CUDA_TRY(cudaGetDevice(&dev));
  if (dev != cached_dev) {
    DeviceFacts facts;
    const Status s = device_facts(facts);
    if (s != Status::Success) return s;
    cudaFuncAttributes attr{};
    PRIMLAB_CUDA_TRY(cudaFuncGetAttributes(&attr, kernel));
    cached = facts.cc_major >= 9 && attr.ptxVersion >= 90;
    cached_dev = dev;
  }
  out = cached;
  return Status::Success;
}

}  // namespace primlab::detail
