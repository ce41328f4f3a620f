// The lecture's bitonic sort, the kernels and the host code that launches them, written once: the
// timed form runs them with NoProbe, the stepped form with the lab's recording probe, and the Step
// tab lists this file. n is padded to a power of two N with a key that sorts last; each block sorts
// a tile of L = 2 * B keys in shared memory (bitonicSortShared), then each larger stage `size`
// runs its strides >= L as global passes, one launch each, and its strides < L as a shared-memory
// merge. Keys are int32, uint32 or float (through an order-preserving image of their bits);
// key-value sorts carry each key's index (its position in the input), which breaks ties: equal
// keys keep their input order, and the padding, indexed from n, sorts behind the real keys.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab::bitonic {

// The rows the probe names: the keys, the indices (key-value sorts) and the shared-memory tiles.
enum BitonicRow : int { kKeys = kRowMain, kIndex = kStdRows, kSharedKeys, kSharedIndex };

// [SECTION] The elements: a key and, for key-value sorts, its index, each in an array of its own
// (in global and in shared memory alike).
template <class K, bool kPairs> struct Items { K* key; };
template <class K> struct Items<K, true> {
  K* key;
  std::int32_t* index;
};
template <class K, bool kPairs> struct Item { K key; };
template <class K> struct Item<K, true> {
  K key;
  std::int32_t index;
};

// (I, the index type, is the kernel's own: unsigned in shared memory, 64-bit in global memory.)
template <class K, bool kPairs, class I>
__device__ __forceinline__ Item<K, kPairs> load(const Items<K, kPairs>& a, I i) {
  if constexpr (kPairs) return {a.key[i], a.index[i]};
  else return {a.key[i]};
}
// The element at i of the input, tagged with its index (the first load of every element).
template <class K, bool kPairs, class I>
__device__ __forceinline__ Item<K, kPairs> load_input(const Items<K, kPairs>& a, I i) {
  if constexpr (kPairs) return {a.key[i], std::int32_t(i)};
  else return {a.key[i]};
}
template <class K, bool kPairs, class I>
__device__ __forceinline__ void store(const Items<K, kPairs>& a, I i, const Item<K, kPairs>& e) {
  a.key[i] = e.key;
  if constexpr (kPairs) a.index[i] = e.index;
}
// A tile of L elements in the block's shared memory: L keys, then (key-value) L indices.
template <class K, bool kPairs>
__device__ __forceinline__ Items<K, kPairs> shared_tile(std::uint32_t* words, unsigned L) {
  if constexpr (kPairs) return {reinterpret_cast<K*>(words), reinterpret_cast<std::int32_t*>(words + L)};
  else return {reinterpret_cast<K*>(words)};
}

// [SECTION] The order. Keys compare through an order-preserving unsigned image of their bits:
// int32 with the sign bit flipped, float through the lecture's flipFloat (so -NaN < -inf < ... <
// -0 < +0 < ... < +inf < +NaN), uint32 as they are.
__device__ __forceinline__ std::uint32_t order_bits(std::uint32_t k) { return k; }
__device__ __forceinline__ std::uint32_t order_bits(std::int32_t k) { return std::uint32_t(k) ^ 0x80000000u; }
__device__ __forceinline__ std::uint32_t order_bits(float k) {
  const std::uint32_t b = __float_as_uint(k);
  return b ^ ((0u - (b >> 31)) | 0x80000000u);
}
// True when a comes after b in the sort's order (ties: the larger index comes after).
template <bool kDescending, class K, bool kPairs>
__device__ __forceinline__ bool comes_after(const Item<K, kPairs>& a, const Item<K, kPairs>& b) {
  const std::uint32_t x = order_bits(a.key), y = order_bits(b.key);
  const bool after = kDescending ? x < y : x > y;
  if constexpr (kPairs) return after || (x == y && a.index > b.index);
  else return after;
}

// The key that sorts last in the order (its order bits all ones ascending, all zeros descending):
// the padding. Floats: the NaN with the largest payload, +NaN ascending and -NaN descending.
template <class K, bool kDescending>
__host__ __device__ K last_key() {
  if constexpr (std::is_same_v<K, float>) {
    const std::uint32_t bits = kDescending ? 0xffffffffu : 0x7fffffffu;  // the NaNs with the largest payload
    float k;
    std::memcpy(&k, &bits, sizeof k);
    return k;
  } else {
    return kDescending ? std::numeric_limits<K>::lowest() : std::numeric_limits<K>::max();
  }
}

