// The course report's LSD radix sort by 1-bit splits, the kernels and the host code that launches
// them, written once: the timed form runs them with NoProbe, the stepped form with the lab's
// recording probe, and the Step tab lists this file. A max reduction (one block-wide tree a block,
// then one atomicMax a block) tells how many low bits the keys need; then per bit k: b = bit k,
// f = !b, fs = exclusive scan of f (radix_scan.cuh), and the scatter to fs[i] (bit 0) or
// t = i - fs[i] + totalFalses (bit 1), ping-ponging between the output and a second buffer.
// int32 keys: the max is taken over k ^ (k >> 31) (the bits below the sign), and a last pass splits
// on the flipped sign bit, so that negative keys come first.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "lab/algorithms/radix/radix_scan.cuh"
#include "lab/algorithms/radix/split/radix_split_rows.h"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab::radix {

// The bits a key needs below its sign: uint32 keys as they are, int32 keys with the copies of the
// sign bit cleared (k ^ (k >> 31): -1 needs no bit, like 0).
__device__ __forceinline__ std::uint32_t needed_bits(std::uint32_t k) { return k; }
__device__ __forceinline__ std::uint32_t needed_bits(std::int32_t k) { return std::uint32_t(k ^ (k >> 31)); }
// Bit k of a key; an int32 key's sign bit (k = 31) flipped, so that negative keys go first.
__device__ __forceinline__ std::uint32_t key_bit(std::uint32_t key, int k) { return (key >> k) & 1u; }
__device__ __forceinline__ std::uint32_t key_bit(std::int32_t key, int k) {
  return ((std::uint32_t(key) ^ (k == 31 ? 0x80000000u : 0u)) >> k) & 1u;
}

// listing: radix-split
// Block-wide max, then one atomicMax per block (the report's tree of pairwise maxima).
template <class T, class Probe>
__global__ void find_max_kernel(const T* in, std::int64_t n, std::uint32_t* out_max, Probe probe) {
  extern __shared__ std::uint32_t s_max[];
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.on_chip(kSplitTree, s_max, i - threadIdx.x, blockDim.x);
  s_max[threadIdx.x] = i < n ? needed_bits(in[i]) : 0u;  // step: max keys
  probe.op(0, i < n ? OpKind::Move : OpKind::Write, kSplitIn, i < n ? i : -1, kSplitTree, i);
  probe.shared_access(threadIdx.x);
  probe.count(kGlobalRead, i < n ? sizeof(T) : 0);
  __syncthreads();
  probe.barrier();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    probe.branch(threadIdx.x < s);
    if (threadIdx.x < s) {
      s_max[threadIdx.x] = max(s_max[threadIdx.x], s_max[threadIdx.x + s]);  // step: find max
      probe.op(0, OpKind::Add, kSplitTree, i + s, kSplitTree, i);
    }
    probe.shared_access(threadIdx.x < s ? int(threadIdx.x) : -1);
    probe.shared_access(threadIdx.x < s ? int(threadIdx.x + s) : -1);
    probe.shared_access(threadIdx.x < s ? int(threadIdx.x) : -1);
    __syncthreads();
    probe.barrier();
  }
  probe.branch(threadIdx.x == 0);
  if (threadIdx.x == 0) {
    atomicMax(out_max, s_max[0]);  // step: atomic max
    probe.op(0, OpKind::Atomic, kSplitTree, i, kSplitMax, 0);
    probe.count(kAtomics, 1);
  }
  probe.shared_access(threadIdx.x == 0 ? 0 : -1);
}

// kernBoolMaps: b[i] = bit k of in[i], f[i] = !b[i].
template <class T, class Probe>
__global__ void bool_maps_kernel(std::int64_t n, int k, const T* in, std::uint32_t* b, std::uint32_t* f,
                                 Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i >= n) return;
  const std::uint32_t bit = key_bit(in[i], k);
  b[i] = bit;      // step: bits
  probe.op(0, OpKind::Move, kSplitIn, i, kSplitBit, i);
  f[i] = bit ^ 1u;  // step: bits
  probe.op(1, OpKind::Move, kSplitIn, i, kSplitFalse, i);
  probe.count(kGlobalRead, sizeof(T));
  probe.count(kGlobalWrite, 8);
}

// kernRadixScatter with t = i - fs[i] + totalFalses, totalFalses = fs[n-1] + f[n-1].
template <class T, class Probe>
__global__ void scatter_kernel(std::int64_t n, T* out, const T* in, const std::uint32_t* b, const std::uint32_t* f,
                               const std::uint32_t* fs, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i >= n) return;
  const std::uint32_t total_falses = fs[n - 1] + f[n - 1];      // step: total
  probe.value(kSplitTotal, 0, total_falses);
  const std::uint32_t t = std::uint32_t(i) - fs[i] + total_falses;  // step: true
  probe.value(kSplitTrue, i, t);
  out[b[i] ? t : fs[i]] = in[i];                                    // step: scatter
  probe.value(kSplitDest, i, b[i] ? t : fs[i]);
  probe.op(0, OpKind::Move, kSplitIn, i, kSplitOut, std::int64_t(b[i] ? t : fs[i]));
  probe.count(kAdds, 3);
  probe.count(kGlobalRead, 16 + sizeof(T));
  probe.count(kGlobalWrite, sizeof(T));
}
// listing: end

