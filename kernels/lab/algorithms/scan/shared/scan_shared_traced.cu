// Shared-memory block scan (GPU Gems 3 ch. 39, the lecture's scan3 + scanDistribute), traced.
// Each step is one launch of the real block code; between launches a block's shared memory is
// kept in the trace's "shared" row (restored on entry, spilled on exit: bookkeeping that is not
// counted), so every level runs on real shared memory with the real padded addresses.
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kShared = kStdRows, kSums, kScanned, kInput };

struct SharedScan {
  traced::StepCtx ctx;
  std::uint32_t* x;        // global array (row main)
  std::uint32_t* logical;  // the shared row: each block's shared memory in logical order
  bool offsets;
  __device__ int offs(int i) const { return offsets ? i >> 5 : 0; }
};

__device__ void restore(const SharedScan& p, std::uint32_t* temp, int base, int B) {
  for (int k = 0; k < 2; ++k) {
    const int i = threadIdx.x + k * B;
    temp[i + p.offs(i)] = p.logical[base + i];
  }
  __syncthreads();
}

__device__ void spill(const SharedScan& p, const std::uint32_t* temp, int base, int B) {
  __syncthreads();
  for (int k = 0; k < 2; ++k) {
    const int i = threadIdx.x + k * B;
    p.logical[base + i] = temp[i + p.offs(i)];
  }
}

// One sweep level on `temp` with d active threads; records ops when `base` >= 0.
__device__ void level(const SharedScan& p, std::uint32_t* temp, int d, int offset, bool down, int base) {
  const int tid = threadIdx.x;
  const bool act = tid < d;
  const int a = act ? offset * (2 * tid + 1) - 1 : -1, b = act ? offset * (2 * tid + 2) - 1 : -1;
  const int pa = act ? a + p.offs(a) : -1, pb = act ? b + p.offs(b) : -1;
  p.ctx.branch(act);
  p.ctx.shared_access(pa);
  p.ctx.shared_access(pb);
  if (down) p.ctx.shared_access(pa);
  if (down) p.ctx.shared_access(pb);  // temp[b] += t reads temp[b] again after the store to temp[a]
  p.ctx.shared_access(pb);
  if (!act) return;
  if (down) {
    const std::uint32_t t = temp[pa];
    temp[pa] = temp[pb];
    temp[pb] = traced::add_words(temp[pb], t, p.ctx.type);
  } else {
    temp[pb] = traced::add_words(temp[pb], temp[pa], p.ctx.type);
  }
  p.ctx.count(traced::kAdds, 1);
  if (base < 0) return;
  const int thread = blockIdx.x * blockDim.x + tid;
  if (down) p.ctx.op(thread, 0, OpKind::Move, kShared, base + b, kShared, base + a);
  p.ctx.op(thread, down ? 1 : 0, OpKind::Add, kShared, base + a, kShared, base + b);
}

// Load (x -> shared) or write (shared -> x) of two elements per thread.
__global__ void load_or_write(SharedScan p, bool load) {
  extern __shared__ std::uint32_t temp[];
  const int B = blockDim.x, base = 2 * B * blockIdx.x, tid = threadIdx.x;
  if (!load) restore(p, temp, base, B);
  p.ctx.shared_access(tid + p.offs(tid));
  p.ctx.shared_access(tid + B + p.offs(tid + B));
  for (int k = 0; k < 2; ++k) {
    const int i = tid + k * B;
    const int thread = blockIdx.x * B + tid;
    if (load) {
      temp[i + p.offs(i)] = p.x[base + i];
      p.ctx.op(thread, k, OpKind::Move, kRowMain, base + i, kShared, base + i);
    } else {
      p.x[base + i] = temp[i + p.offs(i)];
      p.ctx.op(thread, k, OpKind::Move, kShared, base + i, kRowMain, base + i);
    }
  }
  p.ctx.count(load ? traced::kGlobalRead : traced::kGlobalWrite, 8);
  if (load) spill(p, temp, base, B);
}

__global__ void sweep_level(SharedScan p, int d, int offset, bool down) {
  extern __shared__ std::uint32_t temp[];
  const int B = blockDim.x, base = 2 * B * blockIdx.x;
  restore(p, temp, base, B);
  level(p, temp, d, offset, down, base);
  spill(p, temp, base, B);
}