// listing: bitonic-sort
// The lecture's Comparator: puts a and b in the direction dir (1: the sort's own, 0: the other
// way); returns whether it swapped them.
template <bool kDescending, class E>
__device__ __forceinline__ bool comparator(E& a, E& b, unsigned dir) {
  const bool swap = comes_after<kDescending>(a, b) == (dir != 0);
  if (swap) {
    const E t = a;
    a = b;
    b = t;
  }
  return swap;
}
// The same on the elements at i and j of an array (a tile in shared memory), in place.
template <bool kDescending, class K, bool kPairs, class I>
__device__ __forceinline__ bool comparator(const Items<K, kPairs>& a, I i, I j, unsigned dir) {
  const Item<K, kPairs> x = load(a, i), y = load(a, j);
  const bool swap = comes_after<kDescending>(x, y) == (dir != 0);
  if (swap) {
    store(a, i, y);
    store(a, j, x);
  }
  return swap;
}

template <class K, bool kDescending, class Probe>
__global__ void pad_kernel(K* keys, std::int64_t n, std::int64_t N, Probe probe) {
  const std::int64_t i = n + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < N);
  if (i < N) {
    keys[i] = last_key<K, kDescending>();  // step: pad
    probe.op(0, OpKind::Write, kKeys, -1, kKeys, i);
    probe.count(kGlobalWrite, sizeof(K));
  }
}

// bitonicSortShared: each block sorts its L = 2 * blockDim.x elements; the direction of the last
// stage alternates from block to block so that neighbouring blocks form bitonic sequences (the
// global stages' rule: the sort's direction where (index & size) == 0).
template <class K, bool kDescending, bool kPairs, class Probe>
__global__ void sort_shared_kernel(Items<K, kPairs> d, Probe probe) {
  extern __shared__ std::uint32_t s_words[];
  const unsigned B = blockDim.x, L = 2 * B;
  const std::int64_t base = std::int64_t(blockIdx.x) * L;
  const Items<K, kPairs> s = shared_tile<K, kPairs>(s_words, L);
  probe.on_chip(kSharedKeys, s.key, base, L);
  probe.on_chip(kSharedIndex, s_words + L, base, kPairs ? L : 0);
  store(s, threadIdx.x, load_input(d, base + threadIdx.x));  // step: load
  probe.op(0, OpKind::Move, kKeys, base + threadIdx.x, kSharedKeys, base + threadIdx.x);
  store(s, threadIdx.x + B, load_input(d, base + threadIdx.x + B));  // step: load
  probe.op(1, OpKind::Move, kKeys, base + threadIdx.x + B, kSharedKeys, base + threadIdx.x + B);
  probe.shared_access(threadIdx.x);
  probe.shared_access(threadIdx.x + B);
  probe.shared_access(kPairs ? int(L + threadIdx.x) : -1);
  probe.shared_access(kPairs ? int(L + threadIdx.x + B) : -1);
  probe.count(kGlobalRead, 2 * sizeof(K));
  for (unsigned size = 2; size <= L; size <<= 1) {
    const std::int64_t gi0 = base + 2 * threadIdx.x - (threadIdx.x & (size / 2 - 1));
    const unsigned dir = ((gi0 & size) == 0) ? 1u : 0u;
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      __syncthreads();
      probe.barrier();
      const unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      const bool swapped = comparator<kDescending>(s, pos, pos + stride, dir);  // step: shared pass
      probe.compare_swap(0, kSharedKeys, base + (dir != kDescending ? pos : pos + stride),
                         base + (dir != kDescending ? pos + stride : pos), swapped);
      probe.shared_access(pos);
      probe.shared_access(pos + stride);
      probe.shared_access(kPairs ? int(L + pos) : -1);
      probe.shared_access(kPairs ? int(L + pos + stride) : -1);
      probe.branch(swapped);
      probe.shared_access(swapped ? int(pos) : -1);
      probe.shared_access(swapped ? int(pos + stride) : -1);
      probe.shared_access(kPairs && swapped ? int(L + pos) : -1);
      probe.shared_access(kPairs && swapped ? int(L + pos + stride) : -1);
    }
  }
  __syncthreads();
  probe.barrier();
  store(d, base + threadIdx.x, load(s, threadIdx.x));  // step: store
  probe.op(0, OpKind::Move, kSharedKeys, base + threadIdx.x, kKeys, base + threadIdx.x);
  store(d, base + threadIdx.x + B, load(s, threadIdx.x + B));  // step: store
  probe.op(1, OpKind::Move, kSharedKeys, base + threadIdx.x + B, kKeys, base + threadIdx.x + B);
  probe.shared_access(threadIdx.x);
  probe.shared_access(threadIdx.x + B);
  probe.shared_access(kPairs ? int(L + threadIdx.x) : -1);
  probe.shared_access(kPairs ? int(L + threadIdx.x + B) : -1);
  probe.count(kGlobalWrite, 2 * (sizeof(K) + (kPairs ? sizeof(std::int32_t) : 0)));
}

