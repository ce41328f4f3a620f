// Stream compaction (seeds 001, 002): the map and scatter kernels and the host code that launches
// them, written once: the stepped form runs them with the lab's recording probe and the Step tab
// lists this file (the row has no timed form). The exclusive scan of the flags between them is a
// scan of the catalog's scan family, run as that row runs (compact.cu), its listing after this one.
#pragma once
#include <cstdint>
#include <type_traits>

#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// The rows the kernels name: the input x, the flags, their scan idx, the output and the count (the
// stepped form maps out and count past the scan's own rows).
enum CompactRow : int {
  kCompactX = kRowMain,
  kCompactFlags = kStdRows,
  kCompactIdx,
  kCompactOut,
  kCompactCount,
};

// listing: compact
// keep(v): non-zero (predicate 0), even (1) or greater than the threshold (2).
template <class T>
__device__ __forceinline__ bool keep(T v, int predicate, std::int32_t threshold) {
  if (predicate == 1) {
    if constexpr (std::is_floating_point_v<T>) return fmodf(v, 2.0f) == 0.0f;
    else return (v & 1) == 0;
  }
  if (predicate == 2) return v > T(threshold);
  return v != T(0);
}

template <class T, class Probe>
__global__ void map_to_flags(const T* __restrict__ x, std::int32_t* __restrict__ flags, std::int64_t n, int predicate,
                             std::int32_t threshold, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i >= n) return;
  flags[i] = keep(x[i], predicate, threshold) ? 1 : 0;  // step: map
  probe.op(0, OpKind::Move, kCompactX, i, kCompactFlags, i);
  probe.count(kGlobalRead, sizeof(T));
  probe.count(kGlobalWrite, sizeof(std::int32_t));
}

// Each kept element goes to its scanned index.
template <class T, class Probe>
__global__ void scatter(const T* __restrict__ x, const std::int32_t* __restrict__ flags,
                        const std::int32_t* __restrict__ idx, T* __restrict__ out, std::int64_t n, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n && flags[i] != 0);
  probe.count(kGlobalRead, i < n ? sizeof(std::int32_t) : 0);
  if (i < n && flags[i] != 0) {
    out[idx[i]] = x[i];  // step: scatter
    probe.op(0, OpKind::Move, kCompactX, i, kCompactOut, idx[i]);
    probe.count(kGlobalRead, sizeof(std::int32_t) + sizeof(T));
    probe.count(kGlobalWrite, sizeof(T));
  }
}

// The number kept: the last index plus the last flag (the exclusive scan leaves the last one out).
template <class Probe>
__global__ void count_kept(const std::int32_t* flags, const std::int32_t* idx, std::int64_t n, std::int32_t* count,
                           Probe probe) {
  *count = idx[n - 1] + flags[n - 1];  // step: count
  probe.op(0, OpKind::Move, kCompactIdx, n - 1, kCompactCount, 0);
  probe.op(1, OpKind::Add, kCompactFlags, n - 1, kCompactCount, 0);
  probe.count(kAdds, 1);
  probe.count(kGlobalRead, 2 * sizeof(std::int32_t));
  probe.count(kGlobalWrite, sizeof(std::int32_t));
}

// Before the scan: flags[i] = keep(x[i]).
template <class T, class Probe = NoProbe>
Status map_flags(const T* d_x, std::int32_t* d_flags, std::int64_t n, int block, int predicate, std::int32_t threshold,
                 cudaStream_t stream, Probe probe = {}) {
  probe.launch(stream);
  map_to_flags<<<unsigned((n + block - 1) / block), block, 0, stream>>>(d_x, d_flags, n, predicate, threshold, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// After the scan (d_idx = the exclusive scan of d_flags): the scatter and the count.
template <class T, class Probe = NoProbe>
Status scatter_kept(const T* d_x, const std::int32_t* d_flags, const std::int32_t* d_idx, T* d_out,
                    std::int32_t* d_count, std::int64_t n, int block, cudaStream_t stream, Probe probe = {}) {
  probe.launch(stream);
  scatter<<<unsigned((n + block - 1) / block), block, 0, stream>>>(d_x, d_flags, d_idx, d_out, n, probe);
  PRIMLAB_LAUNCH_TRY();
  probe.launch(stream);
  count_kept<<<1, 1, 0, stream>>>(d_flags, d_idx, n, d_count, probe);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}
// listing: end

}  // namespace primlab::lab
