// Work-efficient Blelloch scan in global memory, traced: one launch per up-sweep level, one to
// clear the last element, one per down-sweep level, in place on x (cpu/scan_blelloch.cpp plans).
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kInput = kStdRows };

__global__ void up_sweep(traced::StepCtx ctx, std::uint32_t* x, int stride, int active) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(k < active);
  if (k >= active) return;
  const int left = k * stride + stride / 2 - 1, right = k * stride + stride - 1;
  x[right] = traced::add_words(x[right], x[left], ctx.type);
  ctx.op(k, 0, OpKind::Add, kRowMain, left, kRowMain, right);
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, 4);
  ctx.count(traced::kAdds, 1);
}

__global__ void clear_last(traced::StepCtx ctx, std::uint32_t* x, int W) {
  x[W - 1] = 0;
  ctx.op(0, 0, OpKind::Write, kRowMain, -1, kRowMain, W - 1);
  ctx.count(traced::kGlobalWrite, 4);
}

__global__ void down_sweep(traced::StepCtx ctx, std::uint32_t* x, int stride, int active) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(k < active);
  if (k >= active) return;
  const int left = k * stride + stride / 2 - 1, right = k * stride + stride - 1;
  const std::uint32_t t = x[left];
  x[left] = x[right];
  x[right] = traced::add_words(x[right], t, ctx.type);
  ctx.op(k, 0, OpKind::Move, kRowMain, right, kRowMain, left);
  ctx.op(k, 1, OpKind::Add, kRowMain, left, kRowMain, right);
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, 8);
  ctx.count(traced::kAdds, 1);
}

// listing: scan-blelloch
__global__ void add_input(traced::StepCtx ctx, std::uint32_t* x, const std::uint32_t* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < n);
  if (i >= n) return;
  x[i] = traced::add_words(x[i], in[i], ctx.type);  // step: inclusive
  ctx.op(i, 0, OpKind::Add, kInput, i, kRowMain, i);
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, 4);
  ctx.count(traced::kAdds, 1);
}
// listing: end
}  // namespace

Result cuda_scan_blelloch(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t,
                               DeviceTraceView out) {
  traced::CudaRun run(t, out);
  run.upload_initial(traced::initial_state(t, input, {kRowMain, kInput}));
  std::uint32_t* x = run.row(kRowMain);
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    const Step& st = t.steps[s];
    traced::StepCtx ctx = run.begin(s);
    const int active = st.launch.active, stride = active > 0 ? t.width / active : 0;
    if (st.phase == "up-sweep") up_sweep<<<st.launch.blocks, st.launch.threads>>>(ctx, x, stride, active);
    else if (st.phase == "clear") clear_last<<<1, 1>>>(ctx, x, t.width);
    else if (st.phase == "down-sweep") down_sweep<<<st.launch.blocks, st.launch.threads>>>(ctx, x, stride, active);
    else add_input<<<st.launch.blocks, st.launch.threads>>>(ctx, x, run.row(kInput), t.n);
    run.end(s);
  }
  return run.finish();
}

}  // namespace primlab::steppers
