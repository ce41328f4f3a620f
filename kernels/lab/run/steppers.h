// Declares the functions of one algorithm's folder, kernels/lab/algorithms/<family>/<algo>/, beside
// its catalog row: the plan and CPU stepper (<algo>.cpp), the CUDA stepper (<algo>_traced.cu) and
// the timed kernel (<algo>_timed.cu). PRIMLAB_STEPPED / PRIMLAB_TIMED name them in the row, null
// where the build has no CUDA.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "lab/catalog.h"

#define PRIMLAB_DECLARE_STEPPER(name)                                                                  \
  std::string plan_##name(const StepConfig& cfg, Trace& t);                                            \
  void cpu_##name(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t);           \
  std::string cuda_##name(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t,   \
                          DeviceTraceView out);

#define PRIMLAB_DECLARE_TIMED(name)                \
  std::size_t timed_bytes_##name(const TimedArgs& a); \
  Status timed_##name(const TimedArgs& a);

#ifdef PRIMLAB_HAVE_CUDA
#define PRIMLAB_STEPPED(name) &steppers::plan_##name, &steppers::cpu_##name, &steppers::cuda_##name
#define PRIMLAB_TIMED(name) &steppers::timed_bytes_##name, &steppers::timed_##name
#else
#define PRIMLAB_STEPPED(name) &steppers::plan_##name, &steppers::cpu_##name, nullptr
#define PRIMLAB_TIMED(name) nullptr, nullptr
#endif
