// Histograms (the lecture, seed 004), traced: global atomicAdd, per-block shared-memory histograms,
// and the lecture's per-warp sub-histograms with the 5-bit thread tag, over samples or over the four
// bytes of each word (one launch per byte). One launch per step (a round
// of the grid-stride loop, a clear, a merge); a block's shared histograms live in a trace row between
// launches (restored on entry, spilled on exit: bookkeeping that is not counted). Collisions are
// measured with __match_any_sync on the bin; the tag loop keeps the lanes in step with __syncwarp, so
// its retries are k(k-1)/2 for k lanes on one bin whichever lane lands first (see cpu/histogram.cpp).
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kBin = kStdRows, kSame, kStats, kBins, kFirstAlgoRow };
enum SharedRows { kBlockHist = kFirstAlgoRow };
enum TagRows { kRetries = kFirstAlgoRow, kSubCount, kSubTag, kPartial, kSubWord };
constexpr std::uint32_t kCountMask = 0x07FFFFFFu;

__host__ __device__ inline int bin_of(std::uint32_t x, ElemType t, int bins) {
  if (t == ElemType::U32) return int(x % std::uint32_t(bins));
  const int b = int(x) % bins;
  return b < 0 ? b + bins : b;
}

struct Hist {
  traced::StepCtx ctx;
  int n;
  int bins;
  int byte = -1;           // the byte histogram: which byte of each word this launch adds (else -1)
  bool word_row = false;   // the byte histogram also shows each counter word whole (kSubWord)
  __device__ std::uint32_t* row(int r) const { return ctx.row(r); }
  __device__ void stat(int k, std::uint32_t v) const { atomicAdd(ctx.row(kStats) + k, v); }
};

__device__ inline long long global_thread() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }

// Warp-collective: this lane's sample in round r (its index, or -1), its bin (-1 when none), the
// i < n branch and the collisions of the warp's instruction.
__device__ int sample(const Hist& p, int round, int& bin) {
  const long long i = (long long)round * gridDim.x * blockDim.x + global_thread();
  const bool act = i < p.n;
  p.ctx.branch(act);
  if (act && p.byte >= 0) p.row(kBin)[i] = (p.row(kRowMain)[i] >> (8 * p.byte)) & 0xFFu;
  bin = act ? (p.byte >= 0 ? int(p.row(kBin)[i]) : bin_of(p.row(kRowMain)[i], p.ctx.type, p.bins)) : -1;
  const unsigned peers = __match_any_sync(__activemask(), bin);
  if (act) {
    const int k = __popc(peers);
    p.row(kSame)[i] = std::uint32_t(k);
    if (k > 1) p.stat(1, 1u);
    p.ctx.count(traced::kGlobalRead, 4);
  }
  return act ? int(i) : -1;
}

// [SECTION] Global atomicAdd
__global__ void count_global(Hist p, int round) {
  int bin;
  const int i = sample(p, round, bin);
  if (i < 0) return;
  atomicAdd(p.row(kBins) + bin, 1u);
  p.ctx.op(global_thread(), 0, OpKind::Atomic, kRowMain, i, kBins, bin);
  p.ctx.count(traced::kAtomics, 1);
  p.stat(0, 1u);
}

// [SECTION] Per-block shared-memory histograms
__device__ void restore_block(const Hist& p, std::uint32_t* sh) {
  for (int j = threadIdx.x; j < p.bins; j += blockDim.x) sh[j] = p.row(kBlockHist)[blockIdx.x * p.bins + j];
  __syncthreads();
}

__device__ void spill_block(const Hist& p, const std::uint32_t* sh) {
  __syncthreads();
  for (int j = threadIdx.x; j < p.bins; j += blockDim.x) p.row(kBlockHist)[blockIdx.x * p.bins + j] = sh[j];
}

__global__ void clear_block(Hist p) {
  extern __shared__ std::uint32_t sh[];
  const int iters = (p.bins + blockDim.x - 1) / blockDim.x;
  for (int k = 0; k < iters; ++k) {
    const int j = threadIdx.x + k * blockDim.x;
    const bool act = j < p.bins;
    p.ctx.branch(act);
    p.ctx.shared_access(act ? j : -1);
    if (!act) continue;
    sh[j] = 0;
    p.ctx.op(global_thread(), k, OpKind::Write, kBlockHist, -1, kBlockHist, blockIdx.x * p.bins + j);
  }
  spill_block(p, sh);
}

