// GPU tests of the part-1 teaching variants against host references, over block sizes.
#include <gtest/gtest.h>

#include "library/test_util.h"
#include "lab/timed.h"

using namespace test;
namespace tg = primlab::teaching;

template <class T>
class TeachingTest : public ::testing::Test {};
using TeachingTypes = ::testing::Types<std::int32_t, std::uint32_t, float>;
TYPED_TEST_SUITE(TeachingTest, TeachingTypes);

template <class T>
std::vector<T> ref_exclusive_sum(const std::vector<T>& in) {
  std::vector<T> out(in.size());
  T acc = T(0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = acc;
    acc = ref_op(primlab::Sum{}, acc, in[i]);
  }
  return out;
}

const std::vector<std::int64_t> kSizes = {0, 1, 2, 31, 33, 255, 256, 257, 1023, 1024, 1025, 4099, 65537, 300001};

TYPED_TEST(TeachingTest, Scans) {
  using T = TypeParam;
  WorkspaceHolder wsh;
  for (int block : {32, 128, 256, 1024}) {
    for (std::int64_t n : kSizes) {
      if (n > max_test_n()) continue;
      const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n, 51);
      const std::vector<T> want = ref_exclusive_sum(h_in);
      auto d_in = to_device(h_in);
      primlab::DeviceBuffer<T> d_out(static_cast<std::size_t>(n));
      for (int v = 0; v < 3; ++v) {
        poison(d_out);
        primlab::Status s;
        if (v == 0) s = tg::scan_naive(d_in.get(), d_out.get(), n, block, wsh.get(tg::scan_naive_workspace_bytes<T>(n)), nullptr);
        else if (v == 1) s = tg::scan_blelloch(d_in.get(), d_out.get(), n, block, wsh.get(tg::scan_blelloch_workspace_bytes<T>(n)), nullptr);
        else s = tg::scan_shared(d_in.get(), d_out.get(), n, block, wsh.get(tg::scan_shared_workspace_bytes<T>(n, block)), nullptr);
        ASSERT_EQ(s, primlab::Status::Success);
        sync_ok();
        EXPECT_EQ(first_mismatch(to_host(d_out.get(), n), want), -1)
            << "variant " << v << " block " << block << " n " << n;
      }
    }
  }
}

TYPED_TEST(TeachingTest, Reductions) {
  using T = TypeParam;
  WorkspaceHolder wsh;
  primlab::DeviceBuffer<T> d_out(1);
  for (int block : {64, 256, 1024}) {
    for (std::int64_t n : kSizes) {
      if (n > max_test_n()) continue;
      const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n, 52);
      T want = T(0);
      for (const T& x : h_in) want = ref_op(primlab::Sum{}, want, x);
      auto d_in = to_device(h_in);
      for (int variant = 1; variant <= tg::kReduceLectureVariants; ++variant) {
        poison(d_out);
        ASSERT_EQ(tg::reduce_lecture(variant, d_in.get(), d_out.get(), n, block, 8,
                                     wsh.get(tg::reduce_lecture_workspace_bytes<T>(n, block)), nullptr),
                  primlab::Status::Success);
        sync_ok();
        EXPECT_TRUE(same_value(to_host(d_out.get(), 1)[0], want))
            << "reduce" << variant << " block " << block << " n " << n;
      }
    }
  }
}

TEST(TeachingHistogram, AtomicVariants) {
  primlab::DeviceBuffer<std::uint32_t> d_hist(256), d_ref(256);
  for (std::int64_t n : kSizes) {
    if (n > max_test_n()) continue;
    const auto h8 = make_input<std::uint8_t>(Pattern::Uniform, n, 53);
    const auto h32 = make_input<std::uint32_t>(Pattern::Uniform, n, 54);
    std::vector<std::uint32_t> want8(256, 0), want32(256, 0);
    for (auto x : h8) ++want8[x];
    for (auto x : h32) ++want32[x >> 24];
    auto d8 = to_device(h8);
    auto d32 = to_device(h32);
    for (int shared = 0; shared < 2; ++shared) {
      auto fn8 = shared ? tg::histogram_shared_atomic<std::uint8_t> : tg::histogram_global_atomic<std::uint8_t>;
      auto fn32 = shared ? tg::histogram_shared_atomic<std::uint32_t> : tg::histogram_global_atomic<std::uint32_t>;
      poison(d_hist);
      ASSERT_EQ(fn8(d8.get(), d_hist.get(), 256, 0, 256, n, 256, nullptr), primlab::Status::Success);
      sync_ok();
      EXPECT_EQ(first_mismatch(to_host(d_hist.get(), 256), want8), -1) << "u8 shared=" << shared << " n=" << n;
      poison(d_hist);
      ASSERT_EQ(fn32(d32.get(), d_hist.get(), 256, 0, std::uint64_t(1) << 32, n, 128, nullptr),
                primlab::Status::Success);
      sync_ok();
      EXPECT_EQ(first_mismatch(to_host(d_hist.get(), 256), want32), -1) << "u32 shared=" << shared << " n=" << n;
    }
  }
}
