// Radix partition (seed 003), the kernels and the host code that launches them, written once: the
// stepped form (radix_partition.cu) runs them with the lab's recording probe, and the Step tab
// lists this file. Keys go to P = 2^bits partitions by the digit bits [start, start + bits) of
// their bit pattern (PTX bfe.u32; int32 keys are not sign-flipped). Block b owns a tile of
// rounds x blockDim.x consecutive keys (radix_partition.h). Two variants:
//  - partition_atomic (the seed's): a shared-memory histogram per block, added into one global
//    histogram, its exclusive scan, and the reorder that takes each key's slot with atomicAdd on
//    its partition's cursor: grouped by digit, in whatever order the atomics land (not stable);
//  - partition_stable: per-block histograms stored digit-major, counts[d * blocks + b], one scan
//    over them, and the reorder that writes each tile in order (warp after warp, the lanes of one
//    digit ranked with __match_any_sync): stable.
#pragma once
#include <cstdint>
#include <type_traits>

#include "lab/algorithms/partition/radix_partition/radix_partition.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: partition-atomic partition-stable
// The digit: `bits` bits of the key's bit pattern from bit `start`, in one PTX bit-field extract.
template <class T>
__device__ __forceinline__ unsigned bfe(T key, unsigned start, unsigned bits) {
  static_assert(std::is_integral<T>::value && sizeof(T) == 4, "the digit of a 32-bit integer key");
  unsigned digit;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(digit) : "r"(static_cast<unsigned>(key)), "r"(start), "r"(bits));
  return digit;
}

// Block b counts the digits of its tile in sh_hist, P counters in shared memory: in round r,
// thread tid takes key tile + r * blockDim.x + tid.
template <class T, class Probe>
__device__ void count_tile(const T* __restrict__ keys, std::int64_t n, unsigned start, unsigned bits, int rounds,
                           std::uint32_t* sh_hist, Probe& probe) {
  const int parts = 1 << bits;
  for (int base = 0; base < parts; base += blockDim.x) {
    const int d = base + threadIdx.x;
    probe.branch(d < parts);
    probe.shared_access(d < parts ? d : -1);
    if (d < parts) sh_hist[d] = 0;
  }
  __syncthreads();
  const std::int64_t tile = std::int64_t(blockIdx.x) * rounds * blockDim.x;
  for (int r = 0; r < rounds; ++r) {
    const std::int64_t i = tile + std::int64_t(r) * blockDim.x + threadIdx.x;
    const bool valid = i < n;
    const int digit = valid ? int(bfe(keys[i], start, bits)) : -1;
    probe.branch(valid);
    probe.shared_access(digit);
    if (valid) {
      atomicAdd(&sh_hist[digit], 1u);  // step: count
      probe.op(r, OpKind::Atomic, kPartKeys, i, kPartShared, int(blockIdx.x) * parts + digit);
      probe.value(kPartDigit, i, digit);
      probe.count(kGlobalRead, sizeof(T));
      probe.count(kAtomics, 1);
    }
  }
}
// listing: end

// listing: partition-atomic
// The seed's histogram: each block counts its tile in shared memory, then adds its counts into
// the global histogram, one atomicAdd per digit.
template <class T, class Probe>
__global__ void histogram_atomic(const T* __restrict__ keys, std::int64_t n, unsigned start, unsigned bits,
                                 int rounds, std::uint32_t* hist, Probe probe) {
  extern __shared__ std::uint32_t sh_hist[];
  const int parts = 1 << bits;
  probe.on_chip(kPartShared, sh_hist, int(blockIdx.x) * parts, parts);
  count_tile(keys, n, start, bits, rounds, sh_hist, probe);
  __syncthreads();
  probe.barrier();
  for (int base = 0; base < parts; base += blockDim.x) {
    const int d = base + threadIdx.x;
    probe.branch(d < parts);
    probe.shared_access(d < parts ? d : -1);
    if (d < parts) {
      atomicAdd(&hist[d], sh_hist[d]);  // step: flush
      probe.op(base / int(blockDim.x), OpKind::Atomic, kPartShared, int(blockIdx.x) * parts + d, kPartCounts, d);
      probe.count(kAtomics, 1);
    }
  }
}
// listing: end

