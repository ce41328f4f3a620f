// Teaching: Blelloch's work-efficient exclusive scan in global memory over a power-of-two padded
// copy: one launch per up-sweep level and per down-sweep level.
#include <cstdint>

#include "util/cuda_check.cuh"
#include "lab/run/timed_args.cuh"

namespace primlab::teaching {
namespace {

std::int64_t next_pow2(std::int64_t n) {
  std::int64_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

template <class T>
__global__ void pad_copy_kernel(const T* __restrict__ in, T* __restrict__ buf, std::int64_t n,
                                std::int64_t m) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < m) buf[i] = i < n ? in[i] : T(0);
}

// Up-sweep level d: buf[k*2d + 2d - 1] += buf[k*2d + d - 1].
template <class T>
__global__ void up_sweep(T* buf, std::int64_t count, std::int64_t d) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const std::int64_t right = (k + 1) * 2 * d - 1;
  buf[right] += buf[right - d];
}

// Down-sweep level d: swap the left child into the right and add.
template <class T>
__global__ void down_sweep(T* buf, std::int64_t count, std::int64_t d, std::int64_t m) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const std::int64_t right = (k + 1) * 2 * d - 1;
  if (d == m / 2 && k == 0) buf[right] = T(0);  // the root becomes the identity
  const T left = buf[right - d];
  buf[right - d] = buf[right];
  buf[right] += left;
}

// Any block of the catalog's range: every kernel here is element-wise.
bool valid_block(int block) { return block >= 1 && block <= 1024; }

}  // namespace

template <class T>
std::size_t scan_blelloch_workspace_bytes(std::int64_t n) {
  return n > 0 ? std::size_t(next_pow2(n < 2 ? 2 : n)) * sizeof(T) : 0;
}

template <class T>
Status scan_blelloch(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws,
                     cudaStream_t stream) {
  if (n < 0 || !valid_block(block)) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < scan_blelloch_workspace_bytes<T>(n) || !ws.ptr) return Status::WorkspaceTooSmall;
  const std::int64_t m = next_pow2(n < 2 ? 2 : n);
  T* buf = static_cast<T*>(ws.ptr);
  auto grid_of = [block](std::int64_t count) { return unsigned((count + block - 1) / block); };
  pad_copy_kernel<<<grid_of(m), block, 0, stream>>>(d_in, buf, n, m);
  PRIMLAB_LAUNCH_TRY();
  for (std::int64_t d = 1; d < m / 2; d <<= 1) {  // the root's own level is skipped
    up_sweep<<<grid_of(m / (2 * d)), block, 0, stream>>>(buf, m / (2 * d), d);
    PRIMLAB_LAUNCH_TRY();
  }
  for (std::int64_t d = m / 2; d >= 1; d >>= 1) {
    down_sweep<<<grid_of(m / (2 * d)), block, 0, stream>>>(buf, m / (2 * d), d, m);
    PRIMLAB_LAUNCH_TRY();
  }
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_out, buf, std::size_t(n) * sizeof(T), cudaMemcpyDeviceToDevice,
                                   stream));
  return Status::Success;
}

}  // namespace primlab::teaching

// [SECTION] The catalog's timed form: TimedArgs in, Status out
namespace primlab::steppers {

std::size_t timed_bytes_scan_blelloch(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return teaching::scan_blelloch_workspace_bytes<decltype(x)>(a.n);
  });
}

Status timed_scan_blelloch(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return teaching::scan_blelloch(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_out), a.n, timed::block_of(a),
                          timed::workspace_of(a), timed::stream_of(a));
  });
}

}  // namespace primlab::steppers
