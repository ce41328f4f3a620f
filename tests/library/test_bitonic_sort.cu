// GPU tests of primlab::bitonic_sort_* (one array, batched segments) against std::sort on the
// radix-ordered image: every key type, both orders, lengths that are not powers of two,
// key-value consistency through tags, bad arguments.
#include "primlab/bitonic_sort.h"
#include "sort_test_util.cuh"

using namespace sorttest;
using primlab::SortOrder;
using primlab::Status;

namespace {

// Checks out_keys is in[...] sorted (by bits) and, for pairs, that the tags are a permutation
// of each segment whose keys match their tags' keys.
template <class K>
void expect_sorted_segments(const std::vector<K>& in, const std::vector<K>& out_k, const std::vector<std::uint32_t>* tags,
                            std::int64_t segs, std::int64_t len, SortOrder order) {
  for (std::int64_t s = 0; s < segs; ++s) {
    std::vector<K> want(in.begin() + s * len, in.begin() + (s + 1) * len);
    std::stable_sort(want.begin(), want.end(), [&](K a, K b) { return ordered(a, order) < ordered(b, order); });
    std::vector<K> got(out_k.begin() + s * len, out_k.begin() + (s + 1) * len);
    const std::int64_t bad = first_bit_mismatch(got, want);
    ASSERT_EQ(bad, -1) << "segment " << s << " first wrong key at " << bad;
    if (tags) {
      std::vector<char> seen(std::size_t(len), 0);
      for (std::int64_t i = 0; i < len; ++i) {
        const std::uint32_t t = (*tags)[s * len + i];
        ASSERT_TRUE(t >= s * len && t < (s + 1) * len) << "tag out of segment at " << s * len + i;
        ASSERT_FALSE(seen[t - s * len]) << "tag repeated at " << s * len + i;
        seen[t - s * len] = 1;
        ASSERT_EQ(to_bits(in[t]), to_bits(got[i])) << "value does not travel with its key at " << s * len + i;
      }
    }
  }
}

template <class K>
void check_array(Dist d, std::int64_t n, SortOrder order, bool pairs, bool in_place = false) {
  SCOPED_TRACE(std::string(type_name<K>()) + " " + dist_name(d) + " n=" + std::to_string(n) +
               (order == SortOrder::Descending ? " desc" : " asc") + (pairs ? " pairs" : " keys"));
  const std::vector<K> keys = make_keys<K>(d, n, 5);
  std::vector<std::uint32_t> tags(static_cast<std::size_t>(n));
  std::iota(tags.begin(), tags.end(), 0u);
  auto d_k = to_device(keys);
  auto d_v = to_device(tags);
  primlab::DeviceBuffer<K> d_ko(std::max<std::int64_t>(n, 1));
  primlab::DeviceBuffer<std::uint32_t> d_vo(std::max<std::int64_t>(n, 1));
  poison(d_ko);
  poison(d_vo);
  K* ko = in_place ? d_k.get() : d_ko.get();
  std::uint32_t* vo = in_place ? d_v.get() : d_vo.get();
  if (pairs)
    ASSERT_EQ((primlab::bitonic_sort_pairs<K, std::uint32_t>(d_k.get(), ko, d_v.get(), vo, n, order, primlab::Workspace{}, nullptr)),
              Status::Success);
  else
    ASSERT_EQ(primlab::bitonic_sort_keys<K>(d_k.get(), ko, n, order, primlab::Workspace{}, nullptr), Status::Success);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = to_host(in_place ? d_k : d_ko, std::size_t(n));
  const auto got_tags = to_host(in_place ? d_v : d_vo, std::size_t(n));
  expect_sorted_segments(keys, got, pairs ? &got_tags : nullptr, n > 0 ? 1 : 0, n, order);
}

template <class K>
void check_segments(Dist d, std::int64_t segs, int len, SortOrder order, bool pairs) {
  SCOPED_TRACE(std::string(type_name<K>()) + " " + dist_name(d) + " segments=" + std::to_string(segs) + "x" +
               std::to_string(len) + (order == SortOrder::Descending ? " desc" : " asc") + (pairs ? " pairs" : " keys"));
  const std::int64_t n = segs * len;
  const std::vector<K> keys = make_keys<K>(d, n, 9);
  std::vector<std::uint32_t> tags(static_cast<std::size_t>(n));
  std::iota(tags.begin(), tags.end(), 0u);
  auto d_k = to_device(keys);
  auto d_v = to_device(tags);
  primlab::DeviceBuffer<K> d_ko(std::max<std::int64_t>(n, 1));
  primlab::DeviceBuffer<std::uint32_t> d_vo(std::max<std::int64_t>(n, 1));
  poison(d_ko);
  poison(d_vo);
  if (pairs)
    ASSERT_EQ((primlab::bitonic_sort_segments_pairs<K, std::uint32_t>(d_k.get(), d_ko.get(), d_v.get(), d_vo.get(), segs,
                                                                      len, order, primlab::Workspace{}, nullptr)),
              Status::Success);
  else
    ASSERT_EQ(primlab::bitonic_sort_segments_keys<K>(d_k.get(), d_ko.get(), segs, len, order, primlab::Workspace{}, nullptr),
              Status::Success);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = to_host(d_ko, std::size_t(n));
  const auto got_tags = to_host(d_vo, std::size_t(n));
  expect_sorted_segments(keys, got, pairs ? &got_tags : nullptr, segs, len, order);
}

}  // namespace

