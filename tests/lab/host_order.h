// The host's reference order of the lab's sorts: keys compared by their unsigned order bits (int32
// sign flipped, floats sign-magnitude flipped: -NaN first, +NaN last), ties kept in input order.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "lab/model/trace.h"

namespace test {

inline std::uint32_t order_bits(std::uint32_t k, primlab::ElemType t) {
  if (t == primlab::ElemType::I32) return k ^ 0x80000000u;
  if (t == primlab::ElemType::F32) return (k >> 31) ? ~k : k | 0x80000000u;
  return k;
}

// The input indices in stable sorted order.
inline std::vector<std::uint32_t> stable_order(const std::vector<std::uint32_t>& in, primlab::ElemType t, bool desc) {
  std::vector<std::uint32_t> idx(in.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t x = order_bits(in[a], t), y = order_bits(in[b], t);
    return desc ? x > y : x < y;
  });
  return idx;
}

}  // namespace test
