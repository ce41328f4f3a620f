// The stepped bitonic sort's shape, shared by its plan and CPU reference (bitonic_sort.cpp) and its
// stepped CUDA form (bitonic_sort.cu): the rows, the launches of bitonic_sort.cuh's host code and
// the barriers inside them, and the key order on the trace's words.
#pragma once
#include <cstdint>
#include <vector>

#include "lab/catalog.h"
#include "lab/model/trace.h"

namespace primlab::lab::bitonic {

// Rows: keys (main), [index], shared keys, [shared index]; the index rows only for key-value sorts.
struct RowIds {
  int values = -1, shared = kStdRows, shared_values = -1;
  explicit RowIds(bool kv) {
    if (kv) {
      values = kStdRows;
      shared = kStdRows + 1;
      shared_values = kStdRows + 2;
    }
  }
};

// The host code's shape: N = n padded to a power of two (at least 2), B threads a block (at most
// N / 2), tiles of L = 2B elements.
struct Shape {
  std::int32_t N = 2, B = 1, L = 2, tiles = 1;
  Shape(std::int32_t n, std::int32_t block) {
    while (N < n) N <<= 1;
    B = block < N / 2 ? block : N / 2;
    L = 2 * B;
    tiles = N / L;
  }
};

// The steps after the input, in the host code's order: the padding (where N > n), then
// sort_shared_kernel (its load, one shared pass per (size, stride) and its store, __syncthreads()
// apart), then for each larger size its global passes (strides >= L, one launch each) and
// merge_shared_kernel (load, the strides B..1, store).
enum class Kind : int { Pad, Load, Shared, Store, Global };
struct Pass {
  Kind kind;
  std::int32_t size = 0, stride = 0;  // the stage's size and the comparator distance
  bool merge = false;                 // a pass of merge_shared_kernel (not sort_shared_kernel)
};

inline std::vector<Pass> schedule(const Shape& s, std::int32_t n) {
  std::vector<Pass> v;
  if (s.N > n) v.push_back({Kind::Pad});
  v.push_back({Kind::Load, 2});
  for (std::int32_t size = 2; size <= s.L; size <<= 1)
    for (std::int32_t stride = size / 2; stride > 0; stride >>= 1) v.push_back({Kind::Shared, size, stride});
  v.push_back({Kind::Store, s.L});
  for (std::int32_t size = 2 * s.L; size <= s.N; size <<= 1) {
    for (std::int32_t stride = size / 2; stride >= s.L; stride >>= 1) v.push_back({Kind::Global, size, stride});
    v.push_back({Kind::Load, size, 0, true});
    for (std::int32_t stride = s.B; stride > 0; stride >>= 1) v.push_back({Kind::Shared, size, stride, true});
    v.push_back({Kind::Store, size, 0, true});
  }
  return v;
}

// Keys compare through an order-preserving unsigned image: int32 with the sign bit flipped, float
// through the lecture's flipFloat (so -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), uint32 as is.
inline std::uint32_t order_bits(std::uint32_t k, ElemType t) {
  if (t == ElemType::I32) return k ^ 0x80000000u;
  if (t == ElemType::F32) return k ^ ((0u - (k >> 31)) | 0x80000000u);
  return k;
}
// True when (ka, ia) comes after (kb, ib) in the sort order; key-value sorts break ties by the index.
inline bool comes_after(std::uint32_t ka, std::uint32_t ia, std::uint32_t kb, std::uint32_t ib, ElemType t, bool desc,
                        bool kv) {
  const std::uint32_t x = order_bits(ka, t), y = order_bits(kb, t);
  if (x != y) return desc ? x < y : x > y;
  return kv && ia > ib;
}
// The padding: the key that sorts last (its order bits all ones ascending, all zeros descending),
// as the kernel's last_key writes it: 0xffffffff, INT_MAX or +NaN ascending; 0, INT_MIN or -NaN
// descending. Key-value sorts index it from n, so it sorts behind a real key equal to it.
inline std::uint32_t pad_key(ElemType t, bool desc) {
  if (t == ElemType::I32) return desc ? 0x80000000u : 0x7fffffffu;
  if (t == ElemType::F32) return desc ? 0xffffffffu : 0x7fffffffu;
  return desc ? 0u : 0xffffffffu;
}
// The comparator of thread g of a pass: its lower index pos, and dir (1: the sort's direction), as the
// kernels compute them.
inline std::int32_t comparator_pos(std::int32_t g, std::int32_t stride) { return 2 * g - (g & (stride - 1)); }
inline bool comparator_dir(std::int32_t pos, std::int32_t size) { return (pos & size) == 0; }

}  // namespace primlab::lab::bitonic
