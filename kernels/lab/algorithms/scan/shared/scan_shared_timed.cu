// Teaching: the lecture's scan3 (GPU Gems 3, ch. 39: shared-memory Blelloch scan of 2 * block
// elements with bank-conflict-avoiding offsets), block sums scanned recursively and added back
// (scanDistribute).
#include <cstdint>

#include "util/cuda_check.cuh"
#include "lab/run/timed_args.cuh"

namespace primlab::teaching {
namespace {

constexpr int kLogBanks = 5;
__device__ __forceinline__ int conflict_free(int i) { return i >> kLogBanks; }

// Exclusive scan of 2 * blockDim.x elements; the block's total goes to sums[blockIdx.x].
template <class T>
__global__ void scan3_kernel(const T* __restrict__ in, T* __restrict__ out, T* __restrict__ sums,
                             std::int64_t n) {
  extern __shared__ unsigned char s_raw[];
  T* temp = reinterpret_cast<T*>(s_raw);
  const int tid = threadIdx.x;
  const int two_b = 2 * blockDim.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * two_b;
  int ai = tid, bi = tid + blockDim.x;
  temp[ai + conflict_free(ai)] = base + ai < n ? in[base + ai] : T(0);
  temp[bi + conflict_free(bi)] = base + bi < n ? in[base + bi] : T(0);
  int offset = 1;
  for (int d = blockDim.x; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      a += conflict_free(a);
      b += conflict_free(b);
      temp[b] += temp[a];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    const int last = two_b - 1 + conflict_free(two_b - 1);
    sums[blockIdx.x] = temp[last];
    temp[last] = T(0);
  }
  for (int d = 1; d < two_b; d <<= 1) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      a += conflict_free(a);
      b += conflict_free(b);
      const T t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = temp[ai + conflict_free(ai)];
  if (base + bi < n) out[base + bi] = temp[bi + conflict_free(bi)];
}

// scanDistribute: add the scanned sum of each block to its 2 * blockDim.x elements.
template <class T>
__global__ void distribute_kernel(T* out, const T* __restrict__ sums, std::int64_t n) {
  const std::int64_t base = std::int64_t(blockIdx.x) * 2 * blockDim.x;
  const T add = sums[blockIdx.x];
  for (int j = threadIdx.x; j < 2 * int(blockDim.x); j += blockDim.x)
    if (base + j < n) out[base + j] += add;
}

// The catalog's range: a power of two up to 1024 (the shared-memory trees halve the block).
bool valid_block(int block) { return block >= 1 && block <= 1024 && (block & (block - 1)) == 0; }

std::int64_t level_blocks(std::int64_t n, int block) { return (n + 2 * block - 1) / (2 * block); }

template <class T>
Status scan_level(const T* in, T* out, std::int64_t n, int block, T* ws, cudaStream_t stream) {
  const std::int64_t blocks = level_blocks(n, block);
  const std::size_t smem = std::size_t(2 * block + (2 * block >> kLogBanks)) * sizeof(T);
  T* sums = ws;
  scan3_kernel<<<unsigned(blocks), block, smem, stream>>>(in, out, sums, n);
  PRIMLAB_LAUNCH_TRY();
  if (blocks > 1) {
    Status s = scan_level<T>(sums, sums, blocks, block, ws + blocks, stream);
    if (s != Status::Success) return s;
    distribute_kernel<<<unsigned(blocks), block, 0, stream>>>(out, sums, n);
    PRIMLAB_LAUNCH_TRY();
  }
  return Status::Success;
}

}  // namespace

template <class T>
std::size_t scan_shared_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || !valid_block(block)) return 0;
  std::size_t total = 0;
  for (std::int64_t len = n;;) {
    const std::int64_t b = level_blocks(len, block);
    total += std::size_t(b);
    if (b <= 1) break;
    len = b;
  }
  return total * sizeof(T);
}

template <class T>
Status scan_shared(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws,
                   cudaStream_t stream) {
  if (n < 0 || !valid_block(block)) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < scan_shared_workspace_bytes<T>(n, block) || !ws.ptr)
    return Status::WorkspaceTooSmall;
  return scan_level<T>(d_in, d_out, n, block, static_cast<T*>(ws.ptr), stream);
}

}  // namespace primlab::teaching

// [SECTION] The catalog's timed form: TimedArgs in, Status out
namespace primlab::steppers {

std::size_t timed_bytes_scan_shared(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return teaching::scan_shared_workspace_bytes<decltype(x)>(a.n, timed::block_of(a));
  });
}

Status timed_scan_shared(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return teaching::scan_shared(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_out), a.n, timed::block_of(a),
                          timed::workspace_of(a), timed::stream_of(a));
  });
}

}  // namespace primlab::steppers
