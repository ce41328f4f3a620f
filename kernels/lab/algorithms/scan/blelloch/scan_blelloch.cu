// The two CUDA forms of scan-blelloch, both running scan_blelloch.cuh: the timed form (the
// catalog's TimedArgs, NoProbe) and the stepped form (the recording probe over the trace's rows:
// the padded buffer is the `buf` row, the input the `in` row).
#include "lab/algorithms/scan/blelloch/scan_blelloch.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"
#include "lab/run/timed_args.cuh"

namespace primlab::steppers {

std::size_t timed_bytes_scan_blelloch(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return lab::scan_blelloch_workspace_bytes<decltype(x)>(a.n);
  });
}

Status timed_scan_blelloch(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return lab::scan_blelloch(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_out), a.n,
                                     timed::block_of(a), timed::workspace_of(a), timed::stream_of(a));
  });
}

Result cuda_scan_blelloch(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                          DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out);
  run.upload_initial(stepped::initial_state(t, input, {kBlellochIn}));
  if (!run.ok()) return run.finish(Status::Success);
  DeviceBuffer<std::uint32_t> d_out(std::size_t(t.n));  // the scan's result, copied from buf
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using T = decltype(x);
    return scan_blelloch(run.row_as<const T>(kBlellochIn), reinterpret_cast<T*>(d_out.get()), t.n, t.block,
                         Workspace{run.row(kBlellochBuf), std::size_t(t.width) * 4}, nullptr, cfg.inclusive,
                         run.probe());
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
