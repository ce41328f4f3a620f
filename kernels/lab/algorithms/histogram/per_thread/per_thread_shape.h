// The per-thread histogram's shape, shared by the plan, the CPU reference and the CUDA stepper:
// rows, the grid, the variant's layout and thread permutation, and the counter index.
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/catalog.h"

#ifndef __CUDACC__
#define PRIMLAB_HD
#else
#define PRIMLAB_HD __host__ __device__
#endif

namespace primlab::steppers::per_thread {

constexpr std::int32_t kThreads = 64;               // threads per block
constexpr std::int32_t kMaxBins = 64;               // counters per thread
constexpr std::int32_t kCells = kThreads * kMaxBins;  // byte counters per block (4 KB)
constexpr std::int32_t kMaxBlocks = 2;              // the trace holds every block's counters

enum Rows { kData = kStdRows, kCounters, kPartial, kBins };

// cfg.variant: bit 0 the layout (0: tid*64+data, 1: tid+64*data), bit 1 the thread permutation.
struct Variant {
  bool spread = false;
  bool permute = false;
};
inline Variant variant_of(std::int32_t v) { return {(v & 1) != 0, (v & 2) != 0}; }
inline const char* layout_name(Variant v) {
  return v.spread ? (v.permute ? "tid+64*data, permuted threads" : "tid+64*data")
                  : (v.permute ? "tid*64+data, permuted threads" : "tid*64+data");
}

struct Shape {
  std::int32_t n, bins, blocks, rounds;
  std::int64_t threads() const { return std::int64_t(blocks) * kThreads; }
};
inline Shape shape(const StepConfig& cfg) {
  Shape g{cfg.n, cfg.bins, 0, 0};
  g.blocks = std::min<std::int32_t>((cfg.n + kThreads - 1) / kThreads, kMaxBlocks);
  g.rounds = std::int32_t((g.n + g.threads() - 1) / g.threads());
  return g;
}

// The counter slot of thread x: x, or the lecture's permutation.
PRIMLAB_HD inline std::int32_t thread_slot(std::int32_t x, Variant v) {
  return v.permute ? (x >> 4) | ((x & 0x0F) << 2) : x;
}
// The byte index of slot tid's counter of bin data.
PRIMLAB_HD inline std::int32_t counter_index(std::int32_t tid, std::int32_t data, Variant v) {
  return v.spread ? tid + 64 * data : tid * 64 + data;
}
// bin = x mod bins: the non-negative remainder for int32, x % bins for uint32.
PRIMLAB_HD inline std::int32_t bin_of(std::uint32_t x, ElemType t, std::int32_t bins) {
  if (t == ElemType::U32) return std::int32_t(x % std::uint32_t(bins));
  const std::int32_t b = std::int32_t(x) % bins;
  return b < 0 ? b + bins : b;
}

}  // namespace primlab::steppers::per_thread

#undef PRIMLAB_HD
