// GPU tests of primlab::histogram_even and histogram_digits against a host reference written
// independently of the library's bin rule (128-bit integer division; the documented float
// formula), for the three shared-memory layouts (<= 256 bins, <= 12288, more), every type.
#include <gtest/gtest.h>

#include "test_util.h"
#include "primlab/histogram.h"

using namespace test;
using primlab::histogram_level_t;

template <class T>
std::vector<std::uint32_t> ref_even(const std::vector<T>& in, int bins, histogram_level_t<T> lo,
                                    histogram_level_t<T> hi) {
  std::vector<std::uint32_t> h(std::size_t(bins), 0);
  for (const T& x : in) {
    if constexpr (std::is_floating_point_v<T>) {
      if (!(x >= lo && x < hi)) continue;
      const T scale = T(bins) / (hi - lo);
      int b = int((x - lo) * scale);
      if (b > bins - 1) b = bins - 1;
      ++h[std::size_t(b)];
    } else {
      const __int128 d = __int128(x) - __int128(lo), r = __int128(hi) - __int128(lo);
      if (d < 0 || d >= r) continue;
      ++h[std::size_t(d * bins / r)];
    }
  }
  return h;
}

template <class T>
void check_even(int bins, histogram_level_t<T> lo, histogram_level_t<T> hi, const char* what) {
  primlab::DeviceBuffer<std::uint32_t> d_hist(static_cast<std::size_t>(bins));
  WorkspaceHolder wsh;
  for (std::int64_t n : edge_sizes(4096)) {
    for (Pattern p : all_patterns()) {
      if (n > (1 << 17) && p != Pattern::Uniform) continue;
      std::vector<T> h_in = make_input<T>(p, n, 31);
      if constexpr (std::is_floating_point_v<T>) {  // spread quarter-integers over [lo, hi)
        for (T& x : h_in)
          if (std::isfinite(x) && x != T(0)) x = lo + (x + T(4)) / T(8) * (hi - lo) * T(1.1) - T(0.05) * (hi - lo);
      }
      auto d_in = to_device(h_in);
      poison(d_hist);
      ASSERT_EQ(primlab::histogram_even(d_in.get(), d_hist.get(), bins, lo, hi, n,
                                        wsh.get(primlab::histogram_even_workspace_bytes<T>(bins, n)),
                                        nullptr),
                primlab::Status::Success);
      sync_ok();
      const auto got = to_host(d_hist.get(), bins);
      const auto want = ref_even<T>(h_in, bins, lo, hi);
      const std::int64_t bad = first_mismatch(got, want);
      ASSERT_EQ(bad, -1) << what << " n=" << n << " " << pattern_name(p) << " bin " << bad
                         << " got " << got[std::size_t(bad)] << " want " << want[std::size_t(bad)];
    }
  }
}

TEST(HistogramEven, U8) {
  check_even<std::uint8_t>(256, 0, 256, "u8 256 bins full");
  check_even<std::uint8_t>(100, 10, 200, "u8 100 bins [10,200)");
  check_even<std::uint8_t>(1000, 0, 256, "u8 1000 bins");
  check_even<std::uint8_t>(1, -5, 300, "u8 1 bin");
}
TEST(HistogramEven, U32) {
  check_even<std::uint32_t>(256, 0, std::uint64_t(1) << 32, "u32 256 bins full range");
  check_even<std::uint32_t>(255, 0, std::uint64_t(1) << 32, "u32 255 bins full range");
  check_even<std::uint32_t>(1000, 5, 1000000005, "u32 1000 bins");
  check_even<std::uint32_t>(20000, 0, 4000000000ull, "u32 20000 bins (global)");
}
TEST(HistogramEven, I32) {
  check_even<std::int32_t>(256, std::numeric_limits<std::int32_t>::min(),
                           std::int64_t(std::numeric_limits<std::int32_t>::max()) + 1, "i32 full");
  check_even<std::int32_t>(7, -1000, 999, "i32 7 bins");
}
TEST(HistogramEven, Float) {
  check_even<float>(256, 0.f, 1.f, "f32 [0,1)");
  check_even<float>(1000, -3.f, 5.f, "f32 1000 bins");
}
TEST(HistogramEven, Double) { check_even<double>(64, -1.0, 1.0, "f64"); }

