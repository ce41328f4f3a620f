// The function types of one algorithm's folder, kernels/lab/algorithms/<family>/<algo>/, as the
// catalog's rows name them: the plan and CPU reference (<algo>.cpp), and the two CUDA forms
// (<algo>.cu): the stepped form's host driver and the timed form with its workspace query. The
// catalog declares each row's functions with these types, beside the row; PRIMLAB_IF_CUDA names a
// CUDA form in the row, null where the build has no CUDA.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lab/model/forms.h"
#include "lab/model/result.h"
#include "primlab/status.h"

namespace primlab::steppers {

using PlanFn = Result(const StepConfig& cfg, Trace& t);
using CpuFn = void(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t);
using CudaFn = Result(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t, DeviceTraceView out);
using TimedBytesFn = std::size_t(const TimedArgs& a);
using TimedFn = Status(const TimedArgs& a);

}  // namespace primlab::steppers

#ifdef PRIMLAB_HAVE_CUDA
#define PRIMLAB_IF_CUDA(function) &function
#else
#define PRIMLAB_IF_CUDA(function) nullptr
#endif
