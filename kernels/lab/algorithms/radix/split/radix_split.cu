// The two CUDA forms of radix-split, both running radix_split.cuh: the timed form (the catalog's
// TimedArgs, uint32 keys, NoProbe) and the stepped form (the recording probe over the trace's rows:
// the keys in, alt and out rows, the bit arrays, the scan's sums and the max are the host code's
// arrays; each launch names its own rows, since a pass reads and writes other key rows than the last
// and the scan's levels run on parts of the sums row).
#include "lab/algorithms/radix/split/radix_split.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"
#include "lab/run/timed_args.cuh"

namespace primlab::steppers {

std::size_t timed_bytes_radix_split(const TimedArgs& a) {
  return a.type == "u32" ? lab::radix::split_radix_sort_workspace_bytes<std::uint32_t>(a.n, timed::block_of(a)) : 0;
}

Status timed_radix_split(const TimedArgs& a) {
  if (a.type != "u32") return Status::InvalidArgument;
  return lab::radix::split_radix_sort(static_cast<const std::uint32_t*>(a.d_in), static_cast<std::uint32_t*>(a.d_out),
                                      a.n, timed::block_of(a), timed::workspace_of(a), timed::stream_of(a));
}

Result cuda_radix_split(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  using namespace lab::radix;
  static_assert(kKernelRows == stepped::kMaxRows, "");
  stepped::StepRun run(t, out, {kSplitTree, kSplitTotal, kSplitTrue, kSplitDest, kSplitTemp});
  // The rows of each launch, in the host code's order: find_max_kernel, then per pass
  // bool_maps_kernel (in = the pass's source), the scan's launches, scatter_kernel (in, out).
  const LaunchRows base = identity_rows(int(t.rows.size()));
  std::vector<LaunchRows> launches = {base};
  int src = kSplitIn;
  std::size_t passes = 0;
  for (const Step& s : t.steps) passes += s.phase == "bits";
  for (std::size_t p = 0; p < passes; ++p) {
    const int dst = (passes - 1 - p) % 2 == 0 ? kSplitOut : kSplitAlt;
    LaunchRows maps = base;
    maps.rows[kSplitIn] = std::int8_t(src);
    launches.push_back(maps);
    scan_launch_rows(launches, base, t.n, t.block, kSplitFalse, kSplitFalseScan, kSplitTemp, kSplitSums);
    maps.rows[kSplitOut] = std::int8_t(dst);
    launches.push_back(maps);
    src = dst;
  }
  run.on_launch = [&](int l, stepped::RecordingProbe& p) {
    if (l >= int(launches.size())) return;  // StepRun::finish reports the launch count
    std::copy(launches[std::size_t(l)].rows, launches[std::size_t(l)].rows + kKernelRows, p.rows);
    std::copy(launches[std::size_t(l)].at, launches[std::size_t(l)].at + kKernelRows, p.at);
  };
  run.upload_initial(stepped::initial_state(t, input, {kSplitIn}));
  if (!run.ok()) return run.finish(Status::Success);
  SplitArrays<std::uint32_t> arrays{run.row(kSplitAlt), run.row(kSplitBit),  run.row(kSplitFalse),
                                    run.row(kSplitFalseScan), run.row(kSplitSums), run.row(kSplitMax)};
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using T = decltype(x);
    if constexpr (std::is_same_v<T, float>) {
      return Status::InvalidArgument;  // the plan takes no floats
    } else {
      const SplitArrays<T> a{reinterpret_cast<T*>(arrays.alt), arrays.b, arrays.f, arrays.fs, arrays.sums, arrays.max};
      return split_radix_sort(run.row_as<const T>(kSplitIn), run.row_as<T>(kSplitOut), t.n, t.block, a, nullptr,
                              run.probe());
    }
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
