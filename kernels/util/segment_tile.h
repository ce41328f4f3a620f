// The tiles of a segmented Onesweep pass (agent/radix_onesweep.cuh) and the spans they are cut
// from. Plain C++ (host and device), so that the host code that plans the tables is tested without
// a GPU.
#pragma once
#include <cstdint>

#include "primlab/ops.h"  // PRIMLAB_HD

namespace primlab::detail {

// One tile: `count` keys (at most a tile) from keys_in[src], all of segment `seg`, whose tiles are
// first, first + 1, ... (the look-back stops at `first`).
struct SegmentTile {
  std::uint32_t src, count, seg, first;
};

// Keys of one segment that lie side by side, `count` from `src`, cut into tiles from tile
// `tile_base` on; their segment's first tile is `seg_first`.
struct TileSpan {
  std::uint32_t src, count, seg, tile_base, seg_first;
};

// Tile t of a table cut from spans[0, n) (tile_base ascending; t at or past spans[0].tile_base and
// before the last span's end), tiles of `tile` keys: a binary search for its span.
PRIMLAB_HD SegmentTile tile_of(const TileSpan* spans, int n, std::uint32_t t, std::uint32_t tile) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (spans[mid].tile_base <= t) lo = mid;
    else hi = mid - 1;
  }
  const TileSpan& s = spans[lo];
  const std::uint32_t k = (t - s.tile_base) * tile;
  return {s.src + k, s.count - k < tile ? s.count - k : tile, s.seg, s.seg_first};
}

}  // namespace primlab::detail
