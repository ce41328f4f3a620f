// Seed 001's naive scan in shared memory (GPU Gems 3's naive scan, per block), the kernels and the
// host code that launches them, written once: the stepped form runs them with the lab's recording
// probe and the Step tab lists this file (the row has no timed form). Each block of B threads scans
// its B elements exclusively in a shared ping-pong buffer temp[2B]: the load shifts right by one,
// then offsets 1, 2, 4, ... < B alternate the halves. Block sum = last scanned + last input; the
// host scans the block sums between the launches (the seed's copy back, loop, copy over) and a
// second kernel adds each block its offset.
#pragma once
#include <cstdint>
#include <vector>

#include "lab/algorithms/scan/add_input.cuh"
#include "lab/algorithms/scan/naive_shared/naive_shared_rows.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: scan-naive-shared
// Exclusive scan of each block's blockDim.x elements in a shared ping-pong buffer temp[2 * B];
// the block's sum (last scanned + last input) goes to sums[blockIdx.x].
template <class T, class Probe>
__global__ void naive_block_scan(const T* __restrict__ in, T* __restrict__ out, T* __restrict__ sums,
                                 std::int64_t n, Probe probe) {
  extern __shared__ unsigned char s_raw[];
  T* temp = reinterpret_cast<T*>(s_raw);
  const int tid = threadIdx.x, B = blockDim.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * B;
  probe.on_chip(kNaiveSharedHalf0, temp, base, B);
  int pout = 0, pin = 1;
  const bool shifted_in = tid > 0 && base + tid - 1 < n;
  probe.shared_access(tid);
  temp[pout * B + tid] = shifted_in ? in[base + tid - 1] : T(0);  // step: load
  probe.op(0, shifted_in ? OpKind::Move : OpKind::Write, kNaiveSharedIn, shifted_in ? base + tid - 1 : -1,
           kNaiveSharedHalf0, base + tid);
  probe.count(kGlobalRead, shifted_in ? sizeof(T) : 0);
  __syncthreads();
  probe.barrier();
  if (B > 1) probe.on_chip(kNaiveSharedHalf1, temp + B, base, B);  // from the first sweep, which writes it
  for (int offset = 1; offset < B; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    probe.branch(tid >= offset);
    probe.shared_access(pin * B + tid);
    probe.shared_access(tid >= offset ? pin * B + tid - offset : -1);
    probe.shared_access(pout * B + tid);
    if (tid >= offset) {
      temp[pout * B + tid] = temp[pin * B + tid] + temp[pin * B + tid - offset];  // step: sweep
      probe.op(0, OpKind::Add, kNaiveSharedHalf0 + pin, base + tid - offset, kNaiveSharedHalf0 + pout, base + tid);
      probe.count(kAdds, 1);
    } else {
      temp[pout * B + tid] = temp[pin * B + tid];  // step: sweep
      probe.op(0, OpKind::Move, kNaiveSharedHalf0 + pin, base + tid, kNaiveSharedHalf0 + pout, base + tid);
    }
    __syncthreads();
    probe.barrier();
  }
  probe.branch(base + tid < n);
  probe.shared_access(base + tid < n ? pout * B + tid : -1);
  if (base + tid < n) {
    out[base + tid] = temp[pout * B + tid];  // step: write
    probe.op(0, OpKind::Move, kNaiveSharedHalf0 + pout, base + tid, kNaiveSharedOut, base + tid);
    probe.count(kGlobalWrite, sizeof(T));
  }
  probe.branch(tid == B - 1);
  probe.shared_access(tid == B - 1 ? pout * B + tid : -1);
  if (tid == B - 1) {
    // The exclusive scan leaves the last element out: block sum = last scanned + last input.
    sums[blockIdx.x] = temp[pout * B + tid] + (base + tid < n ? in[base + tid] : T(0));  // step: write
    probe.op(1, OpKind::Move, kNaiveSharedHalf0 + pout, base + tid, kNaiveSharedSums, blockIdx.x);
    probe.op(2, OpKind::Add, kNaiveSharedIn, base + tid < n ? base + tid : -1, kNaiveSharedSums, blockIdx.x);
    probe.count(kAdds, 1);
    probe.count(kGlobalRead, base + tid < n ? sizeof(T) : 0);
    probe.count(kGlobalWrite, sizeof(T));
  }
}

// After the host scanned the block sums: every element adds its block's offset.
template <class T, class Probe>
__global__ void add_block_offsets(T* out, const T* __restrict__ scanned, std::int64_t n, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i >= n) return;
  out[i] += scanned[blockIdx.x];  // step: add offsets
  probe.op(0, OpKind::Add, kNaiveSharedScanned, blockIdx.x, kNaiveSharedOut, i);
  probe.count(kGlobalRead, 2 * sizeof(T));
  probe.count(kGlobalWrite, sizeof(T));
  probe.count(kAdds, 1);
}
// listing: end

// The workspace: the block sums, then their scan, in its two halves.
template <class T>
std::size_t scan_naive_shared_workspace_bytes(std::int64_t n, int block) {
  return n > 0 && block > 0 ? std::size_t(2 * ((n + block - 1) / block)) * sizeof(T) : 0;
}

// Scans n elements of d_in into d_out (exclusive, or inclusive), with a workspace of
// scan_naive_shared_workspace_bytes; any block size of 1 to 1024 threads.
template <class T, class Probe = NoProbe>
Status scan_naive_shared(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream,
                         bool inclusive = false, Probe probe = {}) {
  if (n < 0 || block < 1 || block > 1024) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < scan_naive_shared_workspace_bytes<T>(n, block) || !ws.ptr) return Status::WorkspaceTooSmall;
  const std::int64_t blocks = (n + block - 1) / block;
  T* sums = static_cast<T*>(ws.ptr);
  T* scanned = sums + ws.bytes / sizeof(T) / 2;
  // listing: scan-naive-shared
  probe.launch(stream);
  naive_block_scan<<<unsigned(blocks), block, 2 * block * sizeof(T), stream>>>(d_in, d_out, sums, n, probe);
  PRIMLAB_LAUNCH_TRY();
  if (blocks > 1) {
    // The seed's host step: copy the block sums back, scan them in a loop, copy them over.
    std::vector<T> h_sums(static_cast<std::size_t>(blocks));
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(h_sums.data(), sums, h_sums.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
    PRIMLAB_CUDA_TRY(cudaStreamSynchronize(stream));
    scan_sums_on_host(h_sums.data(), blocks);  // step: add offsets (host)
    probe.launch(stream);  // before the copy over: the scanned sums first show in the step of the launch they feed
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(scanned, h_sums.data(), h_sums.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
    PRIMLAB_CUDA_TRY(cudaStreamSynchronize(stream));
    add_block_offsets<<<unsigned(blocks), block, 0, stream>>>(d_out, scanned, n, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  if (inclusive) {
    probe.launch(stream);
    add_input<<<unsigned(blocks), block, 0, stream>>>(d_out, d_in, n, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
