// The timed form of the lecture's reductions: reduce_lecture.cuh with the catalog's TimedArgs and
// NoProbe. The stepped form runs the same host code in reduce_lecture_stepped.cu, an object of its
// own so that only it takes the lab's register cap (kernels/lab/CMakeLists.txt).
#include "lab/algorithms/reduce/lecture/reduce_lecture.cuh"
#include "lab/algorithms/reduce/reduce_rows.h"
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

}  // namespace primlab::steppers
