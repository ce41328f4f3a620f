// Harris's kernel 6, traced: its steps are reduce5's (see reduce6.cpp), so reduce5's CUDA stepper
// runs them on the trace that plan_reduce6 planned.
#include "lab/run/steppers.h"

namespace primlab::steppers {

PlanFn plan_reduce5;
CpuFn cpu_reduce5;
CudaFn cuda_reduce5;

Result cuda_reduce6(const StepConfig& cfg, const std::vector<std::uint32_t>& in, Trace& t, DeviceTraceView out) {
  return cuda_reduce5(cfg, in, t, out);
}

}  // namespace primlab::steppers
