// The inclusive scan from an exclusive one: each element adds its own input. The scans of the
// family that take the inclusive option launch it after their exclusive scan; the region below is
// listed with each of them. Every scan of the family keeps its result in the trace's main row and
// its input in the first row after the standard ones, so this kernel's rows need no map.
#pragma once
#include <cstdint>

#include "lab/model/trace.h"
#include "util/probe.cuh"

namespace primlab::lab {

// The rows add_input names: the scan's output and its input.
enum ScanRow : int { kScanOut = kRowMain, kScanIn = kStdRows };

// listing: scan-blelloch scan-naive-shared scan-shared
// The inclusive scan: each element adds its own input.
template <class T, class Probe>
__global__ void add_input(T* out, const T* __restrict__ in, std::int64_t n, Probe probe) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  probe.branch(i < n);
  if (i >= n) return;
  out[i] += in[i];  // step: inclusive
  probe.op(0, OpKind::Add, kScanIn, i, kScanOut, i);
  probe.count(kGlobalRead, 2 * sizeof(T));
  probe.count(kGlobalWrite, sizeof(T));
  probe.count(kAdds, 1);
}
// listing: end

}  // namespace primlab::lab
