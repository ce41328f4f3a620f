// The radix sorts' one-step exclusive scan on the device (Blelloch: copy, up-sweep levels, clear,
// down-sweep levels; 2 log P + 2 launches in one step). Mirrors radix::scan_cpu (cpu/radix_steps.h):
// every launch has div_up(m, B) blocks and counts `if (k >= m) return;` as a warp branch.
#pragma once
#include "lab/algorithms/radix/radix_steps.h"
#include "lab/run/trace_device.cuh"

namespace primlab::radix {
namespace {

// f[k] = k < len ? e[k] : 0 for k < P; records op k (f[k] = f[k-1] + e[k-1]) when e_row >= 0.
__global__ void scan_copy(traced::StepCtx ctx, const std::uint32_t* e, std::uint32_t* f, int len, int P, int e_row,
                          int f_row) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(k < P);
  if (k >= P) return;
  f[k] = k < len ? e[k] : 0u;
  if (k < len) ctx.count(traced::kGlobalRead, 4);
  ctx.count(traced::kGlobalWrite, 4);
  if (e_row >= 0 && k < len) ctx.op(k, 0, k == 0 ? OpKind::Write : OpKind::Add, e_row, k - 1, f_row, k);
}

__global__ void scan_level(traced::StepCtx ctx, std::uint32_t* f, int off, int m, bool down) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(k < m);
  if (k >= m) return;
  const int a = (2 * k + 1) * off - 1, b = (2 * k + 2) * off - 1;
  if (down) {
    const std::uint32_t t = f[a];
    f[a] = f[b];
    f[b] += t;
  } else {
    f[b] += f[a];
  }
  ctx.count(traced::kAdds, 1);
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, down ? 8 : 4);
}

__global__ void scan_clear(traced::StepCtx ctx, std::uint32_t* f, int P) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(k < 1);
  if (k >= 1) return;
  f[P - 1] = 0u;
  ctx.count(traced::kGlobalWrite, 4);
}

// Launches the whole scan; returns the number of launches.
inline int scan_device(const traced::StepCtx& ctx, const std::uint32_t* e, std::uint32_t* f, int len, int P, int B,
                       int e_row, int f_row) {
  auto blocks = [&](int m) { return traced::blocks_for(m, B); };
  scan_copy<<<blocks(P), B>>>(ctx, e, f, len, P, e_row, f_row);
  const int L = log2_exact(P);
  for (int d = 0; d < L; ++d) scan_level<<<blocks(P >> (d + 1)), B>>>(ctx, f, 1 << d, P >> (d + 1), false);
  scan_clear<<<1, B>>>(ctx, f, P);
  for (int d = L - 1; d >= 0; --d) scan_level<<<blocks(P >> (d + 1)), B>>>(ctx, f, 1 << d, P >> (d + 1), true);
  return scan_launches(P);
}

}  // namespace
}  // namespace primlab::radix
