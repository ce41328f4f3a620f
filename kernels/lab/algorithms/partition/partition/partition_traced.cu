// Radix partition (seed 003), traced: the digit histogram with shared-memory atomicAdd (digit from
// PTX bfe.u32), the one-block prefix scan, and the reorder with atomic offsets (not stable) or the
// stable in-order block writes. One launch per step; the atomic variant's shared block histograms
// are spilled to a trace row between its count and flush steps (bookkeeping, not counted). Mirrors
// cpu/partition.cpp op slot for op slot and counter for counter.
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum CommonRows { kDigit = kStdRows };
enum AtomicRows { kBlockHist = kDigit + 1, kHist, kOffsets, kFill, kOut };
enum StableRows { kCounts = kDigit + 1, kScanned, kSOut };

struct Part {
  traced::StepCtx ctx;
  int n, parts, start, bits, rounds;
  __device__ std::uint32_t* row(int r) const { return ctx.row(r); }
  // Key of this thread in round r of its block's tile, or -1 past n.
  __device__ int key_index(int r) const {
    const long long i = (long long)blockIdx.x * rounds * blockDim.x + (long long)r * blockDim.x + threadIdx.x;
    return i < n ? int(i) : -1;
  }
};

// listing: partition-atomic partition-stable
__device__ inline unsigned bfe(unsigned x, unsigned start, unsigned bits) {
  unsigned d;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(x), "r"(start), "r"(bits));
  return d;
}
// listing: end

__device__ inline long long global_thread() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }

// A block-stride loop over `count` shared counters: the branch and one shared access per iteration.
template <class F>
__device__ void block_loop(const Part& p, int count, F f) {
  const int iters = (count + blockDim.x - 1) / blockDim.x;
  for (int k = 0; k < iters; ++k) {
    const int j = threadIdx.x + k * blockDim.x;
    const bool act = j < count;
    p.ctx.branch(act);
    p.ctx.shared_access(act ? j : -1);
    if (act) f(j, k);
  }
}

// listing: partition-atomic partition-stable
// Counts the block's tile into sh with shared atomicAdd; f(round, i, digit) per key.
template <class F>
__device__ void count_tile(const Part& p, std::uint32_t* sh, F f) {
  for (int r = 0; r < p.rounds; ++r) {
    const int i = p.key_index(r);
    const bool act = i >= 0;
    p.ctx.branch(act);
    const int d = act ? int(bfe(p.row(kRowMain)[i], p.start, p.bits)) : -1;
    p.ctx.shared_access(d);
    if (!act) continue;
    atomicAdd(sh + d, 1u);  // step: count
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kAtomics, 1);
    f(r, i, d);
  }
}
// listing: end

// [SECTION] The one-block prefix scan of L counts (both variants)
// listing: partition-atomic partition-stable
__global__ void prefix_scan(Part p, int in_row, int out_row, int L) {
  extern __shared__ std::uint32_t sh[];
  const int S = blockDim.x, t = threadIdx.x, c = (L + S - 1) / S;
  const int lo = min(t * c, L), hi = min(lo + c, L);
  const std::uint32_t* in = p.row(in_row);
  std::uint32_t* out = p.row(out_row);
  std::uint32_t sum = 0;
  for (int j = 0; j < c; ++j) {
    const bool act = lo + j < hi;
    p.ctx.branch(act);
    if (act) sum += in[lo + j];  // step: scan
  }
  p.ctx.count(traced::kAdds, hi - lo);
  p.ctx.count(traced::kGlobalRead, 4ull * (hi - lo));
  p.ctx.shared_access(t);
  sh[t] = sum;
  __syncthreads();
  for (int d = 1; d < S; d <<= 1) {
    const bool act = t >= d;
    p.ctx.branch(act);
    p.ctx.shared_access(act ? t : -1);
    p.ctx.shared_access(act ? t - d : -1);
    const std::uint32_t v = act ? sh[t] + sh[t - d] : 0u;  // step: scan
    __syncthreads();
    p.ctx.shared_access(act ? t : -1);
    if (act) {
      sh[t] = v;
      p.ctx.count(traced::kAdds, 1);
    }
    __syncthreads();
  }
  p.ctx.shared_access(t > 0 ? t - 1 : -1);
  std::uint32_t run = t > 0 ? sh[t - 1] : 0u;
  for (int j = 0; j < c; ++j) {
    const bool act = lo + j < hi;
    p.ctx.branch(act);
    if (!act) continue;
    const int k = lo + j;
    out[k] = run;  // step: scan
    run += in[k];
    p.ctx.op(t, j, OpKind::Add, in_row, k, out_row, k);
  }
  p.ctx.count(traced::kAdds, hi - lo);
  p.ctx.count(traced::kGlobalRead, 4ull * (hi - lo));
  p.ctx.count(traced::kGlobalWrite, 4ull * (hi - lo));
}
// listing: end

