// The stepped bitonic sort's shape, shared by its plan, its CPU reference (bitonic_sort.cpp) and its
// CUDA traced stepper (cuda/traced/bitonic_sort.cu): the rows, the list of launches (load a tile to
// shared memory, one compare-swap pass, store, or one global pass) and the key order.
#pragma once
#include <cstdint>
#include <vector>

#include "lab/catalog.h"
#include "lab/model/trace.h"

#ifdef __CUDACC__
#define PRIMLAB_HD __host__ __device__
#else
#define PRIMLAB_HD
#endif

namespace primlab::bitonic {

// Rows: keys (main), [values], shared keys, [shared values]; values only for key-value sorts.
struct RowIds {
  int values = -1, shared = 3, shared_values = -1;
  explicit RowIds(bool kv) {
    if (kv) {
      values = 3;
      shared = 4;
      shared_values = 5;
    }
  }
};

// W = n padded to a power of two (at least 2); tiles of T = 2 * Be elements, Be threads a block.
struct Shape {
  std::int32_t W = 2, Be = 1, T = 2, tiles = 1;
  Shape(std::int32_t n, std::int32_t block) {
    while (W < n) W <<= 1;
    Be = block < W / 2 ? block : W / 2;
    T = 2 * Be;
    tiles = W / T;
  }
};

enum class Kind : int { Load, Shared, Store, Global };
struct Pass {
  Kind kind;
  std::int32_t size = 0, stride = 0;  // stage (merge) size and comparator distance
};

// The launches after the input step, in order: the tile sort in shared memory (sizes 2..T), then for
// each larger size the global passes for strides >= T and a shared merge of the strides below T.
inline std::vector<Pass> schedule(const Shape& s) {
  std::vector<Pass> v;
  auto shared_run = [&](std::int32_t size, std::int32_t from_stride) {
    v.push_back({Kind::Load, size, 0});
    for (std::int32_t st = from_stride; st > 0; st >>= 1) v.push_back({Kind::Shared, size, st});
    v.push_back({Kind::Store, size, 0});
  };
  v.push_back({Kind::Load, 2, 0});
  for (std::int32_t size = 2; size <= s.T; size <<= 1)
    for (std::int32_t st = size / 2; st > 0; st >>= 1) v.push_back({Kind::Shared, size, st});
  v.push_back({Kind::Store, s.T, 0});
  for (std::int32_t size = 2 * s.T; size <= s.W; size <<= 1) {
    for (std::int32_t st = size / 2; st >= s.T; st >>= 1) v.push_back({Kind::Global, size, st});
    shared_run(size, s.T / 2);
  }
  return v;
}

// Keys compare through an order-preserving unsigned image: int32 with the sign bit flipped, float
// through the lecture's flipFloat (so -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), uint32 as is.
PRIMLAB_HD inline std::uint32_t order_bits(std::uint32_t k, ElemType t) {
  if (t == ElemType::I32) return k ^ 0x80000000u;
  if (t == ElemType::F32) return k ^ ((0u - (k >> 31)) | 0x80000000u);
  return k;
}
// True when (ka, va) comes before (kb, vb) in the sort order. Key-value sorts break ties by the value
// (the original index), which makes the network's result stable.
PRIMLAB_HD inline bool before(std::uint32_t ka, std::uint32_t va, std::uint32_t kb, std::uint32_t vb, ElemType t,
                              bool desc, bool kv) {
  const std::uint32_t a = order_bits(ka, t), b = order_bits(kb, t);
  if (a != b) return desc ? a > b : a < b;
  return kv && va < vb;
}
// The padding key: the input's last key in the sort order (its max ascending, its min descending), so
// that padding sorts behind every real key (key-value: the index breaks the tie) and the bars keep the
// data's range. Keys only: padding equal to the max is indistinguishable from it, so the first n agree.
inline std::uint32_t pad_key(const std::vector<std::uint32_t>& in, ElemType t, bool desc) {
  std::uint32_t best = in.empty() ? 0u : in[0];
  for (std::uint32_t k : in)
    if (before(best, 0, k, 0, t, desc, false)) best = k;
  return best;
}
// Comparator of thread g (in its pass): the lower index pos, and whether it sorts up (the lower
// index receives the element that comes first). (pos & size) == 0 alternates direction per stage.
PRIMLAB_HD inline std::int32_t comparator_pos(std::int32_t g, std::int32_t stride) {
  return 2 * g - (g & (stride - 1));
}
PRIMLAB_HD inline bool comparator_up(std::int32_t global_pos, std::int32_t size) { return (global_pos & size) == 0; }

}  // namespace primlab::bitonic
