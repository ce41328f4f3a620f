// StepPane: rebuilding a session's trace into GL buffers, and reading it back.
#include "ui/step_pane.h"

#include "interop/interop.h"

namespace primlab::ui {

bool rebuild(StepPane& p) {
  TraceRequest req;
  if (!p.session.check(req)) return false;
  view::TraceBuffers fresh;
  interop::FilledTrace filled;
  if (Result r = interop::fill_trace(req, fresh, filled); !r.ok()) return p.session.reject(r.message());
  p.buffers = std::move(fresh);
  p.options.window = {};  // a new trace is shown whole
  p.session.accept(std::move(req), std::move(filled.meta), std::move(filled.backend), std::move(filled.note),
                   filled.host_values);
  return true;
}

const Trace& host_trace(StepPane& p) {
  if (!p.session.has_host_values() && p.session.has_trace()) {
    std::vector<std::uint32_t> values;
    std::vector<Op> ops;
    p.buffers.read_back(p.session.trace(), values, ops);
    p.session.set_host_values(std::move(values), std::move(ops));
  }
  return p.session.trace();
}

}  // namespace primlab::ui
