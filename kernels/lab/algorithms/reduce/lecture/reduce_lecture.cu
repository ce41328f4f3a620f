// The two CUDA forms of the lecture's reductions, both running reduce_lecture.cuh: the timed form
// (the catalog's TimedArgs, NoProbe) and the stepped form (the recording probe over the trace's
// rows: x is the input, buf[0] and buf[1] the workspace, d_out the sum; each launch maps the
// kernel's `in` and `out` to the rows its pass reads and writes).
#include "lab/algorithms/reduce/lecture/reduce_lecture.cuh"
#include "lab/algorithms/reduce/stepped_sum.cuh"
#include "lab/run/recording_probe.cuh"
#include "lab/run/steppers.h"
#include "lab/run/timed_args.cuh"

namespace primlab::steppers {
namespace {

// [SECTION] The catalog's timed form: TimedArgs in, Status out
Status timed_lecture(int variant, const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return lab::reduce_lecture(variant, static_cast<const T*>(a.d_in), static_cast<T*>(a.d_scalar), a.n,
                               timed::block_of(a), timed::items_of(a), timed::workspace_of(a), timed::stream_of(a));
  });
}

// All six share one workspace: two ping-pong arrays of per-block partial sums.
std::size_t timed_lecture_bytes(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return lab::reduce_lecture_workspace_bytes<decltype(x)>(a.n, timed::block_of(a));
  });
}

// [SECTION] The stepped form
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

std::size_t timed_bytes_reduce1(const TimedArgs& a) { return timed_lecture_bytes(a); }
std::size_t timed_bytes_reduce2(const TimedArgs& a) { return timed_lecture_bytes(a); }
std::size_t timed_bytes_reduce3(const TimedArgs& a) { return timed_lecture_bytes(a); }
std::size_t timed_bytes_reduce4(const TimedArgs& a) { return timed_lecture_bytes(a); }
std::size_t timed_bytes_reduce5(const TimedArgs& a) { return timed_lecture_bytes(a); }
std::size_t timed_bytes_reduce_shuffle(const TimedArgs& a) { return timed_lecture_bytes(a); }

Status timed_reduce1(const TimedArgs& a) { return timed_lecture(reduce::kReduce1, a); }
Status timed_reduce2(const TimedArgs& a) { return timed_lecture(reduce::kReduce2, a); }
Status timed_reduce3(const TimedArgs& a) { return timed_lecture(reduce::kReduce3, a); }
Status timed_reduce4(const TimedArgs& a) { return timed_lecture(reduce::kReduce4, a); }
Status timed_reduce5(const TimedArgs& a) { return timed_lecture(reduce::kReduce5, a); }
Status timed_reduce_shuffle(const TimedArgs& a) { return timed_lecture(reduce::kShuffle, a); }

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
