// Single-pass prefix scan with decoupled look-back (Merrill & Garland 2016): reads n, writes n.
// Scans of at most one cluster of tiles run as one cluster on Hopper, with no workspace to clear;
// scans of at most one resident wave of tiles clear it in a cooperative launch.
#include <cstdint>

#include "device/scan_dispatch.cuh"
#include "tuning/scan.cuh"
#include "primlab/scan.h"

namespace primlab {

// [SECTION] Public entry points
template <class T>
std::size_t scan_workspace_bytes(std::int64_t n) {
  return detail::scan_state_bytes<detail::ScanTuning<T>, T>(n);
}

template <class T, class Op>
Status inclusive_scan(const T* d_in, T* d_out, std::int64_t n, Op op, Workspace ws,
                      cudaStream_t stream) {
  return detail::scan_dispatch<detail::ScanTuning<T>, T, Op, false>(d_in, d_out, n, Op::template identity<T>(),
                                                                    op, ws, stream);
}

template <class T, class Op>
Status exclusive_scan(const T* d_in, T* d_out, std::int64_t n, T init, Op op, Workspace ws,
                      cudaStream_t stream) {
  return detail::scan_dispatch<detail::ScanTuning<T>, T, Op, true>(d_in, d_out, n, init, op, ws, stream);
}

#define PRIMLAB_SCAN_INSTANTIATE(T, OP)                                                        \
  template Status inclusive_scan<T, OP>(const T*, T*, std::int64_t, OP, Workspace,            \
                                        cudaStream_t);                                         \
  template Status exclusive_scan<T, OP>(const T*, T*, std::int64_t, T, OP, Workspace,         \
                                        cudaStream_t);
#define PRIMLAB_SCAN_INSTANTIATE_TYPE(T)                  \
  template std::size_t scan_workspace_bytes<T>(std::int64_t); \
  PRIMLAB_SCAN_INSTANTIATE(T, Sum)                        \
  PRIMLAB_SCAN_INSTANTIATE(T, Min)                        \
  PRIMLAB_SCAN_INSTANTIATE(T, Max)

PRIMLAB_SCAN_INSTANTIATE_TYPE(std::int32_t)
PRIMLAB_SCAN_INSTANTIATE_TYPE(std::uint32_t)
PRIMLAB_SCAN_INSTANTIATE_TYPE(float)
PRIMLAB_SCAN_INSTANTIATE_TYPE(std::int64_t)
PRIMLAB_SCAN_INSTANTIATE_TYPE(double)

}  // namespace primlab
