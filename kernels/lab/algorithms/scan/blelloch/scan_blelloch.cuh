// Blelloch's work-efficient exclusive scan in global memory, the kernels and the host code that
// launches them, written once: the timed form runs them with NoProbe, the stepped form with the
// lab's recording probe, and the Step tab lists this file. The scan runs in place on a copy padded
// with zeros (the identity) to a power of two m: one launch per level of the up-sweep (the root's
// own level is skipped: the down-sweep clears the root anyway) and per level of the down-sweep.
#pragma once
#include <cstdint>

#include "lab/algorithms/scan/add_input.cuh"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// The rows the probe names: the padded buffer the scan runs on, and the input (add_input's rows).
enum ScanBlellochRow : int { kBlellochBuf = kScanOut, kBlellochIn = kScanIn };

inline std::int64_t scan_blelloch_width(std::int64_t n) {
  std::int64_t m = 2;
  while (m < n) m <<= 1;
  return m;
}

// listing: scan-blelloch
template <class T, class Probe>
__global__ void pad_copy_kernel(const T* __restrict__ in, T* __restrict__ buf, std::int64_t n,
                                std::int64_t m, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < m);
  if (i < m) {
    buf[i] = i < n ? in[i] : T(0);  // step: copy
    probe.op(0, i < n ? OpKind::Move : OpKind::Write, kBlellochIn, i < n ? i : -1, kBlellochBuf, i);
    probe.count(kGlobalRead, i < n ? sizeof(T) : 0);
    probe.count(kGlobalWrite, sizeof(T));
  }
}

// Up-sweep with stride d: thread k adds the left child into the right one.
template <class T, class Probe>
__global__ void up_sweep(T* buf, std::int64_t count, std::int64_t d, Probe probe) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(k < count);
  if (k >= count) return;
  const std::int64_t right = (k + 1) * 2 * d - 1;
  buf[right] += buf[right - d];  // step: up-sweep
  probe.op(0, OpKind::Add, kBlellochBuf, right - d, kBlellochBuf, right);
  probe.count(kGlobalRead, 2 * sizeof(T));
  probe.count(kGlobalWrite, sizeof(T));
  probe.count(kAdds, 1);
}

// Down-sweep with stride d: thread k swaps its two children and adds.
template <class T, class Probe>
__global__ void down_sweep(T* buf, std::int64_t count, std::int64_t d, std::int64_t m, Probe probe) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(k < count);
  if (k >= count) return;
  const std::int64_t right = (k + 1) * 2 * d - 1;
  probe.branch(d == m / 2 && k == 0);
  if (d == m / 2 && k == 0) {
    buf[right] = T(0);  // the root becomes the identity  // step: root
    probe.op(2, OpKind::Write, kBlellochBuf, -1, kBlellochBuf, right);
    probe.count(kGlobalWrite, sizeof(T));
  }
  const T left = buf[right - d];  // step: down-sweep
  buf[right - d] = buf[right];    // step: down-sweep
  probe.op(0, OpKind::Move, kBlellochBuf, right, kBlellochBuf, right - d);
  buf[right] += left;             // step: down-sweep
  probe.op(1, OpKind::Add, kBlellochBuf, right - d, kBlellochBuf, right);
  probe.count(kGlobalRead, 2 * sizeof(T));
  probe.count(kGlobalWrite, 2 * sizeof(T));
  probe.count(kAdds, 1);
}

// listing: end

template <class T>
std::size_t scan_blelloch_workspace_bytes(std::int64_t n) {
  return n > 0 ? std::size_t(scan_blelloch_width(n)) * sizeof(T) : 0;
}

// Scans n elements of d_in into d_out (exclusive, or inclusive), with a workspace of
// scan_blelloch_workspace_bytes; any block size of 1 to 1024 threads.
template <class T, class Probe = NoProbe>
Status scan_blelloch(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream,
                     bool inclusive = false, Probe probe = {}) {
  if (n < 0 || block < 1 || block > 1024) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < scan_blelloch_workspace_bytes<T>(n) || !ws.ptr) return Status::WorkspaceTooSmall;
  T* buf = static_cast<T*>(ws.ptr);
  auto grid_of = [block](std::int64_t count) { return unsigned((count + block - 1) / block); };
  // listing: scan-blelloch
  const std::int64_t m = scan_blelloch_width(n);
  probe.launch(stream);
  pad_copy_kernel<<<grid_of(m), block, 0, stream>>>(d_in, buf, n, m, probe);
  PRIMLAB_LAUNCH_TRY();
  for (std::int64_t d = 1; d < m / 2; d <<= 1) {  // the root's own level is skipped
    probe.launch(stream);
    up_sweep<<<grid_of(m / (2 * d)), block, 0, stream>>>(buf, m / (2 * d), d, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  for (std::int64_t d = m / 2; d >= 1; d >>= 1) {
    probe.launch(stream);
    down_sweep<<<grid_of(m / (2 * d)), block, 0, stream>>>(buf, m / (2 * d), d, m, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  if (inclusive) {
    probe.launch(stream);
    add_input<<<grid_of(n), block, 0, stream>>>(buf, d_in, n, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  // listing: end
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_out, buf, std::size_t(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  return Status::Success;
}

}  // namespace primlab::lab
