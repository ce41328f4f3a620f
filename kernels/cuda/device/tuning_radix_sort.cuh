// Tuning of the Onesweep radix sort (and of radix partition, which runs its passes).
// Each number says where it comes from; "first guess" ones are revisited in bench/NOTES-part2.md.
#pragma once

namespace primlab::detail {

struct RadixSortTuning {
  // Digit pass shape by (key bytes, value bytes): threads, keys per thread, blocks per SM.
  // u32 keys: 256 threads x 24 keys, 3 blocks per SM (<= 85 registers), peer masks by
  // atomicOr. Measured on the H200, 2^28 u32 keys, whole sort (ms), scratch driver, CUB 6.32 in
  // the same run: atomicOr 256x20 6.35, 256x22 6.04, 256x24 5.80, 256x32 b2 6.00, 256x24 b2
  // 6.87, 256x16 b4 6.46, 384x16 b2 6.86, 384x20 b2 6.21, 384x24 b2 5.78, 512x16 b2 6.19;
  // 8 ballots (v5) 256x20 7.10, 384x20 7.42. Before the atomicOr match (v4): 384x20 7.31,
  // 384x16 7.88, 256x16 7.40, 512x16 7.14, 256x20 7.10-7.15, 256x24 7.56.
  // u32 + u32 pairs (session 2, early counts, CUB SortPairs 7.47 ms in the same run): 256x16 b3
  // 9.22, 256x18 b3 8.76, 256x20 b3 8.32, 256x24 b2 8.68, 384x20 b2 7.91, 384x23 b2 7.50.
  // u64 keys (same run, CUB 16.48 ms): 256x12 b3 19.09, 256x14 b3 17.39, 256x16 b3 16.27,
  // 256x20 b2 17.42, 384x16 b2 16.04. The other pairings are not measured: they keep the
  // 256-thread shapes that fit 3 blocks per SM.
  struct PassShape {
    int threads, items, min_blocks;
  };
  static constexpr PassShape pass_shape(int key_bytes, int value_bytes) {
    if (key_bytes == 4 && value_bytes == 0) return {256, 24, 3};
    if (key_bytes == 4 && value_bytes == 4) return {384, 23, 2};
    if (key_bytes == 8 && value_bytes == 0) return {384, 16, 2};
    return {256, key_bytes == 4 ? 14 : 12, 3};
  }
  // Peer matching in the ranking: 0 = 8 ballots per key (v1-v5), 1 = lane bits ORed into
  // shared-memory words (onesweep::kMatchAtomicOr; see bench/NOTES-part2.md, version 7),
  // 2 = as 1 with early counts (onesweep::kMatchEarlyCounts; NOTES-part2.md, version 8).
  static constexpr int kPassMatch = 2;
  // Upfront histogram: 512 threads x 4 16-byte loads per chunk, grid-stride over 3 blocks per
  // SM. Reading 2^28 u32 keys at the copy rate takes 0.25 ms; v1 (run-length aggregation,
  // 16 scalar keys) took 0.92 ms, instruction-bound. 16 vector loads took 92 registers (one
  // block per SM); 4 keep it near 40.
  static constexpr int kHistThreads = 512;
  static constexpr int kHistItems = 4;
  static constexpr int kHistBlocksPerSm = 3;
};

}  // namespace primlab::detail
