// The stepped CUDA form of scan-naive-shared: scan_naive_shared.cuh's host code with the recording
// probe over the trace's rows (the arrays d_out and d_in, the workspace's block sums and their
// scan on two rows, and the shared ping-pong buffer's halves as on-chip rows).
#include "lab/algorithms/scan/naive_shared/scan_naive_shared.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {

Result cuda_scan_naive_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                              DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out, {kNaiveSharedHalf0, kNaiveSharedHalf1});
  run.upload_initial(stepped::initial_state(t, input, {kNaiveSharedIn}));
  if (!run.ok()) return run.finish(Status::Success);
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using T = decltype(x);
    // The sums row and the scanned row follow each other: the workspace's two halves.
    return scan_naive_shared(run.row_as<const T>(kNaiveSharedIn), run.row_as<T>(kNaiveSharedOut), t.n, t.block,
                             Workspace{run.row(kNaiveSharedSums), 2 * std::size_t(t.width) * 4}, nullptr,
                             cfg.inclusive, run.probe());
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
