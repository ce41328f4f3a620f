// The stepped CUDA form of histogram-tagged and histogram-tagged-bytes: histogram_tagged.cuh's host
// code with the recording probe over the trace's rows (the samples, the blocks' partial histograms,
// the bins in global memory; the warp sub-histograms in shared memory; the registers the probe
// shows). Neither has a timed form.
#include "lab/algorithms/histogram/histogram_forms.cuh"
#include "lab/algorithms/histogram/tagged/histogram_tagged.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {

template <bool kBytes>
Result run_tagged(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out, {kHistBin, kHistSame, kTaggedRetries, kTaggedCount, kTaggedTag, kTaggedWords});
  run.upload_initial(stepped::initial_state(t, input, {kHistIn}));
  if (!run.ok()) return run.finish(Status::Success);
  const int bins = kBytes ? kByteBins : cfg.bins;
  const Status s = on_sample_type(t.type, [&](auto x) {
    using T = decltype(x);
    return histogram_tagged<kBytes>(run.row_as<const T>(kHistIn), t.n, run.row(kTaggedPartial), run.row(kHist), bins,
                                    ModBinner<T>{bins}, t.block, tagged_max_blocks(t.block, bins), nullptr,
                                    run.probe());
  });
  return run.finish(s);
}

}  // namespace

Result cuda_histogram_tagged(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  return run_tagged<false>(cfg, input, t, out);
}

Result cuda_histogram_tagged_bytes(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                                   DeviceTraceView out) {
  return run_tagged<true>(cfg, input, t, out);
}

}  // namespace primlab::steppers
