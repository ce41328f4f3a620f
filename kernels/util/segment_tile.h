// One tile of a segmented Onesweep pass (agent/radix_onesweep.cuh): `count` keys (at most a tile)
// from keys_in[src], all of segment `seg`, whose tiles are first, first + 1, ... (the look-back
// stops at `first`). Plain C++, so that the host code that cuts the tables is tested without a GPU.
#pragma once
#include <cstdint>

namespace primlab::detail {

struct SegmentTile {
  std::uint32_t src, count, seg, first;
};

}  // namespace primlab::detail
