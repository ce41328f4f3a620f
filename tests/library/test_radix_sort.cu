// GPU tests of primlab::radix_sort_keys / radix_sort_pairs against std::stable_sort on the
// radix-ordered image: every key type, both orders, bit ranges, sizes around the tiles, skewed
// inputs and float specials; stability through tagged values; bad arguments.
#include "sort_test_util.cuh"

#include "device/radix_onesweep_dispatch.cuh"

using namespace sorttest;
using primlab::SortOrder;
using primlab::Status;

namespace {

// The reference: a stable sort of the indices by the digit range of the ordered image.
template <class K>
std::vector<std::uint32_t> reference_perm(const std::vector<K>& keys, SortOrder order, int begin, int end) {
  using B = BitsOf<K>;
  const int width = end - begin;
  const B mask = width >= int(sizeof(B) * 8) ? ~B(0) : B((B(1) << width) - 1);
  std::vector<std::uint32_t> perm(keys.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::vector<B> digit(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) digit[i] = width == 0 ? B(0) : B((ordered(keys[i], order) >> begin) & mask);
  std::stable_sort(perm.begin(), perm.end(), [&](std::uint32_t a, std::uint32_t b) { return digit[a] < digit[b]; });
  return perm;
}

template <class K, class V>
void check_sort(Dist d, std::int64_t n, SortOrder order, int begin, int end, bool pairs, bool in_place = false,
                std::uint64_t seed = 1) {
  SCOPED_TRACE(std::string(type_name<K>()) + " " + dist_name(d) + " n=" + std::to_string(n) +
               (order == SortOrder::Descending ? " desc" : " asc") + " bits [" + std::to_string(begin) + "," +
               std::to_string(end) + ")" + (pairs ? " pairs" : " keys") + (in_place ? " in-place" : ""));
  const std::vector<K> keys = make_keys<K>(d, n, seed);
  std::vector<V> vals(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) vals[i] = V(i);  // tags: stability shows in the values
  auto d_kin = to_device(keys);
  auto d_vin = to_device(vals);
  primlab::DeviceBuffer<K> d_kout(std::max<std::int64_t>(n, 1));
  primlab::DeviceBuffer<V> d_vout(std::max<std::int64_t>(n, 1));
  poison(d_kout);
  poison(d_vout);
  K* kout = in_place ? d_kin.get() : d_kout.get();
  V* vout = in_place ? d_vin.get() : d_vout.get();
  Status st;
  if (pairs) {
    const std::size_t bytes = primlab::radix_sort_pairs_workspace_bytes<K, V>(n);
    auto ws = workspace(bytes);
    st = primlab::radix_sort_pairs<K, V>(d_kin.get(), kout, d_vin.get(), vout, n, order, begin, end, {ws.get(), bytes},
                                         nullptr);
    ASSERT_EQ(st, Status::Success);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  } else {
    const std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<K>(n);
    auto ws = workspace(bytes);
    st = primlab::radix_sort_keys<K>(d_kin.get(), kout, n, order, begin, end, {ws.get(), bytes}, nullptr);
    ASSERT_EQ(st, Status::Success);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  const auto perm = reference_perm(keys, order, begin, end);
  std::vector<K> want_k(static_cast<std::size_t>(n));
  std::vector<V> want_v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) { want_k[i] = keys[perm[i]]; want_v[i] = vals[perm[i]]; }
  const auto got_k = to_host(in_place ? d_kin : d_kout, std::size_t(n));
  const std::int64_t bad = first_bit_mismatch(got_k, want_k);
  ASSERT_EQ(bad, -1) << "first wrong key at " << bad;
  if (pairs) {
    const auto got_v = to_host(in_place ? d_vin : d_vout, std::size_t(n));
    const std::int64_t badv = first_bit_mismatch(got_v, want_v);
    ASSERT_EQ(badv, -1) << "first wrong value (stability) at " << badv;
  }
}

// Sizes around every tile the library uses (RadixSortTuning's shapes) and powers of two.
const std::vector<std::int64_t>& edge_sizes() {
  static const std::vector<std::int64_t> s = [] {
    // The micro shape to 2^17 keys, the tiny one to 2^18.
    std::vector<std::int64_t> v = {0,     1,     2,         3,         31,        255,      256,          257,
                                   65535, 65536, 65537,     1 << 17,  (1 << 17) + 1, 1 << 18, (1 << 18) + 1,
                                   (1 << 20) + 1};
    for (int key : {4, 8})
      for (int value : {0, 4, 8})
        for (const auto shape : {primlab::detail::RadixSortTuning::pass_shape(key, value),
                                 primlab::detail::RadixSortTuning::small_pass_shape(key, value),
                                 primlab::detail::RadixSortTuning::tiny_pass_shape(key, value),
                                 primlab::detail::RadixSortTuning::micro_pass_shape(key, value)}) {
          const std::int64_t tile = std::int64_t(shape.threads) * shape.items;
          for (std::int64_t n : {tile - 1, tile, tile + 1, 2 * tile + 1}) v.push_back(n);
        }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }();
  return s;
}

}  // namespace

template <class K> class RadixSortTyped : public ::testing::Test {};
using KeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double>;
TYPED_TEST_SUITE(RadixSortTyped, KeyTypes);

TYPED_TEST(RadixSortTyped, KeysEdgeSizesBothOrders) {
  using K = TypeParam;
  for (SortOrder o : {SortOrder::Ascending, SortOrder::Descending})
    for (std::int64_t n : edge_sizes()) check_sort<K, std::uint32_t>(Dist::Uniform, n, o, 0, sizeof(K) * 8, false);
}

TYPED_TEST(RadixSortTyped, KeysEveryDistribution) {
  using K = TypeParam;
  for (SortOrder o : {SortOrder::Ascending, SortOrder::Descending})
    for (Dist d : all_dists())
      for (std::int64_t n : {1000, 65537, 1000003}) check_sort<K, std::uint32_t>(d, n, o, 0, sizeof(K) * 8, false);
}

TYPED_TEST(RadixSortTyped, PairsStableEveryDistribution) {
  using K = TypeParam;
  for (SortOrder o : {SortOrder::Ascending, SortOrder::Descending})
    for (Dist d : all_dists())
      for (std::int64_t n : {1, 7681, 65537, 1000003}) check_sort<K, std::uint32_t>(d, n, o, 0, sizeof(K) * 8, true);
}

TYPED_TEST(RadixSortTyped, PairsEdgeSizes) {
  using K = TypeParam;
  for (std::int64_t n : edge_sizes()) check_sort<K, std::uint32_t>(Dist::FewDistinct, n, SortOrder::Ascending, 0, sizeof(K) * 8, true);
}

// The tuned shape differs from the small-sort one for 4-byte keys: its tile edges, partial last
// tile and look-back over a full wave, keys and stable pairs.
TEST(RadixSortLargeTiles, FourByteKeysAndPairs) {
  for (std::int64_t n : large_tile_sizes(4, 0)) {
    check_sort<std::uint32_t, std::uint32_t>(Dist::Uniform, n, SortOrder::Ascending, 0, 32, false);
    check_sort<float, std::uint32_t>(Dist::Extremes, n, SortOrder::Descending, 0, 32, false);
  }
  for (std::int64_t n : large_tile_sizes(4, 4)) {
    check_sort<std::int32_t, std::uint32_t>(Dist::FewDistinct, n, SortOrder::Ascending, 0, 32, true);
    check_sort<std::uint32_t, std::uint32_t>(Dist::Skewed, n, SortOrder::Ascending, 0, 32, true);
  }
}

TYPED_TEST(RadixSortTyped, BitRanges) {
  using K = TypeParam;
  const int bits = sizeof(K) * 8;
  const std::vector<std::pair<int, int>> ranges = {{0, 8}, {0, 1}, {4, 20}, {3, 3}, {bits - 5, bits}, {7, bits - 1}, {8, 16}};
  for (auto [b, e] : ranges)
    for (SortOrder o : {SortOrder::Ascending, SortOrder::Descending}) {
      check_sort<K, std::uint32_t>(Dist::Uniform, 70001, o, b, e, true);
      check_sort<K, std::uint32_t>(Dist::Extremes, 7681, o, b, e, false);
    }
}

TYPED_TEST(RadixSortTyped, InPlace) {
  using K = TypeParam;
  check_sort<K, std::uint32_t>(Dist::Uniform, 100003, SortOrder::Ascending, 0, sizeof(K) * 8, true, true);
  check_sort<K, std::uint32_t>(Dist::Uniform, 100003, SortOrder::Descending, 0, 12, false, true);  // odd pass count
  check_sort<K, std::uint32_t>(Dist::Uniform, 100003, SortOrder::Ascending, 5, 29, true, true);    // 3 passes
}

// Three ways to start a sort, each on a poisoned workspace: a sort of a few tiles that fit one
// cooperative launch has no histogram kernel (its first pass counts every pass's digits and
// zeroes the later passes' look-back words); a larger one's histogram kernel, launched
// cooperatively, zeroes the counts, tile counters and look-back words; a device without
// cooperative launch gets a memset instead. Each leaves every pass's digit counts in the
// workspace (the distributed sort reads them), a narrow last pass's among them.
TEST(RadixSortZeroing, EveryWayToStartSortsOnAPoisonedWorkspace) {
  namespace ps = primlab::detail;
  ps::DeviceFacts facts;
  ASSERT_EQ(ps::device_facts(facts), Status::Success);
  for (const bool cooperative : {false, true}) {
    facts.cooperative = cooperative;
    // Tiles of 14336 keys: 1 and 5 (the first pass counts), 42 (a chained pass after the
    // histogram kernel), 293 (more than one wave on any GPU with up to 146 SMs: tile counters).
    for (const std::int64_t n : {std::int64_t(5000), std::int64_t(65537), std::int64_t(600000), (std::int64_t(1) << 22) + 5})
      for (const int end_bit : {32, 28}) {
        SCOPED_TRACE(std::to_string(n) + " keys, bits [0, " + std::to_string(end_bit) + ")" +
                     (cooperative ? " cooperative" : " memset"));
        std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(Dist::Uniform, n, 3);
        auto d_in = to_device(keys);
        primlab::DeviceBuffer<std::uint32_t> d_out(n);
        auto ws = workspace(ps::onesweep::workspace_bytes<std::uint32_t, std::uint32_t, false>(n));
        poison(ws);
        ASSERT_EQ((ps::onesweep::run<std::uint32_t, std::uint32_t, false>(d_in.get(), d_out.get(), nullptr, nullptr, n,
                                                                         0, end_bit, ps::KeyCodec<std::uint32_t>{},
                                                                         ws.get(), nullptr, facts, nullptr)),
                  Status::Success);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        const int passes = (end_bit + 7) / 8;
        std::vector<std::uint32_t> want(std::size_t(passes) * 256, 0u);
        for (const std::uint32_t k : keys)
          for (int p = 0; p < passes; ++p) ++want[p * 256 + ((k & ((1ull << end_bit) - 1)) >> (8 * p) & 0xffu)];
        std::vector<std::uint32_t> counts(want.size());
        ASSERT_EQ(cudaMemcpy(counts.data(),
                             ps::onesweep::digit_counts<std::uint32_t, std::uint32_t, false>(ws.get(), n),
                             counts.size() * 4, cudaMemcpyDeviceToHost),
                  cudaSuccess);
        EXPECT_EQ(counts, want);
        const std::uint32_t mask = end_bit == 32 ? ~0u : (1u << end_bit) - 1u;
        std::stable_sort(keys.begin(), keys.end(),
                         [mask](std::uint32_t a, std::uint32_t b) { return (a & mask) < (b & mask); });
        EXPECT_EQ(first_bit_mismatch(to_host(d_out, std::size_t(n)), keys), -1);
      }
  }
}

TEST(RadixSort, ValueTypes) {
  check_sort<std::uint32_t, std::uint64_t>(Dist::FewDistinct, 100003, SortOrder::Ascending, 0, 32, true);
  check_sort<std::uint32_t, double>(Dist::FewDistinct, 100003, SortOrder::Descending, 0, 32, true);
  check_sort<float, std::int32_t>(Dist::Extremes, 100003, SortOrder::Ascending, 0, 32, true);
  check_sort<std::uint64_t, float>(Dist::FewDistinct, 100003, SortOrder::Ascending, 0, 64, true);
  check_sort<double, std::int64_t>(Dist::Extremes, 100003, SortOrder::Descending, 0, 64, true);
  check_sort<std::int64_t, std::uint64_t>(Dist::Zipf, 100003, SortOrder::Ascending, 0, 64, true);
}

TEST(RadixSort, FloatSpecialsOrder) {
  // -NaN < -inf < -max < -0.0 < +0.0 < denorm < +max < +inf < +NaN, ascending.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> want = {-nan, -inf, -std::numeric_limits<float>::max(), -1.0f, -0.0f, 0.0f,
                                   std::numeric_limits<float>::denorm_min(), 1.0f, std::numeric_limits<float>::max(), inf, nan};
  std::vector<float> in = want;
  std::reverse(in.begin(), in.end());
  std::swap(in[2], in[7]);
  auto d_in = to_device(in);
  primlab::DeviceBuffer<float> d_out(in.size());
  const std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<float>(std::int64_t(in.size()));
  auto ws = workspace(bytes);
  ASSERT_EQ(primlab::radix_sort_keys<float>(d_in.get(), d_out.get(), std::int64_t(in.size()), SortOrder::Ascending, 0, 32,
                                            {ws.get(), bytes}, nullptr),
            Status::Success);
  EXPECT_EQ(first_bit_mismatch(to_host(d_out, in.size()), want), -1);
}

