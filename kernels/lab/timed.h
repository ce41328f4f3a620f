// The seeds' teaching variants at large n, timed beside the fast path by the bench and the
// performance tab. They follow the fast library's conventions (primlab/ops.h): a size query,
// a caller-owned workspace, int64 counts, the stream last, a Status back; each also takes the
// block size (and items per thread where the variant has them). They are correct on every
// input but are meant to show how far each idea goes, not to be fast.
// Types: int32, uint32, float (scan and reduce: sum); histograms: uint8 and uint32 samples.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/histogram.h"
#include "primlab/status.h"

namespace primlab::teaching {

// [SECTION] Scans (exclusive sum). block: threads per block, a power of two in [32, 1024].

// Hillis-Steele: ping-pong between d_out and the workspace, one launch per offset 1, 2, 4, ...
// (O(n log n) work).
template <class T> std::size_t scan_naive_workspace_bytes(std::int64_t n);
template <class T>
Status scan_naive(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws,
                  cudaStream_t stream);

// Blelloch work-efficient scan in global memory: one launch per up-sweep and per down-sweep
// level over a power-of-two padded copy in the workspace (O(n) work, 2 log n launches).
template <class T> std::size_t scan_blelloch_workspace_bytes(std::int64_t n);
template <class T>
Status scan_blelloch(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws,
                     cudaStream_t stream);

// Shared-memory Blelloch scan of 2 * block elements per block with GPU Gems 3 bank-conflict
// offsets (the lecture's scan3), block sums scanned recursively and added back
// (scanDistribute).
template <class T> std::size_t scan_shared_workspace_bytes(std::int64_t n, int block);
template <class T>
Status scan_shared(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws,
                   cudaStream_t stream);

// [SECTION] Reductions (sum), the lecture's sequence:
//   1 interleaved addressing with a divergent branch (tid % (2s) == 0)
//   2 interleaved addressing, strided index (bank conflicts, no divergence)
//   3 sequential addressing
//   4 first add during the global load (two elements per thread)
//   5 unrolled last warp
//   6 warp-shuffle reduce with a grid-stride load (items per thread = elements each thread
//     adds before the block reduction)
// Each launch reduces to one partial per block; launches repeat until one value is left.
constexpr int kReduceLectureVariants = 6;
template <class T> std::size_t reduce_lecture_workspace_bytes(std::int64_t n, int block);
template <class T>
Status reduce_lecture(int variant, const T* d_in, T* d_out, std::int64_t n, int block,
                      int items_per_thread, Workspace ws, cudaStream_t stream);

// [SECTION] Histograms with even bins (same bin rule as primlab::histogram_even).
// Global: one global atomicAdd per sample. Shared: a per-block shared histogram, merged with
// global atomics (num_bins <= 8192).
template <class T>
Status histogram_global_atomic(const T* d_samples, std::uint32_t* d_histogram, int num_bins,
                               histogram_level_t<T> lower, histogram_level_t<T> upper,
                               std::int64_t n, int block, cudaStream_t stream);
template <class T>
Status histogram_shared_atomic(const T* d_samples, std::uint32_t* d_histogram, int num_bins,
                               histogram_level_t<T> lower, histogram_level_t<T> upper,
                               std::int64_t n, int block, cudaStream_t stream);

// [SECTION] Sorts declare their teaching variants in lab/timed_sort.h.

}  // namespace primlab::teaching
