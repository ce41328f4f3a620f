// The lecture's bitonic sort at large n (teaching variant): shared-memory passes inside a block
// (bitonicSortShared with the lecture's Comparator and alternating directions), one global
// launch per stride beyond the block, a shared-memory merge for the strides inside it.
#include <limits>

#include "util/cuda_check.cuh"
#include "lab/run/timed_args.cuh"

namespace primlab::teaching {
namespace {

// The catalog's range: a power of two up to 1024 (the shared-memory trees halve the block).
bool valid_block(int block) { return block >= 1 && block <= 1024 && (block & (block - 1)) == 0; }

std::int64_t padded(std::int64_t n, int block) {
  std::int64_t N = 2 * block;
  while (N < n) N <<= 1;
  return N;
}

// The lecture's Comparator: swaps when the pair is out of the direction `dir` (1: ascending).
__device__ __forceinline__ void comparator(std::uint32_t& a, std::uint32_t& b, unsigned dir) {
  if ((a > b) == (dir != 0)) {
    const std::uint32_t t = a;
    a = b;
    b = t;
  }
}

__global__ void pad_kernel(std::uint32_t* buf, std::int64_t n, std::int64_t N) {
  const std::int64_t i = n + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < N) buf[i] = std::numeric_limits<std::uint32_t>::max();
}

// bitonicSortShared: each block sorts its 2 * blockDim.x elements; the direction of the last
// stage alternates from block to block so that neighbouring blocks form bitonic sequences
// (the global stages' direction rule: ascending where (index & size) == 0).
__global__ void sort_shared_kernel(std::uint32_t* d) {
  extern __shared__ std::uint32_t s[];
  const unsigned B = blockDim.x, L = 2 * B;
  const std::int64_t base = std::int64_t(blockIdx.x) * L;
  s[threadIdx.x] = d[base + threadIdx.x];
  s[threadIdx.x + B] = d[base + threadIdx.x + B];
  for (unsigned size = 2; size <= L; size <<= 1) {
    const std::int64_t gi0 = base + 2 * threadIdx.x - (threadIdx.x & (size / 2 - 1));
    const unsigned dir = ((gi0 & size) == 0) ? 1u : 0u;
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      comparator(s[pos], s[pos + stride], dir);
    }
  }
  __syncthreads();
  d[base + threadIdx.x] = s[threadIdx.x];
  d[base + threadIdx.x + B] = s[threadIdx.x + B];
}

// One global stride of stage `size`: one comparator per thread.
__global__ void merge_global_kernel(std::uint32_t* d, std::int64_t N, std::int64_t size, std::int64_t stride) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= N / 2) return;
  const std::int64_t pos = 2 * t - (t & (stride - 1));
  const unsigned dir = ((pos & size) == 0) ? 1u : 0u;
  std::uint32_t a = d[pos], b = d[pos + stride];
  comparator(a, b, dir);
  d[pos] = a;
  d[pos + stride] = b;
}

// The strides blockDim.x .. 1 of stage `size` in shared memory.
__global__ void merge_shared_kernel(std::uint32_t* d, std::int64_t size) {
  extern __shared__ std::uint32_t s[];
  const unsigned B = blockDim.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * 2 * B;
  s[threadIdx.x] = d[base + threadIdx.x];
  s[threadIdx.x + B] = d[base + threadIdx.x + B];
  const unsigned dir = ((base & size) == 0) ? 1u : 0u;
  for (unsigned stride = B; stride > 0; stride >>= 1) {
    __syncthreads();
    const unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    comparator(s[pos], s[pos + stride], dir);
  }
  __syncthreads();
  d[base + threadIdx.x] = s[threadIdx.x];
  d[base + threadIdx.x + B] = s[threadIdx.x + B];
}

}  // namespace

std::size_t bitonic_global_sort_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || !valid_block(block)) return 0;
  return std::size_t(padded(n, block)) * sizeof(std::uint32_t);
}

Status bitonic_global_sort(const std::uint32_t* d_in, std::uint32_t* d_out, std::int64_t n, int block, Workspace ws,
                           cudaStream_t stream) {
  if (n < 0 || !valid_block(block)) return Status::InvalidArgument;
  if (n > std::numeric_limits<std::int32_t>::max()) return Status::Unsupported;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < bitonic_global_sort_workspace_bytes(n, block)) return Status::WorkspaceTooSmall;
  if (!ws.ptr) return Status::InvalidArgument;
  std::uint32_t* buf = static_cast<std::uint32_t*>(ws.ptr);
  const std::int64_t N = padded(n, block);
  const std::int64_t L = 2 * block;
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(buf, d_in, std::size_t(n) * 4, cudaMemcpyDeviceToDevice, stream));
  if (N > n) {
    pad_kernel<<<unsigned((N - n + 255) / 256), 256, 0, stream>>>(buf, n, N);
    PRIMLAB_LAUNCH_TRY();
  }
  const unsigned tiles = unsigned(N / L);
  sort_shared_kernel<<<tiles, block, L * sizeof(std::uint32_t), stream>>>(buf);
  PRIMLAB_LAUNCH_TRY();
  for (std::int64_t size = 2 * L; size <= N; size <<= 1) {
    for (std::int64_t stride = size / 2; stride >= L; stride >>= 1) {
      merge_global_kernel<<<unsigned((N / 2 + block - 1) / block), block, 0, stream>>>(buf, N, size, stride);
      PRIMLAB_LAUNCH_TRY();
    }
    merge_shared_kernel<<<tiles, block, L * sizeof(std::uint32_t), stream>>>(buf, size);
    PRIMLAB_LAUNCH_TRY();
  }
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_out, buf, std::size_t(n) * 4, cudaMemcpyDeviceToDevice, stream));
  return Status::Success;
}

}  // namespace primlab::teaching

// [SECTION] The catalog's timed form: TimedArgs in, Status out
namespace primlab::steppers {

std::size_t timed_bytes_bitonic_sort(const TimedArgs& a) {
  return a.type == "u32" ? teaching::bitonic_global_sort_workspace_bytes(a.n, timed::block_of(a)) : 0;
}

Status timed_bitonic_sort(const TimedArgs& a) {
  if (a.type != "u32") return Status::InvalidArgument;
  return teaching::bitonic_global_sort(static_cast<const std::uint32_t*>(a.d_in), static_cast<std::uint32_t*>(a.d_out), a.n,
                          timed::block_of(a), timed::workspace_of(a), timed::stream_of(a));
}

}  // namespace primlab::steppers
