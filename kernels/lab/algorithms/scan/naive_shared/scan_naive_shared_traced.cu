// Seed 001's naive scan in shared memory, traced: one launch per step; between launches a block's
// ping-pong buffer temp[2B] lives in a trace row (restored on entry, spilled on exit: bookkeeping
// that is not counted). The host scans the block sums between the launches, as the seed does.
#include "lab/algorithms/scan/naive_shared/naive_shared_rows.h"
#include "lab/run/steppers.h"
#include "lab/run/trace_device.cuh"

namespace primlab::steppers {
using namespace naive_shared;
namespace {

struct NaiveShared {
  traced::StepCtx ctx;
  __device__ std::uint32_t* row(int r) const { return ctx.row(r); }
};

__device__ int thread_id() { return blockIdx.x * blockDim.x + threadIdx.x; }

__device__ void restore(const NaiveShared& p, std::uint32_t* temp) {
  for (int k = 0; k < 2; ++k) temp[threadIdx.x + k * blockDim.x] = p.row(kHalf0 + k)[thread_id()];
  __syncthreads();
}

__device__ void spill(const NaiveShared& p, const std::uint32_t* temp) {
  __syncthreads();
  for (int k = 0; k < 2; ++k) p.row(kHalf0 + k)[thread_id()] = temp[threadIdx.x + k * blockDim.x];
}

// listing: scan-naive-shared
// Exclusive scan of each block's blockDim.x elements in a shared ping-pong buffer temp[2 * B].
__global__ void naive_load(NaiveShared p) {
  extern __shared__ std::uint32_t temp[];
  restore(p, temp);
  const int tid = threadIdx.x, base = blockIdx.x * blockDim.x;
  const std::uint32_t* idata = p.row(kRowMain);
  p.ctx.branch(tid > 0);
  temp[tid] = tid > 0 ? idata[base + tid - 1] : 0;  // step: load
  p.ctx.shared_access(tid);
  if (tid > 0) {
    p.ctx.op(thread_id(), 0, OpKind::Move, kRowMain, base + tid - 1, kHalf0, base + tid);
    p.ctx.count(traced::kGlobalRead, 4);
  } else {
    p.ctx.op(thread_id(), 0, OpKind::Write, kHalf0, -1, kHalf0, base + tid);
  }
  spill(p, temp);
}

__global__ void naive_sweep(NaiveShared p, int pout, int offset) {
  extern __shared__ std::uint32_t temp[];
  restore(p, temp);
  const int tid = threadIdx.x, B = blockDim.x, pin = 1 - pout;
  p.ctx.branch(tid >= offset);
  p.ctx.shared_access(pin * B + tid);
  p.ctx.shared_access(tid >= offset ? pin * B + tid - offset : -1);
  p.ctx.shared_access(pout * B + tid);
  if (tid >= offset) {
    temp[pout * B + tid] = traced::add_words(temp[pin * B + tid], temp[pin * B + tid - offset], p.ctx.type);  // step: sweep
    p.ctx.op(thread_id(), 0, OpKind::Add, kHalf0 + pin, thread_id() - offset, kHalf0 + pout, thread_id());
    p.ctx.count(traced::kAdds, 1);
  } else {
    temp[pout * B + tid] = temp[pin * B + tid];  // step: sweep
    p.ctx.op(thread_id(), 0, OpKind::Move, kHalf0 + pin, thread_id(), kHalf0 + pout, thread_id());
  }
  spill(p, temp);
}

__global__ void naive_write(NaiveShared p, int pout) {
  extern __shared__ std::uint32_t temp[];
  restore(p, temp);
  const int tid = threadIdx.x, B = blockDim.x, base = blockIdx.x * B;
  std::uint32_t* odata = p.row(kRowMain);
  const std::uint32_t* idata = p.row(kInput);
  p.ctx.branch(tid == B - 1);
  p.ctx.shared_access(pout * B + tid);
  p.ctx.shared_access(tid == B - 1 ? pout * B + tid : -1);
  odata[base + tid] = temp[pout * B + tid];  // step: write
  p.ctx.op(thread_id(), 0, OpKind::Move, kHalf0 + pout, base + tid, kRowMain, base + tid);
  p.ctx.count(traced::kGlobalWrite, 4);
  if (tid == B - 1) {
    // block sum = last scanned + last input
    p.row(kSums)[blockIdx.x] = traced::add_words(temp[pout * B + tid], idata[base + tid], p.ctx.type);  // step: write
    p.ctx.op(thread_id(), 1, OpKind::Move, kHalf0 + pout, base + tid, kSums, blockIdx.x);
    p.ctx.op(thread_id(), 2, OpKind::Add, kInput, base + tid, kSums, blockIdx.x);
    p.ctx.count(traced::kAdds, 1);
    p.ctx.count(traced::kGlobalRead, 4);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
}

// After the host scanned the block sums: every element adds its block's offset.
__global__ void naive_add_offsets(NaiveShared p) {
  const int i = thread_id();
  p.row(kRowMain)[i] = traced::add_words(p.row(kRowMain)[i], p.row(kScanned)[blockIdx.x], p.ctx.type);  // step: add offsets
  p.ctx.op(i, 0, OpKind::Add, kScanned, blockIdx.x, kRowMain, i);
  p.ctx.count(traced::kAdds, 1);
  p.ctx.count(traced::kGlobalRead, 8);
  p.ctx.count(traced::kGlobalWrite, 4);
}

__global__ void naive_inclusive(NaiveShared p) {
  const int i = thread_id();
  p.row(kRowMain)[i] = traced::add_words(p.row(kRowMain)[i], p.row(kInput)[i], p.ctx.type);  // step: inclusive
  p.ctx.op(i, 0, OpKind::Add, kInput, i, kRowMain, i);
  p.ctx.count(traced::kAdds, 1);
  p.ctx.count(traced::kGlobalRead, 8);
  p.ctx.count(traced::kGlobalWrite, 4);
}
// listing: end

}  // namespace

Result cuda_scan_naive_shared(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t,
                              DeviceTraceView out) {
  traced::CudaRun run(t, out);
  run.upload_initial(traced::initial_state(t, input, {kRowMain, kInput}));
  const int B = t.block, blocks = t.rows[kRowMain].length / B;
  const std::size_t smem = std::size_t(2 * B) * 4;
  int pout = 0, offset = 1;
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    const std::string& ph = t.steps[s].phase;
    NaiveShared p{run.begin(s)};
    if (ph == "load") {
      naive_load<<<blocks, B, smem>>>(p);
    } else if (ph == "sweep") {
      pout = 1 - pout;
      naive_sweep<<<blocks, B, smem>>>(p, pout, offset);
      offset *= 2;
    } else if (ph == "write") {
      naive_write<<<blocks, B, smem>>>(p, pout);
    } else if (ph == "inclusive") {
      naive_inclusive<<<blocks, B>>>(p);
    } else {
      // The seed's host step: copy the block sums back, scan them in a loop, copy them over.
      std::vector<std::uint32_t> sums(static_cast<std::size_t>(blocks)), scanned(sums.size());
      PRIMLAB_TRACED_CHECK(run, cudaMemcpy(sums.data(), run.row(kSums), sums.size() * 4, cudaMemcpyDeviceToHost));
      scan_sums_on_host(sums.data(), scanned.data(), blocks, t.type);
      PRIMLAB_TRACED_CHECK(run, cudaMemcpy(run.row(kScanned), scanned.data(), scanned.size() * 4, cudaMemcpyHostToDevice));
      naive_add_offsets<<<blocks, B>>>(p);
    }
    run.end(s);
  }
  return run.finish();
}

}  // namespace primlab::steppers
