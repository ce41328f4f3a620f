// Naive Hillis–Steele scan, traced: the real kernels over real ping-pong buffers, one launch per
// offset; after each launch the buffers are snapshotted into the trace (cpu/scan_naive.cpp plans).
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kReadBuf = kStdRows, kInput };

__global__ void shift_right(traced::StepCtx ctx, const std::uint32_t* in, std::uint32_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < n);
  if (i >= n) return;
  if (i > 0) {
    out[i] = in[i - 1];
    ctx.op(i, 0, OpKind::Move, kReadBuf, i - 1, kRowMain, i);
    ctx.count(traced::kGlobalRead, 4);
  } else {
    out[i] = 0;
    ctx.op(i, 0, OpKind::Write, kReadBuf, -1, kRowMain, i);
  }
  ctx.count(traced::kGlobalWrite, 4);
}

__global__ void scan_step(traced::StepCtx ctx, const std::uint32_t* in, std::uint32_t* out, int n, int offset) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i >= n ? 0 : i >= offset ? 1 : 2);
  if (i >= n) return;
  if (i >= offset) {
    out[i] = traced::add_words(in[i], in[i - offset], ctx.type);
    ctx.op(i, 0, OpKind::Add, kReadBuf, i - offset, kRowMain, i);
    ctx.count(traced::kGlobalRead, 8);
    ctx.count(traced::kAdds, 1);
  } else {
    out[i] = in[i];
    ctx.op(i, 0, OpKind::Move, kReadBuf, i, kRowMain, i);
    ctx.count(traced::kGlobalRead, 4);
  }
  ctx.count(traced::kGlobalWrite, 4);
}
}  // namespace

Result cuda_scan_naive(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                            DeviceTraceView out) {
  traced::CudaRun run(t, out);
  const int n = t.n, B = t.block;
  DeviceBuffer<std::uint32_t> ping, pong;
  try {
    ping.resize(std::size_t(n));
    pong.resize(std::size_t(n));
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }
  run.upload_initial(traced::initial_state(t, input, {kRowMain, kReadBuf, kInput}));
  PRIMLAB_TRACED_CHECK(run, cudaMemcpy(ping.get(), input.data(), std::size_t(n) * 4, cudaMemcpyHostToDevice));
  std::uint32_t* src = ping.get();
  std::uint32_t* dst = pong.get();
  int offset = 1;
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    traced::StepCtx ctx = run.begin(s);
    const int blocks = t.steps[s].launch.blocks;
    if (t.steps[s].phase == "shift") {
      shift_right<<<blocks, B>>>(ctx, src, dst, n);
    } else {
      scan_step<<<blocks, B>>>(ctx, src, dst, n, offset);
      offset *= 2;
    }
    PRIMLAB_TRACED_CHECK(run, cudaPeekAtLastError());
    PRIMLAB_TRACED_CHECK(run, cudaMemcpyAsync(run.row(kRowMain), dst, std::size_t(n) * 4, cudaMemcpyDeviceToDevice));
    PRIMLAB_TRACED_CHECK(run, cudaMemcpyAsync(run.row(kReadBuf), src, std::size_t(n) * 4, cudaMemcpyDeviceToDevice));
    run.end(s);
    std::swap(src, dst);
  }
  (void)cfg;
  return run.finish();
}

}  // namespace primlab::steppers