template <class K> class BitonicTyped : public ::testing::Test {};
using KeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double>;
TYPED_TEST_SUITE(BitonicTyped, KeyTypes);

TYPED_TEST(BitonicTyped, ArrayAnyLength) {
  using K = TypeParam;
  for (SortOrder o : {SortOrder::Ascending, SortOrder::Descending})
    for (std::int64_t n : {0, 1, 2, 3, 5, 8, 9, 100, 4095, 4096, 4097, 8191, 8193, 65537, (1 << 20) + 3}) {
      check_array<K>(Dist::Uniform, n, o, false);
      check_array<K>(Dist::FewDistinct, n, o, true);
    }
}

TYPED_TEST(BitonicTyped, ArrayDistributions) {
  using K = TypeParam;
  for (Dist d : all_dists()) {
    check_array<K>(d, 300007, SortOrder::Ascending, true);
    check_array<K>(d, 300007, SortOrder::Descending, false, true);
  }
}

TYPED_TEST(BitonicTyped, Segments) {
  using K = TypeParam;
  for (SortOrder o : {SortOrder::Ascending, SortOrder::Descending})
    for (int len : {0, 1, 2, 3, 7, 31, 32, 33, 100, 1000, 1024, 1025, 2048, 4095, 4096})
      for (std::int64_t segs : {0, 1, 7, 300}) {
        check_segments<K>(Dist::Uniform, segs, len, o, len % 2 == 1);
      }
  for (Dist d : all_dists()) check_segments<K>(d, 257, 1024, SortOrder::Ascending, true);
}

TEST(Bitonic, BadArguments) {
  primlab::DeviceBuffer<std::uint32_t> a(1000), b(1000);
  EXPECT_EQ(primlab::bitonic_sort_keys<std::uint32_t>(nullptr, b.get(), 10, SortOrder::Ascending, primlab::Workspace{}, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::bitonic_sort_keys<std::uint32_t>(a.get(), b.get(), -1, SortOrder::Ascending, primlab::Workspace{}, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::bitonic_sort_segments_keys<std::uint32_t>(a.get(), b.get(), 1, 4097, SortOrder::Ascending, primlab::Workspace{},
                                                               nullptr),
            Status::InvalidArgument);
  EXPECT_EQ((primlab::bitonic_sort_segments_pairs<std::uint32_t, std::uint32_t>(a.get(), b.get(), nullptr, b.get(), 1, 100,
                                                                                SortOrder::Ascending, primlab::Workspace{}, nullptr)),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::bitonic_sort_keys<std::uint32_t>(a.get(), b.get(), std::int64_t(1) << 31, SortOrder::Ascending,
                                                      primlab::Workspace{}, nullptr),
            Status::Unsupported);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(BitonicSanitize, SmallAndMedium) {
  for (std::int64_t n : {1, 100, 4097, 70001}) {
    check_array<std::uint32_t>(Dist::Uniform, n, SortOrder::Ascending, true);
    check_array<double>(Dist::Extremes, n, SortOrder::Descending, false);
  }
  check_segments<std::uint32_t>(Dist::Uniform, 33, 1024, SortOrder::Ascending, true);
  check_segments<std::uint64_t>(Dist::Uniform, 5, 4096, SortOrder::Descending, true);
  check_segments<float>(Dist::Extremes, 100, 33, SortOrder::Ascending, false);
}
