// build_trace_cuda: a row's stepped CUDA form into device memory, then the trace back to the host
// (tests, `trace`, `render`). The app's window writes the trace into GL buffers through interop
// instead (app/interop/).
#include <cuda_runtime.h>

#include "lab/catalog.h"
#include "primlab/device_buffer.h"

namespace primlab {

Result build_trace_cuda(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                        Trace& out) {
  if (!a.run_cuda) return Result::failure(std::string(a.name) + " has no CUDA stepper");
  Trace t;
  if (Result r = plan_trace(a, cfg, input, t); !r.ok()) return r;
  try {
    DeviceBuffer<std::uint32_t> d_values(t.values.size());
    DeviceBuffer<Op> d_ops(std::max<std::size_t>(t.ops.size(), 1));
    if (Result r = a.run_cuda(cfg, input, t, {d_values.get(), d_ops.get()}); !r.ok()) return r;
    cudaError_t e1 = cudaMemcpy(t.values.data(), d_values.get(), d_values.bytes(), cudaMemcpyDeviceToHost);
    cudaError_t e2 = t.ops.empty() ? cudaSuccess
                                   : cudaMemcpy(t.ops.data(), d_ops.get(), t.ops.size() * sizeof(Op),
                                                cudaMemcpyDeviceToHost);
    if (e1 != cudaSuccess || e2 != cudaSuccess) {
      cudaGetLastError();
      return Result::failure(std::string("copying the trace back failed: ") +
                             cudaGetErrorString(e1 != cudaSuccess ? e1 : e2));
    }
  } catch (const DeviceError& e) {
    return Result::failure(e.what());
  }
  out = std::move(t);
  return {};
}

}  // namespace primlab
