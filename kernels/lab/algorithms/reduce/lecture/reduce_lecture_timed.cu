// Teaching: the lecture's reductions reduce1..reduce5 (Harris, "Optimizing Parallel Reduction
// in CUDA") and a warp-shuffle reduce; each launch leaves one partial sum per block and the
// launches repeat until one value is left.
#include <algorithm>
#include <cstdint>

#include "util/cuda_check.cuh"
#include "lab/run/timed_args.cuh"

namespace primlab::teaching {
namespace {

constexpr int kReduceLectureVariants = 6;  // reduce1..reduce5 and the warp-shuffle reduce

// 1: interleaved addressing, divergent branch (tid % (2s) == 0).
template <class T>
__global__ void reduce1(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 2: interleaved addressing, strided index (no divergence, bank conflicts).
template <class T>
__global__ void reduce2(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 3: sequential addressing (conflict-free; half the threads idle from the first step).
template <class T>
__global__ void reduce3(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 4: first add during the load (each block covers 2 * blockDim.x elements).
template <class T>
__global__ void reduce4(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockDim.x + tid;
  T v = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// The last warp without barriers (volatile shared memory; __syncwarp orders the steps, which
// independent thread scheduling needs since Volta).
// Blocks smaller than 64 threads start at half the block (as the stepped reduce5 does).
template <class T>
__device__ void warp_reduce_volatile(volatile T* sdata, unsigned tid) {
  const unsigned lanes = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;
  T v = sdata[tid];
  for (unsigned s = blockDim.x < 64 ? blockDim.x / 2 : 32; s > 0; s >>= 1) {
    v += sdata[tid + s];
    __syncwarp(lanes);
    sdata[tid] = v;
    __syncwarp(lanes);
  }
}

// 5: reduce4 with the last warp unrolled.
template <class T>
__global__ void reduce5(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockDim.x + tid;
  T v = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  sdata[tid + blockDim.x] = T(0);  // padding read by the unrolled warp's upper lanes
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce_volatile(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 6: grid-stride accumulation of `items` elements per thread, then warp shuffles.
template <class T>
__global__ void reduce_shuffle(const T* __restrict__ in, T* __restrict__ out, std::int64_t n,
                               int items) {
  __shared__ T s_warp[32];
  const std::int64_t per_block = std::int64_t(blockDim.x) * items;
  const std::int64_t base = std::int64_t(blockIdx.x) * per_block + threadIdx.x;
  T v = T(0);
  for (int k = 0; k < items; ++k) {
    const std::int64_t i = base + std::int64_t(k) * blockDim.x;
    if (i < n) v += in[i];
  }
  // A block smaller than a warp shuffles over its own lanes only and is done.
  const unsigned width = blockDim.x < 32 ? blockDim.x : 32;
  const unsigned lanes = width == 32 ? 0xffffffffu : (1u << width) - 1;
  for (unsigned d = width / 2; d > 0; d >>= 1) v += __shfl_down_sync(lanes, v, d, width);
  if (blockDim.x <= 32) {
    if (threadIdx.x == 0) out[blockIdx.x] = v;
    return;
  }
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) s_warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < int(blockDim.x >> 5) ? s_warp[lane] : T(0);
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// The catalog's range: a power of two up to 1024 (the shared-memory trees halve the block).
bool valid_block(int block) { return block >= 1 && block <= 1024 && (block & (block - 1)) == 0; }

std::int64_t per_block(int variant, int block, int items) {
  if (variant <= 3) return block;
  if (variant <= 5) return 2 * std::int64_t(block);
  return std::int64_t(block) * items;
}

}  // namespace

template <class T>
std::size_t reduce_lecture_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || block <= 0) return 0;
  // Two ping-pong arrays of one partial per block of the first pass (at most n / block).
  return 2 * std::size_t((n + block - 1) / block) * sizeof(T);
}

template <class T>
Status reduce_lecture(int variant, const T* d_in, T* d_out, std::int64_t n, int block,
                      int items_per_thread, Workspace ws, cudaStream_t stream) {
  if (variant < 1 || variant > kReduceLectureVariants || n < 0 || !d_out || !valid_block(block))
    return Status::InvalidArgument;
  if (variant == 6 && (items_per_thread < 1 || items_per_thread > 4096))
    return Status::InvalidArgument;
  if (n == 0) {
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(T), stream));
    return Status::Success;
  }
  if (!d_in) return Status::InvalidArgument;
  const std::size_t need = reduce_lecture_workspace_bytes<T>(n, block);
  if (ws.bytes < need || !ws.ptr) return Status::WorkspaceTooSmall;
  T* buf[2] = {static_cast<T*>(ws.ptr), static_cast<T*>(ws.ptr) + (n + block - 1) / block};
  const T* src = d_in;
  std::int64_t len = n;
  int which = 0;
  for (int b = block;; b = std::max(b, 2)) {  // a pass over the partial sums must shrink them
    const std::int64_t e = per_block(variant, b, items_per_thread);
    const std::int64_t blocks = (len + e - 1) / e;
    T* dst = blocks == 1 ? d_out : buf[which];
    const std::size_t smem = std::size_t(variant == 5 ? 2 * b : b) * sizeof(T);
    const unsigned g = unsigned(blocks);
    switch (variant) {
      case 1: reduce1<<<g, b, smem, stream>>>(src, dst, len); break;
      case 2: reduce2<<<g, b, smem, stream>>>(src, dst, len); break;
      case 3: reduce3<<<g, b, smem, stream>>>(src, dst, len); break;
      case 4: reduce4<<<g, b, smem, stream>>>(src, dst, len); break;
      case 5: reduce5<<<g, b, smem, stream>>>(src, dst, len); break;
      default: reduce_shuffle<<<g, b, 0, stream>>>(src, dst, len, items_per_thread); break;
    }
    PRIMLAB_LAUNCH_TRY();
    if (blocks == 1) break;
    src = dst;
    len = blocks;
    which ^= 1;
  }
  return Status::Success;
}

}  // namespace primlab::teaching

// [SECTION] The catalog's timed form: TimedArgs in, Status out
namespace primlab::steppers {

namespace {
// Runs the lecture's reduction `variant` (1..5; 6 is the warp-shuffle reduce).
Status run_reduce(int variant, const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return teaching::reduce_lecture(variant, static_cast<const T*>(a.d_in), static_cast<T*>(a.d_scalar), a.n,
                                    timed::block_of(a), timed::items_of(a), timed::workspace_of(a),
                                    timed::stream_of(a));
  });
}

// All six share one workspace: two ping-pong arrays of per-block partial sums.
std::size_t reduce_bytes(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return teaching::reduce_lecture_workspace_bytes<decltype(x)>(a.n, timed::block_of(a));
  });
}
}  // namespace

std::size_t timed_bytes_reduce1(const TimedArgs& a) { return reduce_bytes(a); }
std::size_t timed_bytes_reduce2(const TimedArgs& a) { return reduce_bytes(a); }
std::size_t timed_bytes_reduce3(const TimedArgs& a) { return reduce_bytes(a); }
std::size_t timed_bytes_reduce4(const TimedArgs& a) { return reduce_bytes(a); }
std::size_t timed_bytes_reduce5(const TimedArgs& a) { return reduce_bytes(a); }
std::size_t timed_bytes_reduce_shuffle(const TimedArgs& a) { return reduce_bytes(a); }

Status timed_reduce1(const TimedArgs& a) { return run_reduce(1, a); }
Status timed_reduce2(const TimedArgs& a) { return run_reduce(2, a); }
Status timed_reduce3(const TimedArgs& a) { return run_reduce(3, a); }
Status timed_reduce4(const TimedArgs& a) { return run_reduce(4, a); }
Status timed_reduce5(const TimedArgs& a) { return run_reduce(5, a); }
Status timed_reduce_shuffle(const TimedArgs& a) { return run_reduce(6, a); }

}  // namespace primlab::steppers
