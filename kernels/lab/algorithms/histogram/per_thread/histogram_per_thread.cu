// The stepped CUDA form of histogram-per-thread: histogram_per_thread.cuh's host code with the
// recording probe over the trace's rows (the samples, the blocks' partial histograms and the bins in
// global memory; the byte counters in shared memory; data, a register). It has no timed form.
#include "lab/algorithms/histogram/histogram_forms.cuh"
#include "lab/algorithms/histogram/per_thread/histogram_per_thread.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {

Result cuda_histogram_per_thread(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                                 DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out, {kPerThreadData, kPerThreadCounters});
  run.upload_initial(stepped::initial_state(t, input, {kPerThreadIn}));
  if (!run.ok()) return run.finish(Status::Success);
  // cfg.variant: bit 0 the layout tid+64*data, bit 1 the permuted tid.
  const bool spread = (cfg.variant & 1) != 0, permute = (cfg.variant & 2) != 0;
  const Status s = on_sample_type(t.type, [&](auto x) {
    using T = decltype(x);
    return histogram_per_thread(run.row_as<const T>(kPerThreadIn), t.n, run.row(kPerThreadPartial),
                                run.row(kPerThreadHist), cfg.bins, ModBinner<T>{cfg.bins}, spread, permute,
                                kPerThreadMaxBlocks, nullptr, run.probe());
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
