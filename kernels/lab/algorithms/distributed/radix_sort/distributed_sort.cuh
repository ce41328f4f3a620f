// Distributed radix sort on G virtual GPUs of one device, the kernels and the host code that
// launches them, written once: the stepped form (distributed_sort.cu) runs them with the lab's
// recording probe, and the Step tab lists this file. It follows the library's partition-first
// multi-GPU sort (kernels/device/distributed.cu): each GPU's work is one block of a grid of G
// blocks, block g standing for GPU g, and the collectives (all-reduce, all-to-all) are kernels that
// read what every GPU holds. The phases are one host function each:
//  1. find_splitters: every GPU counts a digit of its keys (round 0: the top digit of the span),
//     the counts are all-reduced, and G - 1 cuts walk the sum to a fair share each; a cut that lands
//     inside a bucket too far from both edges (more than the slack) asks the next round for the
//     next digit of that bucket, and a cut inside a run of equal keys (no bits left) is placed by
//     position. The host reads the cuts back after each round, as the library gathers its counts.
//  2. partition_by_class: every GPU groups its shard stably by the classes the cuts define, which
//     orders it by destination, and counts the bytes it sends each GPU;
//  3. exchange: GPU r sends its run for GPU s to s, after what the GPUs before r sent s;
//  4. sort_received: every GPU sorts what it received (a rank sort, where the library runs its
//     one-GPU radix sort).
// Keys are sorted by their radix image (int32: the sign bit flipped) on the bits [0, span).
#pragma once
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

