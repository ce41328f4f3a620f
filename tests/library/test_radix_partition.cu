// GPU tests of primlab::radix_partition_keys / _pairs against a host stable partition: every key
// type, 1 to 12 bits at several offsets, edge sizes, skewed inputs, the offsets, bad arguments.
#include "primlab/radix_partition.h"
#include "sort_test_util.cuh"

using namespace sorttest;
using primlab::Status;

namespace {

template <class K, class V>
void check_partition(Dist d, std::int64_t n, int begin, int bits, bool pairs, std::uint64_t seed = 3) {
  SCOPED_TRACE(std::string(type_name<K>()) + " " + dist_name(d) + " n=" + std::to_string(n) + " begin=" +
               std::to_string(begin) + " bits=" + std::to_string(bits) + (pairs ? " pairs" : " keys"));
  using B = BitsOf<K>;
  const std::vector<K> keys = make_keys<K>(d, n, seed);
  std::vector<V> vals(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) vals[i] = V(i);
  const std::uint32_t parts = 1u << bits;
  auto digit = [&](K k) { return std::uint32_t((ordered(k) >> begin) & B(parts - 1)); };
  // Host reference: counting, then a stable scatter.
  std::vector<std::uint32_t> offsets(parts + 1, 0);
  for (K k : keys) ++offsets[digit(k) + 1];
  for (std::uint32_t p = 0; p < parts; ++p) offsets[p + 1] += offsets[p];
  std::vector<K> want_k(static_cast<std::size_t>(n));
  std::vector<V> want_v(static_cast<std::size_t>(n));
  {
    std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint32_t p = next[digit(keys[i])]++;
      want_k[p] = keys[i];
      want_v[p] = vals[i];
    }
  }
  auto d_kin = to_device(keys);
  auto d_vin = to_device(vals);
  primlab::DeviceBuffer<K> d_kout(std::max<std::int64_t>(n, 1));
  primlab::DeviceBuffer<V> d_vout(std::max<std::int64_t>(n, 1));
  primlab::DeviceBuffer<std::uint32_t> d_off(parts + 1);
  poison(d_kout);
  poison(d_vout);
  poison(d_off);
  if (pairs) {
    const std::size_t bytes = primlab::radix_partition_pairs_workspace_bytes<K, V>(n, bits);
    auto ws = workspace(bytes);
    ASSERT_EQ((primlab::radix_partition_pairs<K, V>(d_kin.get(), d_kout.get(), d_vin.get(), d_vout.get(), d_off.get(), n,
                                                    begin, bits, {ws.get(), bytes}, nullptr)),
              Status::Success);
  } else {
    const std::size_t bytes = primlab::radix_partition_keys_workspace_bytes<K>(n, bits);
    auto ws = workspace(bytes);
    ASSERT_EQ(primlab::radix_partition_keys<K>(d_kin.get(), d_kout.get(), d_off.get(), n, begin, bits, {ws.get(), bytes},
                                               nullptr),
              Status::Success);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::int64_t bad_off = first_bit_mismatch(to_host(d_off, parts + 1), offsets);
  ASSERT_EQ(bad_off, -1) << "first wrong offset at " << bad_off;
  const std::int64_t bad = first_bit_mismatch(to_host(d_kout, std::size_t(n)), want_k);
  ASSERT_EQ(bad, -1) << "first wrong key at " << bad;
  if (pairs) {
    const std::int64_t badv = first_bit_mismatch(to_host(d_vout, std::size_t(n)), want_v);
    ASSERT_EQ(badv, -1) << "first wrong value (stability) at " << badv;
  }
}

}  // namespace

template <class K> class RadixPartitionTyped : public ::testing::Test {};
using KeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double>;
TYPED_TEST_SUITE(RadixPartitionTyped, KeyTypes);

