// Internal declarations of every stepped algorithm's plan, CPU reference and CUDA stepper; the
// registry (registry.cpp) puts them in one table.
#pragma once
#include <string>
#include <vector>

#include "primlab/algorithm.h"

#define PRIMLAB_DECLARE_STEPPER(name)                                                                  \
  std::string plan_##name(const StepConfig& cfg, Trace& t);                                            \
  void cpu_##name(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t);           \
  std::string cuda_##name(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,   \
                          DeviceTraceView out);

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(scan_naive)
PRIMLAB_DECLARE_STEPPER(scan_blelloch)
PRIMLAB_DECLARE_STEPPER(scan_shared)
}  // namespace primlab::steppers
