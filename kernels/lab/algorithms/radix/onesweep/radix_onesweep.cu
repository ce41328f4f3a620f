// radix-onesweep's stepped CUDA form: radix_onesweep.cuh's host code (the library's histogram and
// pass kernels) on the trace's rows (keys_in the `keys_in` row, keys_out the main row, the digit
// counts the `hist` row), with the row's recording probe (radix_onesweep_probe.cuh). The look-back
// words live in a buffer of their own (256 a tile); the probe shows their flags and values. It has
// no timed form: the library's sort is the bench's primlab row.
#include "lab/algorithms/radix/onesweep/radix_onesweep.cuh"
#include "lab/algorithms/radix/onesweep/radix_onesweep_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab;

static_assert(kOsRadix == detail::kRadix, "the CPU reference's digit rows are the library's");
static_assert(kOsInclusive == detail::onesweep::kInclusive, "the CPU reference reads the library's look-back words");
static_assert(kOsHistVec == 16 / sizeof(std::uint32_t), "a 16-byte load of u32 keys");

template <class K, int THREADS>
Status pass_on_rows(stepped::StepRun& run, const OnesweepProbe& probe, const OnesweepShape& sh, bool descending,
                    int hot, DeviceBuffer<std::uint32_t>& status) {
  status.resize(radix_onesweep_status_words<THREADS>(sh.n));
  return radix_onesweep_pass<K, THREADS>(run.row_as<const K>(kOsIn), run.row_as<K>(kOsOut), sh.n, sh.shift,
                                         sh.digits, descending, hot, run.row(kOsHist), status.get(), nullptr, probe);
}

template <class K>
Status pass_on_rows(stepped::StepRun& run, const OnesweepProbe& probe, const OnesweepShape& sh, bool descending,
                    int hot, DeviceBuffer<std::uint32_t>& status) {
  if (sh.block == 32) return pass_on_rows<K, 32>(run, probe, sh, descending, hot, status);
  if (sh.block == 64) return pass_on_rows<K, 64>(run, probe, sh, descending, hot, status);
  return Status::InvalidArgument;
}

}  // namespace

Result cuda_radix_onesweep(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                           DeviceTraceView out) {
  const OnesweepShape sh = onesweep_shape(cfg.n, cfg.block, cfg.bins, cfg.digit_start);
  stepped::StepRun run(t, out,
                       {kOsKey, kOsDigit, kOsPeers, kOsRank, kOsExchange, kOsSHist, kOsCounts, kOsFlag, kOsValue,
                        kOsBase, kOsEvent});
  std::vector<std::uint32_t> state0 = stepped::initial_state(t, input, {kOsIn});
  onesweep_unset_rows(state0.data(), t.width);
  run.upload_initial(state0);
  if (!run.ok()) return run.finish(Status::Success);
  try {
    DeviceBuffer<unsigned> clock(1);
    DeviceBuffer<std::uint32_t> status;
    if (!PRIMLAB_STEPPED_CHECK(run, cudaMemset(clock.get(), 0, clock.bytes()))) return run.finish(Status::Success);
    OnesweepProbe probe;
    static_cast<stepped::RecordingProbe&>(probe) = run.probe();
    probe.clock = clock.get();
    probe.sh = sh;
    const OsCodec codec = os_codec(cfg.type, cfg.descending);
    probe.enc0 = codec.enc0;
    probe.enc1 = codec.enc1;
    const int hot = onesweep_hot_digit(sh, codec, input);
    Status s = Status::InvalidArgument;
    if (t.type == ElemType::F32) s = pass_on_rows<float>(run, probe, sh, cfg.descending, hot, status);
    else if (t.type == ElemType::U32) s = pass_on_rows<std::uint32_t>(run, probe, sh, cfg.descending, hot, status);
    else s = pass_on_rows<std::int32_t>(run, probe, sh, cfg.descending, hot, status);
    return run.finish(s);  // while `clock` and the look-back words live: finish waits for the kernels
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }
}

}  // namespace primlab::steppers
