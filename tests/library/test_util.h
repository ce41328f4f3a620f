// Shared helpers of the reduce, scan, select and histogram GPU tests: seeded input patterns, device round trips,
// a workspace holder, and exact comparison with NaN equality.
#pragma once
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "primlab/device_buffer.h"
#include "primlab/ops.h"
#include "primlab/status.h"

namespace test {

enum class Pattern { Uniform, Sorted, Reversed, AllEqual, FewDistinct, Extremes, Specials };
inline const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Uniform: return "uniform";
    case Pattern::Sorted: return "sorted";
    case Pattern::Reversed: return "reversed";
    case Pattern::AllEqual: return "all-equal";
    case Pattern::FewDistinct: return "few-distinct";
    case Pattern::Extremes: return "extremes";
    case Pattern::Specials: return "specials";
  }
  return "?";
}

// A random value: integers over their whole range, floats as quarter-integers in [-4, 4)
// (so that every partial sum of up to 2^20 of them is exact in float, in any order).
template <class T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    return T(std::int64_t(rng() % 32) - 16) / T(4);
  } else {
    T v;
    std::uint64_t r = rng();
    std::memcpy(&v, &r, sizeof(T));
    return v;
  }
}

template <class T>
std::vector<T> make_input(Pattern p, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + std::uint64_t(p) * 7919 + std::uint64_t(n));
  std::vector<T> v(static_cast<std::size_t>(n));
  using L = std::numeric_limits<T>;
  for (std::int64_t i = 0; i < n; ++i) {
    T x = random_value<T>(rng);
    switch (p) {
      case Pattern::AllEqual: x = T(3); break;
      case Pattern::FewDistinct: {
        static const int few[4] = {1, 2, 7, 100};
        x = T(few[rng() % 4]);
        break;
      }
      case Pattern::Extremes: {
        const int k = int(rng() % 4);
        x = k == 0 ? L::lowest() : k == 1 ? L::max() : k == 2 ? L::min() : x;
        break;
      }
      case Pattern::Specials:
        if constexpr (std::is_floating_point_v<T>) {
          const int k = int(rng() % 64);
          if (k == 0) x = T(-0.0);
          else if (k == 1) x = L::infinity();
          else if (k == 2) x = -L::infinity();
          else if (k == 3 && rng() % 64 == 0) x = L::quiet_NaN();
        }
        break;
      default: break;
    }
    v[std::size_t(i)] = x;
  }
  if (p == Pattern::Sorted) std::sort(v.begin(), v.end());
  if (p == Pattern::Reversed) std::sort(v.begin(), v.end(), [](T a, T b) { return b < a; });
  return v;
}

template <class T>
bool same_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  }
  return a == b;
}

// Index of the first mismatch, or -1.
template <class T>
std::int64_t first_mismatch(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) return 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same_value(got[i], want[i])) return std::int64_t(i);
  return -1;
}

template <class T>
primlab::DeviceBuffer<T> to_device(const std::vector<T>& h) {
  primlab::DeviceBuffer<T> d(h.size());
  if (!h.empty())
    EXPECT_EQ(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}

template <class T>
std::vector<T> to_host(const T* d, std::int64_t n) {
  std::vector<T> h(static_cast<std::size_t>(n));
  if (n > 0) EXPECT_EQ(cudaMemcpy(h.data(), d, std::size_t(n) * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

// Fills a device buffer with a poison byte so that unwritten outputs show.
template <class T>
void poison(primlab::DeviceBuffer<T>& d) {
  if (d.size()) EXPECT_EQ(cudaMemset(d.get(), 0xA5, d.bytes()), cudaSuccess);
}

// A workspace that grows as needed and is poisoned before each use.
struct WorkspaceHolder {
  primlab::DeviceBuffer<unsigned char> buf;
  primlab::Workspace get(std::size_t bytes) {
    if (buf.size() < bytes) buf.resize(bytes);
    if (bytes) EXPECT_EQ(cudaMemset(buf.get(), 0x5A, bytes), cudaSuccess);
    return primlab::Workspace{bytes ? buf.get() : nullptr, bytes};
  }
};

// PRIMLAB_TEST_MAX_N caps the sizes (the sanitizer runs use small ones); large tests skip.
inline std::int64_t max_test_n() {
  const char* e = std::getenv("PRIMLAB_TEST_MAX_N");
  return e ? std::atoll(e) : std::numeric_limits<std::int64_t>::max();
}
#define PRIMLAB_SKIP_ABOVE(n) \
  if ((n) > ::test::max_test_n()) GTEST_SKIP() << "above PRIMLAB_TEST_MAX_N"

inline std::vector<std::int64_t> edge_sizes(std::int64_t tile) {
  std::vector<std::int64_t> all = {0, 1, 2, tile - 1, tile, tile + 1, 2 * tile + 3, (1 << 10) - 1,
                                   (1 << 10) + 1, (1 << 16) - 1, (1 << 16) + 1, 33 * tile - 5,
                                   (1 << 20) + 1};
  std::vector<std::int64_t> out;
  for (std::int64_t n : all)
    if (n <= max_test_n()) out.push_back(n);
  return out;
}

inline const std::vector<Pattern>& all_patterns() {
  static const std::vector<Pattern> p = {Pattern::Uniform, Pattern::Sorted, Pattern::Reversed,
                                         Pattern::AllEqual, Pattern::FewDistinct, Pattern::Extremes,
                                         Pattern::Specials};
  return p;
}

inline void sync_ok() { ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess); }

}  // namespace test

namespace test {

// The host reference of an operator: wrapping sums for integers (no signed overflow).
template <class T, class Op>
T ref_op(Op op, T a, T b) {
  if constexpr (std::is_same_v<Op, primlab::Sum> && std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return T(U(a) + U(b));
  } else {
    return op(a, b);
  }
}

}  // namespace test
