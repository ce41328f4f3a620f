// Rows of seed 001's naive shared-memory scan, and the host's scan of the block sums, shared by
// the CPU reference and the CUDA stepper.
#pragma once
#include <cstdint>

#include "lab/model/trace.h"

namespace primlab::steppers::naive_shared {

// temp[0..B) and temp[B..2B) of block b are two rows, slot tid at b * B + tid (under element
// b * B + tid, the thread's own).
enum Rows { kInput = kStdRows, kHalf0, kHalf1, kSums, kScanned };

// The seed's host loop: scanned[b] = sums[0] + ... + sums[b-1] (the GPU's add for floats).
void scan_sums_on_host(const std::uint32_t* sums, std::uint32_t* scanned, std::int32_t blocks, ElemType type);

}  // namespace primlab::steppers::naive_shared
