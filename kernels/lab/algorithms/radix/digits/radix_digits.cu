// The stepped CUDA form of radix-digits: radix_digits.cuh run with the recording probe over the
// trace's rows (the keys and values in, alt and out rows, the counts, offsets and the scan's sums are
// the host code's arrays; each launch names its own rows, since a pass reads and writes other rows
// than the last and the scan's levels run on parts of the sums row). radix-digits has no timed form.
#include "lab/algorithms/radix/digits/radix_digits.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab::radix;

template <class K, bool kDescending, bool kPairs>
Status run_sort(stepped::StepRun& run, const DigitRows& r, const StepConfig& cfg, const Trace& t) {
  using V = std::uint32_t;  // the values are the keys' indices in the input
  auto row = [&](int kernel_row) { return r[kernel_row] >= 0 ? run.row(r[kernel_row]) : nullptr; };
  const DigitsArrays<K, V> a{reinterpret_cast<K*>(row(kDigitsAlt)), row(kDigitsValuesAlt), row(kDigitsCounts),
                             row(kDigitsOffsets), row(kDigitsSums)};
  return radix_digits_sort<K, V, kDescending, kPairs>(
      reinterpret_cast<const K*>(row(kDigitsIn)), reinterpret_cast<K*>(row(kDigitsOut)), row(kDigitsValuesIn),
      row(kDigitsValuesOut), t.n, t.block, cfg.digit_bits, a, nullptr, run.probe());
}

}  // namespace

Result cuda_radix_digits(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                         DeviceTraceView out) {
  static_assert(kKernelRows == stepped::kMaxRows, "");
  const DigitShape s(cfg.n, cfg.block, cfg.digit_bits);
  const DigitRows r(cfg.key_value);
  stepped::StepRun run(t, out, {r[kDigitsSortable], r[kDigitsDigit], r[kDigitsTemp], r[kDigitsDest]});
  // The rows of each launch, in the host code's order: per pass the histogram (in = the pass's
  // source), the scan's launches, the scatter (in, out and their values).
  LaunchRows base = identity_rows(0);
  for (int k = 0; k < kDigitsRows; ++k) base.rows[k] = std::int8_t(r[k]);
  std::vector<LaunchRows> launches;
  int src = kDigitsIn, vsrc = kDigitsValuesIn;
  for (int p = 0; p < s.passes; ++p) {
    const bool to_out = (s.passes - 1 - p) % 2 == 0;
    const int dst = to_out ? kDigitsOut : kDigitsAlt, vdst = to_out ? kDigitsValuesOut : kDigitsValuesAlt;
    LaunchRows maps = base;
    maps.rows[kDigitsIn] = std::int8_t(r[src]);
    launches.push_back(maps);
    scan_launch_rows(launches, base, s.C, cfg.block, r[kDigitsCounts], r[kDigitsOffsets], r[kDigitsTemp],
                     r[kDigitsSums]);
    maps.rows[kDigitsOut] = std::int8_t(r[dst]);
    maps.rows[kDigitsValuesIn] = std::int8_t(r[vsrc]);
    maps.rows[kDigitsValuesOut] = std::int8_t(r[vdst]);
    launches.push_back(maps);
    src = dst;
    vsrc = vdst;
  }
  run.on_launch = [&](int l, stepped::RecordingProbe& p) {
    if (l >= int(launches.size())) return;  // StepRun::finish reports the launch count
    std::copy(launches[std::size_t(l)].rows, launches[std::size_t(l)].rows + kKernelRows, p.rows);
    std::copy(launches[std::size_t(l)].at, launches[std::size_t(l)].at + kKernelRows, p.at);
  };
  std::vector<std::uint32_t> state0 = stepped::initial_state(t, input, {kRowMain});
  if (cfg.key_value)
    for (std::int32_t i = 0; i < cfg.n; ++i) state0[std::size_t(r[kDigitsValuesIn]) * t.width + i] = std::uint32_t(i);
  run.upload_initial(state0);
  if (!run.ok()) return run.finish(Status::Success);
  const Status st = stepped::on_elem_type(t.type, [&](auto x) {
    using K = decltype(x);
    if (cfg.key_value)
      return cfg.descending ? run_sort<K, true, true>(run, r, cfg, t) : run_sort<K, false, true>(run, r, cfg, t);
    return cfg.descending ? run_sort<K, true, false>(run, r, cfg, t) : run_sort<K, false, false>(run, r, cfg, t);
  });
  return run.finish(st);
}

}  // namespace primlab::steppers
