// Distributed radix sort on G virtual GPUs of one device, the kernels and the host code that
// launches them, written once: the stepped form (distributed_sort.cu) runs them with the lab's
// recording probe, and the Step tab lists this file. It follows the library's multi-GPU sort
// (kernels/device/distributed.cu) in the scheme the library takes (partition first, and on up to 4
// GPUs sort first where the first splitter round leaves a cut open) and in its pipeline of
// pieces: each GPU's work is one block of a grid of G blocks, block g standing for GPU g, and the
// collectives (all-reduce, all-to-all) are kernels that read what every GPU holds. The phases are host functions:
//  0. presort (sort first): every GPU sorts its shard;
//  1. find_splitters: every GPU counts a digit of its keys (round 0: the top digit of the span),
//     the counts are all-reduced, and G - 1 cuts walk the sum to a fair share each; a cut that lands
//     inside a bucket too far from both edges (more than the slack) asks the next round for the
//     next digit of that bucket, and a cut inside a run of equal keys (no bits left) is placed by
//     position. The host reads the cuts and the counts back after each round, as the library
//     gathers its counts, and keeps every inner bucket edge the rounds counted. On up to 4 GPUs one
//     round runs first: if it leaves a cut open, the sort turns to sort first (0.) and the search
//     starts again;
//  2. cut_pieces: each GPU's range of the result is cut into up to 4 pieces by key, at those edges
//     (the library's piece_bounds), which with the cuts define the key classes;
//  3. partition_shards (partition first): every GPU groups its shard stably by class, which orders
//     it by (destination, piece), and counts the bytes it sends each GPU in each piece; or
//     find_runs (sort first): every GPU finds where each class starts in its sorted shard (a binary
//     search a class, where the library's class_starts_kernel searches too) and counts the same;
//  4. the pipeline: piece 0 travels (exchange_runs: GPU r sends its run of the piece for GPU s to s,
//     after the runs of the GPUs before r); then piece j travels while every GPU sorts
//     (sort_piece, partition first) or merges (merge_piece, sort first) piece j - 1 in its place in
//     the result; the last piece is sorted or merged after the last transfer. The library runs the
//     transfers on the exchange's own stream and each piece's sort or merge on the GPU's stream
//     after a wait for its transfer, so that the two run side by side; the lab launches them one
//     after the other on one stream, in that order.
// The sorts are rank sorts and the merges rank each key in the other runs by binary search, where
// the library runs a radix sort of each top digit's keys by the bits below it (its partition by the
// top digit was that sort's first pass) and its merge path: the same results.
// Keys are sorted by their radix image (int32: the sign bit flipped) on the bits [0, span).
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "lab/algorithms/distributed/radix_sort/distributed_sort.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: distributed-sort
// The key as the radix digits read it: its bit pattern (int32: the sign bit flipped, so that
// negative keys come first), bits [0, span).
template <class T>
__device__ __forceinline__ std::uint32_t radix_image(T key, int span) {
  static_assert(std::is_integral<T>::value && sizeof(T) == 4, "32-bit integer keys");
  std::uint32_t x = static_cast<std::uint32_t>(key);
  if (std::is_signed<T>::value) x ^= 0x80000000u;
  return span >= 32 ? x : x & ((1u << span) - 1u);
}

// GPU g = blockIdx.x clears its histogram, then counts its shard's keys in the round's cells: the
// digit bits [rest, rest + bits) of the keys in a queried bucket (the top `level` bits).
template <class T, class Probe>
__global__ void count_buckets(const T* __restrict__ keys, Shards shards, int span, Round round,
                              std::uint32_t* gpu_hist, int cells, Probe probe) {
  const int g = blockIdx.x;
  std::uint32_t* my_hist = gpu_hist + g * cells;
  for (int c = threadIdx.x; c < cells; c += blockDim.x) {
    my_hist[c] = 0;
    probe.count(kGlobalWrite, 4);
  }
  __syncthreads();
  const std::int32_t lo = shards.start[g], hi = shards.start[g + 1];
  for (std::int32_t i = lo + threadIdx.x, k = 0; i < hi; i += blockDim.x, ++k) {
    const std::uint32_t x = radix_image(keys[i], span);
    probe.count(kGlobalRead, sizeof(T));
    const std::uint32_t top = round.level == 0 ? 0u : x >> (span - round.level);
    int q = 0;
    while (q < round.queries && round.prefix[q] != top) ++q;
    const int cell = q < round.queries ? (q << round.bits) | int((x >> round.rest) & ((1u << round.bits) - 1u)) : -1;
    probe.value(kDistCell, i, cell);
    if (cell < 0) continue;  // not in a bucket that holds a cut
    atomicAdd(&my_hist[cell], 1u);  // step: histogram
    probe.op(k, OpKind::Atomic, kDistKeys, i, kDistGpuHist, g * cells + cell);
    probe.count(kAtomics, 1);
  }
}

