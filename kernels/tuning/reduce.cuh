// Tuning of the device-wide reduction (one struct, fed to __launch_bounds__). Large n: a
// grid-stride pass of 16-byte loads (kUnroll vectors in flight per thread) and one small pass over
// the partials. Small n: one launch of a cluster that folds its partials through distributed
// shared memory. Figures: H200, u32 sum, bench (bench/NOTES-reduce-scan.md).
#pragma once

namespace primlab::detail {

template <class T>
struct ReduceTuning {
  // Two passes, CUB SM90's 256 x 16 items as the start: 2^28 in 0.2434 ms vs CUB 0.2456 (copy rate).
  static constexpr int kThreads = 256;
  static constexpr int kUnroll = 4;       // 4 vectors = 16 u32 per thread and step, as kThreads
  static constexpr int kBlocksPerSm = 4;  // as kThreads
  static constexpr int kMaxGrid = 2048;   // as kThreads: at most 2048 partials for the second pass
  // One cluster of 8 x 512 threads: 2^16 in 5.5 us vs CUB 9.3 (8 SMs with 16 KB each in flight).
  static constexpr int kClusterBlocks = 8;
  static constexpr int kClusterThreads = 512;
  // Cluster up to 2^18: at 2^20 it took 12.9 us vs CUB 8.9, two passes about the same as CUB.
  static constexpr long long kClusterMaxItems = 1 << 18;
  static constexpr int kVec = 16 / int(sizeof(T));
};

}  // namespace primlab::detail
