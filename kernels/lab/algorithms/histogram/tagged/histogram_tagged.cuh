// The lecture's histogram without atomics (seed 004), the kernels and the host code that launches
// them, written once: each warp counts into its own sub-histogram in shared memory with addByte,
// whose words are (tag << 27) | count: the lanes of a warp on one bin all write count + 1 with their
// lane in the 5 high bits, one write lands, each lane reads the word back and the others try again.
// Over words, addWord adds each 32-bit sample's four bytes into 256 bins. Each block sums its warps'
// counts into a partial histogram in global memory, and a second kernel sums the partial histograms.
// The lab steps it with the recording probe (histogram-tagged, histogram-tagged-bytes).
#pragma once
#include <cstdint>

#include "lab/algorithms/histogram/bins_and_rows.h"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// Where the trace shows one addByte of a lane (the probe's only): its op slot, its sample (-1:
// none), its element of the per-byte rows, and the first cells of its warp's and its block's
// sub-histograms in the trace's row of them.
struct ByteSite {
  int slot;
  std::int32_t sample, element, warp_cell, block_cell;
  __device__ ByteSite byte(int k) const { return {slot + k, sample, element < 0 ? -1 : element + k, warp_cell, block_cell}; }
};

// The site of sample i (>= n: none) of this thread's trip of the grid-stride loop.
template <bool kBytes>
__device__ ByteSite byte_site(std::int64_t i, std::int64_t n, int bins) {
  const int trip = int(i / (std::int64_t(gridDim.x) * blockDim.x));
  const int per_sample = kBytes ? kBytesPerWord : 1;
  const std::int32_t block_cell = std::int32_t(blockIdx.x) * std::int32_t((blockDim.x + 31) / 32) * bins;
  return {per_sample * trip, i < n ? std::int32_t(i) : -1, i < n ? std::int32_t(per_sample * i) : -1,
          block_cell + std::int32_t(threadIdx.x / 32) * bins, block_cell};
}

// listing: histogram-tagged
// addByte for GPUs that do not run a warp in lockstep: __syncwarp keeps the lanes' read, write and
// check in step, as the lecture's GPUs did by themselves. `lanes`: the warp's lanes, all of which
// call it (data < 0: the lane has no sample).
template <class Probe>
__device__ void add_byte(volatile std::uint32_t* warp_hist, int data, std::uint32_t thread_tag, unsigned lanes,
                         Probe& probe, const ByteSite& at) {
  probe.value(kHistBin, at.element, data);
  probe.match(kHistSame, at.element, data);
  bool done = data < 0;
  for (int attempt = 0; __any_sync(lanes, !done); ++attempt) {
    probe.branch(!done);
    probe.shared_access(done ? -1 : at.warp_cell - at.block_cell + data);  // read
    probe.shared_access(done ? -1 : at.warp_cell - at.block_cell + data);  // write
    probe.shared_access(done ? -1 : at.warp_cell - at.block_cell + data);  // check
    std::uint32_t count = 0;
    if (!done) count = thread_tag | ((warp_hist[data] & kTagCountMask) + 1);  // step: count
    __syncwarp(lanes);
    if (!done) warp_hist[data] = count;  // step: count
    __syncwarp(lanes);
    if (!done && warp_hist[data] == count) {  // step: count
      done = true;  // step: count
      probe.op(at.slot, OpKind::Atomic, kHistIn, at.sample, kTaggedCount, at.warp_cell + data);
      probe.value(kTaggedCount, at.warp_cell + data, count & kTagCountMask);
      probe.value(kTaggedTag, at.warp_cell + data, count >> 27);
      probe.value(kTaggedRetries, at.element, attempt);
    }
    __syncwarp(lanes);
  }
}

// The lecture's addWord: a 32-bit sample as four bytes.
template <class Probe>
__device__ void add_word(volatile std::uint32_t* warp_hist, std::uint32_t data, bool has_data,
                         std::uint32_t thread_tag, unsigned lanes, Probe& probe, const ByteSite& at) {
  add_byte(warp_hist, has_data ? int(data & 0xFFU) : -1, thread_tag, lanes, probe, at.byte(0));
  add_byte(warp_hist, has_data ? int((data >> 8) & 0xFFU) : -1, thread_tag, lanes, probe, at.byte(1));
  add_byte(warp_hist, has_data ? int((data >> 16) & 0xFFU) : -1, thread_tag, lanes, probe, at.byte(2));
  add_byte(warp_hist, has_data ? int((data >> 24) & 0xFFU) : -1, thread_tag, lanes, probe, at.byte(3));
}

