// The course report's 1-bit split radix sort (teaching variant at large n): max reduction for
// the bit count, b/f arrays, exclusive scan of f, totalFalses, scatter, ping-pong.
#include <algorithm>
#include <limits>

#include "util/cuda_check.cuh"
#include "lab/run/timed_args.cuh"

namespace primlab::teaching {
namespace {

// Any block of the catalog's range: the element-wise kernels take it as it is, the max tree and
// the scan (shared-memory trees that halve the block) the largest power of two within it.
bool valid_block(int block) { return block >= 1 && block <= 1024; }
int tree_block(int block) {
  int b = 1;
  while (2 * b <= block) b *= 2;
  return b;
}

std::int64_t blocks_for(std::int64_t n, std::int64_t per_block) { return (n + per_block - 1) / per_block; }

// listing: radix-split
// Block-wide max, then one atomicMax per block (the report's tree of pairwise maxima).
__global__ void find_max_kernel(const std::uint32_t* in, std::int64_t n, std::uint32_t* out_max) {
  extern __shared__ std::uint32_t s_max[];
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  s_max[threadIdx.x] = i < n ? in[i] : 0u;  // step: max keys
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) s_max[threadIdx.x] = max(s_max[threadIdx.x], s_max[threadIdx.x + s]);  // step: find max
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicMax(out_max, s_max[0]);
}

// kernBoolMaps: b[i] = bit k of in[i], f[i] = !b[i].
__global__ void bool_maps_kernel(std::int64_t n, int k, const std::uint32_t* in, std::uint32_t* b, std::uint32_t* f) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t bit = (in[i] >> k) & 1u;
  b[i] = bit;      // step: bits
  f[i] = bit ^ 1u;  // step: bits
}
// listing: end

// Work-efficient (Blelloch) exclusive scan of 2 * blockDim.x elements in shared memory; the
// block's total goes to sums[blockIdx.x].
__global__ void scan_block_kernel(const std::uint32_t* in, std::uint32_t* out, std::uint32_t* sums, std::int64_t n) {
  extern __shared__ std::uint32_t temp[];
  const int tid = threadIdx.x;
  const int m = 2 * blockDim.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * m;
  temp[tid] = base + tid < n ? in[base + tid] : 0u;
  temp[tid + blockDim.x] = base + tid + blockDim.x < n ? in[base + tid + blockDim.x] : 0u;
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    sums[blockIdx.x] = temp[m - 1];
    temp[m - 1] = 0;
  }
  for (int d = 1; d < m; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      const std::uint32_t t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + tid < n) out[base + tid] = temp[tid];
  if (base + tid + blockDim.x < n) out[base + tid + blockDim.x] = temp[tid + blockDim.x];
}

// scanDistribute: adds the scanned block sums back.
__global__ void add_sums_kernel(std::uint32_t* out, const std::uint32_t* sums, std::int64_t n, int per_block) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] += sums[i / per_block];
}

// listing: radix-split
// kernRadixScatter with t = i - f[i] + totalFalses, totalFalses = fs[n-1] + f[n-1].
__global__ void scatter_kernel(std::int64_t n, std::uint32_t* out, const std::uint32_t* in, const std::uint32_t* b,
                               const std::uint32_t* f, const std::uint32_t* fs) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t total_falses = fs[n - 1] + f[n - 1];      // step: total
  const std::uint32_t t = std::uint32_t(i) - fs[i] + total_falses;  // step: true
  out[b[i] ? t : fs[i]] = in[i];                                    // step: scatter
}
// listing: end

constexpr std::size_t align_words(std::size_t w) { return (w + 63) / 64 * 64; }

// One level of the recursive scan's scratch: its block sums, 256-byte aligned, and a gap. The size
// query and the scan both step through the scratch with it.
constexpr std::size_t level_words(std::int64_t blocks) { return align_words(std::size_t(blocks)) + 64; }

// Scratch of the recursive scan: one level of block sums per 2 * block elements.
std::size_t scan_scratch_words(std::int64_t n, int block) {
  std::size_t words = 0;
  while (n > 1) {
    n = blocks_for(n, 2 * block);
    words += level_words(n);
  }
  return words + 64;
}

