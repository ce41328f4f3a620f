// The lecture's second histogram, the kernel and the host code that launches it, written once: each
// block counts into its own histogram in shared memory with atomicAdd, then adds it to the global
// bins, one global atomic per nonzero bin and block. The timed form runs it with NoProbe and
// histogram_even's bins (DivBinner), the stepped form with the lab's recording probe and
// bin = x mod bins (ModBinner); the Step tab lists this file.
#pragma once
#include <cstdint>

#include "lab/algorithms/histogram/bins_and_rows.h"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: histogram-shared
template <class T, class Binner, class Probe>
__global__ void shared_atomic_kernel(const T* __restrict__ in, std::int64_t n, std::uint32_t* hist,
                                     int bins, Binner binner, Probe probe) {
  extern __shared__ std::uint32_t s_hist[];
  probe.on_chip(kSharedBlockHist, s_hist, std::int32_t(blockIdx.x) * bins, bins);
  probe.branch(int(threadIdx.x) < bins);  // the loop's first test
  for (int i = threadIdx.x; i < bins; i += blockDim.x) {
    s_hist[i] = 0;  // step: clear
    probe.op(i / int(blockDim.x), OpKind::Write, kSharedBlockHist, -1, kSharedBlockHist,
             std::int32_t(blockIdx.x) * bins + i);
    probe.shared_access(i);
    probe.branch(i + int(blockDim.x) < bins);  // the next test, by the lanes still looping
  }
  __syncthreads();
  probe.barrier();
  probe.branch(std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x < n);
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const int b = binner(in[i]);
    probe.count(kGlobalRead, sizeof(T));
    probe.value(kHistBin, std::int32_t(i), b);
    probe.match(kHistSame, std::int32_t(i), b);
    probe.shared_access(b);
    if (b >= 0) {
      atomicAdd(&s_hist[b], 1u);  // step: count
      probe.op(int(i / (std::int64_t(gridDim.x) * blockDim.x)), OpKind::Atomic, kHistIn, std::int32_t(i),
               kSharedBlockHist, std::int32_t(blockIdx.x) * bins + b);
      probe.count(kAtomics, 1);
    }
    probe.branch(i + std::int64_t(gridDim.x) * blockDim.x < n);
  }
  __syncthreads();
  probe.barrier();
  probe.branch(int(threadIdx.x) < bins);
  for (int i = threadIdx.x; i < bins; i += blockDim.x) {
    probe.shared_access(i);
    probe.branch(s_hist[i] != 0);
    if (s_hist[i]) {
      atomicAdd(&hist[i], s_hist[i]);  // step: merge
      probe.op(i / int(blockDim.x), OpKind::Atomic, kSharedBlockHist, std::int32_t(blockIdx.x) * bins + i, kHist, i);
      probe.count(kAtomics, 1);
    }
    probe.branch(i + int(blockDim.x) < bins);
  }
}
// listing: end

// Counts n samples of d_in into d_hist[0, bins) (cleared first), bins <= 8192 (a block's shared
// histogram), with any block of 1 to 1024 threads, at most max_blocks blocks (the timed form:
// kTimedMaxBlocks).
template <class T, class Binner, class Probe = NoProbe>
Status histogram_shared_atomic(const T* d_in, std::int64_t n, std::uint32_t* d_hist, int bins, Binner binner,
                               int block, int max_blocks, cudaStream_t stream, Probe probe = {}) {
  if (n < 0 || !d_hist || (n > 0 && !d_in) || block < 1 || block > 1024 || bins < 1 || bins > 8192 ||
      max_blocks < 1)
    return Status::InvalidArgument;
  // listing: histogram-shared
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_hist, 0, std::size_t(bins) * sizeof(std::uint32_t), stream));
  if (n == 0) return Status::Success;
  const std::int64_t grid = std::min<std::int64_t>((n + block - 1) / block, max_blocks);
  const std::size_t smem = std::size_t(bins) * sizeof(std::uint32_t);
  probe.launch(stream);
  shared_atomic_kernel<<<unsigned(grid), block, smem, stream>>>(d_in, n, d_hist, bins, binner, probe);
  PRIMLAB_LAUNCH_TRY();
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
