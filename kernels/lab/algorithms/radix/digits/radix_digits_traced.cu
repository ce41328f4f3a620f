// Multi-bit radix sort, traced: one launch per step (digits, per-block histograms, the scan's
// launches counted in one step, the stable scatter, the copy back). Mirrors cpu/radix_digits.cpp.
#include "lab/algorithms/radix/digits/radix_digits_shape.h"
#include "lab/algorithms/radix/radix_scan.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using radix::DigitRows;
using radix::DigitShape;

struct Digits {
  traced::StepCtx ctx;
  DigitShape s;
  DigitRows r;
  int in_row, out_row, vin_row, vout_row, shift;
  bool desc, kv;
};

// listing: radix-digits
__global__ void digits_kernel(Digits p) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t* in = p.ctx.row(p.in_row);
  for (int j = 0; j < p.s.ept; ++j) {
    const int i = thread * p.s.ept + j;
    const std::uint32_t sk = radix::sortable(in[i], p.ctx.type, p.desc);
    p.ctx.row(p.r.sortable)[i] = sk;
    const std::uint32_t d = (sk >> p.shift) & std::uint32_t(p.s.R - 1);  // step: digits
    p.ctx.row(p.r.digit)[i] = d;
    p.ctx.row(p.r.bits)[i] = radix::binary_digits(d);
    p.ctx.op(thread, j, OpKind::Move, p.in_row, i, p.r.digit, i);
  }
  p.ctx.count(traced::kGlobalRead, 4ull * p.s.ept);
  p.ctx.count(traced::kGlobalWrite, 12ull * p.s.ept);
}

__global__ void histogram_kernel(Digits p, int dpt) {
  const int tid = threadIdx.x, blk = blockIdx.x, B = blockDim.x;
  const std::uint32_t* digit = p.ctx.row(p.r.digit) + blk * p.s.T;
  for (int j = 0; j < dpt; ++j) {
    const int d = tid + j * B;
    p.ctx.branch(d < p.s.R);
    if (d < p.s.R) {
      std::uint32_t cnt = 0;
      for (int q = 0; q < p.s.T; ++q) cnt += digit[q] == std::uint32_t(d);  // step: histogram
      p.ctx.row(p.r.counts)[d * p.s.nb + blk] = cnt;
      p.ctx.op(blk * B + tid, j, OpKind::Write, p.r.digit, -1, p.r.counts, d * p.s.nb + blk);
      p.ctx.count(traced::kGlobalRead, 4ull * p.s.T);
      p.ctx.count(traced::kGlobalWrite, 4);
    }
  }
}

__global__ void scatter_kernel(Digits p) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x, blk = blockIdx.x, base = blk * p.s.T;
  const std::uint32_t* digit = p.ctx.row(p.r.digit);
  const std::uint32_t* in = p.ctx.row(p.in_row);
  std::uint32_t* out = p.ctx.row(p.out_row);
  unsigned long long reads = 0;
  for (int j = 0; j < p.s.ept; ++j) {
    const int pos = threadIdx.x * p.s.ept + j, i = base + pos;
    const std::uint32_t d = digit[i];
    std::uint32_t rank = 0;
    for (int q = 0; q < pos; ++q) rank += digit[base + q] == d;
    const std::uint32_t dst = p.ctx.row(p.r.offsets)[d * std::uint32_t(p.s.nb) + std::uint32_t(blk)] + rank;
    out[dst] = in[i];  // step: scatter
    if (p.kv) p.ctx.row(p.vout_row)[dst] = p.ctx.row(p.vin_row)[i];
    p.ctx.row(p.r.dest)[i] = dst;
    p.ctx.op(thread, j, OpKind::Move, p.in_row, i, p.out_row, std::int32_t(dst));
    reads += 12 + 4ull * pos + (p.kv ? 4 : 0);
  }
  p.ctx.count(traced::kAdds, p.s.ept);
  p.ctx.count(traced::kGlobalRead, reads);
  p.ctx.count(traced::kGlobalWrite, (8ull + (p.kv ? 4 : 0)) * p.s.ept);
}

__global__ void copy_back_kernel(Digits p) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < p.s.ept; ++j) {
    const int i = thread * p.s.ept + j;
    p.ctx.row(kRowMain)[i] = p.ctx.row(p.r.keys_b)[i];  // step: copy back
    if (p.kv) p.ctx.row(p.r.values_a)[i] = p.ctx.row(p.r.values_b)[i];
    p.ctx.op(thread, j, OpKind::Move, p.r.keys_b, i, kRowMain, i);
  }
  p.ctx.count(traced::kGlobalRead, (p.kv ? 8ull : 4ull) * p.s.ept);
  p.ctx.count(traced::kGlobalWrite, (p.kv ? 8ull : 4ull) * p.s.ept);
}
// listing: end
}  // namespace

Result cuda_radix_digits(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                              DeviceTraceView out) {
  const DigitShape s(cfg.n, cfg.block, cfg.digit_bits);
  const DigitRows r(cfg.key_value);
  std::vector<std::uint32_t> state0 = traced::initial_state(t, input, {kRowMain});
  const std::uint32_t pad = radix::pad_key(input, t.type, cfg.descending);
  for (std::int32_t i = cfg.n; i < s.W; ++i) state0[std::size_t(i)] = pad;
  if (cfg.key_value)
    for (std::int32_t i = 0; i < s.W; ++i) state0[std::size_t(r.values_a) * s.W + i] = std::uint32_t(i);
  traced::CudaRun run(t, out);
  run.upload_initial(state0);
  const int B = cfg.block;
  int pass = -1;
  for (std::size_t st = 1; st < t.steps.size() && run.ok(); ++st) {
    const Step& step = t.steps[st];
    if (step.phase == "digits") ++pass;
    const bool from_a = pass % 2 == 0;
    Digits p{run.begin(st),
             s,
             r,
             from_a ? kRowMain : r.keys_b,
             from_a ? r.keys_b : kRowMain,
             from_a ? r.values_a : r.values_b,
             from_a ? r.values_b : r.values_a,
             pass * s.D,
             cfg.descending,
             cfg.key_value};
    // listing: radix-digits
    int launches = 1;
    if (step.phase == "digits") {
      digits_kernel<<<s.nb, B>>>(p);
    } else if (step.phase == "histogram") {
      histogram_kernel<<<s.nb, B>>>(p, step.ops_per_thread);
    } else if (step.phase == "scan") {
      launches = radix::scan_device(p.ctx, run.row(r.counts), run.row(r.offsets), s.C, s.C, B, r.counts,  // step: scan
                                    r.offsets);
    } else if (step.phase == "scatter") {
      scatter_kernel<<<s.nb, B>>>(p);
    } else if (step.phase == "copy back") {
      copy_back_kernel<<<s.nb, B>>>(p);
    }
    // listing: end
    run.end(st, launches);
  }
  return run.finish();
}

}  // namespace primlab::steppers
