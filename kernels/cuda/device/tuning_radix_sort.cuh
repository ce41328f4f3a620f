// Tuning of the Onesweep radix sort (and of radix partition, which runs its passes).
// Each number says where it comes from; "first guess" ones are revisited in bench/NOTES-part2.md.
#pragma once

namespace primlab::detail {

struct RadixSortTuning {
  // Digit pass: 256 threads x 20 keys, 3 blocks per SM (<= 85 registers). Measured on the H200,
  // 2^28 u32 keys, whole sort (ms): 384x20 (CUB's SM90 shape) 7.31, 384x16 7.88, 256x16 7.40,
  // 512x16 7.14, 256x20 7.10-7.15, 256x24 7.56, 256x32 7.03 (24 B of spills), 512x20 9.73,
  // 384x28 9.19. The pass is instruction-bound (ncu, 384x20: 75 % SM throughput, 27 % DRAM),
  // so shapes move it by a few per cent only.
  static constexpr int kPassThreads = 256;
  static constexpr int kPassMinBlocksPerSm = 3;
  // Keys per thread per tile by (key bytes, value bytes); 20 for u32 keys as measured above;
  // the others keep the register count under the 3-block cap. Not measured separately.
  static constexpr int items(int key_bytes, int value_bytes) {
    return key_bytes == 4 ? (value_bytes == 0 ? 20 : value_bytes == 4 ? 16 : 14)
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
