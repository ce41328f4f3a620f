// Tuning of the histograms (one struct, fed to __launch_bounds__).
// Measurements: H200, CUDA 13.0, 2^28 random samples, 256 bins over the full range,
// bench/tune/tune_reduce_scan and bench (median of 15+). CUB HistogramEven: u8 0.130 ms, u32 1.366 ms.
#pragma once

namespace primlab::detail {

struct HistogramTuning {
  // Up to kLaneBins bins: 32 lane-private copies per block, laid out [bin][lane], so that a
  // warp's shared atomics always hit 32 distinct banks (32 KB at 256 bins). Up to
  // kBlockBins bins: one shared histogram per block. Beyond: global atomics.
  static constexpr int kLaneBins = 256;
  static constexpr int kBlockBins = 12288;
  // General samples: 512 threads x 3 blocks per SM, 2 vectors in flight per thread.
  // u32 keys, 256 bins over [0, 2^32): 0.273 ms (3.94 TB/s, 93 % of copy).
  static constexpr int kThreads = 512;
  static constexpr int kBlocksPerSm = 3;
  static constexpr int kUnroll = 2;
  // Byte samples with a general bin rule: a 256-entry bin table in shared memory (u8, 512 x 3:
  // 0.155 ms; integer bin arithmetic per sample instead: 0.242 ms).
  static constexpr bool kByteTable = true;
  // Byte samples whose bin is the byte (256 bins over [0, 256)): no table, 1024 threads x 2
  // blocks per SM, 4 vectors in flight: 0.068-0.070 ms (512 x 3 x 2: 0.071; 768 x 2 x 2: 0.070;
  // 256 x 6 x 4: 0.078). 16-bit private counters with plain loads and stores instead of
  // atomics were slower (0.205 ms): the shared atomics are not the limit once conflict-free.
  struct Identity {
    static constexpr int kThreads = 1024;
    static constexpr int kBlocksPerSm = 2;
    static constexpr int kUnroll = 4;
    static constexpr bool kByteTable = false;
  };
};

}  // namespace primlab::detail
