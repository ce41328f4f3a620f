// Teaching: Harris's kernel 6 ("Optimizing Parallel Reduction in CUDA"): reduce5 with the whole
// tree unrolled by the block size, a template parameter; each launch leaves one partial sum per
// block of 2 * blockSize elements and the launches repeat until one value is left.
#include <cstdint>

#include "lab/algorithms/reduce/reduce6/block_reduce_unrolled.cuh"

namespace primlab::teaching {
namespace {

// listing: reduce6
// 6: first add during the load (as reduce4), then the unrolled tree.
template <unsigned blockSize, class T>
__global__ void reduce6(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  __shared__ T sdata[blockSize < 64 ? 2 * blockSize : blockSize];
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockSize + tid;
  T v = i < n ? in[i] : T(0);  // step: load
  if (i + blockSize < n) v += in[i + blockSize];  // step: load
  sdata[tid] = v;  // step: load
  if (blockSize < 64) sdata[tid + blockSize] = T(0);  // padding read by the unrolled warp's upper lanes
  __syncthreads();
  block_reduce_unrolled<blockSize>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
}

template <class T>
Status reduce6_sum(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream) {
  return reduce_passes(d_in, d_out, n, block, 1, ws, stream,
                       [&](auto size, const T* src, T* dst, std::int64_t len, unsigned blocks) {
                         reduce6<decltype(size)::value><<<blocks, size(), 0, stream>>>(src, dst, len);
                       });
}
// listing: end

}  // namespace
}  // namespace primlab::teaching

// [SECTION] The catalog's timed form
namespace primlab::steppers {

std::size_t timed_bytes_reduce6(const TimedArgs& a) { return teaching::timed_passes_bytes(a, 1); }

Status timed_reduce6(const TimedArgs& a) {
  return teaching::timed_passes(a, [](auto... args) { return teaching::reduce6_sum(args...); });
}

}  // namespace primlab::steppers
