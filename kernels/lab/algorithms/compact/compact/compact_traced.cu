// Stream compaction, traced: the map and scatter kernels, and between them the chosen scan's own
// CUDA stepper run on the flags into its own trace memory, whose steps are then copied into the
// compaction's trace with its rows renamed (cpu/compact_common.h lays it out, cpu/compact.cpp plans).
#include "lab/algorithms/compact/compact_common.h"
#include "lab/run/trace_device.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace compact;

struct RowMap {
  int m[16];
  int rows;
};
struct StepCounters {
  unsigned long long c[traced::kNumCounters];
};

// listing: compact
__device__ bool keep_dev(std::uint32_t w, ElemType t, int predicate, std::int32_t threshold) {
  if (t == ElemType::F32) {
    const float v = __uint_as_float(w);
    if (predicate == 1) return fmodf(v, 2.0f) == 0.0f;
    if (predicate == 2) return v > float(threshold);
    return v != 0.0f;
  }
  const std::int32_t v = std::int32_t(w);
  if (predicate == 1) return (v & 1) == 0;
  if (predicate == 2) return v > threshold;
  return v != 0;
}

__global__ void map_to_flags(traced::StepCtx ctx, const std::uint32_t* x, std::uint32_t* flags, int n, int predicate,
                             std::int32_t threshold) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ctx.branch(i < n);
  if (i >= n) return;
  flags[i] = keep_dev(x[i], ctx.type, predicate, threshold) ? 1u : 0u;  // step: map
  ctx.op(i, 0, OpKind::Move, kRowMain, i, kFlags, i);
  ctx.count(traced::kGlobalRead, 4);
  ctx.count(traced::kGlobalWrite, 4);
}
// listing: end

// Copies one step of the scan's trace (rows, touch flags, owners, op slots, counters) into the
// compaction's working state and op slots, with the scan's rows renamed to the compaction's.
__global__ void splice(traced::StepCtx ctx, const std::uint32_t* scan_state, const Op* scan_ops, std::int64_t op_count,
                       RowMap map, StepCounters counters) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int W = ctx.width;
  if (k < W) {
    const int i = int(k);
    for (int r = 0; r < map.rows; ++r)
      if (map.m[r] >= 0) ctx.row(map.m[r])[i] = scan_state[std::size_t(r) * W + i];
    ctx.row(kRowTouch)[i] = remap_touch(scan_state[std::size_t(kRowTouch) * W + i], map.m, map.rows);
    ctx.row(kRowOwner)[i] = scan_state[std::size_t(kRowOwner) * W + i];
  }
  if (k < op_count) {
    Op o = scan_ops[k];
    o.kind = o.kind ? remap_kind(o.kind, map.m, map.rows) : 0;
    ctx.ops[k] = o;
  }
  if (k < traced::kNumCounters) ctx.counters[k] = counters.c[k];
}

// listing: compact
__global__ void scatter(traced::StepCtx ctx, const std::uint32_t* x, const std::uint32_t* flags,
                        const std::uint32_t* idx, std::uint32_t* out, int out_row, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool take = i < n && flags[i] != 0;
  ctx.branch(take);
  if (i >= n) return;
  ctx.count(traced::kGlobalRead, 4);
  if (!take) return;
  out[idx[i]] = x[i];  // step: scatter
  ctx.op(i, 0, OpKind::Move, kRowMain, i, out_row, std::int32_t(idx[i]));
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, 4);
}

__global__ void count_kept(traced::StepCtx ctx, const std::uint32_t* flags, const std::uint32_t* idx, int n,
                           std::uint32_t* count, int count_row) {
  count[0] = idx[n - 1] + flags[n - 1];  // step: count
  ctx.op(0, 0, OpKind::Move, kScanned, n - 1, count_row, 0);
  ctx.op(0, 1, OpKind::Add, kFlags, n - 1, count_row, 0);
  ctx.count(traced::kAdds, 1);
  ctx.count(traced::kGlobalRead, 8);
  ctx.count(traced::kGlobalWrite, 4);
}
// listing: end
}  // namespace

