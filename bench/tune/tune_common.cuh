// What the tuning sweeps share: a fatal check for CUDA calls, seeded device inputs, and the
// median time of a region by CUDA events after warm-up.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);     \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace tune {

// p[i] = a 64-bit mix of i and seed, truncated to T: uniform random bits, the same every run.
template <class T>
__global__ void fill_random(T* p, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::uint64_t x = std::uint64_t(i) * 0x9E3779B97F4A7C15ull + seed;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    p[i] = static_cast<T>(x);
  }
}

// Counts the positions i where the output is not a stable sort of the input by bits
// [0, end_bit): keys out of order, a value that is not the index of its key in the input, or
// equal keys whose indices decrease.
template <class Bits, class VBits, bool PAIRS>
__global__ void count_unsorted(const Bits* keys_in, const Bits* keys, const VBits* vals, std::int64_t n,
                               int end_bit, unsigned long long* bad) {
  const Bits mask = end_bit == int(sizeof(Bits) * 8) ? ~Bits(0) : (Bits(1) << end_bit) - 1;
  unsigned long long b = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const Bits k = keys[i] & mask;
    if (i + 1 < n) {
      const Bits next = keys[i + 1] & mask;
      b += k > next;
      if (PAIRS) b += k == next && vals[i] >= vals[i + 1];
    }
    if (PAIRS) b += vals[i] >= VBits(n) || keys_in[vals[i]] != keys[i];
  }
  if (b) atomicAdd(bad, b);
}

// Median of `runs` timings of f() (CUDA events on the default stream), after 3 warm-up calls.
template <class F>
float median_ms(F&& f, int runs = 15) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < runs; ++r) {
    CK(cudaEventRecord(e0));
    f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace tune
