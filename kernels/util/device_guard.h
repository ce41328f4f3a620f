// DeviceGuard: restores the caller's current CUDA device when a call that switches devices returns
// (the multi-GPU primitives and their NCCL transport drive several GPUs from one thread).
#pragma once
#include <cuda_runtime_api.h>

namespace primlab::detail {

class DeviceGuard {
 public:
  DeviceGuard() { cudaGetDevice(&device_); }
  ~DeviceGuard() { cudaSetDevice(device_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int device_ = 0;
};

}  // namespace primlab::detail
