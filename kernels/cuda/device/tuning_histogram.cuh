// Tuning of the histograms (one struct, fed to __launch_bounds__).
#pragma once

namespace primlab::detail {

struct HistogramTuning {
  // Up to kLaneBins bins: 32 lane-private copies per block, laid out [bin][lane], so that a
  // warp's shared atomics always hit 32 distinct banks (32 KB at 256 bins). Up to
  // kBlockBins bins: one shared histogram per block. Beyond: global atomics.
  static constexpr int kLaneBins = 256;
  static constexpr int kBlockBins = 12288;
  // 512 threads x 3 blocks per SM (96 KB of lane histograms), 2 16-byte vectors in flight per
  // thread. Starting point; H200 figures in bench/NOTES-part1.md.
  static constexpr int kThreads = 512;
  static constexpr int kBlocksPerSm = 3;
  static constexpr int kUnroll = 2;
};

}  // namespace primlab::detail
