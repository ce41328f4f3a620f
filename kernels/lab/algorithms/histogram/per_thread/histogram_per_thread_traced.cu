// The lecture's histogram without atomics, traced: 64 byte counters per thread in shared memory,
// one launch per step (the clear, a round of the grid-stride loop, the block merge, the merge
// kernel). A block's counters live in a trace row between launches (restored on entry, spilled on
// exit: bookkeeping that is not counted). See histogram_per_thread.cpp.
#include "lab/algorithms/histogram/per_thread/per_thread_shape.h"
#include "lab/run/steppers.h"
#include "lab/run/trace_device.cuh"

namespace primlab::steppers {
using namespace per_thread;
namespace {

struct PerThread {
  traced::StepCtx ctx;
  int n;
  int bins;
  Variant v;
  __device__ std::uint32_t* row(int r) const { return ctx.row(r); }
};

__device__ void restore(const PerThread& p, unsigned char* s_hist) {
  for (int j = threadIdx.x; j < kCells; j += blockDim.x) s_hist[j] = (unsigned char)p.row(kCounters)[blockIdx.x * kCells + j];
  __syncthreads();
}

__device__ void spill(const PerThread& p, const unsigned char* s_hist) {
  __syncthreads();
  for (int j = threadIdx.x; j < kCells; j += blockDim.x) p.row(kCounters)[blockIdx.x * kCells + j] = s_hist[j];
}

// listing: histogram-per-thread
// 64 threads a block, fewer than 64 bins: each thread owns 64 byte counters in shared memory,
// s_hist[counter_index(tid, data)], so no two threads ever write one counter.
__global__ void clear_counters(PerThread p) {
  __shared__ unsigned char s_hist[kCells];
  for (int k = 0; k < kCells / kThreads; ++k) {
    const int j = threadIdx.x + k * kThreads;
    p.ctx.shared_access(j / 4);
    s_hist[j] = 0;  // step: clear
    p.ctx.op(blockIdx.x * kThreads + threadIdx.x, k, OpKind::Write, kCounters, -1, kCounters, blockIdx.x * kCells + j);
  }
  spill(p, s_hist);
}

__global__ void count_round(PerThread p, int round) {
  __shared__ unsigned char s_hist[kCells];
  restore(p, s_hist);
  const int tid = thread_slot(threadIdx.x, p.v);  // step: count
  const long long i = (long long)round * gridDim.x * kThreads + blockIdx.x * kThreads + threadIdx.x;
  const bool act = i < p.n;
  p.ctx.branch(act);
  const int data = act ? int(p.row(kData)[i]) : 0;
  const int pos = counter_index(tid, data, p.v);  // step: count
  p.ctx.shared_access(act ? pos / 4 : -1);  // read
  p.ctx.shared_access(act ? pos / 4 : -1);  // write
  if (act) {
    s_hist[pos]++;  // step: count
    p.ctx.op(blockIdx.x * kThreads + threadIdx.x, 0, OpKind::Add, kRowMain, int(i), kCounters, blockIdx.x * kCells + pos);
    p.ctx.count(traced::kAdds, 1);
    p.ctx.count(traced::kGlobalRead, 4);
  }
  spill(p, s_hist);
}

__global__ void merge_counters(PerThread p) {
  __shared__ unsigned char s_hist[kCells];
  restore(p, s_hist);
  const int bin = threadIdx.x;
  const bool act = bin < p.bins;
  p.ctx.branch(act);
  for (int k = 0; k < kThreads; ++k) p.ctx.shared_access(act ? counter_index(k, bin, p.v) / 4 : -1);
  if (!act) return;
  unsigned sum = 0;
  for (int k = 0; k < kThreads; ++k) {
    sum += s_hist[counter_index(k, bin, p.v)];  // step: block merge
    p.ctx.op(blockIdx.x * kThreads + bin, k, OpKind::Add, kCounters, blockIdx.x * kCells + counter_index(k, bin, p.v),
             kPartial, blockIdx.x * p.bins + bin);
  }
  p.row(kPartial)[blockIdx.x * p.bins + bin] = sum;  // step: block merge
  p.ctx.count(traced::kAdds, kThreads);
  p.ctx.count(traced::kGlobalWrite, 4);
}

__global__ void merge_partials(PerThread p, int count) {
  const int bin = threadIdx.x;
  unsigned sum = 0;
  for (int h = 0; h < count; ++h) {
    sum += p.row(kPartial)[h * p.bins + bin];  // step: merge
    p.ctx.op(bin, h, OpKind::Add, kPartial, h * p.bins + bin, kBins, bin);
  }
  p.row(kBins)[bin] = sum;  // step: merge
  p.ctx.count(traced::kAdds, count);
  p.ctx.count(traced::kGlobalRead, 4ull * count);
  p.ctx.count(traced::kGlobalWrite, 4);
}
// listing: end

}  // namespace

Result cuda_histogram_per_thread(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                                 DeviceTraceView out) {
  traced::CudaRun run(t, out);
  std::vector<std::uint32_t> state0 = traced::initial_state(t, input, {kRowMain});
  const int P = t.rows[kBins].length;
  for (int i = 0; i < t.n; ++i) state0[std::size_t(kData) * t.width + i] = std::uint32_t(bin_of(input[i], t.type, P));
  run.upload_initial(state0);
  const Variant v = variant_of(cfg.variant);
  int round = 0;
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    const Step& st = t.steps[s];
    PerThread p{run.begin(s), t.n, P, v};
    const int blocks = st.launch.blocks;
    if (st.phase == "clear")
      clear_counters<<<blocks, kThreads>>>(p);
    else if (st.phase == "count")
      count_round<<<blocks, kThreads>>>(p, round++);
    else if (st.phase == "block merge")
      merge_counters<<<blocks, kThreads>>>(p);
    else
      merge_partials<<<1, P>>>(p, t.steps[1].launch.blocks);
    run.end(s);
  }
  return run.finish();
}

}  // namespace primlab::steppers
