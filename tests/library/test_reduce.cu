// GPU tests of primlab::reduce against a host reference: every type and operator, sizes around
// the small (one-launch cluster) and large (two-pass) paths, every pattern, bad arguments.
#include <gtest/gtest.h>

#include "tuning/reduce.cuh"
#include "test_util.h"
#include "primlab/reduce.h"

using namespace test;

template <class T>
class ReduceTest : public ::testing::Test {};
using ReduceTypes = ::testing::Types<std::int32_t, std::uint32_t, float, std::int64_t, double>;
TYPED_TEST_SUITE(ReduceTest, ReduceTypes);

template <class T, class Op>
void check_reduce(Op op, const char* op_name) {
  WorkspaceHolder wsh;
  const std::int64_t small_max = primlab::detail::ReduceTuning<T>::kClusterMaxItems;
  std::vector<std::int64_t> sizes = edge_sizes(4096);
  for (std::int64_t n : {small_max - 1, small_max, small_max + 1, 3 * small_max + 7}) sizes.push_back(n);
  primlab::DeviceBuffer<T> d_out(1);
  for (std::int64_t n : sizes) {
    if (n > max_test_n()) continue;
    for (Pattern p : all_patterns()) {
      if (std::is_floating_point_v<T> && std::is_same_v<Op, primlab::Sum> &&
          (p == Pattern::Extremes || n > (1 << 20) + 1))
        continue;  // exact float sums only within 2^20 quarter-integers, no overflow
      if (n > (1 << 17) && p != Pattern::Uniform && p != Pattern::Specials) continue;
      const std::vector<T> h_in = make_input<T>(p, n, 11);
      auto d_in = to_device(h_in);
      poison(d_out);
      ASSERT_EQ(primlab::reduce(d_in.get(), d_out.get(), n, op,
                                wsh.get(primlab::reduce_workspace_bytes<T>(n)), nullptr),
                primlab::Status::Success);
      sync_ok();
      T want = Op::template identity<T>();
      for (const T& x : h_in) want = ref_op(op, want, x);
      const T got = to_host(d_out.get(), 1)[0];
      ASSERT_TRUE(same_value(got, want)) << op_name << " n=" << n << " pattern=" << pattern_name(p)
                                         << " got " << +got << " want " << +want;
    }
  }
}

TYPED_TEST(ReduceTest, Sum) { check_reduce<TypeParam>(primlab::Sum{}, "sum"); }
TYPED_TEST(ReduceTest, Min) { check_reduce<TypeParam>(primlab::Min{}, "min"); }
TYPED_TEST(ReduceTest, Max) { check_reduce<TypeParam>(primlab::Max{}, "max"); }

TYPED_TEST(ReduceTest, UnalignedInput) {
  using T = TypeParam;
  const std::int64_t n = (1 << 21) + 3;
  PRIMLAB_SKIP_ABOVE(n);
  const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n + 1, 12);
  auto d_in = to_device(h_in);
  primlab::DeviceBuffer<T> d_out(1);
  WorkspaceHolder wsh;
  ASSERT_EQ(primlab::reduce(d_in.get() + 1, d_out.get(), n, primlab::Max{},
                            wsh.get(primlab::reduce_workspace_bytes<T>(n)), nullptr),
            primlab::Status::Success);
  sync_ok();
  T want = primlab::Max::identity<T>();
  for (std::int64_t i = 1; i <= n; ++i) want = primlab::Max{}(want, h_in[std::size_t(i)]);
  EXPECT_TRUE(same_value(to_host(d_out.get(), 1)[0], want));
}

TEST(ReduceErrors, BadArguments) {
  const std::int64_t n = 1 << 22;
  primlab::DeviceBuffer<float> d(static_cast<std::size_t>(n));
  primlab::DeviceBuffer<float> d_out(1);
  WorkspaceHolder wsh;
  const std::size_t bytes = primlab::reduce_workspace_bytes<float>(n);
  ASSERT_GT(bytes, 0u);
  EXPECT_EQ(primlab::reduce<float>(nullptr, d_out.get(), n, primlab::Sum{}, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::reduce<float>(d.get(), nullptr, n, primlab::Sum{}, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::reduce(d.get(), d_out.get(), -5, primlab::Sum{}, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::reduce(d.get(), d_out.get(), n, primlab::Sum{}, wsh.get(bytes - 4), nullptr),
            primlab::Status::WorkspaceTooSmall);
  // n == 0 writes the identity.
  ASSERT_EQ(primlab::reduce<float>(nullptr, d_out.get(), 0, primlab::Min{}, primlab::Workspace{}, nullptr),
            primlab::Status::Success);
  sync_ok();
  EXPECT_EQ(to_host(d_out.get(), 1)[0], std::numeric_limits<float>::infinity());
}

TEST(ReduceLarge, SumU32TwoToThe28) {
  const std::int64_t n = std::int64_t(1) << 28;
  PRIMLAB_SKIP_ABOVE(n);
  std::vector<std::uint32_t> h(static_cast<std::size_t>(n));
  std::uint32_t want = 0;
  std::uint64_t x = 1234567;
  for (auto& v : h) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v = std::uint32_t(x >> 32);
    want += v;
  }
  auto d_in = to_device(h);
  primlab::DeviceBuffer<std::uint32_t> d_out(1);
  WorkspaceHolder wsh;
  ASSERT_EQ(primlab::reduce(d_in.get(), d_out.get(), n, primlab::Sum{},
                            wsh.get(primlab::reduce_workspace_bytes<std::uint32_t>(n)), nullptr),
            primlab::Status::Success);
  sync_ok();
  EXPECT_EQ(to_host(d_out.get(), 1)[0], want);
}
