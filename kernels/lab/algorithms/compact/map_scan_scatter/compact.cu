// The stepped CUDA form of stream compaction: compact.cuh's map, then the scan row's own stepped
// form on the flags (into its own trace, spliced into this one with its rows renamed, as
// compact_common.h lays it out), then compact.cuh's scatter and count. The map and the scatter are
// each a stepped run of their part of the trace; the scan's steps between them are the scan's.
#include <algorithm>

#include "lab/algorithms/compact/compact_common.h"
#include "lab/algorithms/compact/map_scan_scatter/compact.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace compact;

struct RowMap {
  int m[stepped::kMaxRows];
  int rows;
};

// Steps [first, last] of t as a trace of their own (rows and steps, op slots where t has them; no
// values): what a stepped run of that part needs.
Trace part_of(const Trace& t, std::size_t first, std::size_t last) {
  Trace p;
  p.algo = t.algo;
  p.type = t.type;
  p.n = t.n;
  p.width = t.width;
  p.block = t.block;
  p.rows = t.rows;
  p.steps.assign(t.steps.begin() + std::ptrdiff_t(first), t.steps.begin() + std::ptrdiff_t(last) + 1);
  return p;
}

// What a stepped run of a part measured, back into the whole trace's steps.
void take_measures(const Trace& part, std::size_t first, Trace& t) {
  for (std::size_t k = 1; k < part.steps.size(); ++k) {
    Step& s = t.steps[first + k];
    s.counters = part.steps[k].counters;
    s.source_lines = part.steps[k].source_lines;
    s.accesses = part.steps[k].accesses;
  }
}

// The scan's rows of one of its steps (scan_state) over the compaction's rows of the step (the rows
// the scan does not have keep the step's own words), with the touch flags renamed; its op slots.
__global__ void splice(std::uint32_t* step, const std::uint32_t* scan_state, std::int32_t width, Op* ops,
                       const Op* scan_ops, std::int64_t op_count, RowMap map) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < width) {
    for (int r = 0; r < map.rows; ++r)
      if (map.m[r] >= 0) step[std::size_t(map.m[r]) * width + k] = scan_state[std::size_t(r) * width + k];
    step[std::size_t(kRowTouch) * width + k] = remap_touch(scan_state[std::size_t(kRowTouch) * width + k], map.m, map.rows);
    step[std::size_t(kRowOwner) * width + k] = scan_state[std::size_t(kRowOwner) * width + k];
  }
  if (k < op_count) {
    Op o = scan_ops[k];
    o.kind = o.kind ? remap_kind(o.kind, map.m, map.rows) : 0;
    ops[k] = o;
  }
}
}  // namespace

