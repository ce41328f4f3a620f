// The two CUDA forms of bitonic-sort, both running bitonic_sort.cuh: the timed form (the catalog's
// TimedArgs, uint32 keys ascending, NoProbe) and the stepped form (the recording probe over the
// trace's rows: the workspace is the keys row and, for key-value sorts, the index row).
#include <cstring>

#include "lab/algorithms/bitonic/tiled/bitonic_sort.cuh"
#include "lab/algorithms/bitonic/tiled/bitonic_sort_steps.h"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"
#include "lab/run/timed_args.cuh"

namespace primlab::steppers {

std::size_t timed_bytes_bitonic_sort(const TimedArgs& a) {
  return a.type == "u32" ? lab::bitonic::bitonic_sort_workspace_bytes<std::uint32_t>(a.n, timed::block_of(a)) : 0;
}

Status timed_bitonic_sort(const TimedArgs& a) {
  if (a.type != "u32") return Status::InvalidArgument;
  return lab::bitonic::bitonic_sort(static_cast<const std::uint32_t*>(a.d_in), static_cast<std::uint32_t*>(a.d_out),
                                    nullptr, a.n, timed::block_of(a), timed::workspace_of(a), timed::stream_of(a));
}

namespace {

template <class K, bool kDescending, bool kPairs>
Status run_sort(stepped::StepRun& run, const lab::bitonic::RowIds& r, const std::uint32_t* d_in, std::uint32_t* d_out,
                const Trace& t) {
  // The workspace runs from the keys row to the index row (key-value) or is the keys row alone.
  const int last_row = kPairs ? r.values : kRowMain;
  const Workspace ws{run.row(kRowMain), std::size_t(last_row + 1) * std::size_t(t.width) * 4};
  return lab::bitonic::bitonic_sort<K, kDescending, kPairs>(
      reinterpret_cast<const K*>(d_in), reinterpret_cast<K*>(d_out),
      kPairs ? reinterpret_cast<std::int32_t*>(d_out + t.n) : nullptr, t.n, t.block, ws, nullptr, run.probe());
}

}  // namespace

Result cuda_bitonic_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,
                         DeviceTraceView out) {
  const lab::bitonic::RowIds r(cfg.key_value);
  stepped::StepRun run(t, out, {r.shared, r.shared_values >= 0 ? r.shared_values : r.shared});
  // The kernels name the key-value trace's rows; a keys-only trace has its shared keys where the
  // index row would be.
  static_assert(int(lab::bitonic::kIndex) == kStdRows && int(lab::bitonic::kSharedKeys) == kStdRows + 1, "");
  if (!cfg.key_value) run.map_rows({kRowMain, kRowTouch, kRowOwner, -1, r.shared, -1});
  run.upload_initial(stepped::initial_state(t, input, {kRowMain}));
  if (!run.ok()) return run.finish(Status::Success);
  DeviceBuffer<std::uint32_t> d_in(input.size()), d_out(2 * input.size());  // the keys, then the indices
  if (!PRIMLAB_STEPPED_CHECK(run, cudaMemcpy(d_in.get(), input.data(), d_in.bytes(), cudaMemcpyHostToDevice)))
    return run.finish(Status::Success);
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using K = decltype(x);
    if (cfg.key_value)
      return cfg.descending ? run_sort<K, true, true>(run, r, d_in.get(), d_out.get(), t)
                            : run_sort<K, false, true>(run, r, d_in.get(), d_out.get(), t);
    return cfg.descending ? run_sort<K, true, false>(run, r, d_in.get(), d_out.get(), t)
                          : run_sort<K, false, false>(run, r, d_in.get(), d_out.get(), t);
  });
  return run.finish(s);
}

}  // namespace primlab::steppers
