// What the reductions' stepped drivers share: the workspace they hand to the host code (the rows
// buf[0] and buf[1], or a scratch buffer where one pass needs none), and the sum read back into the
// last step's label, as the CPU reference writes it.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "lab/algorithms/reduce/reduce_rows.h"
#include "lab/run/recording_probe.cuh"

namespace primlab::steppers::reduce {

// The host code's workspace: rows buf[0] and buf[1], which lie next to each other in the live
// state, so that the host code's halves are the two rows; `scratch` holds `bytes` where one pass
// leaves no partial sums.
inline Workspace stepped_workspace(stepped::StepRun& run, const Layout& L, const Trace& t, std::size_t bytes,
                                   DeviceBuffer<std::uint32_t>& scratch) {
  if (L.buf[0] >= 0) return {run.row(L.buf[0]), 2 * std::size_t(t.width) * sizeof(std::uint32_t)};
  scratch.resize((bytes + 3) / 4);
  return {scratch.get(), scratch.bytes()};
}

// Appends " = <the sum>" to the last step's label, read from d_out's row of the last step.
inline Result label_with_sum(Trace& t, DeviceTraceView out) {
  const std::size_t last = t.steps.size() - 1, row = t.rows.size() - 1;
  std::uint32_t total = 0;
  const cudaError_t e =
      cudaMemcpy(&total, out.values + last * t.step_words() + row * std::size_t(t.width), 4, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return Result::failure(std::string("reading the sum back failed: ") + cudaGetErrorString(e));
  }
  t.steps.back().label += " = " + format_word(total, t.type);
  return {};
}

}  // namespace primlab::steppers::reduce
