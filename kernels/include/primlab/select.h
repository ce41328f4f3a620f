// Stream compaction: keep the elements a predicate or a flag selects, in order, and count them.
// Types: int32, uint32, float, int64, double. Predicates: LessThan, GreaterEqual, NotEqual
// (primlab/ops.h). Single pass with decoupled look-back (reads n, writes what is kept).
// Conventions: see primlab/ops.h. d_out must not overlap d_in. Example:
//   std::size_t bytes = primlab::select_workspace_bytes<float>(n);
//   primlab::select_if(d_in, d_out, d_count, n, primlab::LessThan<float>{0.5f}, ws, stream);
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/ops.h"
#include "primlab/status.h"

namespace primlab {

template <class T>
std::size_t select_workspace_bytes(std::int64_t n);

// Writes the x of d_in with pred(x) to d_out in order, and their number to *d_num_selected
// (a device int64_t).
template <class T, class Pred>
Status select_if(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t n, Pred pred,
                 Workspace ws, cudaStream_t stream);

// Writes d_in[i] for every i with d_flags[i] != 0, in order, and their number.
template <class T>
Status select_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out,
                      std::int64_t* d_num_selected, std::int64_t n, Workspace ws,
                      cudaStream_t stream);

}  // namespace primlab
