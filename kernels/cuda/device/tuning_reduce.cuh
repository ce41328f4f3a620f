// Tuning of the device-wide reduction (one struct, fed to __launch_bounds__).
#pragma once

namespace primlab::detail {

template <class T>
struct ReduceTuning {
  // Large n: two launches. Pass 1 is a grid-stride loop of 16-byte loads, kUnroll independent
  // vectors in flight per thread, kBlocksPerSm blocks per SM; pass 2 folds the partials.
  // Starting point (CUB SM90 reduce: 256 x 16 items); H200 figures in bench/NOTES-part1.md.
  static constexpr int kThreads = 256;
  static constexpr int kUnroll = 4;
  static constexpr int kBlocksPerSm = 4;
  static constexpr int kMaxGrid = 2048;
  // Small n: one launch of a cluster of kClusterBlocks blocks that fold their partials through
  // distributed shared memory (no second launch, no atomics). 2^16 u32 = 256 KB: 8 SMs with
  // 16 KB each in flight cover it in about two DRAM round trips.
  static constexpr int kClusterBlocks = 8;
  static constexpr int kClusterThreads = 512;
  static constexpr long long kClusterMaxItems = 1 << 20;
  static constexpr int kVec = 16 / int(sizeof(T));
};

}  // namespace primlab::detail
