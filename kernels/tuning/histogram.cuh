// Tuning of the histograms (one struct, fed to __launch_bounds__).
// Figures: H200, CUDA 13.0, 2^28 random samples, 256 bins over the full range,
// bench/tune/tune_reduce_scan and bench (median of 15+; CUB HistogramEven u8 0.130 ms, u32 1.366 ms);
// the sweeps in bench/NOTES-reduce-scan.md.
#pragma once

namespace primlab::detail {

struct HistogramTuning {
  // Up to kLaneBins bins: 32 lane-private copies per block, laid out [bin][lane], so that a
  // warp's shared atomics always hit 32 distinct banks (32 KB at 256 bins); u8 0.068 ms vs CUB 0.130.
  static constexpr int kLaneBins = 256;
  // Up to kBlockBins bins one shared histogram per block (48 KB), beyond it global atomics: not swept.
  static constexpr int kBlockBins = 12288;
  // General samples, 512 threads x 3 blocks per SM x 2 vectors in flight: u32 0.273 ms (93 % of copy).
  static constexpr int kThreads = 512;
  static constexpr int kBlocksPerSm = 3;
  static constexpr int kUnroll = 2;
  // Byte samples, general bins: a shared 256-entry bin table 0.155 ms vs bin arithmetic 0.242.
  static constexpr bool kByteTable = true;
  // Byte samples whose bin is the byte: no table, 1024 x 2 blocks x 4 vectors 0.068-0.070 ms vs
  // 512x3x2 0.071, 768x2x2 0.070, 256x6x4 0.078.
  struct Identity {
    static constexpr int kThreads = 1024;
    static constexpr int kBlocksPerSm = 2;
    static constexpr int kUnroll = 4;
    static constexpr bool kByteTable = false;
  };
};

}  // namespace primlab::detail
