// The shared-memory scan (GPU Gems 3 ch. 39; the lecture's scan3 and scanDistribute), the kernels
// and the host code that launches them, written once: the timed form runs them with NoProbe, the
// stepped form with the lab's recording probe, and the Step tab lists this file. Each block of B
// threads scans a tile of 2B elements in shared memory, its sweeps __syncthreads() apart, with the
// bank-conflict offsets of kTerms (0: none, 1: i >> 5, 2: GPU Gems 3's (i >> 5) + (i >> 10)); the
// block sums are scanned by the same host code, one level down, and added back (scanDistribute),
// or (stitch) seed 000's kernStitch adds each block the sums of all the blocks before it.
#pragma once
#include <cstdint>

#include "lab/algorithms/scan/add_input.cuh"
#include "lab/algorithms/scan/shared/scan_shared_levels.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: scan-shared
constexpr int kLogBanks = 5;
// The padding before logical index i: one word after every 32 elements (kTerms = 1), and one more
// after every 1024 (kTerms = 2, conflict-free at 2048-element tiles); none with kTerms = 0.
template <int kTerms>
__host__ __device__ __forceinline__ int conflict_free(int i) {
  if (kTerms == 0) return 0;
  return kTerms == 1 ? i >> kLogBanks : (i >> kLogBanks) + (i >> (2 * kLogBanks));  // step: load (offsets)
}
// listing: end

// Where logical index i lies in the padded shared memory (the probe's shared accesses).
template <int kTerms>
__device__ __forceinline__ int padded_index(int i) {
  return i + conflict_free<kTerms>(i);
}

