// Harris's kernels 6 and 7 end alike: the tree over sdata[0, blockSize) unrolled completely by the
// block size, a template parameter, and the host's switch that picks the instantiation; both
// repeat their launch over the blocks' partial sums until one value is left, and both are timed
// through the catalog the same way.
// A block smaller than 64 threads needs sdata[blockSize, 2 * blockSize) zeroed: the unrolled warp's
// upper lanes read there.
#pragma once
#include <cstdint>
#include <type_traits>

#include "lab/run/timed_args.cuh"
#include "primlab/status.h"
#include "util/cuda_check.cuh"

namespace primlab::teaching {

// listing: reduce6 reduce7
// One warp-synchronous line: every lane reads, the warp waits, every lane writes (volatile, and
// __syncwarp since Volta's independent thread scheduling).
template <class T>
__device__ void warp_line(volatile T* d, unsigned tid, unsigned s, unsigned lanes) {
  const T v = d[tid] + d[tid + s];
  __syncwarp(lanes);
  d[tid] = v;
  __syncwarp(lanes);
}

// Every `if (blockSize >= ...)` is decided at compile time: no loop counter, no compare of s.
template <unsigned blockSize, class T>
__device__ void block_reduce_unrolled(T* sdata, unsigned tid) {
  if (blockSize >= 1024) { if (tid < 512) sdata[tid] += sdata[tid + 512]; __syncthreads(); }  // step: level
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }  // step: level
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }  // step: level
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }  // step: level
  if (tid < 32) {
    const unsigned lanes = blockSize >= 32 ? 0xffffffffu : (1u << (blockSize & 31)) - 1;
    if (blockSize >= 64) warp_line<T>(sdata, tid, 32, lanes);  // step: unrolled
    if (blockSize >= 32) warp_line<T>(sdata, tid, 16, lanes);  // step: unrolled
    if (blockSize >= 16) warp_line<T>(sdata, tid, 8, lanes);  // step: unrolled
    if (blockSize >= 8) warp_line<T>(sdata, tid, 4, lanes);  // step: unrolled
    if (blockSize >= 4) warp_line<T>(sdata, tid, 2, lanes);  // step: unrolled
    if (blockSize >= 2) warp_line<T>(sdata, tid, 1, lanes);  // step: unrolled
  }
}

// The host picks the instantiation: f(std::integral_constant<unsigned, block>{}).
template <class F>
Status with_block_size(int block, F&& f) {
  switch (block) {
    case 1024: f(std::integral_constant<unsigned, 1024>{}); break;
    case 512: f(std::integral_constant<unsigned, 512>{}); break;
    case 256: f(std::integral_constant<unsigned, 256>{}); break;
    case 128: f(std::integral_constant<unsigned, 128>{}); break;
    case 64: f(std::integral_constant<unsigned, 64>{}); break;
    case 32: f(std::integral_constant<unsigned, 32>{}); break;
    case 16: f(std::integral_constant<unsigned, 16>{}); break;
    case 8: f(std::integral_constant<unsigned, 8>{}); break;
    case 4: f(std::integral_constant<unsigned, 4>{}); break;
    case 2: f(std::integral_constant<unsigned, 2>{}); break;
    case 1: f(std::integral_constant<unsigned, 1>{}); break;
    default: return Status::InvalidArgument;
  }
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}
// listing: end

// Elements one block covers: two per thread and round of the loads.
inline std::int64_t per_block(int block, int rounds) { return 2 * std::int64_t(block) * rounds; }

// Workspace of reduce_passes: two ping-pong arrays of pass 1's partial sums.
template <class T>
std::size_t reduce_passes_bytes(std::int64_t n, int block, int rounds) {
  const std::int64_t e = per_block(block, rounds);
  return n <= 0 || e <= 0 ? 0 : 2 * std::size_t((n + e - 1) / e) * sizeof(T);
}

// Launches the kernel until one value is left, through launch(size, src, dst, len, blocks) with
// size the block size as a std::integral_constant: each pass leaves one partial sum per block of
// per_block(block, rounds) elements in the workspace, the last writes d_out.
template <class T, class Launch>
Status reduce_passes(const T* d_in, T* d_out, std::int64_t n, int block, int rounds, Workspace ws,
                     cudaStream_t stream, Launch&& launch) {
  const bool pow2 = block >= 1 && block <= 1024 && (block & (block - 1)) == 0;
  if (n < 0 || !d_out || !pow2 || rounds < 1) return Status::InvalidArgument;
  if (n == 0) {
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(T), stream));
    return Status::Success;
  }
  if (!d_in) return Status::InvalidArgument;
  const std::int64_t e = per_block(block, rounds);
  if (ws.bytes < reduce_passes_bytes<T>(n, block, rounds) || !ws.ptr) return Status::WorkspaceTooSmall;
  T* buf[2] = {static_cast<T*>(ws.ptr), static_cast<T*>(ws.ptr) + (n + e - 1) / e};
  const T* src = d_in;
  for (std::int64_t len = n, which = 0;; which ^= 1) {
    const std::int64_t blocks = (len + e - 1) / e;
    T* dst = blocks == 1 ? d_out : buf[which];
    const Status s = with_block_size(block, [&](auto size) { launch(size, src, dst, len, unsigned(blocks)); });
    if (s != Status::Success || blocks == 1) return s;
    src = dst;
    len = blocks;
  }
}

// [SECTION] The catalog's timed form: TimedArgs in, Status out, for the row's types
// Workspace of the passes over per_block(block, rounds) elements a block.
inline std::size_t timed_passes_bytes(const TimedArgs& a, int rounds) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return reduce_passes_bytes<decltype(x)>(a.n, timed::block_of(a), rounds);
  });
}

// Calls sum(d_in, d_out, n, block, workspace, stream) on the args' buffers, typed.
template <class Sum>
Status timed_passes(const TimedArgs& a, Sum&& sum) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return sum(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_scalar), a.n, timed::block_of(a),
               timed::workspace_of(a), timed::stream_of(a));
  });
}

}  // namespace primlab::teaching
