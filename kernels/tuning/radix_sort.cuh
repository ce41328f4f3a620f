// Tuning of the Onesweep radix sort (and of radix partition, which runs its passes). Each
// number carries one line of its measurement; the sweeps and their history are in
// bench/NOTES-sort.md, and bench/tune/tune_radix_sort.cu re-measures the pass shapes.
#pragma once
#include <cstdint>

namespace primlab::detail {

struct RadixSortTuning {
  // Digit pass shape by (key bytes, value bytes): threads, keys per thread, blocks per SM, and the
  // look-back window (predecessors whose words a digit's thread reads per round trip; 1 walks one
  // at a time). Whole sorts of 2^28 keys on the H200, ms, CUB in the same run (bench/NOTES-sort.md);
  // windows on the H100 (bench/tune/tune_radix_sort 28, same process):
  struct PassShape {
    int threads, items, min_blocks, window;
    constexpr bool operator==(const PassShape& o) const {
      return threads == o.threads && items == o.items && min_blocks == o.min_blocks && window == o.window;
    }
  };
  static constexpr PassShape pass_shape(int key_bytes, int value_bytes) {
    // u32 keys: 512x28 b2 5.15 vs 512x26 b2 5.17, 384x32 b2 5.21, 256x28 b3 5.45 (CUB 5.43).
    // Window 4: 5.179 vs w1 5.335, w8 5.206, w16 5.257 (H100).
    if (key_bytes == 4 && value_bytes == 0) return {512, 28, 2, 4};
    // u32 pairs: 384x24 b2 7.37 vs 512x18 b2 7.41, 384x23 b2 7.48; 384x25 spills (CUB 8.50).
    // Window 1: 9.29 vs w8 9.70 (H100).
    if (key_bytes == 4 && value_bytes == 4) return {384, 24, 2, 1};
    // u64 keys: 384x16 b2 16.04 vs 256x16 b3 16.27 (CUB 16.48); window 8: 16.37 vs w1 16.90 (H100).
    if (key_bytes == 8 && value_bytes == 0) return {384, 16, 2, 8};
    // u64 pairs: 384x16 b2 23.42 vs 384x14 b2 24.38 (CUB 24.84); window 1: 31.53 vs w8 32.36 (H100).
    if (key_bytes == 8 && value_bytes == 8) return {384, 16, 2, 1};
    // Mixed 4/8-byte keys and values: not measured; 256-thread tiles that fit 3 blocks per SM.
    return {256, key_bytes == 4 ? 14 : 12, 3, 1};
  }
  // Sorts whose tuned-shape tiles would not fill one wave (fewer than SMs x blocks per SM) use
  // smaller tiles for more blocks. u32 keys 2^16: 256x24 b3 0.035 ms vs 512x28 0.047 (CUB 0.052).
  // Window 8 (every tile starts at once, so the walk back is long): 2^20 0.0590 ms vs w1 0.0662 (H100).
  static constexpr PassShape small_pass_shape(int key_bytes, int value_bytes) {
    return key_bytes == 4 && value_bytes == 0 ? PassShape{256, 24, 3, 8} : pass_shape(key_bytes, value_bytes);
  }
  // Sorts of at most kTinyMaxKeys u32 keys or u32 pairs (and more than kMicroMaxKeys): 256x12 b4,
  // latency-bound passes that gain from more, shorter tiles. Whole sorts on the H200, ms
  // (bench/tune/tune_radix_sort 16|18|20):
  //   keys  2^16: 256x12 b4 0.033 vs 256x24 b3 0.038, 256x16 0.035, 256x8 b6 0.032
  //         2^18: 0.040 vs 0.043, 256x8 b6 0.044;  2^20: 0.067 vs 0.062 (so 2^18 is the limit)
  //   pairs 2^16: 0.037 vs 384x24 b2 0.048;  2^18: 0.044 vs 0.054;  2^20: 0.081 vs 0.065
  // Window 8, H100: keys 2^16 0.0350-0.0362 vs w1 0.0383-0.0387, w4 0.0364-0.0370, w16 0.0378;
  //   2^18 0.0417 vs w1 0.0477, w4 0.0403; pairs 2^16 0.0390-0.0403 vs 0.0410-0.0417, 2^18 0.0447 vs 0.0498.
  static constexpr std::int64_t kTinyMaxKeys = std::int64_t(1) << 18;
  static constexpr PassShape tiny_pass_shape(int key_bytes, int value_bytes) {
    return key_bytes == 4 && (value_bytes == 0 || value_bytes == 4) ? PassShape{256, 12, 4, 8}
                                                                     : small_pass_shape(key_bytes, value_bytes);
  }
  // Sorts of at most kMicroMaxKeys u32 keys or u32 pairs: 256x8 b6 (40 registers; where the first
  // pass counts every pass's digits, 2^16 keys are its 32 tiles). Whole sorts on the H200, us, two
  // runs of two rounds (bench/tune/tune_radix_sort 12..18), against the tiny shape 256x12 b4:
  //   keys  2^12: 21.2-26.1 vs 24.3-24.4;  2^16: 28.1-28.8 vs 29.3-30.7;  2^17: 31.7-33.1 vs 33.5-33.9;
  //         2^18: 37.2-38.1 vs 36.1-37.4 (so 2^17 is the limit);  256x8 b4 (64 registers) w8 2^16: 29.2-30.4
  //   pairs 2^16: 30.4-31.4 vs 32.4-33.4;  2^17: 34.5-36.1 vs 36.2-37.3;  2^18: 39.9-40.8 vs 39.7-40.8
  static constexpr std::int64_t kMicroMaxKeys = std::int64_t(1) << 17;
  static constexpr PassShape micro_pass_shape(int key_bytes, int value_bytes) {
    return key_bytes == 4 && (value_bytes == 0 || value_bytes == 4) ? PassShape{256, 8, 6, 8}
                                                                     : tiny_pass_shape(key_bytes, value_bytes);
  }
  // A sort of at most one wave of tiles that fits one cooperative launch has no histogram kernel
  // where its first pass counting every pass's digits measured faster: each tile then sums the
  // counts of all tiles before it and the later passes' counts, so the gain shrinks with the tiles
  // and the passes. H200, whole calls against the histogram kernel's (bench, two rounds alternated):
  //   one pass (radix partition): u32 2^10-2^19 (1-86 tiles) -20 to -4 %, 2^20 (171 tiles) +7 %;
  //   4 passes: u32 keys 2^10-2^16 (1-22 tiles) -12 to -1 %, 2^17 (43 tiles) +2 %; pairs -3 to +2 %;
  //   8 passes (u64 keys): +2 to +5 % at every size.
  static constexpr bool first_pass_counts_all(int passes, std::int64_t tiles) {
    return passes == 1 ? tiles <= 96 : passes <= 4 && tiles <= 32;
  }
  // A warp whose first keys hold at most this many distinct digits ranks them with
  // __match_any_sync instead of per-lane shared atomics on the same few words (block_radix_rank.cuh).
  // H100, tune_radix_sort 28 floats (the bits of floats in [0, 1), alternated, twice): f32 keys
  // 5.192/5.183 ms vs off 5.567/5.568 (8: 5.193/5.183), f32 pairs 8.551/8.549 vs 8.728/8.734;
  // uniform u32 keys 5.257/5.262 vs off 5.259/5.257.
  static constexpr int kFewDigits = 4;
  // A pass whose caller knows its digit counts is given the digit that a quarter of its keys or
  // more hold (the largest such; -1: none), which it ranks by ballot (block_radix_rank.cuh). In
  // every pass, the ballots cost 5 % at 2^28 u32 keys in register spills (5.42 against 5.18 ms,
  // H200); the top pass of skewed keys (70 % in one digit) they spare 0.27 ms.
  static int hot_digit(const std::int64_t* counts, std::int64_t n) {
    int hot = -1;
    for (int d = 0; n > 0 && d < 256; ++d)
      if (counts[d] * 4 >= n) hot = d;
    return hot;
  }
  // Upfront histogram: 512 threads x 4 16-byte loads per chunk, grid-stride over 3 blocks per SM.
  // 2^28 u32 keys in ~0.25 ms, the copy rate; 16 loads took 92 registers (1 block per SM), 4 ~40.
  static constexpr int kHistThreads = 512;
  static constexpr int kHistItems = 4;
  static constexpr int kHistBlocksPerSm = 3;
};

}  // namespace primlab::detail
