// The multi-bit radix sort's shape and rows, shared by its plan, its CPU reference
// (radix_digits.cpp) and its CUDA traced stepper (cuda/traced/radix_digits.cu).
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/algorithms/radix/radix_steps.h"
#include "lab/model/trace.h"

namespace primlab::radix {

// R = 2^D bins; tiles of T = max(B, R) keys (T / B = ept contiguous keys a thread); W = n padded to a
// power of two and to at least one tile; nb = W / T blocks; C = R * nb counts (a power of two <= W).
struct DigitShape {
  std::int32_t D, R, T, ept, W, nb, C, passes;
  DigitShape(std::int32_t n, std::int32_t block, std::int32_t digit_bits)
      : D(digit_bits), R(1 << digit_bits), T(std::max(block, R)), ept(T / block), W(1), nb(0), C(0),
        passes((32 + digit_bits - 1) / digit_bits) {
    while (W < n) W <<= 1;
    W = std::max(W, T);
    nb = W / T;
    C = R * nb;
  }
};

// Rows: keys A (main), keys B, [values A, values B], sortable key, digit bits, digit, counts, offsets,
// destination.
struct DigitRows {
  int keys_b = kStdRows, values_a = -1, values_b = -1, sortable, bits, digit, counts, offsets, dest;
  explicit DigitRows(bool kv) {
    int r = kStdRows + 1;
    if (kv) {
      values_a = r++;
      values_b = r++;
    }
    sortable = r++;
    bits = r++;
    digit = r++;
    counts = r++;
    offsets = r++;
    dest = r++;
  }
};

// The digit written in binary with decimal digits (6 = 0b110 -> 110): the Bits row shows the 0/1s.
PRIMLAB_HD inline std::uint32_t binary_digits(std::uint32_t d) {
  std::uint32_t r = 0, p = 1;
  for (; d; d >>= 1, p *= 10) r += (d & 1u) * p;
  return r;
}

}  // namespace primlab::radix