// One global stride of stage `size`: one comparator per thread.
template <class K, bool kDescending, bool kPairs, class Probe>
__global__ void merge_global_kernel(Items<K, kPairs> d, std::int64_t N, std::int64_t size, std::int64_t stride,
                                    Probe probe) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(t < N / 2);
  if (t >= N / 2) return;
  const std::int64_t pos = 2 * t - (t & (stride - 1));
  const unsigned dir = ((pos & size) == 0) ? 1u : 0u;
  Item<K, kPairs> a = load(d, pos), b = load(d, pos + stride);
  const bool swapped = comparator<kDescending>(a, b, dir);  // step: global pass
  probe.compare_swap(0, kKeys, dir != kDescending ? pos : pos + stride, dir != kDescending ? pos + stride : pos,
                     swapped);
  probe.branch(swapped);
  store(d, pos, a);
  store(d, pos + stride, b);
  probe.count(kGlobalRead, 2 * (sizeof(K) + (kPairs ? sizeof(std::int32_t) : 0)));
  probe.count(kGlobalWrite, 2 * (sizeof(K) + (kPairs ? sizeof(std::int32_t) : 0)));
}

// The strides blockDim.x .. 1 of stage `size` in shared memory.
template <class K, bool kDescending, bool kPairs, class Probe>
__global__ void merge_shared_kernel(Items<K, kPairs> d, std::int64_t size, Probe probe) {
  extern __shared__ std::uint32_t s_words[];
  const unsigned B = blockDim.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * 2 * B;
  const Items<K, kPairs> s = shared_tile<K, kPairs>(s_words, 2 * B);
  probe.on_chip(kSharedKeys, s.key, base, 2 * B);
  probe.on_chip(kSharedIndex, s_words + 2 * B, base, kPairs ? 2 * B : 0);
  store(s, threadIdx.x, load(d, base + threadIdx.x));  // step: load (merge)
  probe.op(0, OpKind::Move, kKeys, base + threadIdx.x, kSharedKeys, base + threadIdx.x);
  store(s, threadIdx.x + B, load(d, base + threadIdx.x + B));  // step: load (merge)
  probe.op(1, OpKind::Move, kKeys, base + threadIdx.x + B, kSharedKeys, base + threadIdx.x + B);
  probe.shared_access(threadIdx.x);
  probe.shared_access(threadIdx.x + B);
  probe.shared_access(kPairs ? int(2 * B + threadIdx.x) : -1);
  probe.shared_access(kPairs ? int(3 * B + threadIdx.x) : -1);
  probe.count(kGlobalRead, 2 * (sizeof(K) + (kPairs ? sizeof(std::int32_t) : 0)));
  const unsigned dir = ((base & size) == 0) ? 1u : 0u;
  for (unsigned stride = B; stride > 0; stride >>= 1) {
    __syncthreads();
    probe.barrier();
    const unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    const bool swapped = comparator<kDescending>(s, pos, pos + stride, dir);  // step: shared pass (merge)
    probe.compare_swap(0, kSharedKeys, base + (dir != kDescending ? pos : pos + stride),
                       base + (dir != kDescending ? pos + stride : pos), swapped);
    probe.shared_access(pos);
    probe.shared_access(pos + stride);
    probe.shared_access(kPairs ? int(2 * B + pos) : -1);
    probe.shared_access(kPairs ? int(2 * B + pos + stride) : -1);
    probe.branch(swapped);
    probe.shared_access(swapped ? int(pos) : -1);
    probe.shared_access(swapped ? int(pos + stride) : -1);
    probe.shared_access(kPairs && swapped ? int(2 * B + pos) : -1);
    probe.shared_access(kPairs && swapped ? int(2 * B + pos + stride) : -1);
  }
  __syncthreads();
  probe.barrier();
  store(d, base + threadIdx.x, load(s, threadIdx.x));  // step: store (merge)
  probe.op(0, OpKind::Move, kSharedKeys, base + threadIdx.x, kKeys, base + threadIdx.x);
  store(d, base + threadIdx.x + B, load(s, threadIdx.x + B));  // step: store (merge)
  probe.op(1, OpKind::Move, kSharedKeys, base + threadIdx.x + B, kKeys, base + threadIdx.x + B);
  probe.shared_access(threadIdx.x);
  probe.shared_access(threadIdx.x + B);
  probe.shared_access(kPairs ? int(2 * B + threadIdx.x) : -1);
  probe.shared_access(kPairs ? int(3 * B + threadIdx.x) : -1);
  probe.count(kGlobalWrite, 2 * (sizeof(K) + (kPairs ? sizeof(std::int32_t) : 0)));
}
// listing: end

