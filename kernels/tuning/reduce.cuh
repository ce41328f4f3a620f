// Tuning of the device-wide reduction (one struct, fed to __launch_bounds__).
#pragma once

namespace primlab::detail {

template <class T>
struct ReduceTuning {
  // Large n: two launches. Pass 1 is a grid-stride loop of 16-byte loads, kUnroll independent
  // vectors in flight per thread, kBlocksPerSm blocks per SM; pass 2 folds the partials.
  // Starting point (CUB SM90 reduce: 256 x 16 items); H200 figures in bench/NOTES-reduce-scan.md.
  static constexpr int kThreads = 256;
  static constexpr int kUnroll = 4;
  static constexpr int kBlocksPerSm = 4;
  static constexpr int kMaxGrid = 2048;
  // Small n: one launch of a cluster of kClusterBlocks blocks that fold their partials through
  // distributed shared memory (no second launch, no atomics). 2^16 u32 = 256 KB: 8 SMs with
  // 16 KB each in flight cover it in about two DRAM round trips.
  static constexpr int kClusterBlocks = 8;
  static constexpr int kClusterThreads = 512;
  // H200 u32 sum: cluster 5.5 us at 2^16 (CUB 9.3 us) but 12.9 us at 2^20 (CUB 8.9 us, two
  // passes about the same): the crossover is near 2^18.
  static constexpr long long kClusterMaxItems = 1 << 18;
  static constexpr int kVec = 16 / int(sizeof(T));
};

}  // namespace primlab::detail