// [SECTION] partition-atomic
// listing: partition-atomic
__global__ void count_atomic(Part p) {
  extern __shared__ std::uint32_t sh[];
  block_loop(p, p.parts, [&](int j, int) { sh[j] = 0; });
  __syncthreads();
  count_tile(p, sh, [&](int r, int i, int d) {
    p.ctx.op(global_thread(), r, OpKind::Atomic, kRowMain, i, kBlockHist, blockIdx.x * p.parts + d);
  });
  __syncthreads();
  for (int j = threadIdx.x; j < p.parts; j += blockDim.x) p.row(kBlockHist)[blockIdx.x * p.parts + j] = sh[j];
}

__global__ void flush_atomic(Part p) {
  extern __shared__ std::uint32_t sh[];
  for (int j = threadIdx.x; j < p.parts; j += blockDim.x) sh[j] = p.row(kBlockHist)[blockIdx.x * p.parts + j];
  __syncthreads();
  block_loop(p, p.parts, [&](int j, int k) {
    atomicAdd(p.row(kHist) + j, sh[j]);  // step: flush
    p.ctx.op(global_thread(), k, OpKind::Atomic, kBlockHist, blockIdx.x * p.parts + j, kHist, j);
    p.ctx.count(traced::kAtomics, 1);
  });
}

