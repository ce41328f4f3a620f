// Choosing the backend that fills the trace buffers: CUDA through interop, else the CPU reference.
#include "interop/interop.h"
#include "lab/run/backend.h"

namespace primlab::interop {

Result fill_trace(const ui::TraceRequest& req, view::TraceBuffers& buf, FilledTrace& out) {
  const Algorithm* a = req.algo;
  const StepConfig& cfg = req.cfg;
  const std::vector<std::uint32_t>& in = req.input;
  Trace meta;
  if (req.prefer_cuda && cuda_available() && a->run_cuda) {
    const Result r = fill_cuda(*a, cfg, in, meta, buf);
    if (r.ok()) {
      out = {std::move(meta), "CUDA: " + primlab::backend().name, "", false};
      return {};
    }
    out.note = "CUDA failed (" + r.message() + "); showing the CPU reference";
    meta = Trace{};
  }
  if (Result r = build_trace_cpu(*a, cfg, in, meta); !r.ok()) return r;
  if (Result r = buf.upload(meta); !r.ok()) return r;
  out.meta = std::move(meta);
  out.backend = primlab::backend().cuda ? "CPU reference (a CUDA device is present)" : primlab::backend().name;
  out.host_values = true;
  return {};
}

}  // namespace primlab::interop
