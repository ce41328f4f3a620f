// The lecture's reductions reduce1..reduce5 and the warp-shuffle reduction, traced: each step is
// one launch of the real block code (cpu/reduce_common.h schedules the steps, cpu/reduce_lecture.cpp
// plans them). Between launches a block's shared memory and registers are kept in their trace rows
// (restored on entry, spilled on exit: bookkeeping, not counted), so every tree level runs on real
// shared memory with the real addresses, and every shuffle is a real __shfl_down_sync.
#include "lab/algorithms/reduce/reduce_common.h"
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace reduce;

struct Args {
  traced::StepCtx ctx;
  const std::uint32_t* in;
  std::uint32_t* sh;   // shared row (data[] or warp_sums[]), null when none
  std::uint32_t* rg;   // registers row (shuffle), null when none
  std::uint32_t* out;
  int in_row, sh_row, rg_row, out_row;
  int len, E, s, variant, epb;
  bool warp0_only;
};

// Shared memory of this block from its row (words [0, words)), and back.
__device__ void restore(const Args& p, std::uint32_t* data, int base, int words) {
  for (int j = threadIdx.x; j < words; j += blockDim.x) data[j] = p.sh[base + j];
  __syncthreads();
}
__device__ void spill(const Args& p, const std::uint32_t* data, int base, int words) {
  __syncthreads();
  for (int j = threadIdx.x; j < words; j += blockDim.x) p.sh[base + j] = data[j];
}

__device__ unsigned lanes_mask(int lanes) { return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u; }

__global__ void load(Args p) {
  extern __shared__ std::uint32_t data[];
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.E, i = base + tid;
  const std::int64_t thread = std::int64_t(blockIdx.x) * B + tid;
  const bool shuffle = p.rg != nullptr;
  const int dst_row = shuffle ? p.rg_row : p.sh_row;
  if (!shuffle) restore(p, data, base, p.E);
  std::uint32_t x = 0;
  if (i < p.len) {
    x = p.in[i];
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.op(thread, 0, OpKind::Move, p.in_row, i, dst_row, base + tid);
  } else {
    p.ctx.op(thread, 0, OpKind::Write, p.in_row, -1, dst_row, base + tid);
  }
  if (p.epb == 2 && i + B < p.len) {
    x = traced::add_words(x, p.in[i + B], p.ctx.type);
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kAdds, 1);
    p.ctx.op(thread, 1, OpKind::Add, p.in_row, i + B, dst_row, base + tid);
  }
  if (shuffle) {
    p.rg[base + tid] = x;
    return;
  }
  p.ctx.shared_access(tid);
  data[tid] = x;
  spill(p, data, base, p.E);
}

__global__ void level(Args p) {
  extern __shared__ std::uint32_t data[];
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.E, s = p.s;
  restore(p, data, base, p.E);
  int a = tid;
  bool act = tid < s;
  if (p.variant == kReduce1) act = tid % (2 * s) == 0;
  if (p.variant == kReduce2) {
    a = 2 * s * tid;
    act = a < B;
  }
  p.ctx.branch(act);
  p.ctx.shared_access(act ? a : -1);
  p.ctx.shared_access(act ? a + s : -1);
  p.ctx.shared_access(act ? a : -1);
  if (act) {
    data[a] = traced::add_words(data[a], data[a + s], p.ctx.type);
    p.ctx.count(traced::kAdds, 1);
    p.ctx.op(std::int64_t(blockIdx.x) * B + tid, 0, OpKind::Add, p.sh_row, base + a + s, p.sh_row, base + a);
  }
  spill(p, data, base, p.E);
}

// One line of reduce5's unrolled warp: every lane reads, the warp synchronises, every lane writes.
__global__ void unrolled(Args p) {
  extern __shared__ std::uint32_t data[];
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.E, s = p.s;
  restore(p, data, base, p.E);
  p.ctx.branch(tid < 32);
  if (tid < 32) {
    volatile std::uint32_t* d = data;
    p.ctx.shared_access(tid);
    p.ctx.shared_access(tid + s);
    p.ctx.shared_access(tid);
    const std::uint32_t v = traced::add_words(d[tid], d[tid + s], p.ctx.type);
    __syncwarp(lanes_mask(B));
    d[tid] = v;
    p.ctx.count(traced::kAdds, 1);
    p.ctx.op(std::int64_t(blockIdx.x) * B + tid, 0, OpKind::Add, p.sh_row, base + tid + s, p.sh_row, base + tid);
  }
  spill(p, data, base, p.E);
}

__global__ void shuffle(Args p) {
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.E, s = p.s, lane = tid & 31;
  if (p.warp0_only) {
    p.ctx.branch(tid < 32);
    if (tid >= 32) return;
  }
  const int W = p.warp0_only ? 32 : min(32, B);
  std::uint32_t v = p.rg[base + tid];
  const std::uint32_t other = __shfl_down_sync(lanes_mask(W), v, s, W);
  v = traced::add_words(v, other, p.ctx.type);
  p.rg[base + tid] = v;
  const int src = lane + s < W ? tid + s : tid;
  p.ctx.count(traced::kAdds, 1);
  p.ctx.op(std::int64_t(blockIdx.x) * B + tid, 0, OpKind::Add, p.rg_row, base + src, p.rg_row, base + tid);
}

