// The stepped form of distributed-sort: distributed_sort.cuh's host code with the recording probe
// over the trace's rows. The keys are the main row and the output the sorted row; every array the
// steps show is a row; the cells each key counts in and its destination (registers) are on-chip
// rows; the cuts live in a small buffer of their own (the workspace), read back by the host code.
#include "lab/algorithms/distributed/radix_sort/distributed_sort.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {

Result cuda_distributed_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out, {kDistCell, kDistDest});
  run.upload_initial(stepped::initial_state(t, input, {kDistKeys}));
  if (!run.ok()) return run.finish(Status::Success);
  DeviceBuffer<Cut> d_cuts;
  try {
    d_cuts.resize(std::size_t(std::max(cfg.bins - 1, 1)));
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }
  auto sort = [&](auto x) {
    using T = decltype(x);
    DistributedArrays<T> a;
    a.gpu_hist = run.row(kDistGpuHist);
    a.hist = run.row(kDistHist);
    a.cells = t.rows[kDistHist].length;
    a.counts = run.row(kDistCounts);
    a.edges = run.row(kDistEdges);
    a.part = run.row_as<T>(kDistPart);
    a.bytes = run.row(kDistBytes);
    a.bytes_cells = t.rows[kDistBytes].length;
    a.recv = run.row_as<T>(kDistRecv);
    return distributed_sort(run.row_as<const T>(kDistKeys), run.row_as<T>(kDistSorted), t.n, cfg.bins,
                            span_of(input), cfg.digit_bits, a, Workspace{d_cuts.get(), d_cuts.bytes()}, nullptr,
                            run.probe());
  };
  return run.finish(t.type == ElemType::U32 ? sort(std::uint32_t{}) : sort(std::int32_t{}));
}

}  // namespace primlab::steppers
