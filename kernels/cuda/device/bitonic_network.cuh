// The bitonic network in its all-ascending form: stage `size` starts with a flip (i against
// i ^ (size - 1)) and continues with half-cleaners (i against i + stride); every comparator
// puts the smaller key at the lower index. Padding keys (all ones, at the top indices) then
// never move, so any length sorts without padded memory. Block-level pieces live here: the
// register steps (strides below kItems), the shared-memory steps and the tile sort and merge.
#pragma once
#include <cstdint>
#include <cstring>

namespace primlab::detail::bitonic {

template <bool PAIRS, class Bits, class VBits>
__device__ __forceinline__ void compare_exchange(Bits& ka, Bits& kb, VBits& va, VBits& vb) {
  if constexpr (PAIRS) {
    if (ka > kb) {
      const Bits t = ka; ka = kb; kb = t;
      const VBits u = va; va = vb; vb = u;
    }
  } else {
    const Bits lo = ka < kb ? ka : kb;
    const Bits hi = ka < kb ? kb : ka;
    ka = lo;
    kb = hi;
  }
}

// Each thread's E contiguous elements from shared memory (16-byte accesses) and back.
template <int E, class T>
__device__ __forceinline__ void load_contiguous(const T* s, T (&x)[E]) {
  static_assert((E * sizeof(T)) % 16 == 0, "16-byte chunks");
  uint4 tmp[E * sizeof(T) / 16];
  const uint4* src = reinterpret_cast<const uint4*>(s + threadIdx.x * E);
#pragma unroll
  for (int v = 0; v < int(E * sizeof(T) / 16); ++v) tmp[v] = src[v];
  memcpy(x, tmp, sizeof(tmp));
}
template <int E, class T>
__device__ __forceinline__ void store_contiguous(T* s, const T (&x)[E]) {
  uint4 tmp[E * sizeof(T) / 16];
  memcpy(tmp, x, sizeof(tmp));
  uint4* dst = reinterpret_cast<uint4*>(s + threadIdx.x * E);
#pragma unroll
  for (int v = 0; v < int(E * sizeof(T) / 16); ++v) dst[v] = tmp[v];
}

// Stages 2 .. min(E, P) entirely in registers (each thread sorts its E elements in chunks of P).
template <bool PAIRS, int E, class Bits, class VBits>
__device__ __forceinline__ void register_sort(Bits* sk, VBits* sv, unsigned P) {
  Bits x[E];
  VBits v[E];
  load_contiguous<E>(sk, x);
  if constexpr (PAIRS) load_contiguous<E>(sv, v);
#pragma unroll
  for (int size = 2; size <= E; size *= 2) {
    if (unsigned(size) <= P) {
#pragma unroll
      for (int stride = size / 2; stride > 0; stride /= 2) {
#pragma unroll
        for (int a = 0; a < E; ++a) {
          if ((a & stride) == 0) {
            const int b = stride == size / 2 ? (a ^ (size - 1)) : (a | stride);
            compare_exchange<PAIRS>(x[a], x[b], v[a], v[b]);
          }
        }
      }
    }
  }
  store_contiguous<E>(sk, x);
  if constexpr (PAIRS) store_contiguous<E>(sv, v);
}

// Half-cleaner strides E/2 .. 1 in registers.
template <bool PAIRS, int E, class Bits, class VBits>
__device__ __forceinline__ void register_merge(Bits* sk, VBits* sv) {
  Bits x[E];
  VBits v[E];
  load_contiguous<E>(sk, x);
  if constexpr (PAIRS) load_contiguous<E>(sv, v);
#pragma unroll
  for (int stride = E / 2; stride > 0; stride /= 2) {
#pragma unroll
    for (int a = 0; a < E; ++a)
      if ((a & stride) == 0) compare_exchange<PAIRS>(x[a], x[a | stride], v[a], v[a | stride]);
  }
  store_contiguous<E>(sk, x);
  if constexpr (PAIRS) store_contiguous<E>(sv, v);
}

// One step over the tile in shared memory: T / 2 comparators, E / 2 per thread.
template <bool PAIRS, int E, class Bits, class VBits>
__device__ __forceinline__ void shared_step(Bits* sk, VBits* sv, unsigned stride, bool flip, unsigned size) {
#pragma unroll
  for (int r = 0; r < E / 2; ++r) {
    const unsigned q = threadIdx.x + r * blockDim.x;
    const unsigned i = ((q & ~(stride - 1)) << 1) | (q & (stride - 1));
    const unsigned j = flip ? (i ^ (size - 1)) : (i | stride);
    const Bits a = sk[i], b = sk[j];
    if (a > b) {
      sk[i] = b;
      sk[j] = a;
      if constexpr (PAIRS) {
        const VBits t = sv[i];
        sv[i] = sv[j];
        sv[j] = t;
      }
    }
  }
}

// Sorts every P-aligned chunk of the tile (P a power of two, P <= tile). Synchronised on entry
// and on exit.
template <bool PAIRS, int E, class Bits, class VBits>
__device__ void tile_sort(Bits* sk, VBits* sv, unsigned P) {
  register_sort<PAIRS, E>(sk, sv, P);
  __syncthreads();
  for (unsigned size = 2 * E; size <= P; size *= 2) {
    shared_step<PAIRS, E>(sk, sv, size / 2, true, size);
    __syncthreads();
    for (unsigned stride = size / 4; stride >= unsigned(E); stride /= 2) {
      shared_step<PAIRS, E>(sk, sv, stride, false, size);
      __syncthreads();
    }
    register_merge<PAIRS, E>(sk, sv);
    __syncthreads();
  }
}

// The half-cleaners of strides tile/2 .. 1 (the end of a stage larger than the tile).
template <bool PAIRS, int E, class Bits, class VBits>
__device__ void tile_merge(Bits* sk, VBits* sv, unsigned tile) {
  for (unsigned stride = tile / 2; stride >= unsigned(E); stride /= 2) {
    shared_step<PAIRS, E>(sk, sv, stride, false, 0);
    __syncthreads();
  }
  register_merge<PAIRS, E>(sk, sv);
  __syncthreads();
}

}  // namespace primlab::detail::bitonic
