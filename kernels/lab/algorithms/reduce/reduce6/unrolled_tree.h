// How reduce6 and reduce7 show their unrolled tree (block_reduce_unrolled.cuh): one step per
// stride s, highlighting that stride's own `if (blockSize >= 2s)` line.
#pragma once
#include <string>

#include "lab/model/listing.h"
#include "lab/model/plan.h"

namespace primlab::steppers::unrolled_tree {

// The line of stride s in the listing: the tree tags its four barrier levels (s = 512..64)
// "level" and its six warp lines (s = 32..1) "unrolled", largest stride first.
inline int line(const plan::Code& code, bool warp, int s) {
  const int first = warp ? 5 : 9, k = first - plan::log2_floor(s);
  if (const listing::Listing* l = listing::find(code.name))
    for (const listing::Tag& tag : l->tags)
      if (tag.name == (warp ? "unrolled" : "level") && k < int(tag.lines.size())) return tag.lines[std::size_t(k)];
  return -1;
}

inline std::string label(bool warp, int s, int lanes) {
  const std::string S = std::to_string(s), head = "blockSize >= " + std::to_string(2 * s) + ": ";
  if (!warp) return head + "if (tid < " + S + ") sdata[tid] += sdata[tid + " + S + "], then a barrier";
  return head + "warp-synchronous sdata[tid] += sdata[tid + " + S + "] in all " + std::to_string(lanes) +
         " lanes of warp 0, no barrier";
}

}  // namespace primlab::steppers::unrolled_tree
