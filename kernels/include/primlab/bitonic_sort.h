// Bitonic sort: one array of any length (padded inside to the next power of two without extra
// memory), and a batch of equal-sized segments (each sorted on its own, entirely in shared
// memory and registers: the case where bitonic networks shine). Keys or key-value pairs;
// ascending or descending; not stable (equal keys may swap, values with them).
// Key order as in primlab/radix_sort.h (floats by their flipped bits: -NaN < -inf < -0.0 <
// +0.0 < +inf < +NaN). K: uint32, int32, float, uint64, int64, double; V: the same six.
// Conventions: see primlab/ops.h (the workspace query returns 0 today; call it anyway).
// d_keys_in may equal d_keys_out (and values likewise). Example:
//   primlab::bitonic_sort_segments_keys(d_in, d_out, num_segments, 1024,
//                                       primlab::SortOrder::Ascending, {nullptr, 0}, stream);
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/radix_sort.h"  // SortOrder
#include "primlab/status.h"

namespace primlab {

// The longest segment bitonic_sort_segments_* takes.
constexpr int kBitonicMaxSegment = 4096;

// One array of n <= 2^31 - 1 elements (else Unsupported).
template <class K>
std::size_t bitonic_sort_keys_workspace_bytes(std::int64_t n);
template <class K>
Status bitonic_sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t n, SortOrder order, Workspace ws,
                         cudaStream_t stream);
template <class K, class V>
std::size_t bitonic_sort_pairs_workspace_bytes(std::int64_t n);
template <class K, class V>
Status bitonic_sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t n,
                          SortOrder order, Workspace ws, cudaStream_t stream);

// num_segments segments of segment_size elements each, stored back to back; segment s is
// [s * segment_size, (s + 1) * segment_size). 0 <= segment_size <= kBitonicMaxSegment, else
// InvalidArgument.
template <class K>
std::size_t bitonic_sort_segments_keys_workspace_bytes(std::int64_t num_segments, int segment_size);
template <class K>
Status bitonic_sort_segments_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_segments, int segment_size,
                                  SortOrder order, Workspace ws, cudaStream_t stream);
template <class K, class V>
std::size_t bitonic_sort_segments_pairs_workspace_bytes(std::int64_t num_segments, int segment_size);
template <class K, class V>
Status bitonic_sort_segments_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                   std::int64_t num_segments, int segment_size, SortOrder order, Workspace ws,
                                   cudaStream_t stream);

}  // namespace primlab
