// What the histograms' CUDA forms (<algo>.cu) share: the timed form's adapter from the catalog's
// TimedArgs (histogram_even's bins over [lower, upper) of uint8 or uint32 samples) and the stepped
// form's choice of the samples' C++ type.
#pragma once
#include <cstdint>

#include "lab/algorithms/histogram/bins_and_rows.h"
#include "lab/run/timed_args.cuh"
#include "primlab/histogram.h"

namespace primlab::lab {

// Calls run(d_in, d_hist, DivBinner<T>) with T the samples' type (uint8 or uint32); InvalidArgument
// for another type or for levels that give no bins of a 32-bit range.
template <class F>
Status timed_histogram(const TimedArgs& a, F&& run) {
  return timed::on_type<std::uint8_t, std::uint32_t>(a, Status::InvalidArgument, [&](auto x) {
    using T = decltype(x);
    const auto lower = histogram_level_t<T>(a.lower), upper = histogram_level_t<T>(a.upper);
    if (!(lower < upper)) return Status::InvalidArgument;
    const std::uint64_t range = std::uint64_t(std::int64_t(upper) - std::int64_t(lower));
    if (range > (std::uint64_t(1) << 32)) return Status::InvalidArgument;
    return run(static_cast<const T*>(a.d_in), static_cast<std::uint32_t*>(a.d_out),
               DivBinner<T>{std::int64_t(lower), range, a.bins});
  });
}

// Calls f(T{}) with T the C++ type of the trace's samples: uint32 or int32 (the plans refuse floats).
template <class F>
auto on_sample_type(ElemType t, F&& f) {
  return t == ElemType::U32 ? f(std::uint32_t{}) : f(std::int32_t{});
}

}  // namespace primlab::lab