__global__ void warp_sums(Args p) {
  extern __shared__ std::uint32_t data[];
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.E, lane = tid & 31, warp = tid >> 5;
  restore(p, data, base, B / 32);
  const std::uint32_t v = p.rg[base + tid];
  p.ctx.branch(lane == 0);
  p.ctx.shared_access(lane == 0 ? warp : -1);
  if (lane == 0) {
    data[warp] = v;
    p.ctx.op(std::int64_t(blockIdx.x) * B + tid, 0, OpKind::Move, p.rg_row, base + tid, p.sh_row, base + warp);
  }
  spill(p, data, base, B / 32);
}

__global__ void warp_load(Args p) {
  extern __shared__ std::uint32_t data[];
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.E, nw = B / 32;
  restore(p, data, base, nw);
  p.ctx.branch(tid < 32);
  if (tid >= 32) return;
  p.ctx.shared_access(tid < nw ? tid : -1);
  const std::int64_t thread = std::int64_t(blockIdx.x) * B + tid;
  if (tid < nw) {
    p.rg[base + tid] = data[tid];
    p.ctx.op(thread, 0, OpKind::Move, p.sh_row, base + tid, p.rg_row, base + tid);
  } else {
    p.rg[base + tid] = 0;
    p.ctx.op(thread, 0, OpKind::Write, p.sh_row, -1, p.rg_row, base + tid);
  }
}

__global__ void write_out(Args p) {
  extern __shared__ std::uint32_t data[];
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.E;
  const bool shuffle = p.rg != nullptr;
  if (!shuffle) restore(p, data, base, p.E);
  p.ctx.branch(tid == 0);
  if (!shuffle) p.ctx.shared_access(tid == 0 ? 0 : -1);
  if (tid != 0) return;
  p.out[blockIdx.x] = shuffle ? p.rg[base] : data[0];
  p.ctx.count(traced::kGlobalWrite, 4);
  p.ctx.op(std::int64_t(blockIdx.x) * B, 0, OpKind::Move, shuffle ? p.rg_row : p.sh_row, base, p.out_row, blockIdx.x);
}

Result cuda_reduce(int v, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  const Schedule sc = make_schedule(v, t.n, t.block);
  if (!sc.error.empty()) return Result::failure(sc.error);
  traced::CudaRun run(t, out);
  run.upload_initial(traced::initial_state(t, input, {kRowMain}));
  for (std::size_t k = 0; k < sc.steps.size() && run.ok(); ++k) {
    const RStep& st = sc.steps[k];
    const Pass& p = sc.pass[st.pass];
    Args a{run.begin(k + 1),
           run.row(p.in_row),
           p.shared_row >= 0 ? run.row(p.shared_row) : nullptr,
           p.regs_row >= 0 ? run.row(p.regs_row) : nullptr,
           run.row(p.out_row),
           p.in_row,
           p.shared_row,
           p.regs_row,
           p.out_row,
           p.in_len,
           p.E,
           st.s,
           v,
           sc.epb,
           st.warp0_only};
    const std::size_t smem = std::size_t(sc.shuffle() ? 32 : p.E) * 4;
    switch (st.kind) {
      case Kind::Load: load<<<p.blocks, p.B, smem>>>(a); break;
      case Kind::Level: level<<<p.blocks, p.B, smem>>>(a); break;
      case Kind::Unrolled: unrolled<<<p.blocks, p.B, smem>>>(a); break;
      case Kind::Shuffle: shuffle<<<p.blocks, p.B>>>(a); break;
      case Kind::WarpSums: warp_sums<<<p.blocks, p.B, smem>>>(a); break;
      case Kind::WarpLoad: warp_load<<<p.blocks, p.B, smem>>>(a); break;
      case Kind::Write: write_out<<<p.blocks, p.B, smem>>>(a); break;
    }
    run.end(k + 1);
  }
  if (Result r = run.finish(); !r.ok()) return r;
  const std::size_t last = t.steps.size() - 1, total_row = t.rows.size() - 1;
  std::uint32_t total = 0;
  if (!PRIMLAB_TRACED_CHECK(run, cudaMemcpy(&total, out.values + last * t.step_words() + total_row * t.width, 4,
                                            cudaMemcpyDeviceToHost)))
    return Result::failure(run.error());
  t.steps.back().label += " = " + format_word(total, t.type);
  return {};
}
}  // namespace

Result cuda_reduce1(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_reduce(kReduce1, in, t, o);
}
Result cuda_reduce2(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_reduce(kReduce2, in, t, o);
}
Result cuda_reduce3(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_reduce(kReduce3, in, t, o);
}
Result cuda_reduce4(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_reduce(kReduce4, in, t, o);
}
Result cuda_reduce5(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_reduce(kReduce5, in, t, o);
}
Result cuda_reduce_shuffle(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t,
                                DeviceTraceView o) {
  return cuda_reduce(kShuffle, in, t, o);
}

}  // namespace primlab::steppers
