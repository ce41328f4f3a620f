// Hopper launch features (clusters, programmatic dependent launch) are used exactly where the
// loaded image was compiled for sm_90 or newer and the device is a Hopper or newer. The image's
// architecture is read here independently, from __CUDA_ARCH__ inside a kernel of the same build.
#include <gtest/gtest.h>

#include <cstdio>

#include "util/launch_features.cuh"
#include "image_arch.cuh"

namespace {

TEST(LaunchFeatures, FollowTheLoadedImageAndTheDevice) {
  const test::ImageArch a = test::image_arch();
  bool on = false;
  ASSERT_EQ(primlab::detail::has_sm90_launch_features(test::image_arch_kernel, on), primlab::Status::Success);
  std::printf("device sm_%d%d, loaded image compiled for compute_%d: Hopper launch features %s\n", a.cc_major,
              a.cc_minor, a.image_arch / 10, on ? "on" : "off (fallbacks run)");
  EXPECT_EQ(on, a.hopper_features());
}

}  // namespace