TYPED_TEST(RadixPartitionTyped, DigitWidthsAndOffsets) {
  using K = TypeParam;
  const int kb = sizeof(K) * 8;
  for (int bits : {1, 2, 4, 7, 8, 9, 11, 12})
    for (int begin : {0, 5, kb - bits}) {
      check_partition<K, std::uint32_t>(Dist::Uniform, 100003, begin, bits, true);
      check_partition<K, std::uint32_t>(Dist::Extremes, 7681, begin, bits, false);
    }
}

TYPED_TEST(RadixPartitionTyped, EdgeSizesAndDistributions) {
  using K = TypeParam;
  for (std::int64_t n : {0, 1, 2, 3, 4607, 4608, 4609, 5376, 6912, 7679, 7680, 7681, 65537})
    check_partition<K, std::uint32_t>(Dist::Uniform, n, 0, 8, true);
  for (Dist d : all_dists())
    for (int bits : {8, 12}) check_partition<K, std::uint32_t>(d, 300007, 0, bits, true);
}

// Keys alone take a larger tile once a wave of them fills the device (RadixSortTuning): the
// edges of that shape, one and two passes.
TEST(RadixPartition, LargeTileShape) {
  for (std::int64_t n : large_tile_sizes(4, 0)) {
    check_partition<std::uint32_t, std::uint32_t>(Dist::Uniform, n, 0, 8, false);
    check_partition<float, std::uint32_t>(Dist::Extremes, n, 20, 12, false);
  }
}

TEST(RadixPartition, ValueTypes) {
  check_partition<std::uint32_t, double>(Dist::Uniform, 100003, 0, 8, true);
  check_partition<std::uint64_t, std::uint32_t>(Dist::Zipf, 100003, 3, 10, true);
  check_partition<float, std::int64_t>(Dist::Extremes, 100003, 24, 8, true);
}

TEST(RadixPartition, BadArguments) {
  primlab::DeviceBuffer<std::uint32_t> a(1000), b(1000), off(4097);
  const std::size_t bytes = primlab::radix_partition_keys_workspace_bytes<std::uint32_t>(1000, 8);
  auto ws = workspace(bytes);
  const primlab::Workspace w{ws.get(), bytes};
  auto part = [&](const std::uint32_t* in, std::uint32_t* out, std::uint32_t* o, std::int64_t n, int begin, int bits,
                  primlab::Workspace wk) {
    return primlab::radix_partition_keys<std::uint32_t>(in, out, o, n, begin, bits, wk, nullptr);
  };
  EXPECT_EQ(part(a.get(), b.get(), off.get(), 1000, 0, 13, w), Status::InvalidArgument);  // 8192 partitions
  EXPECT_EQ(part(a.get(), b.get(), off.get(), 1000, 0, 0, w), Status::InvalidArgument);
  EXPECT_EQ(part(a.get(), b.get(), off.get(), 1000, 28, 8, w), Status::InvalidArgument);  // beyond the key
  EXPECT_EQ(part(a.get(), b.get(), off.get(), 1000, 0, 8, {ws.get(), bytes - 1}), Status::WorkspaceTooSmall);
  EXPECT_EQ(part(nullptr, b.get(), off.get(), 1000, 0, 8, w), Status::InvalidArgument);
  EXPECT_EQ(part(a.get(), b.get(), nullptr, 1000, 0, 8, w), Status::InvalidArgument);
  EXPECT_EQ(part(a.get(), a.get(), off.get(), 1000, 0, 8, w), Status::InvalidArgument);  // in place
  EXPECT_EQ(part(a.get(), b.get(), off.get(), -5, 0, 8, w), Status::InvalidArgument);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(RadixPartitionSanitize, SmallAndMedium) {
  for (std::int64_t n : {1, 100, 7681, 70001}) {
    check_partition<std::uint32_t, std::uint32_t>(Dist::Uniform, n, 0, 8, true);
    check_partition<std::uint64_t, std::uint64_t>(Dist::FewDistinct, n, 4, 12, true);
  }
}