// The all-reduce: thread c sums cell c over the G GPUs' histograms, and every GPU receives the
// sum (one device holds the one copy the lab shows).
template <class Probe>
__global__ void all_reduce(const std::uint32_t* __restrict__ gpu_hist, int gpus, int cells,
                           std::uint32_t* __restrict__ hist, Probe probe) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cells) return;
  std::uint32_t sum = 0;
  for (int g = 0; g < gpus; ++g) {
    sum += gpu_hist[g * cells + c];  // step: all-reduce
    probe.op(g, OpKind::Add, kDistGpuHist, g * cells + c, kDistHist, c);
  }
  hist[c] = sum;  // step: all-reduce (sum)
  probe.count(kAdds, gpus);
  probe.count(kGlobalRead, 4 * gpus);
  probe.count(kGlobalWrite, 4 * gpus);
}

// Thread s walks the open cut s (between GPU s and s + 1) along its bucket's histogram to its
// target, the start of shard s + 1, and takes the nearest bucket edge if it is within `slack`
// keys; else, with bits left, the next round refines the bucket the cut lies in, and with none
// left (a run of equal keys) the cut goes at the target itself. Then edges[s] is where GPU s
// starts, counts[s] its keys.
template <class Probe>
__global__ void place_cuts(const std::uint32_t* __restrict__ hist, const std::uint32_t* __restrict__ gpu_hist,
                           int cells, Round round, Shards shards, int gpus, std::int32_t n, std::int32_t slack,
                           Cut* cuts, std::uint32_t* edges, std::uint32_t* counts, Probe probe) {
  const int s = threadIdx.x;
  Cut c = cuts[s];
  if (!c.resolved) {
    int q = 0;
    while (round.prefix[q] != c.prefix) ++q;
    const int buckets = 1 << round.bits;
    const std::uint32_t* h = hist + q * buckets;
    const std::int32_t target = shards.start[s + 1], local = target - c.below;
    std::int32_t cum = 0;
    int b = 0;
    while (b + 1 < buckets && cum + std::int32_t(h[b]) <= local) cum += std::int32_t(h[b++]);  // step: splitters
    probe.op(0, OpKind::Move, kDistHist, q * buckets + b, kDistEdges, s + 1);
    probe.count(kGlobalRead, 4 * (b + 1));
    probe.count(kAdds, b + 1);
    const std::int32_t to_lower = local - cum, to_upper = cum + std::int32_t(h[b]) - local;
    const std::uint64_t bucket = (std::uint64_t(c.prefix) << round.bits) | std::uint64_t(b);
    c.at = c.below + (to_lower <= to_upper ? cum : cum + std::int32_t(h[b]));  // the nearest bucket edge
    if (min(to_lower, to_upper) <= slack) {
      c.bound = (to_lower <= to_upper ? bucket : bucket + 1) << round.rest;
      c.resolved = 1;
    } else if (round.rest == 0) {  // no bits left: a run of equal keys, cut at the target
      c.at = target;
      c.tie = c.resolved = 1;
      c.bound = bucket;
      c.run_start = c.below + cum;
      std::int32_t before = 0;
      for (int r = 0; r < gpus; ++r) {
        c.run_before[r] = before;
        before += std::int32_t(gpu_hist[r * cells + q * buckets + b]);
      }
      probe.count(kGlobalRead, 4 * gpus);
    } else {  // the next round counts the next digit of this bucket
      c.prefix = std::uint32_t(bucket);
      c.below += cum;
    }
    cuts[s] = c;
  }
  __syncthreads();
  for (int r = threadIdx.x; r <= gpus; r += blockDim.x) {
    const std::int32_t lo = r == 0 ? 0 : r == gpus ? n : cuts[r - 1].at;
    edges[r] = std::uint32_t(lo);
    if (r < gpus) counts[r] = std::uint32_t((r + 1 == gpus ? n : cuts[r].at) - lo);
  }
}

// The class of a key's image x: the last class whose lower bound is at most x.
__device__ __forceinline__ int class_of(const Classes& cls, std::uint32_t x) {
  int c = 0;
  while (c + 1 < cls.count && cls.lower[c + 1] <= x) ++c;
  return c;
}

