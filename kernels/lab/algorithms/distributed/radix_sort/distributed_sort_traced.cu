// Distributed radix sort on G virtual GPUs, traced: one launch per step on one device, each virtual
// GPU's keys in a block of its own (its shard, later its received range). The histograms, the
// all-reduce, the splitter walks, the partition, the exchange and the local sorts run as kernels on
// the trace's rows; the host only launches them in the plan's order (the rounds' digit positions
// are the plan's). Mirrors distributed_sort.cpp op slot for op slot and counter for counter.
#include "lab/algorithms/distributed/radix_sort/distributed_sort.h"
#include "lab/run/steppers.h"
#include "lab/run/trace_device.cuh"

namespace primlab::steppers {
namespace {
using namespace distributed;

constexpr int kMaxGpus = 8;

// One splitter between GPU s and s + 1, carried from round to round on the device.
struct Cut {
  std::uint32_t prefix;   // the bucket that still holds the cut: the top `level` bits of the span
  std::int32_t below;     // keys before that bucket in the global order
  std::int32_t at;        // the cut's global position so far
  std::int32_t resolved;  // 1: placed for good
};

struct Dist {
  traced::StepCtx ctx;
  std::int32_t n, gpus;
  std::int32_t shard[kMaxGpus + 1];
  std::int32_t threads;   // the plan's threads of one GPU (its widest shard, or received range)
  std::int32_t stride;    // 1 << digit_bits: the per-GPU histograms' row stride
  std::int32_t slack;
  int span, level, bits, rest;  // this round's digit: bits [rest, rest + bits) of the span
  std::int32_t refine_cells;    // the refined histogram row's length
  Cut* cuts;                    // G - 1
  std::uint32_t* refine_gpu;    // [gpu][refine_cells]: each GPU's refined counts before the all-reduce
  unsigned* done;               // blocks of the refine launch that have counted
  __device__ std::uint32_t* row(int r) const { return ctx.row(r); }
  __device__ std::uint32_t key(std::int32_t i) const {
    const std::uint32_t k = radix_key(row(kRowMain)[i], ctx.type);
    return span == 32 ? k : k & ((1u << span) - 1u);
  }
};

// The prefixes that hold an open cut, in cut order, each once: the buckets a round counts.
__device__ int open_buckets(const Dist& p, std::uint32_t (&q)[kMaxGpus]) {
  int nq = 0;
  for (int s = 0; s + 1 < p.gpus; ++s)
    if (!p.cuts[s].resolved && (nq == 0 || q[nq - 1] != p.cuts[s].prefix)) q[nq++] = p.cuts[s].prefix;
  return nq;
}

// Writes the edges row (where GPU g starts) and the keys per GPU from the cuts; every thread of the
// block calls it after the cuts are final.
__device__ void write_edges(const Dist& p) {
  for (int g = threadIdx.x; g <= p.gpus; g += blockDim.x) {
    const std::int32_t lo = g == 0 ? 0 : g == p.gpus ? p.n : p.cuts[g - 1].at;
    p.row(kEdges)[g] = std::uint32_t(lo);
    if (g < p.gpus) p.row(kCounts)[g] = std::uint32_t((g + 1 == p.gpus ? p.n : p.cuts[g].at) - lo);
  }
}

// listing: distributed-sort
// Cut s walks the prefix sum of its bucket's histogram h to its target s n/G and takes the nearest
// bucket edge, refines with the next digit, or splits a run of equal keys by position. Returns the
// cells walked; `cell` is the one the cut landed in.
__device__ int walk_cut(const Dist& p, Cut& c, int s, const std::uint32_t* h, int buckets, int& cell) {
  const std::int32_t target = p.shard[s + 1], local = target - c.below;
  std::int32_t cum = 0;
  int b = 0;
  while (b + 1 < buckets && cum + std::int32_t(h[b]) <= local) cum += std::int32_t(h[b++]);  // step: splitters
  cell = b;
  const std::int32_t to_lower = local - cum, to_upper = cum + std::int32_t(h[b]) - local;
  c.at = c.below + (to_lower <= to_upper ? cum : cum + std::int32_t(h[b]));
  if (min(to_lower, to_upper) <= p.slack) {
    c.resolved = 1;
  } else if (p.rest == 0) {  // no bits left: a run of equal keys
    c.at = target;
    c.resolved = 1;
  } else {
    c.prefix = (c.prefix << p.bits) | std::uint32_t(b);
    c.below += cum;
  }
  return b + 1;
}

// GPU r = blockIdx.x counts the top digit of its shard; a block of fewer threads than the shard
// (a shard may pass 1024 keys) loops, each pass standing for the plan's next threads.
__global__ void histogram_kernel(Dist p) {
  const int r = blockIdx.x;
  for (std::int32_t local = threadIdx.x; p.shard[r] + local < p.shard[r + 1]; local += blockDim.x) {
    const std::int32_t i = p.shard[r] + local;
    const std::uint32_t d = (p.key(i) >> p.rest) & ((1u << p.bits) - 1u);
    p.row(kDigit)[i] = d;
    atomicAdd(p.row(kGpuHist) + r * p.stride + d, 1u);  // step: histogram
    p.ctx.op(std::int64_t(r) * p.threads + local, 0, OpKind::Atomic, kRowMain, i, kGpuHist, r * p.stride + d);
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kAtomics, 1);
  }
}

// Thread b of GPU r adds its count of digit b into the sum. One device holds every virtual GPU's
// copy of the sum, so the G adds into a bin are made atomic; the trace counts them as the
// collective's adds (integers: the order does not change the sum).
__global__ void all_reduce_kernel(Dist p) {
  const int r = blockIdx.x, b = threadIdx.x;
  atomicAdd(p.row(kGlobalHist) + b, p.row(kGpuHist)[r * p.stride + b]);  // step: all-reduce
  p.ctx.op(std::int64_t(r) * p.stride + b, 0, OpKind::Add, kGpuHist, r * p.stride + b, kGlobalHist, b);
  p.ctx.count(traced::kAdds, 1);
  p.ctx.count(traced::kGlobalRead, 4);
  p.ctx.count(traced::kGlobalWrite, 4);
}

// Thread s places cut s on the global histogram of the top digit.
__global__ void splitters_kernel(Dist p) {
  const int s = threadIdx.x;
  Cut c{0u, 0, 0, 0};
  int cell = 0;
  const int walked = walk_cut(p, c, s, p.row(kGlobalHist), 1 << p.bits, cell);
  p.cuts[s] = c;
  p.ctx.op(s, 0, OpKind::Move, kGlobalHist, cell, kEdges, s + 1);
  p.ctx.count(traced::kGlobalRead, 4ull * walked);
  p.ctx.count(traced::kAdds, walked);
  __syncthreads();
  write_edges(p);
}

// Every GPU counts the next digit of its keys in the buckets that hold an open cut; the last block
// to finish all-reduces the counts and walks the open cuts on the sum.
__global__ void refine_kernel(Dist p) {
  const int r = blockIdx.x, buckets = 1 << p.bits;
  std::uint32_t q[kMaxGpus];
  const int nq = open_buckets(p, q);
  for (std::int32_t local = threadIdx.x; p.shard[r] + local < p.shard[r + 1]; local += blockDim.x) {
    const std::int32_t i = p.shard[r] + local;
    const std::uint32_t x = p.key(i);
    p.ctx.count(traced::kGlobalRead, 4);
    int k = 0;
    while (k < nq && q[k] != x >> (p.span - p.level)) ++k;
    if (k == nq) continue;  // not in a bucket that holds a cut
    const int cell = k * buckets + int((x >> p.rest) & std::uint32_t(buckets - 1));
    atomicAdd(p.refine_gpu + r * p.refine_cells + cell, 1u);  // step: refine
    p.ctx.op(std::int64_t(r) * p.threads + local, 0, OpKind::Atomic, kRowMain, i, kRefine, cell);
    p.ctx.count(traced::kAtomics, 1);
  }
  // The last block to sign in sees every block's counts: each thread fences its atomics first.
  __threadfence();
  __syncthreads();
  unsigned ticket = 0;
  if (threadIdx.x == 0) ticket = atomicAdd(p.done, 1u) + 1u;
  if (!__syncthreads_or(ticket == gridDim.x)) return;
  for (int j = threadIdx.x; j < p.refine_cells; j += blockDim.x) {
    std::uint32_t sum = 0;
    if (j < nq * buckets) {
      for (int g = 0; g < p.gpus; ++g) sum += __ldcg(p.refine_gpu + g * p.refine_cells + j);  // step: refine
      p.ctx.count(traced::kAdds, p.gpus);
    }
    p.row(kRefine)[j] = sum;
  }
  __syncthreads();
  for (int s = threadIdx.x; s + 1 < p.gpus; s += blockDim.x) {
    Cut c = p.cuts[s];
    if (c.resolved) continue;
    int k = 0;
    while (q[k] != c.prefix) ++k;
    int cell = 0;
    const int walked = walk_cut(p, c, s, p.row(kRefine) + k * buckets, buckets, cell);
    p.cuts[s] = c;
    p.ctx.count(traced::kGlobalRead, 4ull * walked);
    p.ctx.count(traced::kAdds, walked);
  }
  __syncthreads();
  write_edges(p);
}

// GPU r groups its shard by destination, stably. A key's destination is the GPU whose range of the
// edges holds its place in the stable global order; each thread counts that place over all keys
// and its rank among its shard's keys (bookkeeping of the one-device stand-in, not counted: the CPU
// stepper counts each key's read and write only).
__global__ void partition_kernel(Dist p) {
  const int r = blockIdx.x;
  const std::int32_t lo = p.shard[r], hi = p.shard[r + 1];
  const std::uint32_t* edges = p.row(kEdges);
  for (std::int32_t i = lo + threadIdx.x; i < hi; i += blockDim.x) {
    const std::uint32_t k = p.key(i);
    std::int32_t place = 0;
    for (std::int32_t j = 0; j < p.n; ++j) place += p.key(j) < k || (p.key(j) == k && j < i);
    std::uint32_t d = 0;
    while (std::uint32_t(place) >= edges[d + 1]) ++d;
    p.row(kDest)[i] = d;
  }
  __syncthreads();
  const std::uint32_t* dest = p.row(kDest);
  for (std::int32_t i = lo + threadIdx.x; i < hi; i += blockDim.x) {
    std::int32_t at = lo;
    for (std::int32_t j = lo; j < hi; ++j) at += dest[j] < dest[i] || (dest[j] == dest[i] && j < i);
    p.row(kPart)[at] = p.row(kRowMain)[i];  // step: partition
    p.ctx.op(std::int64_t(r) * p.threads + (i - lo), 0, OpKind::Move, kRowMain, i, kPart, at);
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
}

// Thread d of GPU r sends r's group for d: after r's groups for GPUs before d, into d's range after
// what the GPUs before r sent it.
__global__ void exchange_kernel(Dist p) {
  const int r = blockIdx.x, d = threadIdx.x;
  const std::uint32_t* dest = p.row(kDest);
  std::int32_t count = 0, from = p.shard[r], to = std::int32_t(p.row(kEdges)[d]);
  for (std::int32_t j = p.shard[r]; j < p.shard[r + 1]; ++j) {
    count += dest[j] == std::uint32_t(d);
    from += dest[j] < std::uint32_t(d);
  }
  for (std::int32_t j = 0; j < p.shard[r]; ++j) to += dest[j] == std::uint32_t(d);
  p.row(kBytes)[r * p.gpus + d] = std::uint32_t(4 * count);  // step: exchange
  if (count == 0) return;
  for (std::int32_t k = 0; k < count; ++k) p.row(kRecv)[to + k] = p.row(kPart)[from + k];  // step: exchange
  p.ctx.op(std::int64_t(r) * p.gpus + d, 0, OpKind::Move, kPart, from + count / 2, kRecv, to + count / 2);
  p.ctx.count(traced::kGlobalRead, 4ull * count);
  p.ctx.count(traced::kGlobalWrite, 4ull * count);
}

// GPU d = blockIdx.x sorts its received range: each key goes to its stable rank among the range's
// keys (a rank sort, in one launch, stands for the one-GPU radix sort; the result is the same).
__global__ void sort_kernel(Dist p) {
  const int d = blockIdx.x;
  const std::int32_t lo = std::int32_t(p.row(kEdges)[d]), hi = std::int32_t(p.row(kEdges)[d + 1]);
  const std::uint32_t* recv = p.row(kRecv);
  for (std::int32_t a = lo + threadIdx.x; a < hi; a += blockDim.x) {
    const std::uint32_t k = radix_key(recv[a], p.ctx.type);
    std::int32_t rank = 0;
    for (std::int32_t b = lo; b < hi; ++b) {
      const std::uint32_t kb = radix_key(recv[b], p.ctx.type);
      rank += kb < k || (kb == k && b < a);
    }
    p.row(kSorted)[lo + rank] = recv[a];  // step: sort
    p.ctx.op(std::int64_t(d) * p.threads + (a - lo), 0, OpKind::Move, kRecv, a, kSorted, lo + rank);
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
}
// listing: end

// Threads of a block: the plan's threads of one GPU, at most 1024 (the rest loop).
int block_of(std::int32_t threads) { return int(std::min<std::int32_t>(threads, 1024)); }

}  // namespace

Result cuda_distributed_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  const Model m = model(cfg, input);
  const int G = m.gpus;
  const std::int32_t refine_cells = std::int32_t(t.rows.size()) > kRefine ? t.rows[kRefine].length : 0;
  traced::CudaRun run(t, out);
  run.upload_initial(traced::initial_state(t, input, {kRowMain}));
  try {
    DeviceBuffer<Cut> d_cuts(std::size_t(G - 1));
    DeviceBuffer<std::uint32_t> d_refine_gpu(std::size_t(std::max(1, G * refine_cells)));
    DeviceBuffer<unsigned> d_done(1);
    std::size_t round = 0;
    for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
      const Step& st = t.steps[s];
      const Round& rd = m.rounds[std::min(round, m.rounds.size() - 1)];
      Dist p{run.begin(s), m.n, G, {}, st.launch.threads, std::int32_t(1) << m.digit_bits, m.slack,
             m.span, rd.level, rd.bits, m.span - rd.level - rd.bits, refine_cells, d_cuts.get(),
             d_refine_gpu.get(), d_done.get()};
      for (int r = 0; r <= G; ++r) p.shard[r] = m.shard[std::size_t(r)];
      if (st.phase == "histogram") {
        histogram_kernel<<<G, block_of(p.threads)>>>(p);
      } else if (st.phase == "all-reduce") {
        all_reduce_kernel<<<G, p.stride>>>(p);
      } else if (st.phase == "splitters") {
        splitters_kernel<<<1, G - 1>>>(p);
      } else if (st.phase == "refine") {
        PRIMLAB_TRACED_CHECK(run, cudaMemsetAsync(d_refine_gpu.get(), 0, d_refine_gpu.bytes()));
        PRIMLAB_TRACED_CHECK(run, cudaMemsetAsync(d_done.get(), 0, d_done.bytes()));
        refine_kernel<<<G, block_of(p.threads)>>>(p);
      } else if (st.phase == "partition") {
        partition_kernel<<<G, block_of(p.threads)>>>(p);
      } else if (st.phase == "exchange") {
        exchange_kernel<<<G, G>>>(p);
      } else if (st.phase == "sort") {
        sort_kernel<<<G, block_of(p.threads)>>>(p);
      }
      if (st.phase == "splitters" || st.phase == "refine") ++round;
      run.end(s);
    }
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }
  return run.finish();
}

}  // namespace primlab::steppers
