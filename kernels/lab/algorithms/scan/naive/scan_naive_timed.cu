// Teaching: Hillis-Steele exclusive scan, ping-pong between two arrays, one launch per offset.
#include <cstdint>

#include "util/cuda_check.cuh"
#include "lab/run/timed_args.cuh"

namespace primlab::teaching {
namespace {

template <class T>
__global__ void shift_right_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i > 0 ? in[i - 1] : T(0);
}

// out[i] = in[i] + in[i - offset] (or in[i] where i < offset).
template <class T>
__global__ void hillis_steele_step(const T* __restrict__ in, T* __restrict__ out, std::int64_t n,
                                   std::int64_t offset) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i >= offset ? in[i] + in[i - offset] : in[i];
}

// Any block of the catalog's range: every kernel here is element-wise.
bool valid_block(int block) { return block >= 1 && block <= 1024; }

}  // namespace

template <class T>
std::size_t scan_naive_workspace_bytes(std::int64_t n) {
  return n > 0 ? std::size_t(n) * sizeof(T) : 0;
}

template <class T>
Status scan_naive(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws,
                  cudaStream_t stream) {
  if (n < 0 || !valid_block(block)) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < scan_naive_workspace_bytes<T>(n) || !ws.ptr) return Status::WorkspaceTooSmall;
  const unsigned grid = unsigned((n + block - 1) / block);
  T* a = d_out;
  T* b = static_cast<T*>(ws.ptr);
  shift_right_kernel<<<grid, block, 0, stream>>>(d_in, a, n);
  PRIMLAB_LAUNCH_TRY();
  for (std::int64_t offset = 1; offset < n; offset <<= 1) {
    hillis_steele_step<<<grid, block, 0, stream>>>(a, b, n, offset);
    PRIMLAB_LAUNCH_TRY();
    T* t = a;
    a = b;
    b = t;
  }
  if (a != d_out)
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_out, a, std::size_t(n) * sizeof(T), cudaMemcpyDeviceToDevice,
                                     stream));
  return Status::Success;
}

}  // namespace primlab::teaching

// [SECTION] The catalog's timed form: TimedArgs in, Status out
namespace primlab::steppers {

std::size_t timed_bytes_scan_naive(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return teaching::scan_naive_workspace_bytes<decltype(x)>(a.n);
  });
}

Status timed_scan_naive(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return teaching::scan_naive(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_out), a.n, timed::block_of(a),
                          timed::workspace_of(a), timed::stream_of(a));
  });
}

}  // namespace primlab::steppers
