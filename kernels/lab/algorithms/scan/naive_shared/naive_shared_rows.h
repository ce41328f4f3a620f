// What seed 001's naive shared-memory scan shares between its kernels and host code
// (scan_naive_shared.cuh), its plan and its CPU reference (scan_naive_shared.cpp): the arrays as
// the trace's rows, and the host's scan of the block sums between the launches.
#pragma once
#include <cstdint>
#include <type_traits>

#include "lab/model/trace.h"

namespace primlab::lab {

// The rows: the result and the input (add_input.cuh's rows), the halves of each block's ping-pong
// buffer temp[2B] (temp[tid] and temp[B + tid] of block b under element b * B + tid), the block
// sums and their scan (the workspace's halves).
enum NaiveSharedRow : int {
  kNaiveSharedOut = kRowMain,
  kNaiveSharedIn = kStdRows,
  kNaiveSharedHalf0,
  kNaiveSharedHalf1,
  kNaiveSharedSums,
  kNaiveSharedScanned,
};

// The seed's host loop: sums[b] becomes sums[0] + ... + sums[b - 1], in the element type's own
// arithmetic (integers wrap around, as on the GPU).
template <class T>
void scan_sums_on_host(T* sums, std::int64_t count) {
  T acc = T(0);
  for (std::int64_t b = 0; b < count; ++b) {
    const T s = sums[b];
    sums[b] = acc;
    if constexpr (std::is_integral_v<T>)
      acc = T(std::make_unsigned_t<T>(acc) + std::make_unsigned_t<T>(s));
    else
      acc = acc + s;
  }
}

}  // namespace primlab::lab
