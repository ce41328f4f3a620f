// The radix sorts' exclusive scan of 32-bit counts (the 1-bit split's false flags, the digit
// sort's per-block histograms), kernels and host code written once: each block scans 2 * blockDim.x
// words in shared memory (work-efficient, Blelloch) and writes its total to a block sum; the sums
// are scanned the same way, one level after another, and added back. The levels' sums lie one after
// another in the scratch (radix_shape.h: the levels' shape and the scratch they take).
#pragma once
#include <cstdint>

#include "lab/algorithms/radix/radix_shape.h"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab::radix {

// listing: radix-split radix-digits
// Work-efficient (Blelloch) exclusive scan of 2 * blockDim.x elements in shared memory; the
// block's total goes to sums[blockIdx.x].
template <class Probe>
__global__ void scan_block_kernel(const std::uint32_t* in, std::uint32_t* out, std::uint32_t* sums, std::int64_t n,
                                  Probe probe) {
  extern __shared__ std::uint32_t temp[];
  const int tid = threadIdx.x;
  const int m = 2 * blockDim.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * m;
  probe.on_chip(kScanTemp, temp, base, m);
  temp[tid] = base + tid < n ? in[base + tid] : 0u;  // step: scan load
  probe.op(0, base + tid < n ? OpKind::Move : OpKind::Write, kScanIn, base + tid < n ? base + tid : -1, kScanTemp,
           base + tid);
  temp[tid + blockDim.x] = base + tid + blockDim.x < n ? in[base + tid + blockDim.x] : 0u;  // step: scan load
  probe.op(1, base + tid + blockDim.x < n ? OpKind::Move : OpKind::Write, kScanIn,
           base + tid + blockDim.x < n ? base + tid + blockDim.x : -1, kScanTemp, base + tid + blockDim.x);
  probe.shared_access(tid);
  probe.shared_access(tid + blockDim.x);
  probe.count(kGlobalRead, 4 * ((base + tid < n) + (base + tid + blockDim.x < n)));
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    probe.barrier();
    probe.branch(tid < d);
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];  // step: up-sweep
      probe.op(0, OpKind::Add, kScanTemp, base + ai, kScanTemp, base + bi);
      probe.count(kAdds, 1);
    }
    probe.shared_access(tid < d ? offset * (2 * tid + 1) - 1 : -1);
    probe.shared_access(tid < d ? offset * (2 * tid + 2) - 1 : -1);
    probe.shared_access(tid < d ? offset * (2 * tid + 2) - 1 : -1);
    offset <<= 1;
  }
  probe.branch(tid == 0);
  if (tid == 0) {
    sums[blockIdx.x] = temp[m - 1];  // step: block sum
    probe.op(1, OpKind::Move, kScanTemp, base + m - 1, kScanSums, blockIdx.x);
    temp[m - 1] = 0;  // step: block sum
    probe.op(2, OpKind::Write, kScanTemp, -1, kScanTemp, base + m - 1);
    probe.count(kGlobalWrite, 4);
  }
  probe.shared_access(tid == 0 ? m - 1 : -1);
  probe.shared_access(tid == 0 ? m - 1 : -1);
  for (int d = 1; d < m; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    probe.barrier();
    probe.branch(tid < d);
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      const std::uint32_t t = temp[ai];  // step: down-sweep
      temp[ai] = temp[bi];  // step: down-sweep
      probe.op(0, OpKind::Move, kScanTemp, base + bi, kScanTemp, base + ai);
      temp[bi] += t;  // step: down-sweep
      probe.op(1, OpKind::Add, kScanTemp, base + ai, kScanTemp, base + bi);
      probe.count(kAdds, 1);
    }
    probe.shared_access(tid < d ? offset * (2 * tid + 1) - 1 : -1);
    probe.shared_access(tid < d ? offset * (2 * tid + 2) - 1 : -1);
    probe.shared_access(tid < d ? offset * (2 * tid + 1) - 1 : -1);
    probe.shared_access(tid < d ? offset * (2 * tid + 2) - 1 : -1);
  }
  __syncthreads();
  probe.barrier();
  probe.branch(base + tid < n);
  if (base + tid < n) {
    out[base + tid] = temp[tid];  // step: scan store
    probe.op(0, OpKind::Move, kScanTemp, base + tid, kScanOut, base + tid);
    probe.count(kGlobalWrite, 4);
  }
  probe.shared_access(base + tid < n ? tid : -1);
  probe.branch(base + tid + blockDim.x < n);
  if (base + tid + blockDim.x < n) {
    out[base + tid + blockDim.x] = temp[tid + blockDim.x];  // step: scan store
    probe.op(1, OpKind::Move, kScanTemp, base + tid + blockDim.x, kScanOut, base + tid + blockDim.x);
    probe.count(kGlobalWrite, 4);
  }
  probe.shared_access(base + tid + blockDim.x < n ? int(tid + blockDim.x) : -1);
}

// scanDistribute: adds the scanned block sums back.
template <class Probe>
__global__ void add_sums_kernel(std::uint32_t* out, const std::uint32_t* sums, std::int64_t n, int per_block,
                                Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i < n) {
    out[i] += sums[i / per_block];  // step: add sums
    probe.op(0, OpKind::Add, kScanSums, i / per_block, kScanOut, i);
    probe.count(kAdds, 1);
    probe.count(kGlobalRead, 8);
    probe.count(kGlobalWrite, 4);
  }
}

// Scans n words of in into out (exclusive; in place where in == out) with blocks of up to `block`
// threads; the block sums of this level go to scratch, the next levels' after them.
template <class Probe>
Status radix_exclusive_scan(const std::uint32_t* in, std::uint32_t* out, std::int64_t n, int block,
                            std::uint32_t* scratch, cudaStream_t stream, Probe probe) {
  const int tree = scan_tree(block, n);
  const std::int64_t blocks = blocks_for(n, 2 * tree);
  std::uint32_t* sums = scratch;
  probe.launch(stream);
  scan_block_kernel<<<unsigned(blocks), tree, 2 * tree * sizeof(std::uint32_t), stream>>>(in, out, sums, n, probe);
  PRIMLAB_LAUNCH_TRY();
  if (blocks == 1) return Status::Success;
  const Status st = radix_exclusive_scan(sums, sums, blocks, block, sums + blocks, stream, probe);
  if (st != Status::Success) return st;
  probe.launch(stream);
  add_sums_kernel<<<unsigned(blocks_for(n, tree)), tree, 0, stream>>>(out, sums, n, 2 * tree, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}
// listing: end

}  // namespace primlab::lab::radix
