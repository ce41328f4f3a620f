// Bin rules of the histograms (shared by the fast path, the teaching variants and the tests):
// operator() returns the bin of a sample, or -1 when the sample is not counted.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace primlab::detail {

// Integers: bin = floor(diff * bins / range) with diff = x - lower, exactly, by a shift when
// range is a power of two and otherwise a 64-bit multiply-high by floor(2^64 / range) plus one
// correction step (the estimate is at most one low because diff * bins < 2^48).
template <class T>
struct IntBinner {
  std::int64_t lower;    // as a signed 64-bit value (uint32 levels fit)
  std::uint64_t range;   // upper - lower, >= 1, <= 2^32
  std::uint64_t magic;   // floor((2^64 - 1) / range) when range is not a power of two
  int shift;             // log2(range) when range is a power of two, else -1
  int bins;
  __host__ __device__ int operator()(T x) const {
    const std::uint64_t diff = std::uint64_t(std::int64_t(x) - lower);
    if (diff >= range) return -1;  // also catches x < lower (wraps to a huge value)
    const std::uint64_t v = diff * std::uint64_t(bins);
    if (shift >= 0) return int(v >> shift);
#if defined(__CUDA_ARCH__)
    std::uint64_t q = __umul64hi(v, magic);
#else
    std::uint64_t q = std::uint64_t((unsigned __int128)v * magic >> 64);
#endif
    if ((q + 1) * range <= v) ++q;
    return int(q);
  }
};

template <class T>
inline IntBinner<T> make_int_binner(std::int64_t lower, std::int64_t upper, int bins) {
  IntBinner<T> b{};
  b.lower = lower;
  b.range = std::uint64_t(upper - lower);
  b.bins = bins;
  b.shift = -1;
  if ((b.range & (b.range - 1)) == 0) {
    int s = 0;
    while ((std::uint64_t(1) << s) < b.range) ++s;
    b.shift = s;
  } else {
    b.magic = ~std::uint64_t(0) / b.range;
  }
  return b;
}

// Floats: (x - lower) * (bins / (upper - lower)) in T, truncated, clamped to bins - 1.
template <class T>
struct FloatBinner {
  T lower, upper, scale;
  int bins;
  __host__ __device__ int operator()(T x) const {
    if (!(x >= lower && x < upper)) return -1;
    int b = int((x - lower) * scale);
    return b < bins - 1 ? b : bins - 1;
  }
};

// Digits of the radix-ordered unsigned image of a key.
template <class K>
struct DigitBinner {
  int begin_bit;
  unsigned mask;
  __host__ __device__ int operator()(K k) const {
    using U = std::conditional_t<sizeof(K) == 8, std::uint64_t, std::uint32_t>;
    constexpr U kSign = U(1) << (8 * sizeof(K) - 1);
    U u;
    memcpy(&u, &k, sizeof(K));
    if constexpr (std::is_floating_point_v<K>) u = (u & kSign) ? ~u : (u | kSign);
    else if constexpr (std::is_signed_v<K>) u ^= kSign;
    return int((u >> begin_bit) & mask);
  }
};

}  // namespace primlab::detail
