// The architecture of the loaded image, read from __CUDA_ARCH__ inside a kernel of the test's
// build, and whether the library's Hopper launch features (clusters, programmatic dependent
// launch) should be on: a device of compute capability 9 or more running sm_90 or newer code.
#pragma once
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "primlab/device_buffer.h"

namespace test {

static __global__ void image_arch_kernel(int* out) {
#if defined(__CUDA_ARCH__)
  *out = __CUDA_ARCH__;
#endif
}

struct ImageArch {
  int image_arch = 0;  // e.g. 900 for compute_90
  int cc_major = 0, cc_minor = 0;
  bool hopper_features() const { return cc_major >= 9 && image_arch >= 900; }
};

inline ImageArch image_arch() {
  ImageArch a;
  primlab::DeviceBuffer<int> d_arch(1);
  image_arch_kernel<<<1, 1>>>(d_arch.get());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(&a.image_arch, d_arch.get(), sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  int dev = 0;
  EXPECT_EQ(cudaGetDevice(&dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&a.cc_major, cudaDevAttrComputeCapabilityMajor, dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&a.cc_minor, cudaDevAttrComputeCapabilityMinor, dev), cudaSuccess);
  return a;
}

}  // namespace test