Result cuda_compact(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  Layout L = make_layout(cfg);
  if (!L.error.empty()) return Result::failure(L.error);
  const std::int32_t n = t.n, B = t.block;
  const std::size_t words = t.step_words(), scatter_step = 2 + L.scan_steps;
  auto on_x_type = [&](auto f) { return stepped::on_elem_type(t.type, f); };

  // [1] The map: steps 0 and 1.
  std::vector<std::uint32_t> flags(static_cast<std::size_t>(n));
  {
    Trace part = part_of(t, 0, 1);
    stepped::StepRun run(part, out);
    run.map_rows({kRowMain, -1, -1, kFlags, kScanned, L.output_row, L.count_row});
    run.upload_initial(stepped::initial_state(part, input, {kRowMain}));
    if (!run.ok()) return run.finish(Status::Success);
    const Status s = on_x_type([&](auto x) {
      using T = decltype(x);
      return lab::map_flags(run.row_as<const T>(kRowMain), run.row_as<std::int32_t>(kFlags), n, B, cfg.predicate,
                            cfg.threshold, nullptr, run.probe());
    });
    if (Result r = run.finish(s); !r.ok()) return r;
    if (!PRIMLAB_STEPPED_CHECK(run, cudaMemcpy(flags.data(), run.row(kFlags), flags.size() * 4, cudaMemcpyDeviceToHost)))
      return run.finish(Status::Success);
    take_measures(part, 0, t);
  }

  // [2] The scan: its row's stepped form on the flags, into its own trace, spliced in as steps
  // 2 .. 1 + scan_steps over a copy of step 1.
  Trace& s = L.scan;
  try {
    DeviceBuffer<std::uint32_t> d_values(s.values.size());
    DeviceBuffer<Op> d_ops(std::max<std::size_t>(s.ops.size(), 1));
    const Result r = scan_algo(cfg.variant).run_cuda(L.scan_cfg, flags, s, {d_values.get(), d_ops.get()});
    if (!r.ok()) return Result::failure("the compaction's scan: " + r.message());
    RowMap map{};
    map.rows = int(s.rows.size());
    for (int r = 0; r < stepped::kMaxRows; ++r) map.m[r] = r < map.rows ? L.row_map[std::size_t(r)] : -1;
    for (std::size_t k = 1; k <= L.scan_steps; ++k) {
      std::uint32_t* step = out.values + (1 + k) * words;
      const Step& ss = s.steps[k];
      if (cudaMemcpyAsync(step, out.values + words, words * 4, cudaMemcpyDeviceToDevice) != cudaSuccess)
        return Result::failure(std::string("the splice of the compaction's scan: ") + cudaGetErrorString(cudaGetLastError()));
      const std::int64_t threads = std::max<std::int64_t>(ss.op_count(), t.width);
      splice<<<unsigned((threads + 255) / 256), 256>>>(step, d_values.get() + k * s.step_words(), t.width,
                                                       out.ops + t.steps[1 + k].op_begin, d_ops.get() + ss.op_begin,
                                                       ss.op_count(), map);
      Step& cs = t.steps[1 + k];
      cs.counters = ss.counters;
      cs.accesses = ss.accesses;
      cs.source_lines = ss.source_lines;
    }
    // The scan's buffers are freed here: wait for the splices that read them.
    if (cudaDeviceSynchronize() != cudaSuccess)
      return Result::failure(std::string("the splice of the compaction's scan: ") + cudaGetErrorString(cudaGetLastError()));
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }

  // [3] The scatter and the count: the steps from the scan's last on.
  {
    Trace part = part_of(t, scatter_step - 1, t.steps.size() - 1);
    stepped::StepRun run(part, {out.values + (scatter_step - 1) * words, out.ops});
    run.map_rows({kRowMain, -1, -1, kFlags, kScanned, L.output_row, L.count_row});
    std::vector<std::uint32_t> state(words);
    if (!PRIMLAB_STEPPED_CHECK(run, cudaMemcpy(state.data(), out.values + (scatter_step - 1) * words, words * 4,
                                               cudaMemcpyDeviceToHost)))
      return run.finish(Status::Success);
    run.upload_initial(state);
    if (!run.ok()) return run.finish(Status::Success);
    const Status st = on_x_type([&](auto x) {
      using T = decltype(x);
      return lab::scatter_kept(run.row_as<const T>(kRowMain), run.row_as<const std::int32_t>(kFlags),
                               run.row_as<const std::int32_t>(kScanned), run.row_as<T>(L.output_row),
                               run.row_as<std::int32_t>(L.count_row), n, B, nullptr, run.probe());
    });
    if (Result r = run.finish(st); !r.ok()) return r;
    std::uint32_t count = 0;
    if (!PRIMLAB_STEPPED_CHECK(run, cudaMemcpy(&count, run.row(L.count_row), 4, cudaMemcpyDeviceToHost)))
      return run.finish(Status::Success);
    take_measures(part, scatter_step - 1, t);
    t.steps.back().label += " = " + std::to_string(count) + " kept of " + std::to_string(n);
  }
  return {};
}

}  // namespace primlab::steppers
