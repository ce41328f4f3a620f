// The lecture's histogram without atomics for fewer than 64 bins (seed 004), the kernels and the
// host code that launches them, written once: each of a block's 64 threads counts into its own 64
// byte counters in shared memory, so that no two threads ever write one counter. The counters lie
// tid*64+data (a thread's counters side by side) or tid+64*data (the threads' counters of one bin
// side by side), and the thread's counters may be those of a permuted tid,
// (x >> 4) | ((x & 0x0F) << 2), so that the four byte counters of one 32-bit word belong to threads
// 16 lanes apart. Each block sums its counters into a partial histogram in global memory, and a
// second kernel sums the partial histograms. The lab steps it with the recording probe.
#pragma once
#include <cstdint>

#include "lab/algorithms/histogram/bins_and_rows.h"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: histogram-per-thread
// Blocks of 64 threads, at most 64 bins; spread: the layout tid+64*data, permute: the permuted tid.
template <class T, class Binner, class Probe>
__global__ void histogram_per_thread_kernel(const T* __restrict__ in, std::int64_t n, std::uint32_t* partial,
                                            int bins, Binner binner, bool spread, bool permute, Probe probe) {
  __shared__ unsigned char s_hist[64 * 64];  // 64 byte counters a thread
  probe.on_chip(kPerThreadCounters, s_hist, std::int32_t(blockIdx.x) * 64 * 64, 64 * 64);
  for (int j = threadIdx.x; j < 64 * 64; j += 64) {
    s_hist[j] = 0;  // step: clear
    probe.op(j / 64, OpKind::Write, kPerThreadCounters, -1, kPerThreadCounters, int(blockIdx.x) * 64 * 64 + j);
    probe.shared_access(j / 4);
  }
  __syncthreads();
  probe.barrier();

  const int tid = permute ? (threadIdx.x >> 4) | ((threadIdx.x & 0x0F) << 2) : threadIdx.x;  // step: count
  probe.branch(std::int64_t(blockIdx.x) * 64 + threadIdx.x < n);  // the loop's first test
  for (std::int64_t i = std::int64_t(blockIdx.x) * 64 + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * 64) {
    const int data = binner(in[i]);  // step: count
    const int pos = spread ? tid + 64 * data : tid * 64 + data;  // step: count
    probe.value(kPerThreadData, std::int32_t(i), data);
    probe.shared_access(pos / 4);  // read
    probe.shared_access(pos / 4);  // write
    s_hist[pos]++;  // step: count
    probe.op(int(i / (std::int64_t(gridDim.x) * 64)), OpKind::Add, kPerThreadIn, std::int32_t(i), kPerThreadCounters,
             int(blockIdx.x) * 64 * 64 + pos);
    probe.count(kAdds, 1);
    probe.count(kGlobalRead, sizeof(T));
    probe.branch(i + std::int64_t(gridDim.x) * 64 < n);  // the next test, by the lanes still looping
  }
  __syncthreads();
  probe.barrier();

  // Thread `bin` sums the 64 threads' counters of its bin.
  probe.branch(int(threadIdx.x) < bins);
  if (threadIdx.x < bins) {
    const int bin = threadIdx.x;
    unsigned sum = 0;
    for (int t = 0; t < 64; ++t) {
      const int pos = spread ? t + 64 * bin : t * 64 + bin;
      probe.shared_access(pos / 4);
      sum += s_hist[pos];  // step: block merge
      probe.op(t, OpKind::Add, kPerThreadCounters, int(blockIdx.x) * 64 * 64 + pos, kPerThreadPartial,
               int(blockIdx.x) * bins + bin);
    }
    partial[blockIdx.x * bins + bin] = sum;  // step: block merge
    probe.count(kAdds, 64);
    probe.count(kGlobalWrite, sizeof(std::uint32_t));
  }
}

// One block of `bins` threads: thread bin sums the blocks' partial histograms of its bin.
template <class Probe>
__global__ void merge_per_thread_partials(const std::uint32_t* partial, int blocks, std::uint32_t* hist, int bins,
                                          Probe probe) {
  const int bin = threadIdx.x;
  std::uint32_t sum = 0;
  for (int b = 0; b < blocks; ++b) {
    sum += partial[b * bins + bin];  // step: merge
    probe.op(b, OpKind::Add, kPerThreadPartial, b * bins + bin, kPerThreadHist, bin);
  }
  hist[bin] = sum;  // step: merge
  probe.count(kAdds, blocks);
  probe.count(kGlobalRead, blocks * sizeof(std::uint32_t));
  probe.count(kGlobalWrite, sizeof(std::uint32_t));
}
// listing: end

// Counts n samples of d_in into d_hist[0, bins), bins <= 64, with blocks of 64 threads, at most
// max_blocks of them, and d_partial[grid * bins] for the blocks' partial histograms. A counter
// holds 255 at most: a thread counts at most 255 samples of one bin.
template <class T, class Binner, class Probe = NoProbe>
Status histogram_per_thread(const T* d_in, std::int64_t n, std::uint32_t* d_partial, std::uint32_t* d_hist, int bins,
                            Binner binner, bool spread, bool permute, int max_blocks, cudaStream_t stream,
                            Probe probe = {}) {
  if (n < 0 || !d_hist || (n > 0 && (!d_in || !d_partial)) || bins < 1 || bins > 64 || max_blocks < 1)
    return Status::InvalidArgument;
  if (n == 0) {
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_hist, 0, std::size_t(bins) * sizeof(std::uint32_t), stream));
    return Status::Success;
  }
  // listing: histogram-per-thread
  const std::int64_t grid = std::min<std::int64_t>((n + 63) / 64, max_blocks);
  probe.launch(stream);
  histogram_per_thread_kernel<<<unsigned(grid), 64, 0, stream>>>(d_in, n, d_partial, bins, binner, spread, permute,
                                                                  probe);
  PRIMLAB_LAUNCH_TRY();
  probe.launch(stream);
  merge_per_thread_partials<<<1, bins, 0, stream>>>(d_partial, int(grid), d_hist, bins, probe);
  PRIMLAB_LAUNCH_TRY();
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
