// 1-bit split radix sort, traced: one launch per step (the max reduction levels, kernBoolMaps, the
// scan's launches counted in one step, kernTotal, kernTrue, kernRadixScatter, the copy back).
// Mirrors cpu/radix_split.cpp.
#include "lab/algorithms/radix/radix_scan.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
constexpr int kBufB = kStdRows, kMax = kStdRows + 1, kBit = kStdRows + 2, kFalse = kStdRows + 3, kScanned = kStdRows + 4,
              kTotal = kStdRows + 5, kTrue = kStdRows + 6, kDest = kStdRows + 7;

__global__ void max_keys(traced::StepCtx ctx, int n, int W, bool i32) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < W);
  if (i >= W) return;
  std::uint32_t* m = ctx.row(kMax);
  if (i < n) {
    const std::uint32_t k = ctx.row(kRowMain)[i];
    m[i] = i32 ? k ^ std::uint32_t(std::int32_t(k) >> 31) : k;
    ctx.op(i, 0, OpKind::Move, kRowMain, i, kMax, i);
    ctx.count(traced::kGlobalRead, 4);
  } else {
    m[i] = 0u;
  }
  ctx.count(traced::kGlobalWrite, 4);
}

__global__ void find_max(traced::StepCtx ctx, int off1, int off2, int cnt) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const bool act = j < cnt;
  std::uint32_t* m = ctx.row(kMax);
  const int a = act ? (j + 1) * off2 - 1 : 0;
  const bool replace = act && m[a] < m[a - off1];
  // The data-dependent `if` diverges when the active lanes disagree; idle lanes vote with the first
  // active lane, so both branches are counted by every live lane before the early return.
  const unsigned live = __activemask(), active = __ballot_sync(live, act);
  const int lead = __shfl_sync(live, int(replace), active ? __ffs(active) - 1 : __ffs(live) - 1);
  ctx.branch(act);
  ctx.branch(act ? int(replace) : lead);
  if (!act) return;
  ctx.count(traced::kGlobalRead, 8);
  if (replace) {
    m[a] = m[a - off1];
    ctx.count(traced::kGlobalWrite, 4);
  }
  ctx.op(j, 0, OpKind::Add, kMax, a - off1, kMax, a);
}

__global__ void bool_maps(traced::StepCtx ctx, int n, int bit, bool i32, int in_row) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < n);
  if (i >= n) return;
  const std::uint32_t v = ctx.row(in_row)[i];
  const std::uint32_t k = bit == 31 && i32 ? v ^ 0x80000000u : v;
  const std::uint32_t b = (k >> bit) & 1u;
  ctx.row(kBit)[i] = b;
  ctx.row(kFalse)[i] = 1u - b;
  ctx.op(i, 0, OpKind::Move, in_row, i, kBit, i);
  ctx.count(traced::kGlobalRead, 4);
  ctx.count(traced::kGlobalWrite, 8);
}

__global__ void total_falses(traced::StepCtx ctx, int n) {
  ctx.row(kTotal)[0] = ctx.row(kFalse)[n - 1] + ctx.row(kScanned)[n - 1];
  ctx.op(0, 0, OpKind::Add, kFalse, n - 1, kTotal, 0);
  ctx.op(0, 1, OpKind::Add, kScanned, n - 1, kTotal, 0);
  ctx.count(traced::kAdds, 1);
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, 4);
}

__global__ void true_index(traced::StepCtx ctx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < n);
  if (i >= n) return;
  ctx.row(kTrue)[i] = std::uint32_t(i) - ctx.row(kScanned)[i] + ctx.row(kTotal)[0];
  ctx.op(i, 0, OpKind::Add, kScanned, i, kTrue, i);
  ctx.count(traced::kAdds, 2);
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, 4);
}

__global__ void scatter(traced::StepCtx ctx, int n, int in_row, int out_row) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < n);
  if (i >= n) return;
  const std::uint32_t d = ctx.row(kBit)[i] ? ctx.row(kTrue)[i] : ctx.row(kScanned)[i];
  ctx.row(kDest)[i] = d;
  ctx.row(out_row)[d] = ctx.row(in_row)[i];
  ctx.op(i, 0, OpKind::Move, in_row, i, out_row, std::int32_t(d));
  ctx.count(traced::kGlobalRead, 12);
  ctx.count(traced::kGlobalWrite, 8);
}

// listing: radix-split
__global__ void copy_back(traced::StepCtx ctx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < n);
  if (i >= n) return;
  ctx.row(kRowMain)[i] = ctx.row(kBufB)[i];  // step: copy back
  ctx.op(i, 0, OpKind::Move, kBufB, i, kRowMain, i);
  ctx.count(traced::kGlobalRead, 4);
  ctx.count(traced::kGlobalWrite, 4);
}
// listing: end
}  // namespace

Result cuda_radix_split(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  traced::CudaRun run(t, out);
  run.upload_initial(traced::initial_state(t, input, {kRowMain}));
  const int n = t.n, W = t.width, B = t.block;
  const bool i32 = t.type == ElemType::I32;
  int level = 0;
  bool from_a = true;
  for (std::size_t s = 1; s < t.steps.size() && run.ok(); ++s) {
    const Step& st = t.steps[s];
    const traced::StepCtx ctx = run.begin(s);
    const int in_row = from_a ? kRowMain : kBufB, out_row = from_a ? kBufB : kRowMain;
    const int blocks = st.launch.blocks;
    int launches = 1;
    if (st.phase == "max keys") {
      max_keys<<<blocks, B>>>(ctx, n, W, i32);
    } else if (st.phase == "find max") {
      ++level;
      find_max<<<blocks, B>>>(ctx, 1 << (level - 1), 1 << level, W >> level);
    } else if (st.phase == "bits") {
      bool_maps<<<blocks, B>>>(ctx, n, std::stoi(st.label.substr(4)), i32, in_row);
    } else if (st.phase == "scan") {
      launches = radix::scan_device(ctx, run.row(kFalse), run.row(kScanned), n, W, B, kFalse, kScanned);
    } else if (st.phase == "total") {
      total_falses<<<1, 1>>>(ctx, n);
    } else if (st.phase == "true") {
      true_index<<<blocks, B>>>(ctx, n);
    } else if (st.phase == "scatter") {
      scatter<<<blocks, B>>>(ctx, n, in_row, out_row);
      from_a = !from_a;
    } else if (st.phase == "copy back") {
      copy_back<<<blocks, B>>>(ctx, n);
    }
    run.end(s, launches);
  }
  return run.finish();
}

}  // namespace primlab::steppers
