// Histogram kernels, templated on their tuning so that the tuner (bench/tune/) can instantiate
// variants: lane-private shared atomics for any sample type, and 16-bit private counters with
// plain loads and stores for byte samples.
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

  union Vec {
    uint4 u;
    T t[kVec];
  };
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

// Byte samples, <= 256 bins: every thread owns a column of 128 words of two 16-bit counters
// ([warp][word][lane] layout: a warp's accesses hit 32 distinct banks), incremented with plain
// shared loads and stores, no atomics. Columns are folded into s_total before a counter could
// overflow (every kFlushVectors vectors) and at the end.
template <class Tuning, bool kIdentity>
__global__ void __launch_bounds__(Tuning::kThreads)
histogram_u8_private_kernel(const std::uint8_t* __restrict__ d_in, std::int64_t n,
                            std::uint32_t* d_hist, int bins, IntBinner<std::uint8_t> binner,
                            bool vector_ok) {
  constexpr int kWarps = Tuning::kThreads / 32;
  constexpr int kWords = 128;
  constexpr int kFlushVectors = 4000;  // 64000 samples < 65536 per counter
  extern __shared__ std::uint32_t s_mem[];
  std::uint32_t* s_total = s_mem;                    // 256
  int* s_lut = reinterpret_cast<int*>(s_mem + 256);  // 256
  std::uint32_t* s_cnt = s_mem + 512;                // kWarps * kWords * 32
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  for (int i = threadIdx.x; i < kWarps * kWords * 32; i += Tuning::kThreads) s_cnt[i] = 0;
  for (int i = threadIdx.x; i < 256; i += Tuning::kThreads) {
    s_total[i] = 0;
    s_lut[i] = binner(std::uint8_t(i));
  }
  __syncthreads();
  std::uint32_t* col = s_cnt + warp * kWords * 32 + lane;

  auto count = [&](unsigned x) {
    int b;
    if constexpr (kIdentity) b = int(x);
    else {
      b = s_lut[x];
      if (b < 0) return;
    }
    col[(b >> 1) * 32] += 1u << ((b & 1) << 4);
  };
  auto count_word = [&](unsigned w) {
#pragma unroll
    for (int j = 0; j < 4; ++j) count((w >> (8 * j)) & 0xffu);
  };
  auto flush = [&]() {
    for (int w = 0; w < kWords; ++w) {
      const std::uint32_t v = col[w * 32];
      if (v) {
        if (v & 0xffffu) atomicAdd(&s_total[2 * w], v & 0xffffu);
        if (v >> 16) atomicAdd(&s_total[2 * w + 1], v >> 16);
        col[w * 32] = 0;
      }
    }
  };

  const std::int64_t workers = std::int64_t(gridDim.x) * Tuning::kThreads;
  const std::int64_t w0 = std::int64_t(blockIdx.x) * Tuning::kThreads + threadIdx.x;
  std::int64_t done = 0;
  std::int64_t per_thread = 0;  // samples this thread counted since its last flush
  if (vector_ok) {
    const std::int64_t nvec = n / 16;
    const uint4* v_in = reinterpret_cast<const uint4*>(d_in);
    constexpr int kU = Tuning::kUnroll;
    std::int64_t i = w0;
    for (; i + (kU - 1) * workers < nvec; i += kU * workers) {
      uint4 v[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u) v[u] = load16<true>(v_in + i + u * workers);
#pragma unroll
      for (int u = 0; u < kU; ++u) {
        count_word(v[u].x);
        count_word(v[u].y);
        count_word(v[u].z);
        count_word(v[u].w);
      }
      per_thread += kU;
      if (per_thread >= kFlushVectors - kU) {
        flush();
        per_thread = 0;
      }
    }
    for (; i < nvec; i += workers) {
      const uint4 v = load16<true>(v_in + i);
      count_word(v.x);
      count_word(v.y);
      count_word(v.z);
      count_word(v.w);
    }
    done = nvec * 16;
  }
  for (std::int64_t i = done + w0; i < n; i += workers) count(d_in[i]);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += Tuning::kThreads) {
    const int word = b >> 1, shift = (b & 1) << 4;
    std::uint32_t sum = s_total[b];
    for (int w = 0; w < kWarps; ++w) {
      const std::uint32_t* base = s_cnt + w * kWords * 32 + word * 32;
#pragma unroll 8
      for (int l = 0; l < 32; ++l) sum += (base[(l + word) & 31] >> shift) & 0xffffu;
    }
    if (sum) atomicAdd(&d_hist[b], sum);
  }
}

template <class Tuning>
constexpr int histogram_u8_private_smem() {
  return (512 + (Tuning::kThreads / 32) * 128 * 32) * 4;
}

}  // namespace primlab::detail
