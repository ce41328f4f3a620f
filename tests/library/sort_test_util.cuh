// Shared helpers of the sort and partition GPU tests: seeded key patterns (with float specials),
// the radix order on the host (independent of the library's codec), device round trips.
#pragma once
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tuning/radix_sort.cuh"
#include "primlab/device_buffer.h"
#include "primlab/radix_sort.h"
#include "primlab/status.h"

namespace sorttest {

enum class Dist { Uniform, Sorted, Reversed, AllEqual, FewDistinct, Extremes, Zipf, Skewed };
inline const char* dist_name(Dist d) {
  switch (d) {
    case Dist::Uniform: return "uniform";
    case Dist::Sorted: return "sorted";
    case Dist::Reversed: return "reversed";
    case Dist::AllEqual: return "all-equal";
    case Dist::FewDistinct: return "few-distinct";
    case Dist::Extremes: return "extremes";
    case Dist::Zipf: return "zipf";
    case Dist::Skewed: return "skewed";
  }
  return "?";
}
inline const std::vector<Dist>& all_dists() {
  static const std::vector<Dist> d = {Dist::Uniform, Dist::Sorted, Dist::Reversed, Dist::AllEqual,
                                      Dist::FewDistinct, Dist::Extremes, Dist::Zipf, Dist::Skewed};
  return d;
}

template <class K> using BitsOf = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;

template <class K> BitsOf<K> to_bits(K k) {
  BitsOf<K> b;
  std::memcpy(&b, &k, sizeof(K));
  return b;
}
template <class K> K from_bits(BitsOf<K> b) {
  K k;
  std::memcpy(&k, &b, sizeof(K));
  return k;
}

// The radix-ordered image: unsigned as is, signed with the sign bit flipped, floats with all
// bits flipped when negative and the sign bit flipped otherwise; descending inverts it.
template <class K> BitsOf<K> ordered(K k, primlab::SortOrder order = primlab::SortOrder::Ascending) {
  using B = BitsOf<K>;
  const B sign = B(1) << (sizeof(B) * 8 - 1);
  B b = to_bits(k);
  if constexpr (std::is_floating_point_v<K>) b = (b & sign) ? B(~b) : B(b | sign);
  else if constexpr (std::is_signed_v<K>) b ^= sign;
  return order == primlab::SortOrder::Descending ? B(~b) : b;
}

template <class K> K random_key(std::mt19937_64& rng) {
  const std::uint64_t r = rng();
  if constexpr (std::is_floating_point_v<K>) {
    // Random finite floats of every magnitude and sign (random bits, NaN/inf re-drawn).
    for (;;) {
      const K x = from_bits<K>(BitsOf<K>(rng()));
      if (std::isfinite(x)) return x;
    }
  } else {
    return from_bits<K>(BitsOf<K>(r));
  }
}

// Float specials: -0.0, +0.0, +-inf, +-NaN, denormals, +-max.
template <class K> K special_key(std::mt19937_64& rng) {
  using L = std::numeric_limits<K>;
  if constexpr (std::is_floating_point_v<K>) {
    switch (rng() % 10) {
      case 0: return K(-0.0);
      case 1: return K(0.0);
      case 2: return L::infinity();
      case 3: return -L::infinity();
      case 4: return L::quiet_NaN();
      case 5: return -L::quiet_NaN();
      case 6: return L::denorm_min();
      case 7: return L::max();
      case 8: return L::lowest();
      default: return random_key<K>(rng);
    }
  } else {
    switch (rng() % 6) {
      case 0: return L::min();
      case 1: return L::max();
      case 2: return K(0);
      case 3: return K(-1);
      case 4: return K(1);
      default: return random_key<K>(rng);
    }
  }
}

template <class K> std::vector<K> make_keys(Dist d, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + std::uint64_t(d) * 1000003ull + std::uint64_t(n));
  std::vector<K> v(static_cast<std::size_t>(n));
  std::vector<K> few(5);
  for (auto& f : few) f = random_key<K>(rng);
  for (std::int64_t i = 0; i < n; ++i) {
    switch (d) {
      case Dist::Uniform: case Dist::Sorted: case Dist::Reversed: v[i] = random_key<K>(rng); break;
      case Dist::AllEqual: v[i] = few[0]; break;
      case Dist::FewDistinct: v[i] = few[rng() % few.size()]; break;
      case Dist::Extremes: v[i] = special_key<K>(rng); break;
      case Dist::Zipf: {
        // P(rank r) ~ 1/r over 1000 ranks, approximated by r = floor(1000^u).
        const double u = double(rng() >> 11) / double(1ull << 53);
        const int r = int(std::pow(1000.0, u));
        v[i] = K(r * 37);
        break;
      }
      case Dist::Skewed: {
        // 70 % share the top byte 0x42 (finite floats), the rest uniform: one hot top digit among
        // many, the ranking's hot-digit path.
        using B = BitsOf<K>;
        constexpr int kTop = int(sizeof(B)) * 8 - 8;
        B b = to_bits(random_key<K>(rng));
        if (rng() % 10 < 7) b = B((b & ~(B(0xff) << kTop)) | (B(0x42) << kTop));
        v[i] = from_bits<K>(b);
        break;
      }
    }
  }
  auto less = [](K a, K b) { return ordered(a) < ordered(b); };
  if (d == Dist::Sorted) std::stable_sort(v.begin(), v.end(), less);
  if (d == Dist::Reversed) std::stable_sort(v.begin(), v.end(), [&](K a, K b) { return less(b, a); });
  return v;
}

template <class T> primlab::DeviceBuffer<T> to_device(const std::vector<T>& h) {
  primlab::DeviceBuffer<T> d(std::max<std::size_t>(h.size(), 1));
  if (!h.empty()) EXPECT_EQ(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}
template <class T> std::vector<T> to_host(const primlab::DeviceBuffer<T>& d, std::size_t n) {
  std::vector<T> h(n);
  if (n) EXPECT_EQ(cudaMemcpy(h.data(), d.get(), n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}
// Fills a device buffer with a poison pattern so that unwritten outputs show.
template <class T> void poison(primlab::DeviceBuffer<T>& d) {
  if (d.size()) ASSERT_EQ(cudaMemset(d.get(), 0xA5, d.bytes()), cudaSuccess);
}

// Index of the first element whose bits differ, or -1.
template <class T> std::int64_t first_bit_mismatch(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return std::int64_t(i);
  return -1;
}

inline primlab::DeviceBuffer<unsigned char> workspace(std::size_t bytes) {
  return primlab::DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1));
}

template <class K> const char* type_name() {
  if (std::is_same_v<K, std::uint32_t>) return "u32";
  if (std::is_same_v<K, std::int32_t>) return "i32";
  if (std::is_same_v<K, float>) return "f32";
  if (std::is_same_v<K, std::uint64_t>) return "u64";
  if (std::is_same_v<K, std::int64_t>) return "i64";
  return "f64";
}

// Sizes that take the radix pass's tuned (large-tile) shape for these key and value sizes: one
// wave of its tiles on this device, one more key, and a partial last tile.
inline std::vector<std::int64_t> large_tile_sizes(int key_bytes, int value_bytes) {
  const auto shape = primlab::detail::RadixSortTuning::pass_shape(key_bytes, value_bytes);
  int sms = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  const std::int64_t tile = std::int64_t(shape.threads) * shape.items;
  const std::int64_t wave = std::int64_t(sms) * shape.min_blocks * tile;
  return {wave, wave + 1, wave + tile - 1};
}

}  // namespace sorttest
