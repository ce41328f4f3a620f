// Tuning of the bitonic sorts.
#pragma once

namespace primlab::detail {

struct BitonicSortTuning {
  // One array: tiles of 16 elements per thread in registers (bitonic::rt): strides 1 .. 256
  // inside a warp (registers, then shuffles), the larger ones inside a thread, shared memory
  // only between the two layouts. H200, 2^20 u32, ours / CUB merge sort (us): v2 (shared-memory
  // steps, 512 x 8) 143.5 / 98.9; v3 (registers and shuffles, 256 x 16) 131.8 / 97.9; v3 with
  // min/max in the shuffle steps instead of compare-and-select 106.2 / 97.2; chained with
  // programmatic dependent launch 98.8 / 98.0. ncu (L2 warm), v3: tile sort 14.4, tile merge
  // 6.0, global pass 3.3 (v2: 28.5, 9.2, 4.1 cold).
  // log2 of the threads per tile: 512 threads (8192-element tiles, one global pass fewer per
  // stage) where 4-byte keys alone keep the registers under 128 (86); else 256 (up to 182
  // registers for 8-byte pairs). 2^20 u32 (us, same run): 512 threads 89.2, 256 threads 93.3,
  // CUB 97.4.
  static constexpr int array_log_threads(int key_bytes, int value_bytes) {
    return key_bytes + value_bytes <= 4 ? 9 : 8;
  }
  // Global passes: 256 threads, each fusing 4 strides (16 elements): 2^20 takes 12 global
  // passes instead of v1's 15 with 3 strides.
  static constexpr int kGlobalThreads = 256;
  static constexpr int kGlobalFuse = 4;
  // Batched segments: shared-memory steps, 8 elements per thread, at most 512 threads (a
  // 4096-element segment). v2 tried 16 (with an 8192 tile): 2^18 segments of 1024 u32 went
  // from 3.94 ms (5.14 x CUB) to 4.23 ms (4.77 x), and one 2^16 array from 52 to 75 us.
  static constexpr int kSegmentItems = 8;
  static constexpr int kSegmentMaxThreads = 512;
  // A block holds at least 1024 elements (several short segments).
  static constexpr int kSegmentMinTile = 1024;
};

}  // namespace primlab::detail