__global__ void count_shared(Hist p, int round) {
  extern __shared__ std::uint32_t sh[];
  restore_block(p, sh);
  int bin;
  const int i = sample(p, round, bin);
  p.ctx.shared_access(bin);
  if (i >= 0) {
    atomicAdd(sh + bin, 1u);
    p.ctx.op(global_thread(), 0, OpKind::Atomic, kRowMain, i, kBlockHist, blockIdx.x * p.bins + bin);
    p.ctx.count(traced::kAtomics, 1);
    p.stat(0, 1u);
  }
  spill_block(p, sh);
}

__global__ void merge_shared(Hist p) {
  extern __shared__ std::uint32_t sh[];
  restore_block(p, sh);
  const int iters = (p.bins + blockDim.x - 1) / blockDim.x;
  for (int k = 0; k < iters; ++k) {
    const int j = threadIdx.x + k * blockDim.x;
    const bool act = j < p.bins;
    p.ctx.branch(act);
    p.ctx.shared_access(act ? j : -1);
    if (!act) continue;
    atomicAdd(p.row(kBins) + j, sh[j]);
    p.ctx.op(global_thread(), k, OpKind::Atomic, kBlockHist, blockIdx.x * p.bins + j, kBins, j);
    p.ctx.count(traced::kAtomics, 1);
    p.stat(0, 1u);
  }
}

// [SECTION] The lecture's per-warp sub-histograms with the thread tag
__device__ int warps_per_block() { return (blockDim.x + 31) / 32; }

__device__ void restore_warps(const Hist& p, std::uint32_t* sh) {
  const int cells = warps_per_block() * p.bins, base = blockIdx.x * cells;
  for (int j = threadIdx.x; j < cells; j += blockDim.x)
    sh[j] = p.row(kSubTag)[base + j] << 27 | p.row(kSubCount)[base + j];
  __syncthreads();
}

__device__ void spill_warps(const Hist& p, const std::uint32_t* sh) {
  __syncthreads();
  const int cells = warps_per_block() * p.bins, base = blockIdx.x * cells;
  for (int j = threadIdx.x; j < cells; j += blockDim.x) {
    p.row(kSubCount)[base + j] = sh[j] & kCountMask;
    p.row(kSubTag)[base + j] = sh[j] >> 27;
    if (p.word_row) p.row(kSubWord)[base + j] = sh[j];
  }
}

// listing: histogram-tagged
__global__ void clear_warps(Hist p) {
  extern __shared__ std::uint32_t sh[];
  const int cells = warps_per_block() * p.bins, iters = (cells + blockDim.x - 1) / blockDim.x;
  for (int k = 0; k < iters; ++k) {
    const int j = threadIdx.x + k * blockDim.x;
    const bool act = j < cells;
    p.ctx.branch(act);
    p.ctx.shared_access(act ? j : -1);
    if (!act) continue;
    sh[j] = 0;  // step: clear
    p.ctx.op(global_thread(), k, OpKind::Write, kSubCount, -1, kSubCount, blockIdx.x * cells + j);
  }
  spill_warps(p, sh);
}

__global__ void count_tagged(Hist p, int round) {
  extern __shared__ std::uint32_t sh[];
  restore_warps(p, sh);
  int bin;
  const int i = sample(p, round, bin);
  const unsigned live = __activemask();
  const int wbase = (threadIdx.x >> 5) * p.bins;
  volatile std::uint32_t* warp_hist = sh + wbase;
  const std::uint32_t ttag = threadIdx.x << 27;
  bool done = i < 0;
  if (!done) {
    p.row(kRetries)[i] = 0;
    p.ctx.op(global_thread(), 0, OpKind::Atomic, kRowMain, i, kSubCount,
             blockIdx.x * warps_per_block() * p.bins + wbase + bin);
  }
  std::uint32_t retries = 0;
  while (__any_sync(live, !done)) {
    p.ctx.branch(!done);
    const int addr = done ? -1 : wbase + bin;
    p.ctx.shared_access(addr);  // read
    p.ctx.shared_access(addr);  // write
    p.ctx.shared_access(addr);  // check
    std::uint32_t count = 0;
    if (!done) count = ttag | ((warp_hist[bin] & kCountMask) + 1);  // step: count
    __syncwarp(live);
    if (!done) warp_hist[bin] = count;  // step: count
    __syncwarp(live);
    if (!done) {
      if (warp_hist[bin] == count)  // step: count
        done = true;
      else
        ++retries;
    }
    __syncwarp(live);
  }
  if (i >= 0 && retries) {
    p.row(kRetries)[i] = retries;
    p.stat(2, retries);
  }
  spill_warps(p, sh);
}

