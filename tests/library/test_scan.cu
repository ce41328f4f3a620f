// GPU tests of primlab::inclusive_scan / exclusive_scan against a host reference: every type,
// operator and order, edge sizes around the tile, every input pattern, bad arguments, 2^30.
#include <gtest/gtest.h>

#include <algorithm>

#include "tuning/scan.cuh"
#include "image_arch.cuh"
#include "test_util.h"
#include "primlab/scan.h"

using namespace test;

template <class T, class Op>
std::vector<T> ref_scan(const std::vector<T>& in, bool exclusive, T init, Op op) {
  std::vector<T> out(in.size());
  T acc = exclusive ? init : Op::template identity<T>();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (exclusive) {
      out[i] = acc;
      acc = ref_op(op, acc, in[i]);
    } else {
      acc = i == 0 ? in[0] : ref_op(op, acc, in[i]);
      out[i] = acc;
    }
  }
  return out;
}

template <class T>
class ScanTest : public ::testing::Test {};
using ScanTypes = ::testing::Types<std::int32_t, std::uint32_t, float, std::int64_t, double>;
TYPED_TEST_SUITE(ScanTest, ScanTypes);

template <class T, class Op>
void check_scan(Op op, const char* op_name) {
  WorkspaceHolder wsh;
  const std::int64_t tile = primlab::detail::ScanTuning<T>::kTileItems;
  for (std::int64_t n : edge_sizes(tile)) {
    for (Pattern p : all_patterns()) {
      if (std::is_floating_point_v<T> && std::is_same_v<Op, primlab::Sum> && p == Pattern::Extremes)
        continue;  // overflowing float sums depend on the order of association
      if (n > (1 << 17) && p != Pattern::Uniform && p != Pattern::Specials) continue;
      const std::vector<T> h_in = make_input<T>(p, n, 1);
      auto d_in = to_device(h_in);
      primlab::DeviceBuffer<T> d_out(static_cast<std::size_t>(n));
      for (int exclusive = 0; exclusive < 2; ++exclusive) {
        const T init = std::is_same_v<Op, primlab::Sum> ? T(5) : Op::template identity<T>();
        poison(d_out);
        const std::size_t bytes = primlab::scan_workspace_bytes<T>(n);
        primlab::Status s = exclusive
            ? primlab::exclusive_scan(d_in.get(), d_out.get(), n, init, op, wsh.get(bytes), nullptr)
            : primlab::inclusive_scan(d_in.get(), d_out.get(), n, op, wsh.get(bytes), nullptr);
        ASSERT_EQ(s, primlab::Status::Success);
        sync_ok();
        const std::vector<T> got = to_host(d_out.get(), n);
        const std::vector<T> want = ref_scan(h_in, exclusive, init, op);
        const std::int64_t bad = first_mismatch(got, want);
        ASSERT_EQ(bad, -1) << op_name << (exclusive ? " exclusive" : " inclusive") << " n=" << n
                           << " pattern=" << pattern_name(p) << " at " << bad << ": got "
                           << +got[std::size_t(bad)] << " want " << +want[std::size_t(bad)];
      }
    }
  }
}

TYPED_TEST(ScanTest, SumMatchesReference) { check_scan<TypeParam>(primlab::Sum{}, "sum"); }
TYPED_TEST(ScanTest, MinMatchesReference) { check_scan<TypeParam>(primlab::Min{}, "min"); }
TYPED_TEST(ScanTest, MaxMatchesReference) { check_scan<TypeParam>(primlab::Max{}, "max"); }

// Scans of 2..8 tiles run as one cluster where the Hopper launch features are on (image_arch.cuh):
// that path leaves the workspace as it was (its tile states live in shared memory), the other one
// clears it first. Both give the reference's result; 9 tiles always take the look-back workspace.
TEST(ScanCluster, RunsWhereClustersAreAndScans) {
  using T = std::uint32_t;
  const bool hopper = test::image_arch().hopper_features();
  const std::int64_t tile = primlab::detail::ScanTuning<T>::kTileItems;
  const std::int64_t max_tiles = primlab::detail::ScanTuning<T>::kClusterMaxTiles;
  for (std::int64_t n : {tile + 1, 3 * tile - 1, max_tiles * tile, max_tiles * tile + 1}) {
    const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n, 3);
    auto d_in = to_device(h_in);
    primlab::DeviceBuffer<T> d_out(static_cast<std::size_t>(n));
    poison(d_out);
    const std::size_t bytes = primlab::scan_workspace_bytes<T>(n);
    primlab::DeviceBuffer<unsigned char> ws(bytes);
    ASSERT_EQ(cudaMemset(ws.get(), 0x5A, bytes), cudaSuccess);
    ASSERT_EQ(primlab::exclusive_scan(d_in.get(), d_out.get(), n, T(7), primlab::Sum{}, {ws.get(), bytes}, nullptr),
              primlab::Status::Success);
    sync_ok();
    EXPECT_EQ(first_mismatch(to_host(d_out.get(), n), ref_scan(h_in, true, T(7), primlab::Sum{})), -1) << "n=" << n;
    const std::vector<unsigned char> w = to_host(ws.get(), bytes);
    const bool untouched = std::all_of(w.begin(), w.end(), [](unsigned char b) { return b == 0x5A; });
    const bool cluster_expected = hopper && n <= max_tiles * tile;
    EXPECT_EQ(untouched, cluster_expected) << "n=" << n << (hopper ? " (Hopper features on)" : " (off)");
  }
}

