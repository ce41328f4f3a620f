// The stepped form of reduce7: reduce7.cuh's host code with the recording probe over the trace's
// rows, about log2(n) items a thread (x is the input, buf[0] and buf[1] the workspace, d_out the
// sum; each launch maps the kernel's `in` and `out` to the rows its pass reads and writes).
#include "lab/algorithms/reduce/reduce7/reduce7.cuh"
#include "lab/algorithms/reduce/stepped_sum.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {

Result cuda_reduce7(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  using namespace lab;
  const reduce::Layout L = reduce::reduce7_layout(t.n, t.block);
  const int items = reduce::reduce7_items(t.n);
  const int sum = kStdRows, shared = kStdRows + 1;  // the registers `sum`, sdata[]
  stepped::StepRun run(t, out, {sum, shared});
  run.upload_initial(stepped::initial_state(t, input, {kRowMain}));
  if (!run.ok()) return run.finish(Status::Success);
  run.map_rows({kRowMain, L.out, shared, sum});
  run.on_launch = [&L](int launch, stepped::RecordingProbe& p) {
    p.rows[kReduceIn] = std::int8_t(L.passes[std::size_t(launch)].in_row);
    p.rows[kReduceOut] = std::int8_t(L.passes[std::size_t(launch)].out_row);
  };
  DeviceBuffer<std::uint32_t> scratch;
  const Workspace ws =
      reduce::stepped_workspace(run, L, t, reduce_passes_bytes<std::uint32_t>(t.n, t.block, items / 2), scratch);
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using T = decltype(x);
    return reduce7_sum(run.row_as<const T>(kRowMain), run.row_as<T>(L.out), t.n, t.block, ws, nullptr, items,
                       run.probe());
  });
  if (Result r = run.finish(s); !r.ok()) return r;
  return reduce::label_with_sum(t, out);
}

}  // namespace primlab::steppers
