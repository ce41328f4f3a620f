// The two CUDA forms of scan-naive, both running scan_naive.cuh: the timed form (the catalog's
// TimedArgs, NoProbe) and the stepped form (the recording probe over the trace's rows d_out, d_in
// and tmp; the plan shows each launch's output buffer, and its input is the one the launch before
// wrote, or d_in).
#include "lab/algorithms/scan/naive/scan_naive.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"
#include "lab/run/timed_args.cuh"

namespace primlab::steppers {

std::size_t timed_bytes_scan_naive(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return lab::scan_naive_workspace_bytes<decltype(x)>(a.n);
  });
}

Status timed_scan_naive(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return lab::scan_naive(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_out), a.n, timed::block_of(a),
                           timed::workspace_of(a), timed::stream_of(a));
  });
}

Result cuda_scan_naive(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                       DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out);
  // Where the host code launches nothing (one element, inclusive), its copy of d_in is the scan.
  run.upload_initial(t.steps.size() == 1 ? stepped::initial_state(t, input, {kNaiveDIn, kNaiveDOut})
                                         : stepped::initial_state(t, input, {kNaiveDIn}));
  if (!run.ok()) return run.finish(Status::Success);
  run.on_launch = [&t](int launch, stepped::RecordingProbe& p) {
    for (std::int8_t& r : p.rows) r = -1;
    p.rows[kNaiveIn] = std::int8_t(launch == 0 ? kNaiveDIn : t.steps[std::size_t(p.first) - 1].focus_row);
    p.rows[kNaiveOut] = std::int8_t(t.steps[std::size_t(p.first)].focus_row);
  };
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using T = decltype(x);
    return scan_naive(run.row_as<const T>(kNaiveDIn), run.row_as<T>(kNaiveDOut), t.n, t.block,
                      Workspace{run.row(kNaiveTmp), std::size_t(t.width) * 4}, nullptr, cfg.inclusive, run.probe());
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
