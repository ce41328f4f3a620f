// Teaching: Harris's kernel 7 ("Optimizing Parallel Reduction in CUDA"): each thread first sums
// many elements in a grid-stride loop, then the block runs kernel 6's unrolled tree. Brent's
// theorem: O(n / log n) threads doing O(log n) sequential adds each keep the work O(n) and the
// steps O(log n), and far fewer blocks pay the tree's barriers. The timed form takes the items
// per thread: the grid is ceil(n / (blockSize * items)) blocks, each thread summing `items`
// elements (rounded up to even: one round of the loop adds two); the launches repeat over the
// blocks' partial sums until one value is left.
#include <cstdint>

#include "lab/algorithms/reduce/reduce6/block_reduce_unrolled.cuh"

namespace primlab::teaching {
namespace {

// listing: reduce7
// 7: many elements per thread (a grid-stride loop in registers), then the unrolled tree.
template <unsigned blockSize, class T>
__global__ void reduce7(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  __shared__ T sdata[blockSize < 64 ? 2 * blockSize : blockSize];
  const unsigned tid = threadIdx.x;
  const std::int64_t gridSize = 2 * std::int64_t(blockSize) * gridDim.x;
  T sum = T(0);
  for (std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockSize + tid; i < n; i += gridSize)
    sum += i + blockSize < n ? in[i] + in[i + blockSize] : in[i];  // step: round
  sdata[tid] = sum;  // step: store
  if (blockSize < 64) sdata[tid + blockSize] = T(0);  // padding read by the unrolled warp's upper lanes
  __syncthreads();
  block_reduce_unrolled<blockSize>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
}

// Each thread sums `items` elements, two per round of the loop.
template <class T>
Status reduce7_sum(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream,
                   int items) {
  if (items < 1 || items > 4096) return Status::InvalidArgument;
  return reduce_passes(d_in, d_out, n, block, (items + 1) / 2, ws, stream,
                       [&](auto size, const T* src, T* dst, std::int64_t len, unsigned blocks) {
                         reduce7<decltype(size)::value><<<blocks, size(), 0, stream>>>(src, dst, len);
                       });
}
// listing: end

}  // namespace
}  // namespace primlab::teaching

// [SECTION] The catalog's timed form
namespace primlab::steppers {

std::size_t timed_bytes_reduce7(const TimedArgs& a) {
  return teaching::timed_passes_bytes(a, (timed::items_of(a) + 1) / 2);
}

Status timed_reduce7(const TimedArgs& a) {
  return teaching::timed_passes(a, [&](auto... args) { return teaching::reduce7_sum(args..., timed::items_of(a)); });
}

}  // namespace primlab::steppers