// The GPU a key of class c on GPU g goes to, j keys of its class before it on g: the class's,
// or for a run of equal keys, the GPU whose range holds the key's global position.
__device__ __forceinline__ int destination(const Classes& cls, int c, int g, std::int32_t j) {
  if (cls.dest[c] >= 0) return cls.dest[c];
  const std::int32_t position = cls.run_start[c] + cls.run_before[c][g] + j;
  int d = 0;
  while (d + 1 < cls.gpus && cls.edges[d + 1] <= position) ++d;
  return d;
}

// Partition first. GPU g = blockIdx.x stages its shard in class order, stably, which orders it by
// (destination, piece): it counts its keys per class, finds where each class starts, then writes
// the keys round by round (one a thread), the warps in order, each at its class's cursor plus its
// rank among the warp's lanes of the same class. Then bytes[g][d][j] = what it sends GPU d in
// piece j.
template <class T, class Probe>
__global__ void partition_by_class(const T* __restrict__ keys, Shards shards, int span, Classes cls, int rounds,
                                   T* __restrict__ part, std::uint32_t* __restrict__ bytes, Probe probe) {
  __shared__ std::uint32_t count[kDistMaxClasses], first[kDistMaxClasses], next[kDistMaxClasses];
  __shared__ std::uint32_t sends[kDistMaxGpus * kDistPieces];
  const int g = blockIdx.x, gpus = gridDim.x, cells = gpus * cls.pieces;
  const std::int32_t lo = shards.start[g], hi = shards.start[g + 1];
  for (int base = 0; base < cls.count; base += blockDim.x) {
    const int c = base + threadIdx.x;
    probe.branch(c < cls.count);
    probe.shared_access(c < cls.count ? c : -1);
    if (c < cls.count) count[c] = 0;
  }
  for (int base = 0; base < cells; base += blockDim.x) {
    const int e = base + threadIdx.x;
    probe.branch(e < cells);
    probe.shared_access(e < cells ? e : -1);
    if (e < cells) sends[e] = 0;
  }
  __syncthreads();
  for (int k = 0; k < rounds; ++k) {
    const std::int32_t i = lo + k * blockDim.x + threadIdx.x;
    const bool valid = i < hi;
    const int c = valid ? class_of(cls, radix_image(keys[i], span)) : -1;
    probe.branch(valid);
    probe.shared_access(c);
    if (valid) {
      atomicAdd(&count[c], 1u);
      probe.count(kGlobalRead, sizeof(T));
      probe.count(kAtomics, 1);
    }
  }
  __syncthreads();
  probe.branch(threadIdx.x == 0);
  if (threadIdx.x == 0) {  // at most 2G - 1 + G (P - 1) classes: one thread scans their counts
    std::uint32_t at = std::uint32_t(lo);
    for (int c = 0; c < cls.count; ++c) {
      probe.shared_access(c);  // first[c]
      probe.shared_access(c);  // next[c]
      probe.shared_access(c);  // count[c]
      first[c] = next[c] = at;
      at += count[c];
    }
  }
  __syncthreads();
  const int warps = (blockDim.x + 31) / 32, warp = threadIdx.x / 32;
  const int warp_size = min(32, int(blockDim.x) - warp * 32);  // the last warp of a block may be partial
  const unsigned lanes = warp_size == 32 ? ~0u : (1u << warp_size) - 1u;
  const unsigned lanes_before = (1u << (threadIdx.x % 32)) - 1u;
  for (int k = 0; k < rounds; ++k) {
    const std::int32_t i = lo + k * blockDim.x + threadIdx.x;
    const bool valid = i < hi;
    probe.branch(valid);
    const T key = valid ? keys[i] : T(0);
    const std::uint32_t x = radix_image(key, span);
    const int c = valid ? class_of(cls, x) : -1;
    const unsigned peers = __match_any_sync(lanes, c);
    const unsigned rank = __popc(peers & lanes_before);
    const bool leader = valid && rank == 0;
    std::int32_t pos = 0;
    for (int w = 0; w < warps; ++w) {  // the warps in order keep the round in input order
      __syncthreads();
      if (warp != w) continue;
      probe.shared_access(c);
      if (valid) pos = std::int32_t(next[c] + rank);  // step: partition (rank)
      __syncwarp(lanes);
      probe.branch(leader);
      probe.shared_access(leader ? c : -1);
      if (leader) next[c] += __popc(peers);
    }
    probe.shared_access(c);
    const int d = valid ? destination(cls, c, g, pos - std::int32_t(first[c])) : -1;
    const int e = valid ? d * cls.pieces + piece_of(cls, d, x) : -1;  // its (destination, piece)
    probe.shared_access(e);
    if (valid) {
      part[pos] = key;  // step: partition
      probe.op(k, OpKind::Move, kDistKeys, i, kDistPart, pos);
      probe.value(kDistDest, i, d);
      probe.count(kGlobalRead, sizeof(T));
      probe.count(kGlobalWrite, sizeof(T));
      probe.count(kAtomics, 1);
      atomicAdd(&sends[e], 1u);
    }
  }
  __syncthreads();
  for (int base = 0; base < cells; base += blockDim.x) {
    const int e = base + threadIdx.x;
    probe.branch(e < cells);
    probe.shared_access(e < cells ? e : -1);
    if (e < cells) {
      bytes[g * cells + e] = std::uint32_t(sizeof(T)) * sends[e];
      probe.count(kGlobalWrite, 4);
    }
  }
}

