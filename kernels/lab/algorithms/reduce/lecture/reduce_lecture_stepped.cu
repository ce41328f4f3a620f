// The stepped form of the lecture's reductions: reduce_lecture.cuh's host code with the recording
// probe over the trace's rows (x is the input, buf[0] and buf[1] the workspace, d_out the sum; each
// launch maps the kernel's `in` and `out` to the rows its pass reads and writes).
#include "lab/algorithms/reduce/lecture/reduce_lecture.cuh"
#include "lab/algorithms/reduce/stepped_sum.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {

Result cuda_lecture(int variant, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out) {
  using namespace lab;
  const reduce::Layout L = reduce::lecture_layout(variant, t.n, t.block);
  // Rows after the standard ones: sdata[] (tree kernels), or v and s_warp[] (the shuffle).
  const bool shuffle = variant == reduce::kShuffle, warp_sums = shuffle && t.block > 32;
  const int own = kStdRows;
  stepped::StepRun run(t, out, {own, warp_sums ? own + 1 : own});
  run.upload_initial(stepped::initial_state(t, input, {kRowMain}));
  if (!run.ok()) return run.finish(Status::Success);
  run.map_rows({kRowMain, L.out, shuffle ? -1 : own, shuffle ? own : -1, warp_sums ? own + 1 : -1});
  run.on_launch = [&L](int launch, stepped::RecordingProbe& p) {
    p.rows[kReduceIn] = std::int8_t(L.passes[std::size_t(launch)].in_row);
    p.rows[kReduceOut] = std::int8_t(L.passes[std::size_t(launch)].out_row);
  };
  DeviceBuffer<std::uint32_t> scratch;
  const Workspace ws =
      reduce::stepped_workspace(run, L, t, reduce_lecture_workspace_bytes<std::uint32_t>(t.n, t.block), scratch);
  const Status s = stepped::on_elem_type(t.type, [&](auto x) {
    using T = decltype(x);
    return reduce_lecture(variant, run.row_as<const T>(kRowMain), run.row_as<T>(L.out), t.n, t.block,
                          reduce::kShuffleItems, ws, nullptr, run.probe());
  });
  if (Result r = run.finish(s); !r.ok()) return r;
  return reduce::label_with_sum(t, out);
}

}  // namespace

Result cuda_reduce1(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_lecture(reduce::kReduce1, in, t, o);
}
Result cuda_reduce2(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_lecture(reduce::kReduce2, in, t, o);
}
Result cuda_reduce3(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_lecture(reduce::kReduce3, in, t, o);
}
Result cuda_reduce4(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_lecture(reduce::kReduce4, in, t, o);
}
Result cuda_reduce5(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_lecture(reduce::kReduce5, in, t, o);
}
Result cuda_reduce_shuffle(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView o) {
  return cuda_lecture(reduce::kShuffle, in, t, o);
}

}  // namespace primlab::steppers