// The padded length: n up to a power of two, at least 2.
inline std::int64_t bitonic_padded(std::int64_t n) {
  std::int64_t N = 2;
  while (N < n) N <<= 1;
  return N;
}
// The block the sort runs: the caller's, or half the padded length where that is smaller.
inline int bitonic_block(std::int64_t n, int block) {
  return int(std::min<std::int64_t>(block, bitonic_padded(n) / 2));
}
// Any power of two from 1 to 1024 threads (the tiles' strides halve the block).
inline bool bitonic_valid_block(int block) { return block >= 1 && block <= 1024 && (block & (block - 1)) == 0; }

template <class K, bool kPairs = false>
std::size_t bitonic_sort_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || !bitonic_valid_block(block)) return 0;
  return std::size_t(bitonic_padded(n)) * (sizeof(K) + (kPairs ? sizeof(std::int32_t) : 0));
}

// Sorts n keys of d_keys_in into d_keys_out; key-value sorts (kPairs) also write each sorted key's
// index in the input to d_index_out (equal keys keep their input order). The workspace holds the
// padded keys at its start and (key-value) the padded indices at its end. The padding is the key
// that sorts last (last_key), behind every input key.
template <class K, bool kDescending = false, bool kPairs = false, class Probe = NoProbe>
Status bitonic_sort(const K* d_keys_in, K* d_keys_out, std::int32_t* d_index_out, std::int64_t n, int block,
                    Workspace ws, cudaStream_t stream, Probe probe = {}) {
  if (n < 0 || !bitonic_valid_block(block)) return Status::InvalidArgument;
  if (n > std::numeric_limits<std::int32_t>::max()) return Status::Unsupported;
  if (n == 0) return Status::Success;
  if (!d_keys_in || !d_keys_out || (kPairs && !d_index_out)) return Status::InvalidArgument;
  if (ws.bytes < bitonic_sort_workspace_bytes<K, kPairs>(n, block)) return Status::WorkspaceTooSmall;
  if (!ws.ptr) return Status::InvalidArgument;
  Items<K, kPairs> buf;
  buf.key = static_cast<K*>(ws.ptr);
  if constexpr (kPairs)
    buf.index = reinterpret_cast<std::int32_t*>(static_cast<char*>(ws.ptr) + ws.bytes) - bitonic_padded(n);
  const std::size_t smem_per_element = sizeof(K) + (kPairs ? sizeof(std::int32_t) : 0);
  // listing: bitonic-sort
  const std::int64_t N = bitonic_padded(n);
  const int B = bitonic_block(n, block);
  const std::int64_t L = 2 * B;
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(buf.key, d_keys_in, std::size_t(n) * sizeof(K), cudaMemcpyDeviceToDevice, stream));
  if (N > n) {
    probe.launch(stream);
    pad_kernel<K, kDescending><<<unsigned((N - n + 255) / 256), 256, 0, stream>>>(buf.key, n, N, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  const unsigned tiles = unsigned(N / L);
  probe.launch(stream);
  sort_shared_kernel<K, kDescending><<<tiles, B, L * smem_per_element, stream>>>(buf, probe);
  PRIMLAB_LAUNCH_TRY();
  for (std::int64_t size = 2 * L; size <= N; size <<= 1) {
    for (std::int64_t stride = size / 2; stride >= L; stride >>= 1) {
      probe.launch(stream);
      merge_global_kernel<K, kDescending><<<unsigned((N / 2 + B - 1) / B), B, 0, stream>>>(buf, N, size, stride,
                                                                                            probe);
      PRIMLAB_LAUNCH_TRY();
    }
    probe.launch(stream);
    merge_shared_kernel<K, kDescending><<<tiles, B, L * smem_per_element, stream>>>(buf, size, probe);
    PRIMLAB_LAUNCH_TRY();
  }
  // listing: end
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_keys_out, buf.key, std::size_t(n) * sizeof(K), cudaMemcpyDeviceToDevice, stream));
  if constexpr (kPairs)
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_index_out, buf.index, std::size_t(n) * sizeof(std::int32_t),
                                     cudaMemcpyDeviceToDevice, stream));
  return Status::Success;
}

}  // namespace primlab::lab::bitonic
