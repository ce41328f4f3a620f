// scan-lookback's stepped CUDA form: the library's scan dispatch (device/scan_dispatch.cuh) on the
// trace's rows (d_in the `in` row, d_out the main row), with LookbackStepTuning's small tiles and
// the row's recording probe. It has no timed form: the library's scan is the bench's primlab row.
#include "device/scan_dispatch.cuh"
#include "lab/algorithms/scan/lookback/scan_lookback.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {

// The tile states live in `states`, which the caller keeps until the run has finished.
template <class T, int kThreads>
Status scan_on_small_tiles(stepped::StepRun& run, const lab::LookbackProbe& probe, std::int32_t n, bool inclusive,
                           DeviceBuffer<std::uint64_t>& states) {
  using Tuning = lab::LookbackStepTuning<T, kThreads>;
  // The probe's counts of adds follow this shape (one item a lane, one tile-state word a window lane).
  static_assert(Tuning::kVec == 1 && Tuning::kVectors == 1 && Tuning::kLookbackWords == 1, "one item a lane");
  states.resize((detail::scan_state_bytes<Tuning, T>(n) + 7) / 8);
  const Workspace ws{states.get(), states.bytes()};
  const T* d_in = run.row_as<const T>(lab::kLbIn);
  T* d_out = run.row_as<T>(lab::kLbOut);
  if (inclusive) return detail::scan_dispatch<Tuning, T, Sum, false>(d_in, d_out, n, T(0), Sum{}, ws, nullptr, probe);
  return detail::scan_dispatch<Tuning, T, Sum, true>(d_in, d_out, n, T(0), Sum{}, ws, nullptr, probe);
}

template <class T>
Status scan_on_small_tiles(stepped::StepRun& run, const lab::LookbackProbe& probe, std::int32_t n, std::int32_t block,
                           bool inclusive, DeviceBuffer<std::uint64_t>& states) {
  if (block == 64) return scan_on_small_tiles<T, 64>(run, probe, n, inclusive, states);
  if (block == 32) return scan_on_small_tiles<T, 32>(run, probe, n, inclusive, states);
  return Status::InvalidArgument;
}

}  // namespace

Result cuda_scan_lookback(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                          DeviceTraceView out) {
  using namespace lab;
  stepped::StepRun run(t, out,
                       {kLbX, kLbRowPrefix, kLbWarp, kLbStatus, kLbValue, kLbTilePrefix, kLbPolls, kLbWords, kLbStop,
                        kLbAggregateAt, kLbInclusiveAt});
  std::vector<std::uint32_t> state0 = stepped::initial_state(t, input, {kLbIn});
  lookback_unset_rows(state0.data(), t.width);
  run.upload_initial(state0);
  if (!run.ok()) return run.finish(Status::Success);
  try {
    DeviceBuffer<unsigned> clock(1);
    DeviceBuffer<std::uint64_t> states;
    if (!PRIMLAB_STEPPED_CHECK(run, cudaMemset(clock.get(), 0, clock.bytes()))) return run.finish(Status::Success);
    LookbackProbe probe;
    static_cast<stepped::RecordingProbe&>(probe) = run.probe();
    probe.clock = clock.get();
    probe.n = t.n;
    probe.exclusive = !cfg.inclusive;
    const Status s = t.type == ElemType::U32
                         ? scan_on_small_tiles<std::uint32_t>(run, probe, t.n, t.block, cfg.inclusive, states)
                         : scan_on_small_tiles<std::int32_t>(run, probe, t.n, t.block, cfg.inclusive, states);
    return run.finish(s);  // while `clock` and the tile states live: finish waits for the kernel
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }
}

}  // namespace primlab::steppers
