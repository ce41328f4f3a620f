// Hopper launch features (thread block clusters, programmatic dependent launch) are used only where
// both the device and the loaded kernel image have them. A device of compute capability 9.0 may run
// an image JIT-compiled from older PTX (a build for 75-virtual, say): that image has no cluster or
// griddepcontrol code in it, so the feature is decided per kernel from cudaFuncGetAttributes.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"

namespace primlab::detail {

// True when `kernel`, as loaded on the current device, was compiled from compute_90 or newer PTX
// and the device is a Hopper or newer. Cached per kernel, thread and device.
template <class... Params>
Status has_sm90_launch_features(void (*kernel)(Params...), bool& out) {
  // Kernels of one parameter signature share these statics, so the kernel is part of the key.
  static thread_local int cached_dev = -1;
  static thread_local const void* cached_kernel = nullptr;
  static thread_local bool cached = false;
  int dev = 0;
  PRIMLAB_CUDA_TRY(cudaGetDevice(&dev));
  if (dev != cached_dev || reinterpret_cast<const void*>(kernel) != cached_kernel) {
    DeviceFacts facts;
    const Status s = device_facts(facts);
    if (s != Status::Success) return s;
    cudaFuncAttributes attr{};
    PRIMLAB_CUDA_TRY(cudaFuncGetAttributes(&attr, kernel));
    cached = facts.cc_major >= 9 && attr.ptxVersion >= 90;
    cached_dev = dev;
    cached_kernel = reinterpret_cast<const void*>(kernel);
  }
  out = cached;
  return Status::Success;
}

// One checked cudaLaunchKernelEx with at most one launch attribute (null: an ordinary launch).
template <class... Params, class... Args>
Status launch_with_attribute(const cudaLaunchAttribute* attr, void (*kernel)(Params...), dim3 grid, dim3 block,
                             std::size_t smem, cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attrs[1];
  if (attr != nullptr) attrs[0] = *attr;
  cfg.attrs = attrs;
  cfg.numAttrs = attr != nullptr ? 1 : 0;
  PRIMLAB_CUDA_TRY(cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(std::forward<Args>(args))...));
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// A thread block cluster of `blocks` blocks along x.
// Blocks of `kernel` (`threads` each, no dynamic shared memory) that one SM holds at once: the
// most a cooperative launch may put on it. Cached per kernel, thread and device.
template <class... Params>
Status resident_blocks_per_sm(void (*kernel)(Params...), int threads, int& out) {
  static thread_local int cached_dev = -1, cached_threads = 0, cached = 0;
  static thread_local const void* cached_kernel = nullptr;  // the key, as above
  int dev = 0;
  PRIMLAB_CUDA_TRY(cudaGetDevice(&dev));
  if (dev != cached_dev || threads != cached_threads || reinterpret_cast<const void*>(kernel) != cached_kernel) {
    PRIMLAB_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&cached, kernel, threads, 0));
    cached_dev = dev;
    cached_threads = threads;
    cached_kernel = reinterpret_cast<const void*>(kernel);
  }
  out = cached;
  return Status::Success;
}

// True when `tiles` blocks of `kernel` (`threads` each) fit one cooperative launch on the current
// device: a kernel with one block per tile then clears its own tile states behind a grid barrier,
// and no memset precedes it (small calls are bound by the host's launches).
template <class... Params>
Status fits_cooperative_launch(void (*kernel)(Params...), int threads, std::int64_t tiles, bool& out) {
  out = false;
  DeviceFacts facts;
  PRIMLAB_TRY(device_facts(facts));
  if (!facts.cooperative) return Status::Success;
  int resident = 0;
  PRIMLAB_TRY(resident_blocks_per_sm(kernel, threads, resident));
  out = tiles <= std::int64_t(resident) * facts.sm_count;
  return Status::Success;
}

inline cudaLaunchAttribute cooperative_attribute() {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeCooperative;
  a.val.cooperative = 1;
  return a;
}

inline cudaLaunchAttribute cluster_attribute(unsigned blocks) {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeClusterDimension;
  a.val.clusterDim.x = blocks;
  a.val.clusterDim.y = 1;
  a.val.clusterDim.z = 1;
  return a;
}

// Programmatic dependent launch: the kernel may start while its predecessor drains.
inline cudaLaunchAttribute programmatic_attribute() {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = 1;
  return a;
}

}  // namespace primlab::detail