Result cuda_compact(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                         DeviceTraceView out) {
  Layout L = make_layout(cfg);
  if (!L.error.empty()) return Result::failure(L.error);
  traced::CudaRun run(t, out);
  const int n = t.n, B = t.block, blocks = traced::blocks_for(n, B);
  run.upload_initial(traced::initial_state(t, input, {kRowMain}));
  map_to_flags<<<blocks, B>>>(run.begin(1), run.row(kRowMain), run.row(kFlags), n, cfg.predicate, cfg.threshold);
  run.end(1);

  // The scan's CUDA stepper on the flags, into its own trace memory.
  std::vector<std::uint32_t> flags(std::size_t(n), 0u);
  PRIMLAB_TRACED_CHECK(run, cudaMemcpy(flags.data(), run.row(kFlags), std::size_t(n) * 4, cudaMemcpyDeviceToHost));
  if (!run.ok()) return Result::failure(run.error());
  Trace& s = L.scan;
  try {
    DeviceBuffer<std::uint32_t> d_values(s.values.size());
    DeviceBuffer<Op> d_ops(std::max<std::size_t>(s.ops.size(), 1));
    const DeviceTraceView sv{d_values.get(), d_ops.get()};
    const Result r = scan_algo(cfg.variant).run_cuda(L.scan_cfg, flags, s, sv);
    if (!r.ok()) return Result::failure("the compaction's scan: " + r.message());
    RowMap map{};
    map.rows = int(s.rows.size());
    for (int r = 0; r < 16; ++r) map.m[r] = r < map.rows ? L.row_map[std::size_t(r)] : -1;
    for (std::size_t k = 1; k <= L.scan_steps && run.ok(); ++k) {
      const Step& ss = s.steps[k];
      StepCounters c{};
      c.c[traced::kAdds] = ss.counters.adds;
      c.c[traced::kGlobalRead] = ss.counters.global_read_bytes;
      c.c[traced::kGlobalWrite] = ss.counters.global_write_bytes;
      c.c[traced::kShared] = ss.counters.shared_accesses;
      c.c[traced::kConflict] = ss.counters.bank_conflict;
      c.c[traced::kDivergent] = ss.counters.divergent_warps;
      c.c[traced::kAtomics] = ss.counters.atomics;
      const std::int64_t threads = std::max<std::int64_t>(std::max<std::int64_t>(ss.op_count(), t.width), traced::kNumCounters);
      splice<<<traced::blocks_for(threads, 256), 256>>>(run.begin(1 + k), d_values.get() + k * s.step_words(),
                                                        d_ops.get() + ss.op_begin, ss.op_count(), map, c);
      run.end(1 + k, int(ss.counters.launches));
      t.steps[1 + k].accesses = ss.accesses;
    }
    // The scan's buffers are freed here: wait for the splices that read them.
    PRIMLAB_TRACED_CHECK(run, cudaDeviceSynchronize());
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }

  const std::size_t scatter_step = 2 + L.scan_steps;
  scatter<<<blocks, B>>>(run.begin(scatter_step), run.row(kRowMain), run.row(kFlags), run.row(kScanned),
                         run.row(L.output_row), L.output_row, n);
  run.end(scatter_step);
  count_kept<<<1, 1>>>(run.begin(scatter_step + 1), run.row(kFlags), run.row(kScanned), n, run.row(L.count_row),
                       L.count_row);
  run.end(scatter_step + 1);
  if (Result r = run.finish(); !r.ok()) return r;
  std::uint32_t count = 0;
  if (!PRIMLAB_TRACED_CHECK(run, cudaMemcpy(&count, out.values + (scatter_step + 1) * t.step_words() +
                                                        std::size_t(L.count_row) * t.width,
                                            4, cudaMemcpyDeviceToHost)))
    return Result::failure(run.error());
  t.steps.back().label += " = " + std::to_string(count) + " kept of " + std::to_string(n);
  return {};
}

}  // namespace primlab::steppers
