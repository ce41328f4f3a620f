// Tuning of the Onesweep radix sort (and of radix partition, which runs its passes).
// Each number says where it comes from; "first guess" ones are revisited in bench/NOTES-part2.md.
#pragma once

namespace primlab::detail {

struct RadixSortTuning {
  // Digit pass: 256 threads x 24 keys, 3 blocks per SM (<= 85 registers), peer masks by
  // atomicOr (kPassMatch = 1). Measured on the H200, 2^28 u32 keys, whole sort (ms), scratch
  // driver, CUB 6.32 in the same run: atomicOr 256x20 6.35, 256x22 6.04, 256x24 5.80, 256x32 b2
  // 6.00, 256x24 b2 6.87, 256x16 b4 6.46, 384x16 b2 6.86, 384x20 b2 6.21, 384x24 b2 5.78,
  // 512x16 b2 6.19; 8 ballots (v5) 256x20 7.10, 384x20 7.42. Before the atomicOr match (v4):
  // 384x20 7.31, 384x16 7.88, 256x16 7.40, 512x16 7.14, 256x20 7.10-7.15, 256x24 7.56.
  static constexpr int kPassThreads = 256;
  static constexpr int kPassMinBlocksPerSm = 3;
  // Peer matching in the ranking: 0 = 8 ballots per key (v1-v5), 1 = lane bits ORed into
  // shared-memory words (onesweep::kMatchAtomicOr; see bench/NOTES-part2.md, version 7),
  // 2 = as 1 with early counts (onesweep::kMatchEarlyCounts; NOTES-part2.md, version 8).
  static constexpr int kPassMatch = 2;
  // Keys per thread per tile by (key bytes, value bytes); 24 for u32 keys as measured above;
  // the others keep the register count under the 3-block cap. Not measured separately.
  static constexpr int items(int key_bytes, int value_bytes) {
    return key_bytes == 4 ? (value_bytes == 0 ? 24 : value_bytes == 4 ? 16 : 14)
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
