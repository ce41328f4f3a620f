// The timed form of reduce7: reduce7.cuh with the catalog's TimedArgs (its items per thread) and
// NoProbe. The stepped form runs the same host code in reduce7_stepped.cu, an object of its own so
// that only it takes the lab's register cap (kernels/lab/CMakeLists.txt).
#include "lab/algorithms/reduce/reduce7/reduce7.cuh"
#include "lab/run/steppers.h"
#include "lab/run/timed_args.cuh"

namespace primlab::steppers {

std::size_t timed_bytes_reduce7(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, std::size_t(0), [&](auto x) {
    return lab::reduce_passes_bytes<decltype(x)>(a.n, timed::block_of(a), (timed::items_of(a) + 1) / 2);
  });
}

Status timed_reduce7(const TimedArgs& a) {
  return timed::on_type<std::int32_t, std::uint32_t, float>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    return lab::reduce7_sum(static_cast<const T*>(a.d_in), static_cast<T*>(a.d_scalar), a.n, timed::block_of(a),
                            timed::workspace_of(a), timed::stream_of(a), timed::items_of(a));
  });
}

}  // namespace primlab::steppers
