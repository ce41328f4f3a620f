// 16-byte loads and stores with an optional streaming (evict-first) cache hint.
#pragma once
#include <cuda_runtime.h>

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

}  // namespace primlab::detail
