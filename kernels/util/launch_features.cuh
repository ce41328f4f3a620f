// Hopper launch features (thread block clusters, programmatic dependent launch) are used only where
// both the device and the loaded kernel image have them. A device of compute capability 9.0 may run
// an image JIT-compiled from older PTX (a build for 75-virtual, say): that image has no cluster or
// griddepcontrol code in it, so the feature is decided per kernel from cudaFuncGetAttributes.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"

namespace primlab::detail {

// A value computed once per kernel, device and `extra` (a block size, or 0), per thread. Kernels
// of one parameter signature share a function template's statics, so the kernel is in the key.
template <class Compute>
Status cached_per_kernel(const void* kernel, int extra, int& out, Compute&& compute) {
  static thread_local std::map<std::tuple<const void*, int, int>, int> cache;  // (kernel, device, extra)
  int dev = 0;
  PRIMLAB_CUDA_TRY(cudaGetDevice(&dev));
  const auto key = std::make_tuple(kernel, dev, extra);
  if (const auto it = cache.find(key); it != cache.end()) {
    out = it->second;
    return Status::Success;
  }
  PRIMLAB_TRY(compute(out));
  cache.emplace(key, out);
  return Status::Success;
}

// True when `kernel`, as loaded on the current device, was compiled from compute_90 or newer PTX
// and the device is a Hopper or newer. Cached per kernel, thread and device.
template <class... Params>
Status has_sm90_launch_features(void (*kernel)(Params...), bool& out) {
  int on = 0;
  PRIMLAB_TRY(cached_per_kernel(reinterpret_cast<const void*>(kernel), 0, on, [&](int& v) -> Status {
    DeviceFacts facts;
    PRIMLAB_TRY(device_facts(facts));
    cudaFuncAttributes attr{};
    PRIMLAB_CUDA_TRY(cudaFuncGetAttributes(&attr, kernel));
    v = facts.cc_major >= 9 && attr.ptxVersion >= 90;
    return Status::Success;
  }));
  out = on != 0;
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

// Blocks of `kernel` (`threads` each, `smem` bytes of dynamic shared memory, the same on every call
// for one kernel) that one SM holds at once: the most a cooperative launch may put on it. Cached
// per kernel, thread and device.
template <class... Params>
Status resident_blocks_per_sm(void (*kernel)(Params...), int threads, int& out, std::size_t smem = 0) {
  return cached_per_kernel(reinterpret_cast<const void*>(kernel), threads, out, [&](int& v) -> Status {
    PRIMLAB_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, threads, smem));
    return Status::Success;
  });
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

// Launches `kernel` with one block per tile; its tile states (`state_bytes` at `states`) start at
// zero. Where the tiles fit one cooperative launch, the kernel clears them itself (its last
// parameter, zero_first, is true: clear_tile_state_then_sync_grid), one host launch less; else a
// memset clears them first. A single tile has no state to clear.
template <class... Params, class... Args>
Status launch_with_cleared_tile_states(void (*kernel)(Params...), std::int64_t tiles, int threads, void* states,
                                       std::size_t state_bytes, cudaStream_t stream, Args&&... args) {
  bool cooperative = false;
  if (tiles > 1) PRIMLAB_TRY(fits_cooperative_launch(kernel, threads, tiles, cooperative));
  if (cooperative) {
    const cudaLaunchAttribute attr = cooperative_attribute();
    return launch_with_attribute(&attr, kernel, unsigned(tiles), threads, 0, stream, std::forward<Args>(args)..., true);
  }
  if (tiles > 1) PRIMLAB_CUDA_TRY(cudaMemsetAsync(states, 0, state_bytes, stream));
  return launch_with_attribute(nullptr, kernel, unsigned(tiles), threads, 0, stream, std::forward<Args>(args)..., false);
}

// A thread block cluster of `blocks` blocks along x.
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