// A key's rank among the keys [lo, hi) of `in` (those before it, and the equal ones before it in
// place: stable) is its place in `out`; the block's threads take one key each, round by round.
template <class T, class Probe>
__device__ void rank_sort(const T* __restrict__ in, T* __restrict__ out, std::int32_t lo, std::int32_t hi, int in_row,
                          int out_row, Probe& probe) {
  for (std::int32_t a = lo + threadIdx.x, k = 0; a < hi; a += blockDim.x, ++k) {
    const std::uint32_t x = radix_image(in[a], 32);
    std::int32_t rank = 0;
    for (std::int32_t b = lo; b < hi; ++b) {
      const std::uint32_t y = radix_image(in[b], 32);
      rank += y < x || (y == x && b < a);
    }
    out[lo + rank] = in[a];  // step: sort (rank)
    probe.op(k, OpKind::Move, in_row, a, out_row, lo + rank);
    probe.count(kGlobalRead, sizeof(T) * (1 + hi - lo));
    probe.count(kGlobalWrite, sizeof(T));
  }
}

// Sort first. GPU g = blockIdx.x sorts its shard, stably (a rank sort, where the library runs its
// one-GPU radix sort: the same result). Its keys for each GPU and piece then lie side by side.
template <class T, class Probe>
__global__ void sort_shards(const T* __restrict__ keys, Shards shards, T* __restrict__ part, Probe probe) {
  const int g = blockIdx.x;
  rank_sort(keys, part, shards.start[g], shards.start[g + 1], kDistKeys, kDistPart, probe);  // step: presort
}

// Sort first. Thread c of GPU g = blockIdx.x finds where class c starts in g's sorted shard (the
// first key whose image is not below lower[c], a binary search), and adds the class's keys to what
// g sends each GPU in each piece: all to dest[c], or for a run of equal keys, by global position.
template <class T, class Probe>
__global__ void locate_runs(const T* __restrict__ part, Shards shards, int span, Classes cls,
                            std::uint32_t* __restrict__ bytes, Probe probe) {
  __shared__ std::int32_t first[kDistMaxClasses + 1];
  __shared__ std::uint32_t sends[kDistMaxGpus * kDistPieces];
  const int g = blockIdx.x, gpus = gridDim.x, c = threadIdx.x, cells = gpus * cls.pieces;
  const std::int32_t lo = shards.start[g], hi = shards.start[g + 1];
  for (int e = c; e < cells; e += blockDim.x) sends[e] = 0;
  std::int32_t at = lo, len = hi - lo, probes = 0;
  while (len > 0) {
    const std::int32_t half = len / 2;
    ++probes;
    if (radix_image(part[at + half], span) < cls.lower[c]) {
      at += half + 1;
      len -= half + 1;
    } else {
      len = half;
    }
  }
  first[c] = at;
  if (c == 0) first[cls.count] = hi;
  probe.count(kGlobalRead, sizeof(T) * probes);
  __syncthreads();
  const std::int32_t count = first[c + 1] - first[c], p0 = cls.run_start[c] + cls.run_before[c][g];
  int cell = -1;  // the first (destination, piece) the class's keys go to
  for (int d = 0; d < gpus; ++d) {
    const std::int32_t keys = cls.dest[c] >= 0 ? (cls.dest[c] == d ? count : 0)
                                               : max(0, min(p0 + count, cls.edges[d + 1]) - max(p0, cls.edges[d]));
    if (keys == 0) continue;
    const int e = d * cls.pieces + piece_of(cls, d, cls.lower[c]);
    const bool first_cell = cell < 0;
    cell = first_cell ? e : cell;
    atomicAdd(&sends[e], std::uint32_t(keys));  // step: runs
    probe.op(0, OpKind::Move, kDistPart, first_cell ? first[c] : -1, kDistBytes, first_cell ? g * cells + e : -1);
    probe.count(kAtomics, 1);
  }
  __syncthreads();
  for (int e = c; e < cells; e += blockDim.x) {
    bytes[g * cells + e] = std::uint32_t(sizeof(T)) * sends[e];
    probe.count(kGlobalWrite, 4);
  }
}