// kBytes: addWord, the bytes of each sample into 256 bins; else addByte of the sample's bin.
template <bool kBytes, class T, class Binner, class Probe>
__global__ void histogram_tagged_kernel(const T* __restrict__ in, std::int64_t n, std::uint32_t* partial,
                                        int bins, Binner binner, Probe probe) {
  extern __shared__ std::uint32_t s_hist[];  // a sub-histogram of `bins` words per warp
  const int warps = (blockDim.x + 31) / 32;
  probe.on_chip(kTaggedWords, s_hist, std::int32_t(blockIdx.x) * warps * bins, warps * bins);
  probe.branch(int(threadIdx.x) < warps * bins);  // the loop's first test
  for (int j = threadIdx.x; j < warps * bins; j += blockDim.x) {
    s_hist[j] = 0;  // step: clear
    probe.op(j / int(blockDim.x), OpKind::Write, kTaggedCount, -1, kTaggedCount, int(blockIdx.x) * warps * bins + j);
    probe.value(kTaggedCount, int(blockIdx.x) * warps * bins + j, 0u);
    probe.value(kTaggedTag, int(blockIdx.x) * warps * bins + j, 0u);
    probe.shared_access(j);
    probe.branch(j + int(blockDim.x) < warps * bins);  // the next test, by the lanes still looping
  }
  __syncthreads();
  probe.barrier();

  const int lane = threadIdx.x & 31, warp_first = threadIdx.x - lane;
  // The warp's lanes: the block's last warp may have fewer than 32.
  const unsigned lanes = blockDim.x - warp_first >= 32 ? 0xFFFFFFFFu : (1u << (blockDim.x - warp_first)) - 1u;
  volatile std::uint32_t* warp_hist = s_hist + (threadIdx.x / 32) * bins;
  const std::uint32_t thread_tag = threadIdx.x << 27;  // the lane, in the 5 high bits
  // A grid-stride loop that a warp runs whole, so that addByte has all its lanes.
  for (std::int64_t first = std::int64_t(blockIdx.x) * blockDim.x + warp_first; first < n;
       first += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t i = first + lane;
    probe.branch(i < n);
    probe.count(kGlobalRead, i < n ? sizeof(T) : 0);
    const ByteSite at = byte_site<kBytes>(i, n, bins);  // where the trace shows it (the probe's only)
    if constexpr (kBytes)
      add_word(warp_hist, i < n ? std::uint32_t(in[i]) : 0u, i < n, thread_tag, lanes, probe, at);  // step: count
    else
      add_byte(warp_hist, i < n ? binner(in[i]) : -1, thread_tag, lanes, probe, at);  // step: count
  }
  __syncthreads();
  probe.barrier();

  probe.branch(int(threadIdx.x) < bins);
  for (int bin = threadIdx.x; bin < bins; bin += blockDim.x) {
    std::uint32_t sum = 0;
    for (int w = 0; w < warps; ++w) {
      sum += s_hist[w * bins + bin] & kTagCountMask;  // step: block merge
      probe.op(bin / int(blockDim.x) * warps + w, OpKind::Add, kTaggedCount,
               int(blockIdx.x) * warps * bins + w * bins + bin, kTaggedPartial, int(blockIdx.x) * bins + bin);
      probe.shared_access(w * bins + bin);
    }
    partial[blockIdx.x * bins + bin] = sum;  // step: block merge
    probe.count(kAdds, warps);
    probe.count(kGlobalWrite, sizeof(std::uint32_t));
    probe.branch(bin + int(blockDim.x) < bins);
  }
}

// One block of `bins` threads: thread bin sums the blocks' partial histograms of its bin.
template <class Probe>
__global__ void merge_tagged_partials(const std::uint32_t* partial, int blocks, std::uint32_t* hist, int bins,
                                      Probe probe) {
  const int bin = threadIdx.x;
  std::uint32_t sum = 0;
  for (int b = 0; b < blocks; ++b) {
    sum += partial[b * bins + bin];  // step: merge
    probe.op(b, OpKind::Add, kTaggedPartial, b * bins + bin, kHist, bin);
  }
  hist[bin] = sum;  // step: merge
  probe.count(kAdds, blocks);
  probe.count(kGlobalRead, blocks * sizeof(std::uint32_t));
  probe.count(kGlobalWrite, sizeof(std::uint32_t));
}
// listing: end

// Counts n samples of d_in into d_hist[0, bins) (kBytes: the 4n bytes of the samples into 256 bins),
// with blocks of 1 to 1024 threads, at most max_blocks of them, and d_partial[grid * bins] for the
// blocks' partial histograms; bins <= 1024 (one block merges them).
template <bool kBytes, class T, class Binner, class Probe = NoProbe>
Status histogram_tagged(const T* d_in, std::int64_t n, std::uint32_t* d_partial, std::uint32_t* d_hist, int bins,
                        Binner binner, int block, int max_blocks, cudaStream_t stream, Probe probe = {}) {
  if (n < 0 || !d_hist || (n > 0 && (!d_in || !d_partial)) || block < 1 || block > 1024 || bins < 1 ||
      bins > 1024 || std::int64_t(bins) * ((block + 31) / 32) * 4 > 48 * 1024 || max_blocks < 1 ||
      (kBytes && bins != kByteBins))
    return Status::InvalidArgument;
  if (n == 0) {
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_hist, 0, std::size_t(bins) * sizeof(std::uint32_t), stream));
    return Status::Success;
  }
  // listing: histogram-tagged
  const int warps = (block + 31) / 32;
  const std::int64_t grid = std::min<std::int64_t>((n + block - 1) / block, max_blocks);
  probe.launch(stream);
  histogram_tagged_kernel<kBytes><<<unsigned(grid), block, std::size_t(warps) * bins * sizeof(std::uint32_t),
                                    stream>>>(d_in, n, d_partial, bins, binner, probe);
  PRIMLAB_LAUNCH_TRY();
  probe.launch(stream);
  merge_tagged_partials<<<1, bins, 0, stream>>>(d_partial, int(grid), d_hist, bins, probe);
  PRIMLAB_LAUNCH_TRY();
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
