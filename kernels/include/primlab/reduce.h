// Device-wide reduction (sum, min, max) of int32, uint32, float, int64 and double.
// Conventions: see primlab/ops.h. Example:
//   std::size_t bytes = primlab::reduce_workspace_bytes<float>(n);
//   primlab::DeviceBuffer<unsigned char> ws(bytes);
//   primlab::reduce(d_in, d_out, n, primlab::Sum{}, {ws.get(), bytes}, stream);
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/ops.h"
#include "primlab/status.h"

namespace primlab {

// Bytes of workspace reduce() needs for n elements of T (independent of the operator).
template <class T>
std::size_t reduce_workspace_bytes(std::int64_t n);

// *d_out = in[0] op in[1] op ... op in[n-1]; *d_out = Op identity when n == 0.
// Op: Sum, Min or Max. Float sums are not bitwise deterministic across grid shapes.
template <class T, class Op>
Status reduce(const T* d_in, T* d_out, std::int64_t n, Op op, Workspace ws, cudaStream_t stream);

}  // namespace primlab