template <class K>
std::uint64_t radix_image(K k) {
  using U = std::conditional_t<sizeof(K) == 8, std::uint64_t, std::uint32_t>;
  U u;
  std::memcpy(&u, &k, sizeof(K));
  const U sign = U(1) << (8 * sizeof(K) - 1);
  if (std::is_floating_point_v<K>) u = (u & sign) ? U(~u) : U(u | sign);
  else if (std::is_signed_v<K>) u ^= sign;
  return u;
}

template <class K>
class DigitTest : public ::testing::Test {};
using DigitTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double>;
TYPED_TEST_SUITE(DigitTest, DigitTypes);

TYPED_TEST(DigitTest, MatchesReference) {
  using K = TypeParam;
  primlab::DeviceBuffer<std::uint32_t> d_hist(256);
  WorkspaceHolder wsh;
  const int key_bits = 8 * sizeof(K);
  for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(4097), std::int64_t(1 << 20) + 3}) {
    if (n > max_test_n()) continue;
    for (Pattern p : {Pattern::Uniform, Pattern::Extremes, Pattern::Specials, Pattern::Sorted}) {
      const std::vector<K> h_in = make_input<K>(p, n, 41);
      auto d_in = to_device(h_in);
      for (int begin : {0, 5, key_bits - 8, key_bits - 3}) {
        const int bits = std::min(8, key_bits - begin);
        poison(d_hist);
        ASSERT_EQ(primlab::histogram_digits(d_in.get(), d_hist.get(), begin, bits, n,
                                            wsh.get(primlab::histogram_digits_workspace_bytes<K>(bits, n)), nullptr),
                  primlab::Status::Success);
        sync_ok();
        std::vector<std::uint32_t> want(std::size_t(1) << bits, 0);
        for (const K& k : h_in) ++want[std::size_t((radix_image(k) >> begin) & ((1u << bits) - 1))];
        EXPECT_EQ(first_mismatch(to_host(d_hist.get(), 1 << bits), want), -1)
            << "n=" << n << " begin=" << begin << " " << pattern_name(p);
      }
    }
  }
}

TEST(HistogramErrors, BadArguments) {
  primlab::DeviceBuffer<std::uint32_t> d(1024), d_hist(256);
  const primlab::Workspace ws{};
  EXPECT_EQ(primlab::histogram_even<std::uint32_t>(nullptr, d_hist.get(), 256, 0, 100, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::histogram_even<std::uint32_t>(d.get(), nullptr, 256, 0, 100, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::histogram_even<std::uint32_t>(d.get(), d_hist.get(), 256, 100, 100, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);  // empty range
  EXPECT_EQ(primlab::histogram_even<std::uint32_t>(d.get(), d_hist.get(), 256, 200, 100, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);  // reversed range
  EXPECT_EQ(primlab::histogram_even<std::uint32_t>(d.get(), d_hist.get(), 0, 0, 100, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::histogram_even<float>(reinterpret_cast<float*>(d.get()), d_hist.get(), 16,
                                           std::numeric_limits<float>::quiet_NaN(), 1.f, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::histogram_even<float>(reinterpret_cast<float*>(d.get()), d_hist.get(), 16, 1.f, 0.f, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::histogram_digits<std::uint32_t>(d.get(), d_hist.get(), 30, 8, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::histogram_digits<std::uint32_t>(d.get(), d_hist.get(), 0, 0, 1024, ws, nullptr),
            primlab::Status::InvalidArgument);
  EXPECT_EQ(primlab::histogram_digits<std::uint32_t>(d.get(), d_hist.get(), 0, 8, -1, ws, nullptr),
            primlab::Status::InvalidArgument);
}
