// Device-wide prefix scan (inclusive, exclusive) of int32, uint32, float, int64 and double,
// with Sum, Min or Max: a single-pass decoupled look-back scan (reads n, writes n).
// Conventions: see primlab/ops.h. In-place (d_out == d_in) is allowed. Example:
//   std::size_t bytes = primlab::scan_workspace_bytes<std::uint32_t>(n);
//   primlab::DeviceBuffer<unsigned char> ws(bytes);
//   primlab::exclusive_scan(d_in, d_out, n, 0u, primlab::Sum{}, {ws.get(), bytes}, stream);
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/ops.h"
#include "primlab/status.h"

namespace primlab {

// Bytes of workspace a scan of n elements of T needs (independent of operator and order).
template <class T>
std::size_t scan_workspace_bytes(std::int64_t n);

// out[i] = in[0] op ... op in[i].
template <class T, class Op>
Status inclusive_scan(const T* d_in, T* d_out, std::int64_t n, Op op, Workspace ws,
                      cudaStream_t stream);

// out[0] = init, out[i] = init op in[0] op ... op in[i-1].
template <class T, class Op>
Status exclusive_scan(const T* d_in, T* d_out, std::int64_t n, T init, Op op, Workspace ws,
                      cudaStream_t stream);

}  // namespace primlab
