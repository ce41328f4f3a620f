// The host loop of Harris's kernels 6 and 7: the host's switch that picks the kernel's block-size
// instantiation, and the passes that launch it over the blocks' partial sums until one value is
// left. Both kernels are timed and stepped through it.
#pragma once
#include <cstdint>
#include <type_traits>

#include "primlab/status.h"
#include "util/cuda_check.cuh"

namespace primlab::lab {

// listing: reduce6 reduce7
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
// per_block(block, rounds) elements in a half of the workspace, in turn; the last writes d_out.
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
  if (ws.bytes < reduce_passes_bytes<T>(n, block, rounds) || !ws.ptr) return Status::WorkspaceTooSmall;
  T* buf[2] = {static_cast<T*>(ws.ptr), static_cast<T*>(ws.ptr) + ws.bytes / sizeof(T) / 2};
  const T* src = d_in;
  // listing: reduce6 reduce7
  const std::int64_t e = per_block(block, rounds);
  for (std::int64_t len = n, which = 0;; which ^= 1) {
    const std::int64_t blocks = (len + e - 1) / e;
    T* dst = blocks == 1 ? d_out : buf[which];
    const Status s = with_block_size(block, [&](auto size) { launch(size, src, dst, len, unsigned(blocks)); });
    if (s != Status::Success || blocks == 1) return s;
    src = dst;
    len = blocks;
  }
  // listing: end
}

}  // namespace primlab::lab
