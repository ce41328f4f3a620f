// radix-digits' shape and rows, shared by its kernels (radix_digits.cuh), its plan and CPU reference
// (radix_digits.cpp) and its stepped form (radix_digits.cu).
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/algorithms/radix/radix_shape.h"
#include "lab/model/trace.h"

namespace primlab::lab::radix {

// The rows the kernels name to the probe, in a key-value trace's order: the keys (in, alt, out),
// the values (in, alt, out), the sortable key and the digit of each key, the counts, the offsets
// (their scan), the scan's shared memory and block sums, and each key's destination. A kernel's in
// and out are whichever rows the pass reads and writes (the stepped form maps them launch by launch).
enum DigitsRow : int {
  kDigitsIn = kRowMain,
  kDigitsAlt = kStdRows,
  kDigitsOut,
  kDigitsValuesIn,
  kDigitsValuesAlt,
  kDigitsValuesOut,
  kDigitsSortable,
  kDigitsDigit,
  kDigitsCounts,
  kDigitsOffsets,
  kDigitsTemp,
  kDigitsSums,
  kDigitsDest,
  kDigitsRows
};
static_assert(kDigitsRows <= kKernelRows, "every row is one the probe can name");

// The host code's shape: R = 2^D digits, tiles of T = max(B, R) keys (T / B a thread), nb tiles,
// C = R * nb counts, ceil(32 / D) passes.
struct DigitShape {
  std::int32_t D, R, T, ept, nb, C, passes;
  DigitShape(std::int32_t n, std::int32_t block, std::int32_t digit_bits)
      : D(digit_bits), R(1 << digit_bits), T(std::max(block, R)), ept(T / block),
        nb(std::int32_t(blocks_for(n, T))), C(R * nb), passes((32 + digit_bits - 1) / digit_bits) {}
  // The row width: the keys, the tiles' digits, the counts and the scan's shared memory and sums.
  std::int32_t width(std::int32_t n, std::int32_t block) const {
    return std::int32_t(std::max<std::int64_t>({n, std::int64_t(nb) * T, C, scan_row_width(C, block)}));
  }
};

// The trace's row of each kernel row: the key-value trace has them all, a keys-only trace none of
// the value rows.
struct DigitRows {
  int trace[kDigitsRows];
  explicit DigitRows(bool kv) {
    int next = 0;
    for (int r = 0; r < kDigitsRows; ++r) {
      const bool value_row = r == kDigitsValuesIn || r == kDigitsValuesAlt || r == kDigitsValuesOut;
      trace[r] = r == kRowTouch || r == kRowOwner ? r : value_row && !kv ? -1 : next;
      if (trace[r] == next) ++next;
      if (r == kRowMain) next = kStdRows;
    }
  }
  int operator[](int kernel_row) const { return trace[kernel_row]; }
};

}  // namespace primlab::lab::radix
