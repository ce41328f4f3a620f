// The lecture's first histogram, the kernel and the host code that launches it, written once: one
// global atomicAdd per sample. The timed form runs it with NoProbe and histogram_even's bins
// (DivBinner), the stepped form with the lab's recording probe and bin = x mod bins (ModBinner);
// the Step tab lists this file.
#pragma once
#include <cstdint>

#include "lab/algorithms/histogram/bins_and_rows.h"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: histogram-atomic
// A grid-stride loop: thread i adds 1 to the bin of samples i, i + T, i + 2T, ... (T threads).
template <class T, class Binner, class Probe>
__global__ void global_atomic_kernel(const T* __restrict__ in, std::int64_t n, std::uint32_t* hist,
                                     Binner binner, Probe probe) {
  probe.branch(std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x < n);  // the loop's first test
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const int b = binner(in[i]);
    probe.count(kGlobalRead, sizeof(T));
    probe.value(kHistBin, std::int32_t(i), b);
    probe.match(kHistSame, std::int32_t(i), b);
    if (b >= 0) {
      atomicAdd(&hist[b], 1u);  // step: count
      probe.op(int(i / (std::int64_t(gridDim.x) * blockDim.x)), OpKind::Atomic, kHistIn, std::int32_t(i), kHist, b);
      probe.count(kAtomics, 1);
    }
    probe.branch(i + std::int64_t(gridDim.x) * blockDim.x < n);  // the next test, by the lanes still looping
  }
}
// listing: end

// Counts n samples of d_in into d_hist[0, bins) (cleared first) with any block of 1 to 1024 threads,
// at most max_blocks blocks (the timed form: kTimedMaxBlocks).
template <class T, class Binner, class Probe = NoProbe>
Status histogram_global_atomic(const T* d_in, std::int64_t n, std::uint32_t* d_hist, int bins, Binner binner,
                               int block, int max_blocks, cudaStream_t stream, Probe probe = {}) {
  if (n < 0 || !d_hist || (n > 0 && !d_in) || block < 1 || block > 1024 || bins < 1 || bins > 65536 ||
      max_blocks < 1)
    return Status::InvalidArgument;
  // listing: histogram-atomic
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_hist, 0, std::size_t(bins) * sizeof(std::uint32_t), stream));
  if (n == 0) return Status::Success;
  const std::int64_t grid = std::min<std::int64_t>((n + block - 1) / block, max_blocks);
  probe.launch(stream);
  global_atomic_kernel<<<unsigned(grid), block, 0, stream>>>(d_in, n, d_hist, binner, probe);
  PRIMLAB_LAUNCH_TRY();
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
