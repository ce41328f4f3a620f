// The two CUDA forms of histogram-shared, both running histogram_shared.cuh: the timed form
// (histogram_even's bins over [lower, upper), NoProbe) and the stepped form (bin = x mod bins, the
// recording probe over the trace's rows: the samples, each block's s_hist, the bins).
#include "lab/algorithms/histogram/histogram_forms.cuh"
#include "lab/algorithms/histogram/shared/histogram_shared.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {

// It counts straight into the bins: no workspace.
std::size_t timed_bytes_histogram_shared(const TimedArgs&) { return 0; }

Status timed_histogram_shared(const TimedArgs& a) {
  return lab::timed_histogram(a, [&](const auto* in, std::uint32_t* hist, auto binner) {
    return lab::histogram_shared_atomic(in, a.n, hist, a.bins, binner, timed::block_of(a), lab::kTimedMaxBlocks,
                                        timed::stream_of(a));
  });
}

Result cuda_histogram_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  using namespace lab;
  // b and its lanes are registers, s_hist shared memory.
  stepped::StepRun run(t, out, {kHistBin, kHistSame, kSharedBlockHist});
  run.upload_initial(stepped::initial_state(t, input, {kHistIn}));
  if (!run.ok()) return run.finish(Status::Success);
  const Status s = on_sample_type(t.type, [&](auto x) {
    using T = decltype(x);
    return histogram_shared_atomic(run.row_as<const T>(kHistIn), t.n, run.row(kHist), cfg.bins,
                                   ModBinner<T>{cfg.bins}, t.block, shared_max_blocks(cfg.bins), nullptr,
                                   run.probe());
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