// GPU g = blockIdx.x stages its shard in class order, stably, which orders it by destination:
// it counts its keys per class, finds where each class starts, then writes the keys round by
// round (one a thread), the warps in order, each at its class's cursor plus its rank among the
// warp's lanes of the same class. Then bytes[g][d] = what it sends GPU d.
template <class T, class Probe>
__global__ void partition_by_class(const T* __restrict__ keys, Shards shards, int span, Classes cls, int rounds,
                                   T* __restrict__ part, std::uint32_t* __restrict__ bytes, Probe probe) {
  __shared__ std::uint32_t count[kDistMaxClasses], first[kDistMaxClasses], next[kDistMaxClasses];
  __shared__ std::uint32_t sends[kDistMaxGpus];
  const int g = blockIdx.x, gpus = gridDim.x;
  const std::int32_t lo = shards.start[g], hi = shards.start[g + 1];
  for (int base = 0; base < cls.count; base += blockDim.x) {
    const int c = base + threadIdx.x;
    probe.branch(c < cls.count);
    probe.shared_access(c < cls.count ? c : -1);
    if (c < cls.count) count[c] = 0;
  }
  for (int base = 0; base < gpus; base += blockDim.x) {
    const int d = base + threadIdx.x;
    probe.branch(d < gpus);
    probe.shared_access(d < gpus ? d : -1);
    if (d < gpus) sends[d] = 0;
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
  if (threadIdx.x == 0) {  // at most 2G - 1 classes: one thread scans their counts
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
    const int c = valid ? class_of(cls, radix_image(key, span)) : -1;
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
    probe.shared_access(d);
    if (valid) {
      part[pos] = key;  // step: partition
      probe.op(k, OpKind::Move, kDistKeys, i, kDistPart, pos);
      probe.value(kDistDest, i, d);
      probe.count(kGlobalRead, sizeof(T));
      probe.count(kGlobalWrite, sizeof(T));
      probe.count(kAtomics, 1);
      atomicAdd(&sends[d], 1u);
    }
  }
  __syncthreads();
  for (int base = 0; base < gpus; base += blockDim.x) {
    const int d = base + threadIdx.x;
    probe.branch(d < gpus);
    probe.shared_access(d < gpus ? d : -1);
    if (d < gpus) {
      bytes[g * gpus + d] = std::uint32_t(sizeof(T)) * sends[d];
      probe.count(kGlobalWrite, 4);
    }
  }
}

// The all-to-all: thread d of GPU r = blockIdx.x sends r's run for GPU d, which starts after r's
// runs for the GPUs before d, to d's range, after what the GPUs before r send d. Every GPU reads
// the sizes all GPUs send (bytes), as the library's ranks gather their counts.
template <class T, class Probe>
__global__ void exchange_runs(const T* __restrict__ part, Shards shards, const std::uint32_t* __restrict__ edges,
                              const std::uint32_t* __restrict__ bytes, T* __restrict__ recv, Probe probe) {
  const int r = blockIdx.x, d = threadIdx.x, gpus = gridDim.x;
  const std::int32_t count = std::int32_t(bytes[r * gpus + d] / sizeof(T));
  std::int32_t from = shards.start[r], to = std::int32_t(edges[d]);
  for (int e = 0; e < d; ++e) from += std::int32_t(bytes[r * gpus + e] / sizeof(T));
  for (int e = 0; e < r; ++e) to += std::int32_t(bytes[e * gpus + d] / sizeof(T));
  if (count == 0) return;
  for (std::int32_t k = 0; k < count; ++k) recv[to + k] = part[from + k];  // step: exchange
  probe.op(0, OpKind::Move, kDistPart, from + count / 2, kDistRecv, to + count / 2);
  probe.count(kGlobalRead, sizeof(T) * count);
  probe.count(kGlobalWrite, sizeof(T) * count);
}

// GPU d = blockIdx.x sorts the keys it received, [edges[d], edges[d + 1]): each goes to its rank
// among them, equal keys in the order they arrived (a rank sort, where the library runs its
// one-GPU radix sort: the same result).
template <class T, class Probe>
__global__ void sort_received(const T* __restrict__ recv, const std::uint32_t* __restrict__ edges, T* __restrict__ out,
                              Probe probe) {
  const int d = blockIdx.x;
  const std::int32_t lo = std::int32_t(edges[d]), hi = std::int32_t(edges[d + 1]);
  for (std::int32_t a = lo + threadIdx.x, k = 0; a < hi; a += blockDim.x, ++k) {
    const std::uint32_t x = radix_image(recv[a], 32);
    std::int32_t rank = 0;
    for (std::int32_t b = lo; b < hi; ++b) {
      const std::uint32_t y = radix_image(recv[b], 32);
      rank += y < x || (y == x && b < a);
    }
    out[lo + rank] = recv[a];  // step: sort
    probe.op(k, OpKind::Move, kDistRecv, a, kDistSorted, lo + rank);
    probe.count(kGlobalRead, sizeof(T) * (1 + hi - lo));
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
  std::uint32_t* bytes = nullptr;     // [from][to]
  T* recv = nullptr;                  // n
};

// The workspace: the cuts, on the device.
inline std::size_t distributed_sort_workspace_bytes(int gpus) { return std::size_t(std::max(gpus - 1, 1)) * sizeof(Cut); }

// One call's arguments and what the phases pass on.
template <class T>
struct DistributedSort {
  const T* keys;
  T* out;
  std::int32_t n;
  int gpus, span, digit_bits;
  DistributedArrays<T> a;
  Cut* d_cuts;
  cudaStream_t stream;
  Shards shards;                     // shard g = [n g / G, n (g + 1) / G)
  int threads;                       // of a GPU's block: one a key of the widest shard, at most 1024
  int rounds;                        // keys of the widest shard per thread
  Cut h_cuts[kDistMaxGpus - 1] = {};  // the cuts as the last round left them
};

// listing: distributed-sort
// 1. Rounds of histograms until every cut is placed. A round counts, in the buckets that hold an
// open cut, the next digit: round 0 the top digit of every key.
template <class T, class Probe>
Status find_splitters(DistributedSort<T>& s, Probe& probe) {
  const int G = s.gpus;
  const std::int32_t slack = s.n / (8 * G);  // a cut this close to a bucket edge takes the edge
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(s.d_cuts, s.h_cuts, (G - 1) * sizeof(Cut), cudaMemcpyHostToDevice, s.stream));
  for (int level = 0;;) {
    Round round;
    round.level = level;
    round.bits = std::min(s.digit_bits, s.span - level);
    round.rest = s.span - level - round.bits;
    for (int c = 0; c + 1 < G; ++c)  // open cuts are in order: equal buckets are neighbours
      if (!s.h_cuts[c].resolved && (round.queries == 0 || round.prefix[round.queries - 1] != s.h_cuts[c].prefix))
        round.prefix[round.queries++] = s.h_cuts[c].prefix;
    if ((round.queries << round.bits) > s.a.cells) return Status::WorkspaceTooSmall;
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
    // Every GPU learns where the cuts stand (the lab's one host reads them once for all).
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(s.h_cuts, s.d_cuts, (G - 1) * sizeof(Cut), cudaMemcpyDeviceToHost, s.stream));
    PRIMLAB_CUDA_TRY(cudaStreamSynchronize(s.stream));
    level += round.bits;
    if (std::all_of(s.h_cuts, s.h_cuts + G - 1, [](const Cut& c) { return c.resolved != 0; })) return Status::Success;
  }
}