// The keys GPU r sends GPU s in piece j (bytes[(r * G + s) * P + j]).
template <class T>
__device__ __forceinline__ std::int32_t sent(const std::uint32_t* bytes, int gpus, int pieces, int r, int s, int j) {
  return std::int32_t(bytes[(r * gpus + s) * pieces + j] / sizeof(T));
}

// Piece j of GPU d: [start, start + count) of the global order, after d's earlier pieces.
template <class T>
__device__ void piece_range(const std::uint32_t* edges, const std::uint32_t* bytes, int gpus, int pieces, int d, int j,
                            std::int32_t& start, std::int32_t& count) {
  start = std::int32_t(edges[d]);
  count = 0;
  for (int k = 0; k <= j; ++k)
    for (int r = 0; r < gpus; ++r) (k < j ? start : count) += sent<T>(bytes, gpus, pieces, r, d, k);
}

// The all-to-all of piece j: thread d of GPU r = blockIdx.x sends r's run of the piece for GPU d,
// which starts after r's runs for the GPUs and pieces before (d, j), to the piece's place in d's
// range, after what the GPUs before r send. Every GPU reads the sizes all GPUs send (bytes), as the
// library's ranks gather their counts.
template <class T, class Probe>
__global__ void exchange_runs(const T* __restrict__ part, Shards shards, const std::uint32_t* __restrict__ edges,
                              const std::uint32_t* __restrict__ bytes, int pieces, int j, T* __restrict__ recv,
                              Probe probe) {
  const int r = blockIdx.x, d = threadIdx.x, gpus = gridDim.x;
  const std::int32_t count = sent<T>(bytes, gpus, pieces, r, d, j);
  std::int32_t from = shards.start[r], to = 0, arriving = 0;
  for (int e = 0; e < gpus; ++e)
    for (int k = 0; k < pieces; ++k) from += e < d || (e == d && k < j) ? sent<T>(bytes, gpus, pieces, r, e, k) : 0;
  piece_range<T>(edges, bytes, gpus, pieces, d, j, to, arriving);
  for (int e = 0; e < r; ++e) to += sent<T>(bytes, gpus, pieces, e, d, j);
  if (count == 0) return;
  for (std::int32_t k = 0; k < count; ++k) recv[to + k] = part[from + k];  // step: exchange
  probe.op(0, OpKind::Move, kDistPart, from + count / 2, kDistRecv, to + count / 2);
  probe.count(kGlobalRead, sizeof(T) * count);
  probe.count(kGlobalWrite, sizeof(T) * count);
}

// Partition first. GPU d = blockIdx.x sorts piece j of what it received in its place: each key
// goes to its rank among the piece's keys, equal keys in the order they arrived.
template <class T, class Probe>
__global__ void sort_piece(const T* __restrict__ recv, const std::uint32_t* __restrict__ edges,
                           const std::uint32_t* __restrict__ bytes, int pieces, int j, T* __restrict__ out,
                           Probe probe) {
  std::int32_t lo = 0, count = 0;
  piece_range<T>(edges, bytes, gridDim.x, pieces, blockIdx.x, j, lo, count);
  rank_sort(recv, out, lo, lo + count, kDistRecv, kDistSorted, probe);  // step: sort
}

// Sort first. GPU d = blockIdx.x merges the G sorted runs of piece j (in sender order) in its
// place: a key's place is its place in its own run plus the keys of every other run that come
// before it, the smaller ones and, from an earlier sender, the equal ones (a binary search in each
// run). The result is the library's merge path's: the stable order of the piece.
template <class T, class Probe>
__global__ void merge_piece(const T* __restrict__ recv, const std::uint32_t* __restrict__ edges,
                            const std::uint32_t* __restrict__ bytes, int pieces, int j, T* __restrict__ out,
                            Probe probe) {
  const int d = blockIdx.x, gpus = gridDim.x;
  std::int32_t lo = 0, count = 0;
  piece_range<T>(edges, bytes, gpus, pieces, d, j, lo, count);
  for (std::int32_t a = lo + threadIdx.x, k = 0; a < lo + count; a += blockDim.x, ++k) {
    int r = 0;  // the sender of the run that holds a, from run_lo
    std::int32_t run_lo = lo;
    while (a >= run_lo + sent<T>(bytes, gpus, pieces, r, d, j)) {
      run_lo += sent<T>(bytes, gpus, pieces, r, d, j);
      ++r;
    }
    const std::uint32_t x = radix_image(recv[a], 32);
    std::int32_t rank = a - run_lo, probes = 0, at = lo;
    for (int q = 0; q < gpus; ++q) {
      const std::int32_t len = sent<T>(bytes, gpus, pieces, q, d, j);
      std::int32_t before = 0, rest = q == r ? 0 : len;
      while (rest > 0) {
        const std::int32_t half = rest / 2;
        const std::uint32_t y = radix_image(recv[at + before + half], 32);
        ++probes;
        if (y < x || (q < r && y == x)) {
          before += half + 1;
          rest -= half + 1;
        } else {
          rest = half;
        }
      }
      rank += before;
      at += len;
    }
    out[lo + rank] = recv[a];  // step: merge
    probe.op(k, OpKind::Move, kDistRecv, a, kDistSorted, lo + rank);
    probe.count(kGlobalRead, sizeof(T) * (1 + probes));
    probe.count(kGlobalWrite, sizeof(T));
  }
}
// listing: end

