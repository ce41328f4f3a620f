// The engine's one input generator and the rules every implementation of a primitive shares: the
// select threshold and the histogram's bins. Host and device code include it (the functions are
// __host__ __device__ under nvcc), so the CPU rows and the GPU rows see the same data and the same
// rules. No CUDA header.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "engine/table.h"

#if defined(__CUDACC__)
#define PRIMLAB_ENGINE_HD __host__ __device__
#else
#define PRIMLAB_ENGINE_HD
#endif

namespace primlab::bench {

constexpr std::uint64_t kDefaultSeed = 20260601;
// Seeds of the other streams of a case, from its input seed: the second input, the flags.
constexpr std::uint64_t kSecondInput = 1, kFlags = 2;

// [SECTION] The generator: element i of the stream `seed` (splitmix64 of a hashed index).
PRIMLAB_ENGINE_HD inline std::uint64_t input_bits(std::uint64_t seed, std::int64_t i) {
  std::uint64_t x = seed ^ (std::uint64_t(i) * 0xD1B54A32D192ED03ull);
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Integers uniform over their range; floats uniform in [0, 1) (never NaN or negative).
template <class T>
PRIMLAB_ENGINE_HD inline T input_value(std::uint64_t h) {
  if constexpr (std::is_same_v<T, float>) return float(h >> 40) * (1.0f / 16777216.0f);
  else if constexpr (std::is_same_v<T, double>) return double(h >> 11) * (1.0 / 9007199254740992.0);
  else if constexpr (sizeof(T) == 1) return T(h >> 56);
  else if constexpr (sizeof(T) == 4) return T(std::uint32_t(h >> 32));
  else return T(h);
}

// A flag, 0 or 1 with p = 1/2.
PRIMLAB_ENGINE_HD inline std::uint8_t input_flag(std::uint64_t h) { return std::uint8_t((h >> 33) & 1); }

// Fills n host elements of type t from stream `seed`, on `threads` threads.
void fill_host(Type t, void* h, std::int64_t n, std::uint64_t seed, int threads);

// [SECTION] Shared rules
// select_if keeps x < half_threshold: about half of the generator's values.
template <class T>
PRIMLAB_ENGINE_HD inline T half_threshold() {
  if constexpr (std::is_floating_point_v<T>) return T(0.5);
  else if constexpr (std::is_signed_v<T>) return T(0);
  else return T(std::numeric_limits<T>::max() / 2 + 1);
}

// histogram_even: kBins even bins over the generator's whole range ([0, 1) for floats), so every
// sample lands in a bin.
constexpr int kBins = 256;
template <class T>
constexpr double histogram_lower() {
  return std::is_floating_point_v<T> ? 0.0 : double(std::numeric_limits<T>::min());
}
template <class T>
constexpr double histogram_upper() {
  return std::is_floating_point_v<T> ? 1.0 : double(std::numeric_limits<T>::max()) + 1.0;
}
// The bin of x under that rule (-1: outside), as the CPU rows compute it.
template <class T>
inline int histogram_bin(T x) {
  if constexpr (std::is_same_v<T, std::uint8_t>) return x;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return int(x >> 24);
  else if constexpr (std::is_same_v<T, std::int32_t>) return int((std::uint32_t(x) ^ 0x80000000u) >> 24);
  else if constexpr (std::is_floating_point_v<T>) {
    if (!(x >= T(0) && x < T(1))) return -1;
    const int b = int(x * T(kBins));
    return b < kBins - 1 ? b : kBins - 1;
  } else {
    return -1;
  }
}

}  // namespace primlab::bench
