// Choosing the backend that fills the trace buffers: CUDA through interop, else the CPU reference.
#include "interop/interop.h"
#include "lab/run/backend.h"

namespace primlab::interop {

bool fill_trace(const ui::TraceRequest& req, view::TraceBuffers& buf, FilledTrace& out, std::string& error) {
  const Algorithm* a = req.algo;
  const StepConfig& cfg = req.cfg;
  const std::vector<std::uint32_t>& in = req.input;
  Trace meta;
  if (req.prefer_cuda && cuda_available() && a->run_cuda) {
    std::string e = interop::fill_cuda(*a, cfg, in, meta, buf);
    if (e.empty()) {
      out = {std::move(meta), "CUDA: " + primlab::backend().name, "", false};
      return true;
    }
    out.note = "CUDA failed (" + e + "); showing the CPU reference";
    meta = Trace{};
  }
  if (std::string e = build_trace_cpu(*a, cfg, in, meta); !e.empty()) return error = e, false;
  if (!buf.upload(meta, error)) return false;
  out.meta = std::move(meta);
  out.backend = primlab::backend().cuda ? "CPU reference (a CUDA device is present)" : primlab::backend().name;
  out.host_values = true;
  return true;
}

}  // namespace primlab::interop