// listing: scan-shared
// Exclusive scan of 2 * blockDim.x elements; the block's total goes to sums[blockIdx.x].
template <class T, int kTerms, class Probe>
__global__ void scan3_kernel(const T* __restrict__ in, T* __restrict__ out, T* __restrict__ sums,
                             std::int64_t n, Probe probe) {
  extern __shared__ unsigned char s_raw[];
  T* temp = reinterpret_cast<T*>(s_raw);
  const int tid = threadIdx.x;
  const int two_b = 2 * blockDim.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * two_b;
  int ai = tid, bi = tid + blockDim.x;
  temp[ai + conflict_free<kTerms>(ai)] = base + ai < n ? in[base + ai] : T(0);  // step: load
  probe.op(0, base + ai < n ? OpKind::Move : OpKind::Write, kSharedIn, base + ai < n ? base + ai : -1, kSharedTemp,
           base + ai);
  probe.value(kSharedTemp, base + ai, temp[ai + conflict_free<kTerms>(ai)]);
  probe.count(kGlobalRead, base + ai < n ? sizeof(T) : 0);
  temp[bi + conflict_free<kTerms>(bi)] = base + bi < n ? in[base + bi] : T(0);  // step: load
  probe.op(1, base + bi < n ? OpKind::Move : OpKind::Write, kSharedIn, base + bi < n ? base + bi : -1, kSharedTemp,
           base + bi);
  probe.value(kSharedTemp, base + bi, temp[bi + conflict_free<kTerms>(bi)]);
  probe.count(kGlobalRead, base + bi < n ? sizeof(T) : 0);
  probe.shared_access(padded_index<kTerms>(ai));
  probe.shared_access(padded_index<kTerms>(bi));
  int offset = 1;
  for (int d = blockDim.x; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    probe.barrier();
    probe.branch(tid < d);
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 1) - 1) : -1);  // read temp[a]
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 2) - 1) : -1);  // read temp[b]
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 2) - 1) : -1);  // write temp[b]
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      a += conflict_free<kTerms>(a);
      b += conflict_free<kTerms>(b);
      temp[b] += temp[a];  // step: up-sweep
      probe.op(0, OpKind::Add, kSharedTemp, base + offset * (2 * tid + 1) - 1, kSharedTemp,
               base + offset * (2 * tid + 2) - 1);
      probe.value(kSharedTemp, base + offset * (2 * tid + 2) - 1, temp[b]);
      probe.count(kAdds, 1);
    }
    offset <<= 1;
  }
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? padded_index<kTerms>(two_b - 1) : -1);  // read temp[last]
  probe.shared_access(tid == 0 ? padded_index<kTerms>(two_b - 1) : -1);  // write temp[last]
  if (tid == 0) {
    const int last = two_b - 1 + conflict_free<kTerms>(two_b - 1);
    sums[blockIdx.x] = temp[last];  // step: clear
    probe.op(1, OpKind::Move, kSharedTemp, base + two_b - 1, kSharedSums, blockIdx.x);
    probe.count(kGlobalWrite, sizeof(T));
    temp[last] = T(0);  // step: clear
    probe.op(2, OpKind::Write, kSharedTemp, -1, kSharedTemp, base + two_b - 1);
    probe.value(kSharedTemp, base + two_b - 1, temp[last]);
  }
  for (int d = 1; d < two_b; d <<= 1) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    probe.barrier();
    probe.branch(tid < d);
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 1) - 1) : -1);  // read temp[a]
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 2) - 1) : -1);  // read temp[b]
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 1) - 1) : -1);  // write temp[a]
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 2) - 1) : -1);  // temp[b] again (+= t)
    probe.shared_access(tid < d ? padded_index<kTerms>(offset * (2 * tid + 2) - 1) : -1);  // write temp[b]
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      a += conflict_free<kTerms>(a);
      b += conflict_free<kTerms>(b);
      const T t = temp[a];  // step: down-sweep
      temp[a] = temp[b];  // step: down-sweep
      probe.op(0, OpKind::Move, kSharedTemp, base + offset * (2 * tid + 2) - 1, kSharedTemp,
               base + offset * (2 * tid + 1) - 1);
      probe.value(kSharedTemp, base + offset * (2 * tid + 1) - 1, temp[a]);
      temp[b] += t;  // step: down-sweep
      probe.op(1, OpKind::Add, kSharedTemp, base + offset * (2 * tid + 1) - 1, kSharedTemp,
               base + offset * (2 * tid + 2) - 1);
      probe.value(kSharedTemp, base + offset * (2 * tid + 2) - 1, temp[b]);
      probe.count(kAdds, 1);
    }
  }
  __syncthreads();
  probe.barrier();
  probe.branch(base + ai < n);
  probe.shared_access(base + ai < n ? padded_index<kTerms>(ai) : -1);
  if (base + ai < n) {
    out[base + ai] = temp[ai + conflict_free<kTerms>(ai)];  // step: write
    probe.op(0, OpKind::Move, kSharedTemp, base + ai, kSharedOut, base + ai);
    probe.count(kGlobalWrite, sizeof(T));
  }
  probe.branch(base + bi < n);
  probe.shared_access(base + bi < n ? padded_index<kTerms>(bi) : -1);
  if (base + bi < n) {
    out[base + bi] = temp[bi + conflict_free<kTerms>(bi)];  // step: write
    probe.op(1, OpKind::Move, kSharedTemp, base + bi, kSharedOut, base + bi);
    probe.count(kGlobalWrite, sizeof(T));
  }
}

// scanDistribute: add the scanned sum of each block to its 2 * blockDim.x elements.
template <class T, class Probe>
__global__ void distribute_kernel(T* out, const T* __restrict__ sums, std::int64_t n, Probe probe) {
  const std::int64_t base = std::int64_t(blockIdx.x) * 2 * blockDim.x;
  const T add = sums[blockIdx.x];
  probe.count(kGlobalRead, sizeof(T));
  for (int j = threadIdx.x; j < 2 * int(blockDim.x); j += blockDim.x) {
    probe.branch(base + j < n);
    if (base + j < n) {
      out[base + j] += add;  // step: distribute
      probe.op(j / int(blockDim.x), OpKind::Add, kSharedSums, blockIdx.x, kSharedOut, base + j);
      probe.count(kGlobalRead, sizeof(T));
      probe.count(kGlobalWrite, sizeof(T));
      probe.count(kAdds, 1);
    }
  }
}