TEST(RadixSort, BadArguments) {
  primlab::DeviceBuffer<std::uint32_t> a(1000), b(1000);
  const std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(1000);
  auto ws = workspace(bytes);
  const primlab::Workspace w{ws.get(), bytes};
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), b.get(), 1000, SortOrder::Ascending, 0, 32, primlab::Workspace{ws.get(), bytes - 1}, nullptr),
            Status::WorkspaceTooSmall);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), b.get(), 1000, SortOrder::Ascending, 0, 33, w, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), b.get(), 1000, SortOrder::Ascending, -1, 8, w, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), b.get(), 1000, SortOrder::Ascending, 9, 8, w, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(nullptr, b.get(), 1000, SortOrder::Ascending, 0, 32, w, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), nullptr, 1000, SortOrder::Ascending, 0, 32, w, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), b.get(), -1, SortOrder::Ascending, 0, 32, w, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), b.get(), 1000, SortOrder::Ascending, 0, 32, primlab::Workspace{nullptr, bytes}, nullptr),
            Status::InvalidArgument);
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(a.get(), b.get(), std::int64_t(1) << 32, SortOrder::Ascending, 0, 32, w, nullptr),
            Status::Unsupported);
  EXPECT_EQ((primlab::radix_sort_pairs<std::uint32_t, std::uint32_t>(a.get(), b.get(), nullptr, a.get(), 1000, SortOrder::Ascending, 0,
                                                                     32, w, nullptr)),
            Status::InvalidArgument);
  const primlab::Workspace none{nullptr, 0};
  EXPECT_EQ(primlab::radix_sort_keys<std::uint32_t>(nullptr, nullptr, 0, SortOrder::Ascending, 0, 32, none, nullptr),
            Status::Success);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Small and medium sizes only: the compute-sanitizer runs take --gtest_filter=*Sanitize*.