TYPED_TEST(ScanTest, InPlace) {
  using T = TypeParam;
  const std::int64_t n = 100003;
  PRIMLAB_SKIP_ABOVE(n);
  const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n, 2);
  auto d = to_device(h_in);
  WorkspaceHolder wsh;
  ASSERT_EQ(primlab::exclusive_scan(d.get(), d.get(), n, T(0), primlab::Sum{},
                                    wsh.get(primlab::scan_workspace_bytes<T>(n)), nullptr),
            primlab::Status::Success);
  sync_ok();
  EXPECT_EQ(first_mismatch(to_host(d.get(), n), ref_scan(h_in, true, T(0), primlab::Sum{})), -1);
}

TYPED_TEST(ScanTest, UnalignedPointers) {
  using T = TypeParam;
  const std::int64_t n = 50001;
  PRIMLAB_SKIP_ABOVE(n);
  const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n + 1, 3);
  auto d_in = to_device(h_in);
  primlab::DeviceBuffer<T> d_out(static_cast<std::size_t>(n + 1));
  WorkspaceHolder wsh;
  ASSERT_EQ(primlab::inclusive_scan(d_in.get() + 1, d_out.get() + 1, n, primlab::Max{},
                                    wsh.get(primlab::scan_workspace_bytes<T>(n)), nullptr),
            primlab::Status::Success);
  sync_ok();
  std::vector<T> sub(h_in.begin() + 1, h_in.end());
  EXPECT_EQ(first_mismatch(to_host(d_out.get() + 1, n), ref_scan(sub, false, T(0), primlab::Max{})), -1);
}

TEST(ScanErrors, BadArguments) {
  primlab::DeviceBuffer<std::uint32_t> d(1 << 16);
  WorkspaceHolder wsh;
  const std::int64_t n = 1 << 16;
  const std::size_t bytes = primlab::scan_workspace_bytes<std::uint32_t>(n);
  EXPECT_EQ(primlab::exclusive_scan<std::uint32_t>(nullptr, d.get(), n, 0u, primlab::Sum{}, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::inclusive_scan<std::uint32_t>(d.get(), nullptr, n, primlab::Sum{}, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::inclusive_scan(d.get(), d.get(), -1, primlab::Sum{}, wsh.get(bytes), nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::inclusive_scan(d.get(), d.get(), n, primlab::Sum{}, wsh.get(bytes - 8), nullptr),
            primlab::Status::WorkspaceTooSmall);
  EXPECT_EQ(primlab::inclusive_scan(d.get(), d.get(), n, primlab::Sum{}, primlab::Workspace{}, nullptr),
            primlab::Status::WorkspaceTooSmall);
  EXPECT_EQ(primlab::inclusive_scan<std::uint32_t>(nullptr, nullptr, 0, primlab::Sum{}, primlab::Workspace{}, nullptr),
            primlab::Status::Success);
}

// 2^30 elements (4 GiB in, 4 GiB out): offsets past 2^31 bytes and a quarter of a million tiles.
TEST(ScanLarge, ExclusiveSumU32TwoToThe30) {
  const std::int64_t n = std::int64_t(1) << 30;
  PRIMLAB_SKIP_ABOVE(n);
  std::vector<std::uint32_t> h(static_cast<std::size_t>(n));
  std::uint64_t x = 88172645463325252ull;
  for (auto& v : h) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    v = std::uint32_t(x);
  }
  primlab::DeviceBuffer<std::uint32_t> d_in(static_cast<std::size_t>(n)), d_out(static_cast<std::size_t>(n));
  ASSERT_EQ(cudaMemcpy(d_in.get(), h.data(), std::size_t(n) * 4, cudaMemcpyHostToDevice), cudaSuccess);
  WorkspaceHolder wsh;
  ASSERT_EQ(primlab::exclusive_scan(d_in.get(), d_out.get(), n, 7u, primlab::Sum{},
                                    wsh.get(primlab::scan_workspace_bytes<std::uint32_t>(n)), nullptr),
            primlab::Status::Success);
  sync_ok();
  std::vector<std::uint32_t> got(static_cast<std::size_t>(n));
  ASSERT_EQ(cudaMemcpy(got.data(), d_out.get(), std::size_t(n) * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  std::uint32_t acc = 7;
  for (std::int64_t i = 0; i < n; ++i) {
    if (got[std::size_t(i)] != acc) FAIL() << "mismatch at " << i;
    acc += h[std::size_t(i)];
  }
}