Status exclusive_scan(const std::uint32_t* in, std::uint32_t* out, std::int64_t n, int block, std::uint32_t* scratch,
                      cudaStream_t stream) {
  const std::int64_t blocks = blocks_for(n, 2 * block);
  std::uint32_t* sums = scratch;
  scan_block_kernel<<<unsigned(blocks), block, 2 * block * sizeof(std::uint32_t), stream>>>(in, out, sums, n);
  PRIMLAB_LAUNCH_TRY();
  if (blocks == 1) return Status::Success;
  std::uint32_t* next = scratch + level_words(blocks);
  const Status st = exclusive_scan(sums, sums, blocks, block, next, stream);
  if (st != Status::Success) return st;
  add_sums_kernel<<<unsigned(blocks_for(n, block)), block, 0, stream>>>(out, sums, n, 2 * block);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

}  // namespace

std::size_t split_radix_sort_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || !valid_block(block)) return 0;
  // alt, b, f, f_scan (n words each), the max, the scan scratch
  return (4 * align_words(std::size_t(n)) + 64 + scan_scratch_words(n, tree_block(block))) * sizeof(std::uint32_t);
}

Status split_radix_sort(const std::uint32_t* d_in, std::uint32_t* d_out, std::int64_t n, int block, Workspace ws,
                        cudaStream_t stream) {
  if (n < 0 || !valid_block(block)) return Status::InvalidArgument;
  if (n > std::numeric_limits<std::int32_t>::max()) return Status::Unsupported;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < split_radix_sort_workspace_bytes(n, block)) return Status::WorkspaceTooSmall;
  if (!ws.ptr) return Status::InvalidArgument;
  std::uint32_t* w = static_cast<std::uint32_t*>(ws.ptr);
  const std::size_t stride = align_words(std::size_t(n));
  std::uint32_t* alt = w;
  std::uint32_t* b = w + stride;
  std::uint32_t* f = w + 2 * stride;
  std::uint32_t* fs = w + 3 * stride;
  std::uint32_t* d_max = w + 4 * stride;
  std::uint32_t* scratch = d_max + 64;
  const unsigned grid = unsigned(blocks_for(n, block));

  PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_max, 0, sizeof(std::uint32_t), stream));
  const int tree = tree_block(block);
  find_max_kernel<<<unsigned(blocks_for(n, tree)), tree, tree * sizeof(std::uint32_t), stream>>>(d_in, n, d_max);
  PRIMLAB_LAUNCH_TRY();
  std::uint32_t h_max = 0;
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_max, d_max, sizeof(h_max), cudaMemcpyDeviceToHost, stream));
  PRIMLAB_CUDA_TRY(cudaStreamSynchronize(stream));
  const int bits = h_max == 0 ? 0 : 32 - __builtin_clz(h_max);

  if (bits == 0) {
    if (d_in != d_out)
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_out, d_in, std::size_t(n) * 4, cudaMemcpyDeviceToDevice, stream));
    return Status::Success;
  }
  // Ping-pong so that the last bit's scatter writes d_out.
  const std::uint32_t* src = d_in;
  if (d_in == d_out && (bits - 1) % 2 == 0) {
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(alt, d_in, std::size_t(n) * 4, cudaMemcpyDeviceToDevice, stream));
    src = alt;
  }
  // listing: radix-split
  for (int k = 0; k < bits; ++k) {
    std::uint32_t* dst = ((bits - 1 - k) % 2 == 0) ? d_out : alt;
    bool_maps_kernel<<<grid, block, 0, stream>>>(n, k, src, b, f);
    PRIMLAB_LAUNCH_TRY();
    const Status st = exclusive_scan(f, fs, n, tree, scratch, stream);  // step: scan
    if (st != Status::Success) return st;
    scatter_kernel<<<grid, block, 0, stream>>>(n, dst, src, b, f, fs);
    PRIMLAB_LAUNCH_TRY();
    src = dst;
  }
  // listing: end
  return Status::Success;
}

}  // namespace primlab::teaching

// [SECTION] The catalog's timed form: TimedArgs in, Status out
namespace primlab::steppers {

std::size_t timed_bytes_radix_split(const TimedArgs& a) {
  return a.type == "u32" ? teaching::split_radix_sort_workspace_bytes(a.n, timed::block_of(a)) : 0;
}

Status timed_radix_split(const TimedArgs& a) {
  if (a.type != "u32") return Status::InvalidArgument;
  return teaching::split_radix_sort(static_cast<const std::uint32_t*>(a.d_in), static_cast<std::uint32_t*>(a.d_out), a.n,
                          timed::block_of(a), timed::workspace_of(a), timed::stream_of(a));
}

}  // namespace primlab::steppers