__global__ void merge_warps(Hist p) {
  extern __shared__ std::uint32_t sh[];
  restore_warps(p, sh);
  const int W = warps_per_block(), iters = (p.bins + blockDim.x - 1) / blockDim.x;
  for (int k = 0; k < iters; ++k) {
    const int bin = threadIdx.x + k * blockDim.x;
    const bool act = bin < p.bins;
    p.ctx.branch(act);
    for (int w = 0; w < W; ++w) p.ctx.shared_access(act ? w * p.bins + bin : -1);
    if (!act) continue;
    std::uint32_t sum = 0;
    for (int w = 0; w < W; ++w) {
      sum += sh[w * p.bins + bin] & kCountMask;  // step: block merge
      p.ctx.op(global_thread(), k * W + w, OpKind::Add, kSubCount, blockIdx.x * W * p.bins + w * p.bins + bin, kPartial,
               blockIdx.x * p.bins + bin);
    }
    p.row(kPartial)[blockIdx.x * p.bins + bin] = sum;
    p.ctx.count(traced::kAdds, W);
    p.ctx.count(traced::kGlobalWrite, 4);
  }
}

__global__ void merge_partials(Hist p, int count) {
  const int bin = threadIdx.x;
  std::uint32_t sum = 0;
  for (int h = 0; h < count; ++h) {
    sum += p.row(kPartial)[h * p.bins + bin];  // step: merge
    p.ctx.op(bin, h, OpKind::Add, kPartial, h * p.bins + bin, kBins, bin);
  }
  p.row(kBins)[bin] = sum;
  p.ctx.count(traced::kAdds, count);
  p.ctx.count(traced::kGlobalRead, 4ull * count);
  p.ctx.count(traced::kGlobalWrite, 4);
}
// listing: end

enum class Kind { Atomic, Shared, Tagged, TaggedBytes };

Result run_histogram(Kind kind, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  traced::CudaRun run(t, out);
  std::vector<std::uint32_t> state0 = traced::initial_state(t, input, {kRowMain});
  const int P = t.rows[kBins].length;
  for (int i = 0; i < t.n; ++i) state0[std::size_t(kBin) * t.width + i] = std::uint32_t(bin_of(input[i], t.type, P));
  run.upload_initial(state0);
  const int B = t.block, W = (B + 31) / 32;
  int round = 0;
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    const Step& st = t.steps[s];
    Hist p{run.begin(s), t.n, P};
    p.word_row = kind == Kind::TaggedBytes;
    PRIMLAB_TRACED_CHECK(run, cudaMemsetAsync(run.row(kStats), 0, 3 * sizeof(std::uint32_t)));
    const int blocks = st.launch.blocks;
    const std::string& ph = st.phase;
    if (kind == Kind::Atomic) {
      count_global<<<blocks, B>>>(p, round++);
    } else if (kind == Kind::Shared) {
      const std::size_t smem = std::size_t(P) * 4;
      if (ph == "clear")
        clear_block<<<blocks, B, smem>>>(p);
      else if (ph == "count")
        count_shared<<<blocks, B, smem>>>(p, round++);
      else
        merge_shared<<<blocks, B, smem>>>(p);
    } else {
      const std::size_t smem = std::size_t(W) * P * 4;
      if (ph == "clear")
        clear_warps<<<blocks, B, smem>>>(p);
      else if (ph == "count") {
        const int r = round++;
        if (kind == Kind::TaggedBytes) p.byte = r % 4;  // four launches per round of words
        count_tagged<<<blocks, B, smem>>>(p, kind == Kind::TaggedBytes ? r / 4 : r);
      }
      else if (ph == "block merge")
        merge_warps<<<blocks, B, smem>>>(p);
      else
        merge_partials<<<1, P>>>(p, t.steps[1].launch.blocks);
    }
    run.end(s);
  }
  return run.finish();
}
}  // namespace

Result cuda_histogram_atomic(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t,
                                  DeviceTraceView out) {
  return run_histogram(Kind::Atomic, input, t, out);
}

Result cuda_histogram_shared(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t,
                                  DeviceTraceView out) {
  return run_histogram(Kind::Shared, input, t, out);
}

Result cuda_histogram_tagged(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t,
                                  DeviceTraceView out) {
  return run_histogram(Kind::Tagged, input, t, out);
}

Result cuda_histogram_tagged_bytes(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t,
                                   DeviceTraceView out) {
  return run_histogram(Kind::TaggedBytes, input, t, out);
}

}  // namespace primlab::steppers
