// Filling the GL trace buffers: the CUDA traced steppers write them in place through CUDA–OpenGL
// interop; without a CUDA device the CPU reference fills them with glBufferSubData.
#pragma once
#include <string>
#include <vector>

#include "lab/catalog.h"
#include "view/trace_buffers.h"

namespace primlab::interop {

// True when this build has CUDA and a device is usable from this GL context's process.
bool cuda_available();

// Plans the trace into `meta` (metadata only: labels, rows, steps, counters) and runs the CUDA
// stepper writing straight into `buf`'s registered GL buffers. Returns "" or an error; on error
// `meta` and `buf` may be partly written and must not be drawn.
std::string fill_cuda(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& meta,
                      view::TraceBuffers& buf);

}  // namespace primlab::interop