// The arrays the sort works in: a second key buffer, the bit arrays, the scan's block sums and the
// max (split_arrays carves them out of a workspace of split_radix_sort_workspace_bytes).
template <class T>
struct SplitArrays {
  T* alt;
  std::uint32_t *b, *f, *fs, *sums, *max;
};

constexpr std::size_t align_words(std::size_t w) { return (w + 63) / 64 * 64; }

// Any block of 1 to 1024 threads: the element-wise kernels take it as it is, the max tree and the
// scan (shared-memory trees that halve the block) the largest power of two within it.
inline bool split_valid_block(int block) { return block >= 1 && block <= 1024; }

// alt, b, f, fs (n words each, 256-byte aligned), then the scan's block sums and the max.
template <class T>
std::size_t split_radix_sort_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || !split_valid_block(block)) return 0;
  return (4 * align_words(std::size_t(n)) + align_words(radix_scan_scratch_words(n, block)) + 1) * 4;
}

template <class T>
SplitArrays<T> split_arrays(Workspace ws, std::int64_t n, int block) {
  const std::size_t stride = align_words(std::size_t(n));
  auto* w = static_cast<std::uint32_t*>(ws.ptr);
  return {reinterpret_cast<T*>(w), w + stride, w + 2 * stride, w + 3 * stride, w + 4 * stride,
          w + 4 * stride + align_words(radix_scan_scratch_words(n, block))};
}

// Sorts n keys of d_in into d_out (in place where d_in == d_out).
template <class T, class Probe = NoProbe>
Status split_radix_sort(const T* d_in, T* d_out, std::int64_t n, int block, const SplitArrays<T>& a,
                        cudaStream_t stream, Probe probe = {}) {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::int32_t>, "32-bit integer keys");
  if (n < 0 || !split_valid_block(block)) return Status::InvalidArgument;
  if (n > std::numeric_limits<std::int32_t>::max()) return Status::Unsupported;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  const unsigned grid = unsigned(blocks_for(n, block));
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(a.max, 0, sizeof(std::uint32_t), stream));
  // listing: radix-split
  const int tree = tree_block(block, n);
  probe.launch(stream);
  find_max_kernel<<<unsigned(blocks_for(n, tree)), tree, tree * sizeof(std::uint32_t), stream>>>(d_in, n, a.max,
                                                                                                  probe);
  PRIMLAB_LAUNCH_TRY();
  std::uint32_t h_max = 0;
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(&h_max, a.max, sizeof(h_max), cudaMemcpyDeviceToHost, stream));
  PRIMLAB_CUDA_TRY(cudaStreamSynchronize(stream));
  const int bits = h_max == 0 ? 0 : 32 - __builtin_clz(h_max);
  const int passes = bits + (std::is_signed_v<T> ? 1 : 0);  // int32: a last pass on the sign bit
  // listing: end
  if (passes == 0) {
    if (d_in != d_out)
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_out, d_in, std::size_t(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    return Status::Success;
  }
  // Ping-pong so that the last pass's scatter writes d_out.
  const T* src = d_in;
  if (d_in == d_out && (passes - 1) % 2 == 0) {
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(a.alt, d_in, std::size_t(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    src = a.alt;
  }
  // listing: radix-split
  for (int p = 0; p < passes; ++p) {
    const int k = p < bits ? p : 31;
    T* dst = ((passes - 1 - p) % 2 == 0) ? d_out : a.alt;
    probe.launch(stream);
    bool_maps_kernel<<<grid, block, 0, stream>>>(n, k, src, a.b, a.f, probe);
    PRIMLAB_LAUNCH_TRY();
    const Status st = radix_exclusive_scan(a.f, a.fs, n, block, a.sums, stream, probe);
    if (st != Status::Success) return st;
    probe.launch(stream);
    scatter_kernel<<<grid, block, 0, stream>>>(n, dst, src, a.b, a.f, a.fs, probe);
    PRIMLAB_LAUNCH_TRY();
    src = dst;
  }
  // listing: end
  return Status::Success;
}

// The timed form's entry: the arrays carved out of a workspace.
template <class T>
Status split_radix_sort(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream) {
  if (n < 0 || !split_valid_block(block)) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (ws.bytes < split_radix_sort_workspace_bytes<T>(n, block)) return Status::WorkspaceTooSmall;
  if (!ws.ptr) return Status::InvalidArgument;
  return split_radix_sort(d_in, d_out, n, block, split_arrays<T>(ws, n, block), stream);
}

}  // namespace primlab::lab::radix