__global__ void save_and_clear(SharedScan p, std::uint32_t* sums) {
  extern __shared__ std::uint32_t temp[];
  const int B = blockDim.x, base = 2 * B * blockIdx.x, tid = threadIdx.x, last = 2 * B - 1;
  restore(p, temp, base, B);
  p.ctx.branch(tid == 0);
  p.ctx.shared_access(tid == 0 ? last + p.offs(last) : -1);  // read temp[last]
  p.ctx.shared_access(tid == 0 ? last + p.offs(last) : -1);  // write temp[last] = 0
  if (tid == 0) {
    sums[blockIdx.x] = temp[last + p.offs(last)];
    temp[last + p.offs(last)] = 0;
    p.ctx.op(blockIdx.x * B, 0, OpKind::Move, kShared, base + last, kSums, blockIdx.x);
    p.ctx.op(blockIdx.x * B, 1, OpKind::Write, kShared, -1, kShared, base + last);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
  spill(p, temp, base, B);
}

// The lecture's recursive scan of the block sums, done by one block of P/2 threads in one launch.
__global__ void scan_sums(SharedScan p, const std::uint32_t* sums, std::uint32_t* scanned, int count) {
  extern __shared__ std::uint32_t temp[];
  const int threads = blockDim.x, P = 2 * threads, tid = threadIdx.x;
  p.ctx.shared_access(tid + p.offs(tid));
  p.ctx.shared_access(tid + threads + p.offs(tid + threads));
  for (int k = 0; k < 2; ++k) {
    const int i = tid + k * threads;
    temp[i + p.offs(i)] = i < count ? sums[i] : 0u;
    if (i < count) p.ctx.count(traced::kGlobalRead, 4);
  }
  int offset = 1;
  for (int d = threads; d > 0; d >>= 1, offset <<= 1) {
    __syncthreads();
    level(p, temp, d, offset, false, -1);
  }
  __syncthreads();
  p.ctx.branch(tid == 0);
  p.ctx.shared_access(tid == 0 ? P - 1 + p.offs(P - 1) : -1);
  if (tid == 0) temp[P - 1 + p.offs(P - 1)] = 0;
  for (int d = 1; d < P; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    level(p, temp, d, offset, true, -1);
  }
  __syncthreads();
  p.ctx.shared_access(tid + p.offs(tid));
  p.ctx.shared_access(tid + threads + p.offs(tid + threads));
  for (int k = 0; k < 2; ++k) {
    const int i = tid + k * threads;
    if (i >= count) continue;
    scanned[i] = temp[i + p.offs(i)];
    p.ctx.op(tid, k, OpKind::Move, kSums, i, kScanned, i);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
}

__global__ void distribute(SharedScan p, const std::uint32_t* scanned) {
  const int B = blockDim.x, b = blockIdx.x + 1, tid = threadIdx.x;
  const std::uint32_t add = scanned[b];
  for (int k = 0; k < 2; ++k) {
    const int i = 2 * B * b + tid + k * B;
    p.x[i] = traced::add_words(p.x[i], add, p.ctx.type);
    p.ctx.op(blockIdx.x * B + tid, k, OpKind::Add, kScanned, b, kRowMain, i);
  }
  p.ctx.count(traced::kAdds, 2);
  p.ctx.count(traced::kGlobalRead, 12);
  p.ctx.count(traced::kGlobalWrite, 8);
}

// listing: scan-shared
__global__ void add_input(SharedScan p, const std::uint32_t* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.ctx.branch(i < n);
  if (i >= n) return;
  p.x[i] = traced::add_words(p.x[i], in[i], p.ctx.type);  // step: inclusive
  p.ctx.op(i, 0, OpKind::Add, kInput, i, kRowMain, i);
  p.ctx.count(traced::kAdds, 1);
  p.ctx.count(traced::kGlobalRead, 8);
  p.ctx.count(traced::kGlobalWrite, 4);
}
// listing: end
}  // namespace

Result cuda_scan_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  traced::CudaRun run(t, out);
  run.upload_initial(traced::initial_state(t, input, {kRowMain, kInput}));
  const int B = t.block, blocks = t.width / (2 * B);
  auto smem = [&](int elems) { return std::size_t(elems + (cfg.conflict_offsets ? elems >> 5 : 0)) * 4; };
  int offset = 1;
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    const Step& st = t.steps[s];
    SharedScan p{run.begin(s), run.row(kRowMain), run.row(kShared), cfg.conflict_offsets};
    const std::string& ph = st.phase;
    if (ph == "load" || ph == "write") {
      load_or_write<<<blocks, B, smem(2 * B)>>>(p, ph == "load");
    } else if (ph == "up-sweep") {
      sweep_level<<<blocks, B, smem(2 * B)>>>(p, st.launch.active / blocks, offset, false);
      offset <<= 1;
    } else if (ph == "down-sweep") {
      offset >>= 1;
      sweep_level<<<blocks, B, smem(2 * B)>>>(p, st.launch.active / blocks, offset, true);
    } else if (ph == "clear") {
      save_and_clear<<<blocks, B, smem(2 * B)>>>(p, run.row(kSums));
    } else if (ph == "scan sums") {
      const int threads = st.launch.threads;
      scan_sums<<<1, threads, smem(2 * threads)>>>(p, run.row(kSums), run.row(kScanned), blocks);
    } else if (ph == "distribute") {
      distribute<<<blocks - 1, B>>>(p, run.row(kScanned));
    } else {
      add_input<<<st.launch.blocks, B>>>(p, run.row(kInput), t.n);
    }
    run.end(s);
  }
  return run.finish();
}

}  // namespace primlab::steppers