// listing: partition-stable
// Each block counts its tile in shared memory, then stores its counts digit-major,
// counts[d * blocks + b], so that one scan orders them by digit, then by block.
template <class T, class Probe>
__global__ void histogram_stable(const T* __restrict__ keys, std::int64_t n, unsigned start, unsigned bits,
                                 int rounds, std::uint32_t* counts, Probe probe) {
  extern __shared__ std::uint32_t sh_hist[];
  const int parts = 1 << bits;
  probe.on_chip(kPartShared, sh_hist, int(blockIdx.x) * parts, parts);
  count_tile(keys, n, start, bits, rounds, sh_hist, probe);
  __syncthreads();
  probe.barrier();
  for (int base = 0; base < parts; base += blockDim.x) {
    const int d = base + threadIdx.x;
    probe.branch(d < parts);
    probe.shared_access(d < parts ? d : -1);
    if (d < parts) {
      counts[d * gridDim.x + blockIdx.x] = sh_hist[d];  // step: store
      probe.op(base / int(blockDim.x), OpKind::Move, kPartShared, int(blockIdx.x) * parts + d, kPartCounts,
               d * int(gridDim.x) + int(blockIdx.x));
      probe.count(kGlobalWrite, 4);
    }
  }
}
// listing: end

// listing: partition-atomic partition-stable
// One block of S threads scans L counts into exclusive offsets: thread t sums its chunk of
// c = ceil(L / S) counts, the S sums are scanned in shared memory (Hillis-Steele, offsets d = 1,
// 2, 4, ...), and each thread writes its chunk's offsets from the sum of the chunks before it.
template <class Probe>
__global__ void scan_counts(const std::uint32_t* __restrict__ counts, std::uint32_t* __restrict__ offsets, int L,
                            Probe probe) {
  extern __shared__ std::uint32_t sums[];
  const int S = blockDim.x, t = threadIdx.x, c = (L + S - 1) / S;
  const int lo = min(t * c, L), hi = min(lo + c, L);
  std::uint32_t sum = 0;
  for (int j = 0; j < c; ++j) {
    probe.branch(lo + j < hi);
    if (lo + j < hi) sum += counts[lo + j];  // step: scan (sum)
  }
  probe.count(kAdds, hi - lo);
  probe.count(kGlobalRead, 4 * (hi - lo));
  probe.shared_access(t);
  sums[t] = sum;
  __syncthreads();
  for (int d = 1; d < S; d <<= 1) {
    probe.branch(t >= d);
    probe.shared_access(t >= d ? t : -1);
    probe.shared_access(t >= d ? t - d : -1);
    const std::uint32_t v = t >= d ? sums[t] + sums[t - d] : 0u;  // step: scan (sums)
    __syncthreads();
    probe.shared_access(t >= d ? t : -1);
    if (t >= d) {
      sums[t] = v;
      probe.count(kAdds, 1);
    }
    __syncthreads();
  }
  probe.shared_access(t > 0 ? t - 1 : -1);
  std::uint32_t run = t > 0 ? sums[t - 1] : 0u;
  for (int j = 0; j < c; ++j) {
    probe.branch(lo + j < hi);
    if (lo + j < hi) {
      offsets[lo + j] = run;  // step: scan
      run += counts[lo + j];  // step: scan
      probe.op(j, OpKind::Add, kPartCounts, lo + j, kPartOffsets, lo + j);
    }
  }
  probe.count(kAdds, hi - lo);
  probe.count(kGlobalRead, 4 * (hi - lo));
  probe.count(kGlobalWrite, 4 * (hi - lo));
}
// listing: end

