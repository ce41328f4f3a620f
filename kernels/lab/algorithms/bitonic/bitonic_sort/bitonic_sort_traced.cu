// Bitonic sort, traced: one launch per step of the real kernels (tile load, one compare-swap pass in
// shared memory, tile store, one global merge pass). A tile's shared memory is kept in the trace's
// "shared keys/values" rows between launches (restored on entry, spilled on exit, not counted), so
// each shared pass runs on real shared memory with the real addresses. Mirrors cpu/bitonic_sort.cpp.
#include "lab/algorithms/bitonic/bitonic_steps.h"
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using bitonic::Kind;

struct Bitonic {
  traced::StepCtx ctx;
  std::uint32_t* key;  // main row (global keys)
  std::uint32_t* val;  // values row, null for keys only
  std::uint32_t* sk;   // shared keys row (each tile's shared memory, logical order)
  std::uint32_t* sv;   // shared values row
  int T;               // tile = 2 * blockDim.x
  int shared_row, words;
  bool desc;
};

// sm holds keys in [0, T) and values in [T, 2T).
__device__ void restore(const Bitonic& p, std::uint32_t* sm, int base) {
  for (int k = 0; k < 2; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    sm[i] = p.sk[base + i];
    if (p.words == 2) sm[p.T + i] = p.sv[base + i];
  }
  __syncthreads();
}

__device__ void spill(const Bitonic& p, const std::uint32_t* sm, int base) {
  __syncthreads();
  for (int k = 0; k < 2; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    p.sk[base + i] = sm[i];
    if (p.words == 2) p.sv[base + i] = sm[p.T + i];
  }
}

__global__ void load_or_store(Bitonic p, bool load) {
  extern __shared__ std::uint32_t sm[];
  const int B = blockDim.x, tid = threadIdx.x, base = blockIdx.x * p.T;
  if (!load) restore(p, sm, base);
  for (int k = 0; k < 2; ++k)
    for (int w = 0; w < p.words; ++w) p.ctx.shared_access(w * p.T + tid + k * B);
  const int thread = blockIdx.x * B + tid;
  for (int k = 0; k < 2; ++k) {
    const int l = tid + k * B, i = base + l;
    if (load) {
      sm[l] = p.key[i];
      if (p.words == 2) sm[p.T + l] = p.val[i];
      p.ctx.op(thread, k, OpKind::Move, kRowMain, i, p.shared_row, i);
    } else {
      p.key[i] = sm[l];
      if (p.words == 2) p.val[i] = sm[p.T + l];
      p.ctx.op(thread, k, OpKind::Move, p.shared_row, i, kRowMain, i);
    }
  }
  p.ctx.count(load ? traced::kGlobalRead : traced::kGlobalWrite, 8ull * p.words);
  if (load) spill(p, sm, base);
}

__global__ void shared_pass(Bitonic p, int size, int stride) {
  extern __shared__ std::uint32_t sm[];
  const int base = blockIdx.x * p.T, g = blockIdx.x * blockDim.x + threadIdx.x;
  restore(p, sm, base);
  const int lo = bitonic::comparator_pos(g, stride), hi = lo + stride;
  const bool up = bitonic::comparator_up(lo, size);
  const int a = lo - base, b = hi - base;
  const bool kv = p.words == 2;
  const std::uint32_t ka = sm[a], kb = sm[b], va = kv ? sm[p.T + a] : 0u, vb = kv ? sm[p.T + b] : 0u;
  const bool swap = bitonic::before(kb, vb, ka, va, p.ctx.type, p.desc, kv) == up;
  for (int w = 0; w < p.words; ++w) {
    p.ctx.shared_access(w * p.T + a);
    p.ctx.shared_access(w * p.T + b);
  }
  p.ctx.branch(swap);
  for (int w = 0; w < p.words; ++w) {
    p.ctx.shared_access(swap ? w * p.T + a : -1);
    p.ctx.shared_access(swap ? w * p.T + b : -1);
  }
  if (swap) {
    sm[a] = kb;
    sm[b] = ka;
    if (kv) {
      sm[p.T + a] = vb;
      sm[p.T + b] = va;
    }
  }
  const bool asc = up != p.desc;
  p.ctx.compare_swap(g, 0, p.shared_row, asc ? lo : hi, asc ? hi : lo, swap);
  spill(p, sm, base);
}

__global__ void global_pass(Bitonic p, int size, int stride) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lo = bitonic::comparator_pos(g, stride), hi = lo + stride;
  const bool up = bitonic::comparator_up(lo, size);
  const bool kv = p.words == 2;
  const std::uint32_t ka = p.key[lo], kb = p.key[hi], va = kv ? p.val[lo] : 0u, vb = kv ? p.val[hi] : 0u;
  const bool swap = bitonic::before(kb, vb, ka, va, p.ctx.type, p.desc, kv) == up;
  p.ctx.branch(swap);
  p.ctx.count(traced::kGlobalRead, 8ull * p.words);
  if (swap) {
    p.key[lo] = kb;
    p.key[hi] = ka;
    if (kv) {
      p.val[lo] = vb;
      p.val[hi] = va;
    }
    p.ctx.count(traced::kGlobalWrite, 8ull * p.words);
  }
  const bool asc = up != p.desc;
  p.ctx.compare_swap(g, 0, kRowMain, asc ? lo : hi, asc ? hi : lo, swap);
}
}  // namespace

Result cuda_bitonic_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                              DeviceTraceView out) {
  const bitonic::Shape s(cfg.n, cfg.block);
  const bitonic::RowIds r(cfg.key_value);
  const bool kv = cfg.key_value;
  std::vector<std::uint32_t> state0 = traced::initial_state(t, input, {kRowMain});
  const std::uint32_t pad = bitonic::pad_key(input, t.type, cfg.descending);
  for (std::int32_t i = cfg.n; i < s.W; ++i) state0[std::size_t(i)] = pad;
  if (kv)
    for (std::int32_t i = 0; i < s.W; ++i) state0[std::size_t(r.values) * s.W + i] = std::uint32_t(i);
  traced::CudaRun run(t, out);
  run.upload_initial(state0);
  const std::vector<bitonic::Pass> passes = bitonic::schedule(s);
  const std::size_t smem = std::size_t(2 * s.T) * 4;
  for (std::size_t st = 1; st < t.steps.size() && run.ok(); ++st) {
    const bitonic::Pass& p = passes[st - 1];
    Bitonic b{run.begin(st),
              run.row(kRowMain),
              kv ? run.row(r.values) : nullptr,
              run.row(r.shared),
              kv ? run.row(r.shared_values) : nullptr,
              s.T,
              r.shared,
              kv ? 2 : 1,
              cfg.descending};
    switch (p.kind) {
      case Kind::Load: load_or_store<<<s.tiles, s.Be, smem>>>(b, true); break;
      case Kind::Store: load_or_store<<<s.tiles, s.Be, smem>>>(b, false); break;
      case Kind::Shared: shared_pass<<<s.tiles, s.Be, smem>>>(b, p.size, p.stride); break;
      case Kind::Global: global_pass<<<s.tiles, s.Be>>>(b, p.size, p.stride); break;
    }
    run.end(st);
  }
  return run.finish();
}

}  // namespace primlab::steppers
