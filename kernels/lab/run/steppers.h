// Declares a stepped algorithm's plan, CPU reference and CUDA stepper (defined in
// kernels/lab/algorithms/<family>/<algo>/: <algo>.cpp and <algo>_traced.cu); the catalog lists it.
#pragma once
#include <string>
#include <vector>

#include "lab/catalog.h"

#define PRIMLAB_DECLARE_STEPPER(name)                                                                  \
  std::string plan_##name(const StepConfig& cfg, Trace& t);                                            \
  void cpu_##name(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t);           \
  std::string cuda_##name(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,   \
                          DeviceTraceView out);
