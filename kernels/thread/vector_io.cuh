// 16-byte loads and stores with an optional streaming (evict-first) cache hint.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace primlab::detail {

// A 16-byte vector seen as its elements.
template <class T>
union Vec16 {
  uint4 u;
  T t[16 / sizeof(T)];
};

template <bool kStreaming>
__device__ __forceinline__ uint4 load16(const void* p) {
  if constexpr (kStreaming) return __ldcs(static_cast<const uint4*>(p));
  else return *static_cast<const uint4*>(p);
}

template <bool kStreaming>
__device__ __forceinline__ void store16(void* p, uint4 v) {
  if constexpr (kStreaming) __stcs(static_cast<uint4*>(p), v);
  else *static_cast<uint4*>(p) = v;
}

template <bool kStreaming, class T>
__device__ __forceinline__ void store1(T* p, T v) {
  if constexpr (kStreaming) __stcs(p, v);
  else *p = v;
}

// Calls f(x) once for each of the n elements from p, read as 16-byte vectors where they lie on
// 16-byte boundaries, LOADS of them in flight a thread. The elements are shared by `groups` groups
// of `lanes` threads (the thread is `lane` of group `group`: a block's threads as one group, a
// grid's as one group, or each block a group): a round gives each group LOADS * lanes consecutive
// vectors, and one thread each takes an element before the first boundary and after the last whole
// vector. One group of a grid's threads reads vectors a grid apart; a group a block, as the
// upfront radix histogram reads, a block's vectors side by side (2^28 u32 keys in 0.25 ms on an
// H200).
template <int LOADS, class T, class F>
__device__ __forceinline__ void for_each_vectorized(const T* p, std::int64_t n, std::int64_t group, std::int64_t groups,
                                                    std::int64_t lane, std::int64_t lanes, F f) {
  constexpr int kVec = 16 / sizeof(T);
  const std::int64_t to_boundary = std::int64_t(((16 - (reinterpret_cast<std::uintptr_t>(p) & 15)) & 15) / sizeof(T));
  const std::int64_t head = to_boundary < n ? to_boundary : n;
  const std::int64_t vecs = (n - head) / kVec, tail = head + vecs * kVec;
  const std::int64_t g = group * lanes + lane;
  if (g < head) f(p[g]);
  if (tail + g < n) f(p[tail + g]);
  const uint4* v = reinterpret_cast<const uint4*>(p + head);
  const std::int64_t chunk = LOADS * lanes;
  for (std::int64_t base = group * chunk; base < vecs; base += groups * chunk) {
    uint4 x[LOADS];
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      const std::int64_t at = base + i * lanes + lane;
      x[i] = at < vecs ? __ldg(v + at) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      if (base + i * lanes + lane >= vecs) continue;
      Vec16<T> u;
      u.u = x[i];
#pragma unroll
      for (int e = 0; e < kVec; ++e) f(u.t[e]);
    }
  }
}

}  // namespace primlab::detail
