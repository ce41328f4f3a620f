// A kernel's dynamic shared memory limit is a per-device attribute: it is set once for each
// device the kernel launches on (a process may sort on several GPUs, one after another).
#pragma once
#include <cuda_runtime.h>

#include <mutex>
#include <set>
#include <utility>

#include "util/cuda_check.cuh"

namespace primlab::detail {

template <class Kernel>
Status allow_dynamic_smem(Kernel kernel, std::size_t bytes) {
  int device = 0;
  PRIMLAB_CUDA_TRY(cudaGetDevice(&device));
  static std::mutex mutex;
  static std::set<std::pair<const void*, int>> done;  // (kernel, device)
  const std::pair<const void*, int> key{reinterpret_cast<const void*>(kernel), device};
  std::lock_guard<std::mutex> lock(mutex);
  if (done.count(key)) return Status::Success;
  PRIMLAB_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  done.insert(key);
  return Status::Success;
}

}  // namespace primlab::detail
