// The stepped forms of partition-atomic and partition-stable: radix_partition.cuh's host code with
// the recording probe over the trace's rows. The keys are the main row and the output its row;
// the workspace's slices are the rows from kPartCounts on (hist, offsets, fill; or counts and
// offsets); the digits (registers) and each block's sh_hist (shared memory) are on-chip rows.
#include "lab/algorithms/partition/radix_partition/radix_partition.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {

template <class F>
Status on_key_type(ElemType t, F&& f) {
  return t == ElemType::U32 ? f(std::uint32_t{}) : f(std::int32_t{});
}

int digit_bits(const StepConfig& cfg) {
  int bits = 0;
  while ((1 << bits) < cfg.bins) ++bits;
  return bits;
}

}  // namespace

Result cuda_partition_atomic(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out, {kPartDigit, kPartShared});
  run.upload_initial(stepped::initial_state(t, input, {kPartKeys}));
  if (!run.ok()) return run.finish(Status::Success);
  const Status s = on_key_type(t.type, [&](auto x) {
    using T = decltype(x);
    return partition_atomic(run.row_as<const T>(kPartKeys), run.row_as<T>(kPartAtomicOut), t.n, t.block,
                            cfg.digit_start, digit_bits(cfg), Workspace{run.row(kPartCounts), 3 * std::size_t(t.width) * 4},
                            nullptr, run.probe());
  });
  return run.finish(s);
}

Result cuda_partition_stable(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                             DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out, {kPartDigit, kPartShared});
  run.upload_initial(stepped::initial_state(t, input, {kPartKeys}));
  if (!run.ok()) return run.finish(Status::Success);
  const Status s = on_key_type(t.type, [&](auto x) {
    using T = decltype(x);
    return partition_stable(run.row_as<const T>(kPartKeys), run.row_as<T>(kPartStableOut), t.n, t.block,
                            cfg.digit_start, digit_bits(cfg), Workspace{run.row(kPartCounts), 2 * std::size_t(t.width) * 4},
                            nullptr, run.probe());
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