// The arrays the steps show, the caller's (the stepped form hands it rows of the trace).
template <class T>
struct DistributedArrays {
  std::uint32_t* gpu_hist = nullptr;  // [gpu][cells]
  std::uint32_t* hist = nullptr;      // [cells]
  std::int32_t cells = 0;             // per GPU: room for the largest round's [bucket][digit] counts
  std::uint32_t* counts = nullptr;    // [gpu]
  std::uint32_t* edges = nullptr;     // [gpu + 1]
  T* part = nullptr;                  // n
  std::uint32_t* bytes = nullptr;     // [from][to][piece]
  std::int32_t bytes_cells = 0;       // room in bytes: at least G x G x the pieces
  T* recv = nullptr;                  // n
};

// The workspace: the cuts, on the device.
inline std::size_t distributed_sort_workspace_bytes(int gpus) { return std::size_t(std::max(gpus - 1, 1)) * sizeof(Cut); }

// One call's arguments and what the phases pass on.
template <class T>
struct DistributedSort {
  const T* keys = nullptr;
  T* out = nullptr;
  std::int32_t n = 0;
  int gpus = 0, span = 0, digit_bits = 0;
  DistScheme scheme = DistScheme::PartitionFirst;
  DistributedArrays<T> a;
  Cut* d_cuts = nullptr;
  cudaStream_t stream = nullptr;
  Shards shards = {};                 // shard g = [n g / G, n (g + 1) / G)
  int threads = 0;                    // of a GPU's block: one a key of the widest shard, at most 1024
  int rounds = 0;                     // keys of the widest shard per thread
  Cut h_cuts[kDistMaxGpus - 1] = {};  // the cuts as the last round left them
  int level = 0;                      // the span's top bits the rounds so far have counted
  std::vector<SearchEdge> edges;      // every inner edge of the buckets the rounds counted
  Classes cls;                        // the cuts' and the pieces' classes
};

