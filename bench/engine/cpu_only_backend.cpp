// The performance tab's backend in a build without CUDA: primlab's CPU baselines alone.
#include "engine/cpu_backend.h"

namespace primlab::perf {
std::unique_ptr<Backend> make_default_backend() { return std::make_unique<CpuBackend>(); }
}  // namespace primlab::perf
