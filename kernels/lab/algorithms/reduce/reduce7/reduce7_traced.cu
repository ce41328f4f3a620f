// Harris's kernel 7, traced: each step is one launch of the real block code (reduce7_schedule.h
// schedules the steps, reduce7.cpp plans them). Between launches a block's shared memory is kept
// in its trace row (restored on entry, spilled on exit: bookkeeping, not counted), and each
// thread's register sum in the sum row.
#include "lab/algorithms/reduce/reduce7/reduce7_schedule.h"
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace reduce7;

struct Args {
  traced::StepCtx ctx;
  const std::uint32_t* in;
  std::uint32_t* sum;
  std::uint32_t* sh;
  std::uint32_t* out;
  int in_row, sum_row, sh_row, out_row;
  Pass pass;
  int s;
};

// This block's shared memory from its slice of the shared row, and back.
__device__ void restore(const Args& p, std::uint32_t* sdata) {
  for (int j = threadIdx.x; j < p.pass.W; j += blockDim.x) sdata[j] = p.sh[blockIdx.x * p.pass.W + j];
  __syncthreads();
}
__device__ void spill(const Args& p, const std::uint32_t* sdata) {
  __syncthreads();
  for (int j = threadIdx.x; j < p.pass.W; j += blockDim.x) p.sh[blockIdx.x * p.pass.W + j] = sdata[j];
}

__device__ std::int64_t thread_id() { return std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; }

// One trip of the grid-stride loop.
__global__ void grid_round(Args p) {
  const int tid = threadIdx.x, B = blockDim.x;
  const std::int64_t i = p.pass.index(blockIdx.x, tid, p.s), thread = thread_id();
  p.ctx.branch(i < p.pass.in_len);
  if (i >= p.pass.in_len) return;
  std::uint32_t x = p.in[i];
  p.ctx.count(traced::kGlobalRead, 4);
  p.ctx.op(thread, 0, OpKind::Add, p.in_row, std::int32_t(i), p.sum_row, std::int32_t(thread));
  if (i + B < p.pass.in_len) {
    x = traced::add_words(x, p.in[i + B], p.ctx.type);
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kAdds, 1);
    p.ctx.op(thread, 1, OpKind::Add, p.in_row, std::int32_t(i + B), p.sum_row, std::int32_t(thread));
  }
  p.sum[thread] = traced::add_words(p.sum[thread], x, p.ctx.type);
  p.ctx.count(traced::kAdds, 1);
}

__global__ void store(Args p) {
  extern __shared__ std::uint32_t sdata[];
  const int tid = threadIdx.x;
  restore(p, sdata);
  p.ctx.shared_access(tid);
  sdata[tid] = p.sum[thread_id()];
  p.ctx.op(thread_id(), 0, OpKind::Move, p.sum_row, std::int32_t(thread_id()), p.sh_row,
           std::int32_t(blockIdx.x) * p.pass.W + tid);
  spill(p, sdata);
}

__global__ void level(Args p) {
  extern __shared__ std::uint32_t sdata[];
  const int tid = threadIdx.x, s = p.s, base = blockIdx.x * p.pass.W;
  restore(p, sdata);
  const bool act = tid < s;
  p.ctx.branch(act);
  p.ctx.shared_access(act ? tid : -1);
  p.ctx.shared_access(act ? tid + s : -1);
  p.ctx.shared_access(act ? tid : -1);
  if (act) {
    sdata[tid] = traced::add_words(sdata[tid], sdata[tid + s], p.ctx.type);
    p.ctx.count(traced::kAdds, 1);
    p.ctx.op(thread_id(), 0, OpKind::Add, p.sh_row, base + tid + s, p.sh_row, base + tid);
  }
  spill(p, sdata);
}

// One warp line: every lane reads, the warp synchronises, every lane writes.
__global__ void unrolled(Args p) {
  extern __shared__ std::uint32_t sdata[];
  const int tid = threadIdx.x, s = p.s, base = blockIdx.x * p.pass.W;
  restore(p, sdata);
  p.ctx.branch(tid < 32);
  if (tid < 32) {
    volatile std::uint32_t* d = sdata;
    const unsigned lanes = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1u;
    p.ctx.shared_access(tid);
    p.ctx.shared_access(tid + s);
    p.ctx.shared_access(tid);
    const std::uint32_t v = traced::add_words(d[tid], d[tid + s], p.ctx.type);
    __syncwarp(lanes);
    d[tid] = v;
    p.ctx.count(traced::kAdds, 1);
    p.ctx.op(thread_id(), 0, OpKind::Add, p.sh_row, base + tid + s, p.sh_row, base + tid);
  }
  spill(p, sdata);
}

__global__ void write_out(Args p) {
  extern __shared__ std::uint32_t sdata[];
  const int tid = threadIdx.x;
  restore(p, sdata);
  p.ctx.branch(tid == 0);
  p.ctx.shared_access(tid == 0 ? 0 : -1);
  if (tid != 0) return;
  p.out[blockIdx.x] = sdata[0];
  p.ctx.count(traced::kGlobalWrite, 4);
  p.ctx.op(thread_id(), 0, OpKind::Move, p.sh_row, std::int32_t(blockIdx.x) * p.pass.W, p.out_row, blockIdx.x);
}
}  // namespace

Result cuda_reduce7(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  const Schedule sc = make_schedule(t.n, t.block);
  traced::CudaRun run(t, out);
  run.upload_initial(traced::initial_state(t, input, {kRowMain}));
  for (std::size_t k = 0; k < sc.steps.size() && run.ok(); ++k) {
    const RStep& st = sc.steps[k];
    const Pass& p = sc.pass[st.pass];
    const Args a{run.begin(k + 1),  run.row(p.in_row), run.row(p.sum_row), run.row(p.shared_row), run.row(p.out_row),
                 p.in_row,          p.sum_row,         p.shared_row,       p.out_row,             p,
                 st.s};
    const std::size_t smem = std::size_t(p.W) * 4;
    switch (st.kind) {
      case Kind::Round: grid_round<<<p.blocks, p.B>>>(a); break;
      case Kind::Store: store<<<p.blocks, p.B, smem>>>(a); break;
      case Kind::Level: level<<<p.blocks, p.B, smem>>>(a); break;
      case Kind::Unrolled: unrolled<<<p.blocks, p.B, smem>>>(a); break;
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

}  // namespace primlab::steppers
