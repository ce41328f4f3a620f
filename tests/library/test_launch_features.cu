// Hopper launch features (clusters, programmatic dependent launch) are used exactly where the
// loaded image was compiled for sm_90 or newer and the device is a Hopper or newer. The image's
// architecture is read here independently, from __CUDA_ARCH__ inside a kernel of the same build.
#include <gtest/gtest.h>

#include <cstdio>

#include "util/launch_features.cuh"
#include "test_util.h"

namespace {

__global__ void image_arch_kernel(int* out) {
#if defined(__CUDA_ARCH__)
  *out = __CUDA_ARCH__;
#endif
}

TEST(LaunchFeatures, FollowTheLoadedImageAndTheDevice) {
  primlab::DeviceBuffer<int> d_arch(1);
  image_arch_kernel<<<1, 1>>>(d_arch.get());
  test::sync_ok();
  const int image_arch = test::to_host(d_arch.get(), 1)[0];
  int dev = 0, cc_major = 0, cc_minor = 0;
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&cc_minor, cudaDevAttrComputeCapabilityMinor, dev), cudaSuccess);
  bool on = false;
  ASSERT_EQ(primlab::detail::has_sm90_launch_features(image_arch_kernel, on), primlab::Status::Success);
  std::printf("device sm_%d%d, loaded image compiled for compute_%d: Hopper launch features %s\n", cc_major,
              cc_minor, image_arch / 10, on ? "on" : "off (fallbacks run)");
  EXPECT_EQ(on, cc_major >= 9 && image_arch >= 900);
}

}  // namespace