TEST(RadixSortSanitize, SmallAndMedium) {
  for (std::int64_t n : {1, 100, 7681, 70001}) {
    check_sort<std::uint32_t, std::uint32_t>(Dist::Uniform, n, SortOrder::Ascending, 0, 32, true);
    check_sort<std::uint64_t, std::uint64_t>(Dist::FewDistinct, n, SortOrder::Descending, 0, 64, true);
    check_sort<float, std::uint32_t>(Dist::Extremes, n, SortOrder::Ascending, 0, 32, false);
    check_sort<std::int32_t, std::uint32_t>(Dist::Skewed, n, SortOrder::Descending, 0, 32, true);
  }
}

// 2^30 u32 keys: sortedness plus order-independent checksums (a host stable_sort of 2^30 keys
// would take minutes).
TEST(RadixSortLarge, U32Keys2Pow30) {
  const std::int64_t n = std::int64_t(1) << 30;
  std::vector<std::uint32_t> h(static_cast<std::size_t>(n));
  std::uint64_t s = 0x1234567;
  std::uint64_t sum = 0, sq = 0, x = 0;
  for (auto& v : h) {
    s += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    v = std::uint32_t(z ^ (z >> 31));
    sum += v; sq += std::uint64_t(v) * v; x ^= v;
  }
  primlab::DeviceBuffer<std::uint32_t> d_in(n), d_out(n);
  ASSERT_EQ(cudaMemcpy(d_in.get(), h.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
  const std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(n);
  auto ws = workspace(bytes);
  ASSERT_EQ(primlab::radix_sort_keys<std::uint32_t>(d_in.get(), d_out.get(), n, SortOrder::Ascending, 0, 32, {ws.get(), bytes}, nullptr),
            Status::Success);
  ASSERT_EQ(cudaMemcpy(h.data(), d_out.get(), n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  std::uint64_t sum2 = 0, sq2 = 0, x2 = 0;
  std::int64_t unsorted = -1;
  for (std::int64_t i = 0; i < n; ++i) {
    sum2 += h[i]; sq2 += std::uint64_t(h[i]) * h[i]; x2 ^= h[i];
    if (i > 0 && h[i - 1] > h[i] && unsorted < 0) unsorted = i;
  }
  EXPECT_EQ(unsorted, -1);
  EXPECT_EQ(sum, sum2);
  EXPECT_EQ(sq, sq2);
  EXPECT_EQ(x, x2);
}
