// Stable radix partition: keys (or key-value pairs) grouped by a digit, bits
// [begin_bit, begin_bit + num_bits) of the key's radix-ordered image (see primlab/radix_sort.h),
// into 2^num_bits partitions (2 to 4096), each keeping the input order, with the partition
// offsets: partition p is [d_offsets[p], d_offsets[p + 1]), d_offsets has 2^num_bits + 1
// entries, d_offsets[0] = 0 and d_offsets[2^num_bits] = n. The building block of a partitioned
// hash join and of a multi-GPU sort. Up to 8 bits it is one Onesweep pass after one histogram
// read (12 bytes per u32 key); 9 to 12 bits take two passes.
// Conventions: see primlab/ops.h. Example:
//   std::size_t bytes = primlab::radix_partition_keys_workspace_bytes<std::uint32_t>(n, 8);
//   primlab::DeviceBuffer<unsigned char> ws(bytes);
//   primlab::radix_partition_keys(d_in, d_out, d_offsets, n, 0, 8, {ws.get(), bytes}, stream);
// K: uint32, int32, float, uint64, int64, double; V: the same six. 1 <= num_bits <= 12 and
// begin_bit >= 0 and begin_bit + num_bits <= 8 * sizeof(K), else InvalidArgument. n <= 2^31 - 1
// (else Unsupported). d_keys_out must not overlap d_keys_in (nor values).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/status.h"

namespace primlab {

constexpr int kRadixPartitionMaxBits = 12;

template <class K>
std::size_t radix_partition_keys_workspace_bytes(std::int64_t n, int num_bits);

template <class K>
Status radix_partition_keys(const K* d_keys_in, K* d_keys_out, std::uint32_t* d_offsets, std::int64_t n,
                            int begin_bit, int num_bits, Workspace ws, cudaStream_t stream);

template <class K, class V>
std::size_t radix_partition_pairs_workspace_bytes(std::int64_t n, int num_bits);

template <class K, class V>
Status radix_partition_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                             std::uint32_t* d_offsets, std::int64_t n, int begin_bit, int num_bits, Workspace ws,
                             cudaStream_t stream);

}  // namespace primlab