// Seed 000's kernStitch, in place of scanning the block sums and distributing them: every block
// adds the roots of all the blocks before it to each of its elements (O(blocks) adds an element).
// Neither out[] nor sums[] is __restrict__ (the seed's in[] and sums[] may alias), so each += loads
// and stores out[index] again.
template <class T, class Probe>
__global__ void kernStitch(T* out, const T* sums, std::int64_t n, Probe probe) {
  const int bx = blockIdx.x;
  if (bx == 0) return;
  for (int k = 0; k < 2; ++k) {
    const std::int64_t index = std::int64_t(2) * blockDim.x * bx + threadIdx.x + k * blockDim.x;
    probe.branch(index < n);
    if (index >= n) return;
    for (int i = 0; i < bx; i++) {
      out[index] += sums[i];  // step: stitch
      probe.op(k * (int(gridDim.x) - 1) + i, OpKind::Add, kSharedSums, i, kSharedOut, index);
    }
    probe.count(kAdds, bx);
    probe.count(kGlobalRead, 2 * sizeof(T) * bx);
    probe.count(kGlobalWrite, sizeof(T) * bx);
  }
}

// Scans n elements of in into out (in place where they are the same array): one launch of
// scan3_kernel, whose block sums go to sums; then those are scanned one level down (their own block
// sums at sums + stride) and added back, or stitched.
template <class T, int kTerms, class Probe>
Status scan_level(const T* in, T* out, std::int64_t n, int block, T* sums, std::int64_t stride, bool stitch,
                  cudaStream_t stream, Probe probe) {
  const std::int64_t blocks = shared_scan_blocks(n, block);
  const std::size_t smem = std::size_t(2 * block + conflict_free<kTerms>(2 * block)) * sizeof(T);
  probe.launch(stream);
  scan3_kernel<T, kTerms><<<unsigned(blocks), block, smem, stream>>>(in, out, sums, n, probe);
  PRIMLAB_LAUNCH_TRY();
  if (blocks > 1 && stitch) {
    probe.launch(stream);
    kernStitch<<<unsigned(blocks), block, 0, stream>>>(out, sums, n, probe);
    PRIMLAB_LAUNCH_TRY();
  } else if (blocks > 1) {
    const Status s = scan_level<T, kTerms>(sums, sums, blocks, block, sums + stride, stride, false, stream, probe);  // step: scan sums
    if (s != Status::Success) return s;
    probe.launch(stream);
    distribute_kernel<<<unsigned(blocks), block, 0, stream>>>(out, sums, n, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  return Status::Success;
}
// listing: end

// The catalog's range: a power of two up to 1024 (the shared-memory trees halve the block).
inline bool scan_shared_valid_block(int block) { return block >= 1 && block <= 1024 && (block & (block - 1)) == 0; }

// One row of block sums per level of the recursion, each as long as the first level's.
template <class T>
std::size_t scan_shared_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || !scan_shared_valid_block(block)) return 0;
  return std::size_t(shared_scan_level_count(n, block)) * std::size_t(shared_scan_blocks(n, block)) * sizeof(T);
}

// Scans n elements of d_in into d_out (exclusive, or inclusive), with a workspace of
// scan_shared_workspace_bytes: level k's block sums at k * stride, stride the workspace's elements
// over the levels. With stitch, seed 000's kernStitch adds the block sums in place of the recursion.
template <class T, int kTerms = 1, class Probe = NoProbe>
Status scan_shared(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream,
                   bool inclusive = false, bool stitch = false, Probe probe = {}) {
  if (n < 0 || !scan_shared_valid_block(block)) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < scan_shared_workspace_bytes<T>(n, block) || !ws.ptr) return Status::WorkspaceTooSmall;
  const std::int64_t stride = std::int64_t(ws.bytes / sizeof(T)) / shared_scan_level_count(n, block);
  // listing: scan-shared
  const Status s = scan_level<T, kTerms>(d_in, d_out, n, block, static_cast<T*>(ws.ptr), stride, stitch, stream, probe);
  if (s != Status::Success) return s;
  if (inclusive) {
    probe.launch(stream);
    add_input<<<unsigned((n + block - 1) / block), block, 0, stream>>>(d_out, d_in, n, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
