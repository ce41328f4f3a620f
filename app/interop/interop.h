// Filling the GL trace buffers: the CUDA traced steppers write them in place through CUDA–OpenGL
// interop; without a CUDA device the CPU reference fills them with glBufferSubData.
#pragma once
#include <string>
#include <vector>

#include "lab/catalog.h"
#include "model/step_session.h"
#include "view/trace_buffers.h"

namespace primlab::interop {

// True when this build has CUDA and a device is usable from this GL context's process.
bool cuda_available();

// Plans the trace into `meta` (metadata only: labels, rows, steps, counters) and runs the CUDA
// stepper writing straight into `buf`'s registered GL buffers. On failure `meta` and `buf` may be
// partly written and must not be drawn.
Result fill_cuda(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& meta,
                 view::TraceBuffers& buf);

// A trace in GL buffers and what filled it.
struct FilledTrace {
  Trace meta;           // with values and ops only when host_values
  std::string backend;  // what filled it, for the UI
  std::string note;     // why it is not what was asked for (CUDA failed), or empty
  bool host_values = false;
};

// Fills `buf` for a checked request: through CUDA when the request prefers it and a device is
// there, else (or when CUDA fails) with the CPU reference.
Result fill_trace(const ui::TraceRequest& req, view::TraceBuffers& buf, FilledTrace& out);

}  // namespace primlab::interop