// 2. Every GPU stages its shard by class, which orders it by destination.
template <class T, class Probe>
Status partition_shards(DistributedSort<T>& s, Probe& probe) {
  const Classes cls = make_classes(s.h_cuts, s.gpus, s.span, s.n);
  probe.launch(s.stream);
  partition_by_class<<<s.gpus, s.threads, 0, s.stream>>>(s.keys, s.shards, s.span, cls, s.rounds, s.a.part,
                                                         s.a.bytes, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// 3. The all-to-all: one run from every GPU to every GPU.
template <class T, class Probe>
Status exchange(DistributedSort<T>& s, Probe& probe) {
  probe.launch(s.stream);
  exchange_runs<<<s.gpus, s.gpus, 0, s.stream>>>(s.a.part, s.shards, s.a.edges, s.a.bytes, s.a.recv, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// 4. Every GPU sorts what it received, in a block of one thread a key of the widest range.
template <class T, class Probe>
Status sort_local(DistributedSort<T>& s, Probe& probe) {
  std::int32_t widest = 0;
  for (int g = 0; g < s.gpus; ++g)
    widest = std::max(widest, (g + 1 < s.gpus ? s.h_cuts[g].at : s.n) - (g > 0 ? s.h_cuts[g - 1].at : 0));
  probe.launch(s.stream);
  sort_received<<<s.gpus, gpu_threads(widest), 0, s.stream>>>(s.a.recv, s.a.edges, s.out, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}
// listing: end

// Sorts n keys of d_keys into d_out by bits [0, span) of their radix images (int32: the sign bit
// flipped) on `gpus` virtual GPUs (2 to 8), digits of digit_bits (1 to 8) bits, with the arrays
// `a` and a workspace of distributed_sort_workspace_bytes.
template <class T, class Probe = NoProbe>
Status distributed_sort(const T* d_keys, T* d_out, std::int32_t n, int gpus, int span, int digit_bits,
                        const DistributedArrays<T>& a, Workspace ws, cudaStream_t stream, Probe probe = {}) {
  if (n < 1 || gpus < 2 || gpus > kDistMaxGpus || span < 0 || span > 32 || digit_bits < 1 || digit_bits > 8)
    return Status::InvalidArgument;
  if (!d_keys || !d_out || !a.gpu_hist || !a.hist || !a.counts || !a.edges || !a.part || !a.bytes || !a.recv)
    return Status::InvalidArgument;
  if (!ws.ptr || ws.bytes < distributed_sort_workspace_bytes(gpus) || a.cells < 1) return Status::WorkspaceTooSmall;
  DistributedSort<T> s{d_keys, d_out, n, gpus, span, digit_bits, a, static_cast<Cut*>(ws.ptr), stream, {}, 0, 0};
  std::int32_t widest = 0;
  for (int g = 0; g <= gpus; ++g) {
    s.shards.start[g] = std::int32_t(std::int64_t(n) * g / gpus);
    if (g > 0) widest = std::max(widest, s.shards.start[g] - s.shards.start[g - 1]);
  }
  s.threads = gpu_threads(widest);
  s.rounds = (widest + s.threads - 1) / s.threads;
  // listing: distributed-sort
  PRIMLAB_TRY(find_splitters(s, probe));
  PRIMLAB_TRY(partition_shards(s, probe));
  PRIMLAB_TRY(exchange(s, probe));
  return sort_local(s, probe);
  // listing: end
}

}  // namespace primlab::lab
