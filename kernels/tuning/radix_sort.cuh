// Tuning of the Onesweep radix sort (and of radix partition, which runs its passes).
// Each number says where it comes from; "first guess" ones are revisited in bench/NOTES-sort.md.
#pragma once

namespace primlab::detail {

struct RadixSortTuning {
  // Digit pass shape by (key bytes, value bytes): threads, keys per thread, blocks per SM.
  // Measured on the H200 with a scratch driver (2^28 keys, whole sort, ms, each result compared
  // with CUB's; CUB in the same run):
  // - v7 (atomicOr match, no early counts; CUB 6.32): 256x20 6.35, 256x22 6.04, 256x24 5.80,
  //   256x32 b2 6.00, 256x24 b2 6.87, 256x16 b4 6.46, 384x16 b2 6.86, 384x20 b2 6.21, 384x24
  //   b2 5.78, 512x16 b2 6.19; 8 ballots (v5) 256x20 7.10, 384x20 7.42.
  // - v8 (early counts), u32 keys (CUB 5.43): 256x24 b3 5.74, 384x24 b2 5.76, 512x20 b2 5.68,
  //   256x28 b3 5.45, 384x28 b2 5.47, 384x32 b2 5.21, 512x24 b2 5.30, 512x26 b2 5.17,
  //   512x28 b2 5.15; one block per SM is slower: 768x20 6.47, 768x24 6.05, 1024x16 6.37,
  //   1024x20 6.05. With early counts the ranking's fixed cost per tile (counter clearing, the
  //   per-digit walk, the look-back) is worth spreading over more keys.
  // - v8, u32 + u32 pairs (CUB SortPairs 8.50): 256x16 b3 9.22, 256x20 b3 8.32, 384x20 b2 7.91,
  //   384x23 b2 7.48, 384x24 b2 7.37, 384x25 b2 7.33 (spills), 512x18 b2 7.41, 768x18 b1 8.52,
  //   1024x14 b1 8.58.
  // - v8, u64 keys (CUB 16.48): 256x12 b3 19.09, 256x14 b3 17.39, 256x16 b3 16.27, 256x20 b2
  //   17.42, 384x16 b2 16.04.
  // - v8, u64 + u64 pairs (CUB 24.84): 256x12 b3 28.31, 256x16 b2 26.71, 384x12 b2 25.57,
  //   384x14 b2 24.38, 512x10 b2 24.81, 384x16 b2 23.42.
  // The mixed pairings (4-byte keys with 8-byte values and the reverse) are not measured: they
  // keep 256-thread shapes that fit 3 blocks per SM.
  struct PassShape {
    int threads, items, min_blocks;
  };
  static constexpr PassShape pass_shape(int key_bytes, int value_bytes) {
    if (key_bytes == 4 && value_bytes == 0) return {512, 28, 2};
    if (key_bytes == 4 && value_bytes == 4) return {384, 24, 2};
    if (key_bytes == 8 && (value_bytes == 0 || value_bytes == 8)) return {384, 16, 2};
    return {256, key_bytes == 4 ? 14 : 12, 3};
  }
  // Sorts whose tuned-shape tiles would not fill one wave (fewer than SMs x blocks per SM) use
  // smaller tiles for more blocks. u32 keys with 512x28 against 256x24 b3 (ms, CUB): 2^16
  // 0.047 against 0.035 (0.052), 2^20 0.061 against 0.059 (0.080).
  static constexpr PassShape small_pass_shape(int key_bytes, int value_bytes) {
    return key_bytes == 4 && value_bytes == 0 ? PassShape{256, 24, 3} : pass_shape(key_bytes, value_bytes);
  }
  // Peer matching in the ranking: 0 = 8 ballots per key (v1-v5), 1 = lane bits ORed into
  // shared-memory words (onesweep::kMatchAtomicOr; see bench/NOTES-sort.md, version 7),
  // 2 = as 1 with early counts (onesweep::kMatchEarlyCounts; NOTES-sort.md, version 8).
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
