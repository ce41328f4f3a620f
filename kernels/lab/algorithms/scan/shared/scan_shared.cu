// The two CUDA forms of scan-shared, both running scan_shared.cuh: the timed form (the catalog's
// TimedArgs, NoProbe, the one-term offsets, the recursion) and the stepped form (the recording
// probe over the trace's rows: d_out, d_in, the block sums of each level of the recursion on a row
// of their own, and the shared memory as an on-chip row; each launch names its level's arrays).
#include <type_traits>

#include "lab/algorithms/scan/shared/scan_shared.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"
#include "lab/run/timed_args.cuh"

namespace primlab::steppers {

std::size_t timed_bytes_scan_shared(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return lab::scan_shared_workspace_bytes<decltype(x)>(a.n, timed::block_of(a));
  });
}

Status timed_scan_shared(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return lab::scan_shared(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_out), a.n, timed::block_of(a),
                            timed::workspace_of(a), timed::stream_of(a));
  });
}

Result cuda_scan_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                        DeviceTraceView out) {
  using namespace lab;
  const bool stitch = (cfg.variant & 2) != 0;
  const int terms = cfg.conflict_offsets ? 1 + (cfg.variant & 1) : 0;
  stepped::StepRun run(t, out, {kSharedTemp});
  run.upload_initial(stepped::initial_state(t, input, {kSharedIn}));
  if (!run.ok()) return run.finish(Status::Success);
  const std::vector<SharedScanLaunch> launches = shared_scan_launches(t.n, t.block, stitch, cfg.inclusive);
  run.on_launch = [&launches](int launch, stepped::RecordingProbe& p) {
    const SharedScanArrays a = shared_scan_arrays(launches[std::size_t(launch)]);
    for (std::int8_t& r : p.rows) r = -1;
    p.rows[kSharedIn] = std::int8_t(a.in);
    p.rows[kSharedOut] = std::int8_t(a.out);
    p.rows[kSharedTemp] = std::int8_t(kSharedTemp);
    p.rows[kSharedSums] = std::int8_t(a.sums);
  };
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using T = decltype(x);
    // One row of block sums a level, the rows one after the other: the stride is the row width.
    const Workspace ws{run.row(kSharedSums), std::size_t(shared_scan_level_count(t.n, t.block)) * t.width * 4};
    auto with_offsets = [&](auto terms_c) {
      return scan_shared<T, decltype(terms_c)::value>(run.row_as<const T>(kSharedIn), run.row_as<T>(kSharedOut), t.n,
                                                      t.block, ws, nullptr, cfg.inclusive, stitch, run.probe());
    };
    return terms == 0   ? with_offsets(std::integral_constant<int, 0>{})
           : terms == 1 ? with_offsets(std::integral_constant<int, 1>{})
                        : with_offsets(std::integral_constant<int, 2>{});
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
