// The histogram kernel, templated on its tuning so that the tuner (bench/tune/) can instantiate
// variants: lane-private shared atomics, one shared histogram, or global atomics.
#pragma once
#include <cstdint>

#include "thread/histogram_bins.cuh"
#include "thread/vector_io.cuh"

namespace primlab::detail {

// [SECTION] Kernel
// kMode: 0 lane-private [bin][32] copies, 1 one shared histogram, 2 global atomics.
// kIdentity: byte samples whose bin is the byte itself (256 bins over [0, 256)).
// For 1-byte samples the bin rule is first tabulated in shared memory (256 entries).
template <int kMode, class Tuning, bool kIdentity, class T, class Binner>
__global__ void __launch_bounds__(Tuning::kThreads)
histogram_kernel(const T* __restrict__ d_in, std::int64_t n, std::uint32_t* d_hist, int bins,
                 Binner binner, bool vector_ok) {
  constexpr int kVec = 16 / int(sizeof(T));
  constexpr bool kTable = sizeof(T) == 1 && Tuning::kByteTable;
  extern __shared__ std::uint32_t s_hist[];
  __shared__ int s_table[kTable ? 256 : 1];
  const int lane = threadIdx.x & 31;
  const int slots = kMode == 0 ? bins * 32 : (kMode == 1 ? bins : 0);
  for (int i = threadIdx.x; i < slots; i += Tuning::kThreads) s_hist[i] = 0;
  if constexpr (kTable) {
    for (int i = threadIdx.x; i < 256; i += Tuning::kThreads) s_table[i] = binner(T(i));
  }
  __syncthreads();

  auto count = [&](T x) {
    int b;
    if constexpr (kIdentity) b = int(x);
    else if constexpr (kTable) b = s_table[x];
    else b = binner(x);
    if (b < 0) return;
    if (kMode == 0) atomicAdd(&s_hist[b * 32 + lane], 1u);
    else if (kMode == 1) atomicAdd(&s_hist[b], 1u);
    else atomicAdd(&d_hist[b], 1u);
  };

  using Vec = Vec16<T>;
  const std::int64_t workers = std::int64_t(gridDim.x) * Tuning::kThreads;
  const std::int64_t w = std::int64_t(blockIdx.x) * Tuning::kThreads + threadIdx.x;
  std::int64_t done = 0;
  if (vector_ok) {
    const std::int64_t nvec = n / kVec;
    const uint4* v_in = reinterpret_cast<const uint4*>(d_in);
    std::int64_t i = w;
    constexpr int kU = Tuning::kUnroll;
    for (; i + (kU - 1) * workers < nvec; i += kU * workers) {
      Vec v[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u) v[u].u = load16<true>(v_in + i + u * workers);
#pragma unroll
      for (int u = 0; u < kU; ++u)
#pragma unroll
        for (int j = 0; j < kVec; ++j) count(v[u].t[j]);
    }
    for (; i < nvec; i += workers) {
      Vec v;
      v.u = load16<true>(v_in + i);
#pragma unroll
      for (int j = 0; j < kVec; ++j) count(v.t[j]);
    }
    done = nvec * kVec;
  }
  for (std::int64_t i = done + w; i < n; i += workers) count(d_in[i]);

  if (kMode == 2) return;
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += Tuning::kThreads) {
    std::uint32_t sum = 0;
    if (kMode == 0) {
#pragma unroll 8
      for (int l = 0; l < 32; ++l) sum += s_hist[b * 32 + ((l + b) & 31)];
    } else {
      sum = s_hist[b];
    }
    if (sum) atomicAdd(&d_hist[b], sum);
  }
}

}  // namespace primlab::detail