// listing: distributed-sort
// 0. Sort first: every GPU sorts its shard.
template <class T, class Probe>
Status presort(DistributedSort<T>& s, Probe& probe) {
  probe.launch(s.stream);
  sort_shards<<<s.gpus, s.threads, 0, s.stream>>>(s.keys, s.shards, s.a.part, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

template <class T>
bool cuts_placed(const DistributedSort<T>& s) {
  return std::all_of(s.h_cuts, s.h_cuts + s.gpus - 1, [](const Cut& c) { return c.resolved != 0; });
}

// 1. Rounds of histograms until every cut is placed, or `max_rounds` of them. A round counts, in
// the buckets that hold an open cut, the next digit: round 0 the top digit of every key.
template <class T, class Probe>
Status find_splitters(DistributedSort<T>& s, Probe& probe, int max_rounds = -1) {
  const int G = s.gpus;
  const std::int32_t slack = s.n / (8 * G);  // a cut this close to a bucket edge takes the edge
  std::vector<std::uint32_t> hist(std::size_t(s.a.cells));
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(s.d_cuts, s.h_cuts, (G - 1) * sizeof(Cut), cudaMemcpyHostToDevice, s.stream));
  for (int k = 0; k != max_rounds && !cuts_placed(s); ++k) {
    Round round;
    round.level = s.level;
    round.bits = std::min(s.digit_bits, s.span - s.level);
    round.rest = s.span - s.level - round.bits;
    std::int32_t below[kDistMaxGpus - 1] = {};  // per queried bucket: the keys before it
    for (int c = 0; c + 1 < G; ++c)  // open cuts are in order: equal buckets are neighbours
      if (!s.h_cuts[c].resolved && (round.queries == 0 || round.prefix[round.queries - 1] != s.h_cuts[c].prefix)) {
        below[round.queries] = s.h_cuts[c].below;
        round.prefix[round.queries++] = s.h_cuts[c].prefix;
      }
    const int cells = round.queries << round.bits;
    if (cells > s.a.cells) return Status::WorkspaceTooSmall;
    probe.launch(s.stream);
    count_buckets<<<G, s.threads, 0, s.stream>>>(s.keys, s.shards, s.span, round, s.a.gpu_hist, s.a.cells, probe);
    PRIMLAB_LAUNCH_TRY();
    const int reduce_threads = std::min(s.a.cells, 1024);
    probe.launch(s.stream);
    all_reduce<<<(s.a.cells + reduce_threads - 1) / reduce_threads, reduce_threads, 0, s.stream>>>(
        s.a.gpu_hist, G, s.a.cells, s.a.hist, probe);
    PRIMLAB_LAUNCH_TRY();
    probe.launch(s.stream);
    place_cuts<<<1, G - 1, 0, s.stream>>>(s.a.hist, s.a.gpu_hist, s.a.cells, round, s.shards, G, s.n, slack, s.d_cuts,
                                          s.a.edges, s.a.counts, probe);
    PRIMLAB_LAUNCH_TRY();
    // Every GPU learns where the cuts stand and what the round counted (the lab's one host reads
    // them once for all).
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(s.h_cuts, s.d_cuts, (G - 1) * sizeof(Cut), cudaMemcpyDeviceToHost, s.stream));
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(hist.data(), s.a.hist, cells * sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                                     s.stream));
    PRIMLAB_CUDA_TRY(cudaStreamSynchronize(s.stream));
    // The inner edges of each counted bucket: the pieces may be cut there.
    for (int q = 0; q < round.queries; ++q) {
      std::int32_t at = below[q];
      for (int b = 1; b < (1 << round.bits); ++b) {
        at += std::int32_t(hist[std::size_t((q << round.bits) + b - 1)]);
        const std::uint64_t value = ((std::uint64_t(round.prefix[q]) << round.bits) | std::uint64_t(b)) << round.rest;
        s.edges.push_back({std::uint32_t(value), at});
      }
    }
    s.level += round.bits;
  }
  return Status::Success;
}

// 1a. Partition first on up to kDistSortFirstMaxGpus GPUs: its stage is cut at the top digit's
// edges and, after a second round that refines the one bucket holding every open cut but not every
// key (skewed keys), at that bucket's next digit's; where the rounds leave a cut open, or a second one cuts a
// run of equal keys by position, the sort turns to sort first and its splitter search starts again.
template <class T>
void turn_to_sort_first(DistributedSort<T>& s) {
  s.scheme = DistScheme::SortFirst;
  for (Cut& c : s.h_cuts) c = Cut{};
  s.level = 0;
  s.edges.clear();
}

// 2. Each GPU's range of the result in pieces, cut at counted edges; the classes of the cuts and
// the pieces. Partition-first pieces grow 1.5x one from the next (the sort of a piece hides the
// next, larger transfer), sort-first pieces are equal.
template <class T>
Status cut_pieces(DistributedSort<T>& s) {
  std::int32_t range[kDistMaxGpus + 1] = {};
  for (int g = 1; g < s.gpus; ++g) range[g] = s.h_cuts[g - 1].at;
  range[s.gpus] = s.n;
  const auto bounds = piece_bounds(s.edges, range, s.gpus, kDistPieces, s.scheme == DistScheme::PartitionFirst);
  s.cls = make_classes(s.h_cuts, s.gpus, s.span, s.n, bounds);
  return s.gpus * s.gpus * s.cls.pieces > s.a.bytes_cells ? Status::WorkspaceTooSmall : Status::Success;
}

