// scan-lookback's rows and tile shape, shared by its plan and CPU reference (scan_lookback.cpp) and
// its stepped CUDA form (scan_lookback.cu, with the probe of scan_lookback.cuh). The library's
// single-pass scan runs on tiles of one item a lane: a tile is one block of 32 or 64 threads.
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/model/trace.h"

namespace primlab::lab {

// The trace's rows, which are also the row numbers the probe names (the identity map).
enum ScanLookbackRow : int {
  kLbOut = kRowMain,   // d_out, the scan
  kLbIn = kStdRows,    // d_in
  kLbX,                // x: each lane's register, its one item
  kLbRowPrefix,        // row_prefix: the item's exclusive prefix in its warp
  kLbWarp,             // s_warp of every block: element tile * warps + warp
  kLbStatus,           // the tile-state word's status: 0 invalid, 1 aggregate, 2 inclusive prefix
  kLbValue,            // the tile-state word's value
  kLbTilePrefix,       // tile_prefix: what the tile's look-back returned
  kLbPolls,            // the look-back's polls of its windows
  kLbWords,            // the tile-state words the look-back read
  kLbStop,             // the tile whose inclusive prefix ended the look-back
  kLbAggregateAt,      // when the tile published its aggregate: the run's event number
  kLbInclusiveAt,      // when it published its inclusive prefix
  kLbRows
};

// The look-back's ops in its step: slot 0 the inclusive publish, slot 1 the warp prefixes, then one
// slot per window.
constexpr int kLbWindowSlot = 2;

struct LookbackShape {
  std::int32_t n = 0, block = 0;
  std::int32_t warps = 0;    // warps of a block (tile)
  std::int32_t tiles = 0;    // blocks
  std::int32_t windows = 0;  // the most windows of 32 predecessors a look-back may read
  std::int32_t width() const { return std::max(n, tiles * warps); }
};

inline LookbackShape lookback_shape(std::int32_t n, std::int32_t block) {
  LookbackShape s;
  s.n = n;
  s.block = block;
  s.warps = block / 32;
  s.tiles = (n + block - 1) / block;
  // Tile t's look-back stops at tile 0's inclusive prefix at the latest: window (t - 1) / 32.
  s.windows = s.tiles > 1 ? (s.tiles - 2) / 32 + 1 : 0;
  return s;
}

// The combines of warp_inclusive_scan in one lane: one per offset d = 1, 2, 4, 8, 16 with lane >= d.
inline int warp_scan_adds(int lane) {
  int adds = 0;
  for (int d = 1; d < 32; d <<= 1) adds += lane >= d;
  return adds;
}

// The rows that start unset (-1): the stopping tile and the event numbers. `state`: rows x width.
inline void lookback_unset_rows(std::uint32_t* state, std::int32_t width) {
  for (int r : {kLbStop, kLbAggregateAt, kLbInclusiveAt})
    std::fill(state + std::size_t(r) * width, state + std::size_t(r + 1) * width, 0xffffffffu);
}

}  // namespace primlab::lab
