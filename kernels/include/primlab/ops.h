// Operator and predicate functors of the fast primitives (usable on host and device).
//
// API conventions of the primlab fast library (every primitive follows them):
//  - Device pointers start with d_; counts are std::int64_t (up to at least 2^31 - 1, in
//    practice what fits in memory); a negative count is InvalidArgument.
//  - Two calls per primitive: `<prim>_workspace_bytes<T>(n, ...)` returns the bytes of
//    device workspace the run needs (0 is possible), then the run takes a
//    primlab::Workspace {ptr, bytes} the caller owns. Nothing is allocated per call.
//    A workspace smaller than the query is WorkspaceTooSmall; ws.ptr may be null only when
//    the query returned 0.
//  - The stream comes last; every run is asynchronous on it and returns a primlab::Status.
//    Null data pointers with n > 0 are InvalidArgument; n == 0 writes only the scalar
//    outputs (a reduction's identity, a count of 0, a zeroed histogram).
//  - Templates are declared in the .h and explicitly instantiated in the library for the
//    listed types and functors: callers include the .h (plain C++) and link `primlab`.
#pragma once
#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define PRIMLAB_HD __host__ __device__ __forceinline__
#else
#define PRIMLAB_HD inline
#endif

namespace primlab {
namespace detail {
// The identities of Min and Max as constants: a constexpr variable's value may be used in device
// code, where numeric_limits' functions (host-only) may not without --expt-relaxed-constexpr.
template <class T>
inline constexpr T kHighest = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                                   : std::numeric_limits<T>::max();
template <class T>
inline constexpr T kLowest = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                                  : std::numeric_limits<T>::lowest();
}  // namespace detail

// Associative binary operators. Min and Max propagate NaN (any NaN operand gives NaN), which
// keeps them associative on floats, so a scan or reduce is defined on every input.
struct Sum {
  template <class T> PRIMLAB_HD T operator()(T a, T b) const { return a + b; }
  template <class T> static PRIMLAB_HD T identity() { return T(0); }
};
struct Min {
  template <class T> PRIMLAB_HD T operator()(T a, T b) const { return (b < a || b != b) ? b : a; }
  template <class T> static PRIMLAB_HD T identity() { return detail::kHighest<T>; }
};
struct Max {
  template <class T> PRIMLAB_HD T operator()(T a, T b) const { return (a < b || b != b) ? b : a; }
  template <class T> static PRIMLAB_HD T identity() { return detail::kLowest<T>; }
};

// Selection predicates (compaction keeps x where pred(x) is true; NaN compares false).
template <class T> struct LessThan {
  T value;
  PRIMLAB_HD bool operator()(T x) const { return x < value; }
};
template <class T> struct GreaterEqual {
  T value;
  PRIMLAB_HD bool operator()(T x) const { return x >= value; }
};
template <class T> struct NotEqual {
  T value;
  PRIMLAB_HD bool operator()(T x) const { return x != value; }
};

}  // namespace primlab