// 3. Partition first: every GPU stages its shard by class, which orders it by (destination, piece).
template <class T, class Probe>
Status partition_shards(DistributedSort<T>& s, Probe& probe) {
  probe.launch(s.stream);
  partition_by_class<<<s.gpus, s.threads, 0, s.stream>>>(s.keys, s.shards, s.span, s.cls, s.rounds, s.a.part,
                                                         s.a.bytes, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// 3. Sort first: every GPU finds its runs in its sorted shard, a thread a class.
template <class T, class Probe>
Status find_runs(DistributedSort<T>& s, Probe& probe) {
  probe.launch(s.stream);
  locate_runs<<<s.gpus, s.cls.count, 0, s.stream>>>(s.a.part, s.shards, s.span, s.cls, s.a.bytes, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// 4. The all-to-all of piece j: one run from every GPU to every GPU.
template <class T, class Probe>
Status exchange(DistributedSort<T>& s, int j, Probe& probe) {
  probe.launch(s.stream);
  exchange_runs<<<s.gpus, s.gpus, 0, s.stream>>>(s.a.part, s.shards, s.a.edges, s.a.bytes, s.cls.pieces, j, s.a.recv,
                                                 probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// 4. Every GPU sorts (partition first) or merges (sort first) piece j of what it received, in a
// block of one thread a key of the widest range.
template <class T, class Probe>
Status finish_piece(DistributedSort<T>& s, int j, Probe& probe) {
  std::int32_t widest = 0;
  for (int g = 0; g < s.gpus; ++g)
    widest = std::max(widest, (g + 1 < s.gpus ? s.h_cuts[g].at : s.n) - (g > 0 ? s.h_cuts[g - 1].at : 0));
  probe.launch(s.stream);
  if (s.scheme == DistScheme::PartitionFirst)
    sort_piece<<<s.gpus, gpu_threads(widest), 0, s.stream>>>(s.a.recv, s.a.edges, s.a.bytes, s.cls.pieces, j, s.out,
                                                             probe);
  else
    merge_piece<<<s.gpus, gpu_threads(widest), 0, s.stream>>>(s.a.recv, s.a.edges, s.a.bytes, s.cls.pieces, j, s.out,
                                                              probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}
// listing: end

// Sorts n keys of d_keys into d_out by bits [0, span) of their radix images (int32: the sign bit
// flipped) on `gpus` virtual GPUs (2 to 8), digits of digit_bits (1 to 8) bits, with the arrays
// `a` and a workspace of distributed_sort_workspace_bytes, in the scheme the library takes for
// `gpus` (partition first, or turn_to_sort_first where its splitter rounds leave a cut open).
template <class T, class Probe = NoProbe>
Status distributed_sort(const T* d_keys, T* d_out, std::int32_t n, int gpus, int span, int digit_bits,
                        const DistributedArrays<T>& a, Workspace ws, cudaStream_t stream, Probe probe = {}) {
  if (n < 1 || gpus < 2 || gpus > kDistMaxGpus || span < 0 || span > 32 || digit_bits < 1 || digit_bits > 8)
    return Status::InvalidArgument;
  if (!d_keys || !d_out || !a.gpu_hist || !a.hist || !a.counts || !a.edges || !a.part || !a.bytes || !a.recv)
    return Status::InvalidArgument;
  if (!ws.ptr || ws.bytes < distributed_sort_workspace_bytes(gpus) || a.cells < 1) return Status::WorkspaceTooSmall;
  DistributedSort<T> s;
  s.keys = d_keys;
  s.out = d_out;
  s.n = n;
  s.gpus = gpus;
  s.span = span;
  s.digit_bits = digit_bits;
  s.a = a;
  s.d_cuts = static_cast<Cut*>(ws.ptr);
  s.stream = stream;
  std::int32_t widest = 0;
  for (int g = 0; g <= gpus; ++g) {
    s.shards.start[g] = std::int32_t(std::int64_t(n) * g / gpus);
    if (g > 0) widest = std::max(widest, s.shards.start[g] - s.shards.start[g - 1]);
  }
  s.threads = gpu_threads(widest);
  s.rounds = (widest + s.threads - 1) / s.threads;
  // listing: distributed-sort
  if (gpus <= kDistSortFirstMaxGpus) {
    PRIMLAB_TRY(find_splitters(s, probe, 1));
    const bool second =
        open_buckets(s.h_cuts, gpus - 1) == 1 && !one_bucket_holds_every_key(s.edges, n) && span >= 2 * digit_bits;
    if (second) PRIMLAB_TRY(find_splitters(s, probe, 1));
    if (!cuts_placed(s) || (second && any_tie(s.h_cuts, gpus - 1))) turn_to_sort_first(s);
  }
  const bool sort_first = s.scheme == DistScheme::SortFirst;
  if (sort_first) PRIMLAB_TRY(presort(s, probe));
  PRIMLAB_TRY(find_splitters(s, probe));
  PRIMLAB_TRY(cut_pieces(s));
  PRIMLAB_TRY(sort_first ? find_runs(s, probe) : partition_shards(s, probe));
  // The pipeline: piece j travels while piece j - 1 is sorted or merged (the library: on two
  // streams at once; here one launch after the other, in that order).
  PRIMLAB_TRY(exchange(s, 0, probe));
  for (int j = 1; j < s.cls.pieces; ++j) {
    PRIMLAB_TRY(exchange(s, j, probe));
    PRIMLAB_TRY(finish_piece(s, j - 1, probe));
  }
  return finish_piece(s, s.cls.pieces - 1, probe);
  // listing: end
}

}  // namespace primlab::lab
