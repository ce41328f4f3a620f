// Builds without CUDA: no interop; the CPU reference fills the trace buffers.
#include "interop/interop.h"

namespace primlab::interop {
bool cuda_available() { return false; }
Result fill_cuda(const Algorithm&, const StepConfig&, const std::vector<std::uint32_t>&, Trace&, view::TraceBuffers&) {
  return Result::failure("this build has no CUDA backend");
}
}  // namespace primlab::interop