// listing: partition-atomic
// Each key takes the next free slot of its partition: offsets[digit] plus the cursor fill[digit]
// that atomicAdd moves on. Keys of one digit land in the order their atomics do: not stable.
template <class T, class Probe>
__global__ void reorder_atomic(const T* __restrict__ keys, std::int64_t n, unsigned start, unsigned bits, int rounds,
                               const std::uint32_t* __restrict__ offsets, std::uint32_t* fill, T* __restrict__ out,
                               Probe probe) {
  const std::int64_t tile = std::int64_t(blockIdx.x) * rounds * blockDim.x;
  for (int r = 0; r < rounds; ++r) {
    const std::int64_t i = tile + std::int64_t(r) * blockDim.x + threadIdx.x;
    probe.branch(i < n);
    if (i >= n) continue;
    const T key = keys[i];
    const unsigned digit = bfe(key, start, bits);
    const std::uint32_t pos = offsets[digit] + atomicAdd(&fill[digit], 1u);  // step: reorder
    probe.op(2 * r, OpKind::Atomic, kPartKeys, i, kPartFill, int(digit));
    out[pos] = key;  // step: reorder
    probe.op(2 * r + 1, OpKind::Move, kPartKeys, i, kPartAtomicOut, int(pos));
    probe.count(kAtomics, 1);
    probe.count(kGlobalRead, sizeof(T) + 4);
    probe.count(kGlobalWrite, sizeof(T));
  }
}
// listing: end

// listing: partition-stable
// Each block writes its tile in input order: round by round, and inside a round warp after warp,
// a key goes to its block's cursor for its digit plus its rank among the lanes of its warp with
// the same digit; the first of those lanes then moves the cursor past them. Stable.
template <class T, class Probe>
__global__ void reorder_stable(const T* __restrict__ keys, std::int64_t n, unsigned start, unsigned bits, int rounds,
                               const std::uint32_t* __restrict__ offsets, T* __restrict__ out, Probe probe) {
  extern __shared__ std::uint32_t cursor[];
  const int parts = 1 << bits;
  for (int base = 0; base < parts; base += blockDim.x) {
    const int d = base + threadIdx.x;
    probe.branch(d < parts);
    probe.shared_access(d < parts ? d : -1);
    if (d < parts) {
      cursor[d] = offsets[d * gridDim.x + blockIdx.x];
      probe.count(kGlobalRead, 4);
    }
  }
  __syncthreads();
  const int warps = (blockDim.x + 31) / 32, warp = threadIdx.x / 32;
  const int warp_size = min(32, int(blockDim.x) - warp * 32);  // the last warp of a block may be partial
  const unsigned lanes = warp_size == 32 ? ~0u : (1u << warp_size) - 1u;
  const unsigned lanes_before = (1u << (threadIdx.x % 32)) - 1u;
  const std::int64_t tile = std::int64_t(blockIdx.x) * rounds * blockDim.x;
  for (int r = 0; r < rounds; ++r) {
    const std::int64_t i = tile + std::int64_t(r) * blockDim.x + threadIdx.x;
    const bool valid = i < n;
    probe.branch(valid);
    const T key = valid ? keys[i] : T(0);
    const int digit = valid ? int(bfe(key, start, bits)) : -1;
    const unsigned peers = __match_any_sync(lanes, digit);
    const unsigned rank = __popc(peers & lanes_before);
    const bool leader = valid && rank == 0;
    std::uint32_t pos = 0;
    for (int w = 0; w < warps; ++w) {  // the warps in order keep the round in input order
      __syncthreads();
      if (warp != w) continue;
      probe.shared_access(digit);
      if (valid) pos = cursor[digit] + rank;  // step: reorder (rank)
      __syncwarp(lanes);
      probe.branch(leader);
      probe.shared_access(leader ? digit : -1);
      if (leader) cursor[digit] += __popc(peers);
    }
    if (!valid) continue;
    out[pos] = key;  // step: reorder
    probe.op(r, OpKind::Move, kPartKeys, i, kPartStableOut, int(pos));
    probe.count(kGlobalRead, sizeof(T));
    probe.count(kGlobalWrite, sizeof(T));
  }
}
// listing: end

// Slice k of a workspace cut into `slices` equal arrays of 32-bit words (the stepped form hands
// rows of the trace as the slices).
inline std::uint32_t* workspace_slice(Workspace ws, int slices, int k) {
  return static_cast<std::uint32_t*>(ws.ptr) + ws.bytes / 4 / std::size_t(slices) * std::size_t(k);
}

inline std::size_t partition_atomic_workspace_bytes(int bits) { return 3 * (std::size_t(1) << bits) * 4; }
inline std::size_t partition_stable_workspace_bytes(std::int64_t n, int block, int bits) {
  return 2 * std::size_t(partition_grid(n, block, bits).blocks) * (std::size_t(1) << bits) * 4;
}

