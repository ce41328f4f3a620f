// Device-wide LSD radix sort (Onesweep): keys, or key-value pairs; stable; ascending or
// descending; over a bit range of the key. One histogram pass reads the keys once, then one
// pass per 8-bit digit reads and writes them with a decoupled look-back over tile digit counts.
// Conventions: see primlab/ops.h. Example:
//   std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<float>(n);
//   primlab::DeviceBuffer<unsigned char> ws(bytes);
//   primlab::radix_sort_keys(d_in, d_out, n, primlab::SortOrder::Ascending, 0, 32,
//                            {ws.get(), bytes}, stream);
//
// Key order: integers by value; floats in the total order of their flipped bits, that is
// -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN (a NaN's sign bit decides its end; the
// usual quiet NaN from 0.0/0.0 on the GPU is +NaN, last in ascending order). Descending order
// is the exact reverse of that order, and still stable (equal keys keep their input order).
// The bit range [begin_bit, end_bit) selects bits of that radix-ordered image (for floats the
// flipped bits, for signed integers the bits with the sign bit flipped); keys equal on the range
// keep their input order. 0 <= begin_bit <= end_bit <= 8 * sizeof(K), else InvalidArgument.
// K: uint32, int32, float, uint64, int64, double. V: any of those six (values move untouched).
// n <= 2^31 - 1 (else Unsupported). d_keys_in may equal d_keys_out (and values likewise); the
// inputs are otherwise left unchanged.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/status.h"

namespace primlab {

enum class SortOrder { Ascending, Descending };

// Bytes of workspace radix_sort_keys needs for n keys (any bit range and order).
template <class K>
std::size_t radix_sort_keys_workspace_bytes(std::int64_t n);

template <class K>
Status radix_sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t n, SortOrder order,
                       int begin_bit, int end_bit, Workspace ws, cudaStream_t stream);

// Bytes of workspace radix_sort_pairs needs for n pairs (any bit range and order).
template <class K, class V>
std::size_t radix_sort_pairs_workspace_bytes(std::int64_t n);

template <class K, class V>
Status radix_sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                        std::int64_t n, SortOrder order, int begin_bit, int end_bit, Workspace ws,
                        cudaStream_t stream);

}  // namespace primlab
