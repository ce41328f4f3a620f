// GPU tests of primlab::select_if / select_flagged against a host reference: every type,
// predicate, edge sizes around the tile, every pattern, keep-none and keep-all, bad arguments.
#include <gtest/gtest.h>

#include "tuning/select.cuh"
#include "test_util.h"
#include "primlab/select.h"

using namespace test;

template <class T>
class SelectTest : public ::testing::Test {};
using SelectTypes = ::testing::Types<std::int32_t, std::uint32_t, float, std::int64_t, double>;
TYPED_TEST_SUITE(SelectTest, SelectTypes);

template <class T, class Pred>
void check_select_if(Pred pred, const char* name) {
  WorkspaceHolder wsh;
  const std::int64_t tile = primlab::detail::SelectTuning<T>::kTileItems;
  primlab::DeviceBuffer<std::int64_t> d_count(1);
  for (std::int64_t n : edge_sizes(tile)) {
    for (Pattern p : all_patterns()) {
      if (n > (1 << 17) && p != Pattern::Uniform && p != Pattern::Specials) continue;
      const std::vector<T> h_in = make_input<T>(p, n, 21);
      auto d_in = to_device(h_in);
      primlab::DeviceBuffer<T> d_out(static_cast<std::size_t>(n));
      poison(d_out);
      poison(d_count);
      ASSERT_EQ(primlab::select_if(d_in.get(), d_out.get(), d_count.get(), n, pred,
                                   wsh.get(primlab::select_workspace_bytes<T>(n)), nullptr),
                primlab::Status::Success);
      sync_ok();
      std::vector<T> want;
      for (const T& x : h_in)
        if (pred(x)) want.push_back(x);
      const std::int64_t count = to_host(d_count.get(), 1)[0];
      ASSERT_EQ(count, std::int64_t(want.size())) << name << " n=" << n << " " << pattern_name(p);
      EXPECT_EQ(first_mismatch(to_host(d_out.get(), count), want), -1)
          << name << " n=" << n << " " << pattern_name(p);
    }
  }
}

TYPED_TEST(SelectTest, LessThan) {
  using T = TypeParam;
  check_select_if<T>(primlab::LessThan<T>{std::is_signed_v<T> ? T(0) : T(std::numeric_limits<T>::max() / 2)}, "less");
}
TYPED_TEST(SelectTest, GreaterEqualKeepsAllOrNone) {
  using T = TypeParam;
  check_select_if<T>(primlab::GreaterEqual<T>{std::numeric_limits<T>::lowest()}, "keep-all(but NaN)");
  check_select_if<T>(primlab::GreaterEqual<T>{std::numeric_limits<T>::max()}, "keep-max");
}
TYPED_TEST(SelectTest, NotEqual) {
  using T = TypeParam;
  check_select_if<T>(primlab::NotEqual<T>{T(7)}, "not-7");
}

TYPED_TEST(SelectTest, Flagged) {
  using T = TypeParam;
  WorkspaceHolder wsh;
  const std::int64_t tile = primlab::detail::SelectTuning<T>::kTileItems;
  primlab::DeviceBuffer<std::int64_t> d_count(1);
  std::mt19937_64 rng(5);
  for (std::int64_t n : edge_sizes(tile)) {
    for (int density : {0, 1, 50, 100}) {
      const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n, 22);
      std::vector<std::uint8_t> h_flags(static_cast<std::size_t>(n));
      for (auto& f : h_flags) f = std::uint8_t(int(rng() % 100) < density ? 1 + rng() % 255 : 0);
      auto d_in = to_device(h_in);
      auto d_flags = to_device(h_flags);
      primlab::DeviceBuffer<T> d_out(static_cast<std::size_t>(n));
      poison(d_out);
      ASSERT_EQ(primlab::select_flagged(d_in.get(), d_flags.get(), d_out.get(), d_count.get(), n,
                                        wsh.get(primlab::select_workspace_bytes<T>(n)), nullptr),
                primlab::Status::Success);
      sync_ok();
      std::vector<T> want;
      for (std::size_t i = 0; i < h_in.size(); ++i)
        if (h_flags[i]) want.push_back(h_in[i]);
      const std::int64_t count = to_host(d_count.get(), 1)[0];
      ASSERT_EQ(count, std::int64_t(want.size())) << "n=" << n << " density=" << density;
      EXPECT_EQ(first_mismatch(to_host(d_out.get(), count), want), -1) << "n=" << n;
    }
  }
}

TEST(SelectErrors, BadArguments) {
  const std::int64_t n = 1 << 16;
  primlab::DeviceBuffer<float> d(static_cast<std::size_t>(n)), d_out(static_cast<std::size_t>(n));
  primlab::DeviceBuffer<std::int64_t> d_count(1);
  primlab::DeviceBuffer<std::uint8_t> d_flags(static_cast<std::size_t>(n));
  WorkspaceHolder wsh;
  const std::size_t bytes = primlab::select_workspace_bytes<float>(n);
  const primlab::LessThan<float> pred{0.f};
  EXPECT_EQ(primlab::select_if<float>(nullptr, d_out.get(), d_count.get(), n, pred, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::select_if<float>(d.get(), nullptr, d_count.get(), n, pred, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::select_if<float>(d.get(), d_out.get(), nullptr, n, pred, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::select_flagged<float>(d.get(), nullptr, d_out.get(), d_count.get(), n, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::select_if<float>(d.get(), d_out.get(), d_count.get(), n, pred, wsh.get(bytes / 2), nullptr),
            primlab::Status::WorkspaceTooSmall);
  ASSERT_EQ(primlab::select_if<float>(nullptr, nullptr, d_count.get(), 0, pred, primlab::Workspace{}, nullptr),
            primlab::Status::Success);
  sync_ok();
  EXPECT_EQ(to_host(d_count.get(), 1)[0], 0);
}