inline bool partition_args_ok(std::int64_t n, int block, int start, int bits) {
  return n >= 1 && block >= 1 && block <= 1024 && bits >= 1 && (1 << bits) <= kPartitionMaxParts && start >= 0 &&
         start + bits <= 32;
}

// Partitions n keys of d_keys into d_out by the digit bits [start, start + bits), with a workspace
// of partition_atomic_workspace_bytes: hist, offsets and fill, P words each. Not stable.
template <class T, class Probe = NoProbe>
Status partition_atomic(const T* d_keys, T* d_out, std::int64_t n, int block, int start, int bits, Workspace ws,
                        cudaStream_t stream, Probe probe = {}) {
  if (!partition_args_ok(n, block, start, bits) || !d_keys || !d_out) return Status::InvalidArgument;
  if (!ws.ptr || ws.bytes < partition_atomic_workspace_bytes(bits)) return Status::WorkspaceTooSmall;
  // listing: partition-atomic
  const int parts = 1 << bits;
  std::uint32_t* hist = workspace_slice(ws, 3, 0);
  std::uint32_t* offsets = workspace_slice(ws, 3, 1);
  std::uint32_t* fill = workspace_slice(ws, 3, 2);
  const PartitionGrid grid = partition_grid(n, block, bits);  // blocks of `rounds` x block keys
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(hist, 0, parts * sizeof(std::uint32_t), stream));
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(fill, 0, parts * sizeof(std::uint32_t), stream));
  probe.launch(stream);
  histogram_atomic<<<grid.blocks, block, parts * sizeof(std::uint32_t), stream>>>(d_keys, n, start, bits,
                                                                                   grid.rounds, hist, probe);
  PRIMLAB_LAUNCH_TRY();
  const int S = partition_scan_threads(parts, block);
  probe.launch(stream);
  scan_counts<<<1, S, S * sizeof(std::uint32_t), stream>>>(hist, offsets, parts, probe);
  PRIMLAB_LAUNCH_TRY();
  probe.launch(stream);
  reorder_atomic<<<grid.blocks, block, 0, stream>>>(d_keys, n, start, bits, grid.rounds, offsets, fill, d_out, probe);
  PRIMLAB_LAUNCH_TRY();
  // listing: end
  return Status::Success;
}

// Partitions n keys of d_keys into d_out by the digit bits [start, start + bits), stably, with a
// workspace of partition_stable_workspace_bytes: counts and offsets, P x blocks words each.
template <class T, class Probe = NoProbe>
Status partition_stable(const T* d_keys, T* d_out, std::int64_t n, int block, int start, int bits, Workspace ws,
                        cudaStream_t stream, Probe probe = {}) {
  if (!partition_args_ok(n, block, start, bits) || !d_keys || !d_out) return Status::InvalidArgument;
  if (!ws.ptr || ws.bytes < partition_stable_workspace_bytes(n, block, bits)) return Status::WorkspaceTooSmall;
  // listing: partition-stable
  const int parts = 1 << bits;
  const PartitionGrid grid = partition_grid(n, block, bits);  // blocks of `rounds` x block keys
  std::uint32_t* counts = workspace_slice(ws, 2, 0);   // [digit][block]
  std::uint32_t* offsets = workspace_slice(ws, 2, 1);  // [digit][block]
  probe.launch(stream);
  histogram_stable<<<grid.blocks, block, parts * sizeof(std::uint32_t), stream>>>(d_keys, n, start, bits,
                                                                                   grid.rounds, counts, probe);
  PRIMLAB_LAUNCH_TRY();
  const int L = parts * grid.blocks, S = partition_scan_threads(L, block);
  probe.launch(stream);
  scan_counts<<<1, S, S * sizeof(std::uint32_t), stream>>>(counts, offsets, L, probe);
  PRIMLAB_LAUNCH_TRY();
  probe.launch(stream);
  reorder_stable<<<grid.blocks, block, parts * sizeof(std::uint32_t), stream>>>(d_keys, n, start, bits, grid.rounds,
                                                                                 offsets, d_out, probe);
  PRIMLAB_LAUNCH_TRY();
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
