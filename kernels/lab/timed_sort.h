// The seeds' sorting lessons at large n, timed beside the fast path by the bench and the
// performance tab (conventions of lab/timed.h: a size query, a caller-owned workspace,
// int64 counts, the block size, the stream last, a Status back). uint32 keys, ascending.
// Correct on every input, meant to show how far each idea goes, not to be fast.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/status.h"

namespace primlab::teaching {

// The course report's 1-bit split radix sort: a max reduction finds the number of bits to sort
// (the stream is synchronised once to read it back, as the report does on the host), then per
// bit: the b and f arrays (bit, flipped bit), an exclusive work-efficient shared-memory scan of f,
// totalFalses = f_scan[n-1] + f[n-1], and the scatter to f_scan[i] (bit 0) or
// i - f_scan[i] + totalFalses (bit 1), ping-ponging between d_out and the workspace.
// block: threads per block, a power of two in [32, 1024]. n <= 2^31 - 1.
std::size_t split_radix_sort_workspace_bytes(std::int64_t n, int block);
Status split_radix_sort(const std::uint32_t* d_in, std::uint32_t* d_out, std::int64_t n, int block, Workspace ws,
                        cudaStream_t stream);

// The lecture's bitonic sort: bitonicSortShared sorts 2 * block elements per block in shared
// memory with alternating directions, then each larger stage runs its strides >= 2 * block as
// global passes (one launch per stride) and the rest as one shared-memory merge per stage.
// The input is padded with UINT32_MAX to a power of two in the workspace.
// block: threads per block, a power of two in [32, 1024]. n <= 2^31 - 1.
std::size_t bitonic_global_sort_workspace_bytes(std::int64_t n, int block);
Status bitonic_global_sort(const std::uint32_t* d_in, std::uint32_t* d_out, std::int64_t n, int block, Workspace ws,
                           cudaStream_t stream);

}  // namespace primlab::teaching