__global__ void reorder_atomic(Part p) {
  for (int r = 0; r < p.rounds; ++r) {
    const int i = p.key_index(r);
    const bool act = i >= 0;
    p.ctx.branch(act);
    if (!act) continue;
    const std::uint32_t key = p.row(kRowMain)[i];
    const unsigned d = bfe(key, p.start, p.bits);
    const std::uint32_t pos = p.row(kOffsets)[d] + atomicAdd(p.row(kFill) + d, 1u);  // step: reorder
    p.row(kOut)[pos] = key;  // step: reorder
    p.ctx.op(global_thread(), 2 * r, OpKind::Atomic, kRowMain, i, kFill, int(d));
    p.ctx.op(global_thread(), 2 * r + 1, OpKind::Move, kRowMain, i, kOut, int(pos));
    p.ctx.count(traced::kAtomics, 1);
    p.ctx.count(traced::kGlobalRead, 8);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
}
// listing: end

// [SECTION] partition-stable
// listing: partition-stable
__global__ void count_stable(Part p) {
  extern __shared__ std::uint32_t sh[];
  const int blocks = gridDim.x;
  block_loop(p, p.parts, [&](int j, int) { sh[j] = 0; });
  __syncthreads();
  count_tile(p, sh, [&](int r, int i, int d) {
    p.ctx.op(global_thread(), r, OpKind::Atomic, kRowMain, i, kCounts, d * blocks + blockIdx.x);
  });
  __syncthreads();
  block_loop(p, p.parts, [&](int j, int) {
    p.row(kCounts)[j * blocks + blockIdx.x] = sh[j];
    p.ctx.count(traced::kGlobalWrite, 4);
  });
}

__global__ void reorder_stable(Part p) {
  extern __shared__ std::uint32_t cursor[];
  const int blocks = gridDim.x, warps = (blockDim.x + 31) / 32, warp = threadIdx.x >> 5;
  const unsigned lane_lt = (1u << (threadIdx.x & 31)) - 1u;
  block_loop(p, p.parts, [&](int j, int) {
    cursor[j] = p.row(kScanned)[j * blocks + blockIdx.x];
    p.ctx.count(traced::kGlobalRead, 4);
  });
  __syncthreads();
  for (int r = 0; r < p.rounds; ++r) {
    const int i = p.key_index(r);
    const bool act = i >= 0;
    p.ctx.branch(act);
    const std::uint32_t key = act ? p.row(kRowMain)[i] : 0u;
    const int d = act ? int(bfe(key, p.start, p.bits)) : -1;
    const unsigned live = __activemask();
    const unsigned peers = __match_any_sync(live, d);
    const unsigned rank = __popc(peers & lane_lt);
    const bool leader = act && rank == 0;
    std::uint32_t pos = 0;
    for (int w = 0; w < warps; ++w) {  // warps in order keep the round in order
      __syncthreads();
      if (warp != w) continue;
      p.ctx.shared_access(d);  // read cursor[d]
      if (act) pos = cursor[d] + rank;  // step: reorder
      __syncwarp(live);
      p.ctx.branch(leader);
      p.ctx.shared_access(leader ? d : -1);  // the leader moves the cursor
      if (leader) cursor[d] += __popc(peers);
    }
    if (!act) continue;
    p.row(kSOut)[pos] = key;  // step: reorder
    p.ctx.op(global_thread(), r, OpKind::Move, kRowMain, i, kSOut, int(pos));
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
}
// listing: end

Result run_partition(bool stable, const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                          DeviceTraceView out) {
  traced::CudaRun run(t, out);
  std::vector<std::uint32_t> state0 = traced::initial_state(t, input, {kRowMain});
  const int P = cfg.bins, start = cfg.digit_start;
  int bits = 0;
  while ((1 << bits) < P) ++bits;
  for (int i = 0; i < t.n; ++i) state0[std::size_t(kDigit) * t.width + i] = (input[i] >> start) & std::uint32_t(P - 1);
  run.upload_initial(state0);
  const int B = t.block, blocks = t.steps[1].launch.blocks, rounds = t.steps[1].ops_per_thread;
  const std::size_t smem = std::size_t(P) * 4;
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    const Step& st = t.steps[s];
    Part p{run.begin(s), t.n, P, start, bits, rounds};
    const std::string& ph = st.phase;
    if (ph == "scan") {
      const int S = st.launch.threads;
      if (stable)
        prefix_scan<<<1, S, std::size_t(S) * 4>>>(p, kCounts, kScanned, P * blocks);
      else
        prefix_scan<<<1, S, std::size_t(S) * 4>>>(p, kHist, kOffsets, P);
    } else if (stable) {
      if (ph == "count")
        count_stable<<<blocks, B, smem>>>(p);
      else
        reorder_stable<<<blocks, B, smem>>>(p);
    } else {
      if (ph == "count")
        count_atomic<<<blocks, B, smem>>>(p);
      else if (ph == "flush")
        flush_atomic<<<blocks, B, smem>>>(p);
      else
        reorder_atomic<<<blocks, B>>>(p);
    }
    run.end(s);
  }
  return run.finish();
}
}  // namespace

Result cuda_partition_atomic(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                                  DeviceTraceView out) {
  return run_partition(false, cfg, input, t, out);
}

Result cuda_partition_stable(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                                  DeviceTraceView out) {
  return run_partition(true, cfg, input, t, out);
}

}  // namespace primlab::steppers
