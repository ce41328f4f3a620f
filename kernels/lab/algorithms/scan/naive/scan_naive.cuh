// Hillis and Steele's scan in global memory, the kernels and the host code that launches them,
// written once: the timed form runs them with NoProbe, the stepped form with the lab's recording
// probe, and the Step tab lists this file. One launch per offset 1, 2, 4, ... < n, each reading one
// buffer and writing the other (d_out and the workspace tmp, ping-pong, so that no thread reads a
// value another has overwritten); the exclusive scan first shifts the input right by one.
#pragma once
#include <cstdint>

#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// The arrays as the trace's rows: the result, the input and the workspace.
enum ScanNaiveRow : int { kNaiveDOut = kRowMain, kNaiveDIn = kStdRows, kNaiveTmp };
// The rows the kernels name: the buffer a launch reads and the one it writes (the stepped form maps
// them to the arrays launch by launch).
enum ScanNaiveKernelRow : int { kNaiveIn = 0, kNaiveOut = 1 };

// listing: scan-naive
// The exclusive scan's first launch: out[i] = in[i - 1], out[0] = 0.
template <class T, class Probe>
__global__ void shift_right_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i < n) {
    out[i] = i > 0 ? in[i - 1] : T(0);  // step: shift
    probe.op(0, i > 0 ? OpKind::Move : OpKind::Write, kNaiveIn, i > 0 ? i - 1 : -1, kNaiveOut, i);
    probe.count(kGlobalRead, i > 0 ? sizeof(T) : 0);
    probe.count(kGlobalWrite, sizeof(T));
  }
}

// out[i] = in[i] + in[i - offset] (or in[i] where i < offset).
template <class T, class Probe>
__global__ void hillis_steele_step(const T* __restrict__ in, T* __restrict__ out, std::int64_t n,
                                   std::int64_t offset, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i < n) {
    out[i] = i >= offset ? in[i] + in[i - offset] : in[i];  // step: sweep
    probe.op(0, i >= offset ? OpKind::Add : OpKind::Move, kNaiveIn, i >= offset ? i - offset : i, kNaiveOut, i);
    probe.count(kGlobalRead, (i >= offset ? 2 : 1) * sizeof(T));
    probe.count(kGlobalWrite, sizeof(T));
    probe.count(kAdds, i >= offset ? 1 : 0);
  }
}
// listing: end

// The launches of the host code below: the shift (exclusive only), then one per offset < n.
inline int scan_naive_launches(std::int64_t n, bool inclusive) {
  int launches = inclusive ? 0 : 1;
  for (std::int64_t offset = 1; offset < n; offset <<= 1) ++launches;
  return launches;
}

template <class T>
std::size_t scan_naive_workspace_bytes(std::int64_t n) {
  return n > 0 ? std::size_t(n) * sizeof(T) : 0;
}

// Scans n elements of d_in into d_out (exclusive, or inclusive), with a workspace of
// scan_naive_workspace_bytes (the second buffer); any block size of 1 to 1024 threads.
template <class T, class Probe = NoProbe>
Status scan_naive(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream,
                  bool inclusive = false, Probe probe = {}) {
  if (n < 0 || block < 1 || block > 1024) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < scan_naive_workspace_bytes<T>(n) || !ws.ptr) return Status::WorkspaceTooSmall;
  const unsigned grid = unsigned((n + block - 1) / block);
  T* tmp = static_cast<T*>(ws.ptr);
  const int launches = scan_naive_launches(n, inclusive);
  // listing: scan-naive
  // Ping-pong between d_out and tmp, starting with the one that makes the last launch write d_out.
  T* out = launches % 2 == 1 ? d_out : tmp;
  const T* in = d_in;
  if (!inclusive) {
    probe.launch(stream);
    shift_right_kernel<<<grid, block, 0, stream>>>(in, out, n, probe);
    PRIMLAB_LAUNCH_TRY();
    in = out;
    out = out == d_out ? tmp : d_out;
  }
  for (std::int64_t offset = 1; offset < n; offset <<= 1) {
    probe.launch(stream);
    hillis_steele_step<<<grid, block, 0, stream>>>(in, out, n, offset, probe);
    PRIMLAB_LAUNCH_TRY();
    in = out;
    out = out == d_out ? tmp : d_out;
  }
  // listing: end
  if (launches == 0)  // the inclusive scan of one element is the element
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_out, d_in, sizeof(T), cudaMemcpyDeviceToDevice, stream));
  return Status::Success;
}

}  // namespace primlab::lab
