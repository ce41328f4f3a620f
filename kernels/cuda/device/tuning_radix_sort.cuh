// Tuning of the Onesweep radix sort (and of radix partition, which runs its passes).
// Each number says where it comes from; "first guess" ones are revisited in bench/NOTES-part2.md.
#pragma once

namespace primlab::detail {

struct RadixSortTuning {
  // Digit pass: threads per block. 384 = 12 warps, CUB 3.0.1's SM90 Onesweep policy
  // (42.4 GKeys/s for 2^28 u32 keys on the H200); first guess for primlab.
  static constexpr int kPassThreads = 384;
  // Blocks per SM the register budget must allow (<= 85 registers at 384 threads): without it
  // ptxas took 100 registers for u32 keys, one block per SM.
  static constexpr int kPassMinBlocksPerSm = 2;
  // Keys per thread per tile by (key bytes, value bytes); a tile of 384 x 20 = 7680 u32 keys
  // is CUB's SM90 choice for u32 keys (20) and 32-bit pairs (23 there; 20 here keeps the
  // register count under 80 so that 5 blocks fit an SM). First guess.
  static constexpr int items(int key_bytes, int value_bytes) {
    return key_bytes == 4 ? (value_bytes == 0 ? 20 : value_bytes == 4 ? 18 : 14)
                          : (value_bytes == 0 ? 14 : value_bytes == 4 ? 12 : 12);
  }
  // Upfront histogram: 512 threads x 4 16-byte loads per chunk, grid-stride over 3 blocks per
  // SM. Reading 2^28 u32 keys at the copy rate takes 0.25 ms; v1 (run-length aggregation,
  // 16 scalar keys) took 0.92 ms, instruction-bound. 16 vector loads took 92 registers (one
  // block per SM); 4 keep it near 40.
  static constexpr int kHistThreads = 512;
  static constexpr int kHistItems = 4;
  static constexpr int kHistBlocksPerSm = 3;
};

}  // namespace primlab::detail
