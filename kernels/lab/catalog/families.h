// Each algorithm family registers its stepped algorithms (kernels/lab/catalog/<family>.cpp).
#pragma once
#include <vector>

#include "lab/catalog.h"
#include "lab/run/steppers.h"

// The row fields plan, run_cpu, run_cuda of a stepper declared with PRIMLAB_DECLARE_STEPPER.
#ifdef PRIMLAB_HAVE_CUDA
#define PRIMLAB_STEPPERS(name) &steppers::plan_##name, &steppers::cpu_##name, &steppers::cuda_##name
#else
#define PRIMLAB_STEPPERS(name) &steppers::plan_##name, &steppers::cpu_##name, nullptr
#endif

namespace primlab::registry {
void add_scans(std::vector<Algorithm>& v);
void add_reductions(std::vector<Algorithm>& v);
void add_compaction(std::vector<Algorithm>& v);
void add_histograms(std::vector<Algorithm>& v);
void add_bitonic(std::vector<Algorithm>& v);
void add_radix_sorts(std::vector<Algorithm>& v);
void add_partitions(std::vector<Algorithm>& v);
}  // namespace primlab::registry
