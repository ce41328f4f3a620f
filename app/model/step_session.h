// StepSession: a stepped trace as plain state: what the user chose, where the transport is, and
// the trace it shows (metadata always; values and ops when a host copy exists). Widgets edit the
// choice; rebuilding is two calls around the code that fills the trace (ui/step_pane.h):
// check() turns the choice into a TraceRequest, then accept() or reject() the result. A bad
// choice keeps the old trace.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/catalog.h"
#include "model/step_choice.h"
#include "model/transport.h"

namespace primlab::ui {

// A checked choice: the algorithm, its config (n set from the input) and the input words.
struct TraceRequest {
  const Algorithm* algo = nullptr;
  StepConfig cfg;
  std::vector<std::uint32_t> input;
  bool prefer_cuda = true;
};

class StepSession {
 public:
  StepChoice choice;
  Transport transport;
  std::string message;  // the last error, shown until the next successful rebuild
  std::string backend;  // what filled the current trace

  const Trace& trace() const { return meta_; }
  bool has_trace() const { return !meta_.steps.empty(); }
  // True when trace() holds the values and ops too, not only the metadata.
  bool has_host_values() const { return host_values_; }
  const std::vector<std::uint32_t>& input() const { return input_; }
  int last_step() const { return std::max(0, int(meta_.steps.size()) - 1); }

  // Checks `choice` and fills `out`. On failure behaves as reject().
  bool check(TraceRequest& out);
  // Takes the trace built for `req`; `note` becomes the message (empty when all went as asked). A
  // new algorithm or input starts at step 0; otherwise the step the user chose is kept where the
  // trace is long enough (Transport::refit), and the last step stays the last.
  void accept(TraceRequest&& req, Trace&& meta, std::string used_backend, std::string note, bool host_values);
  // Sets `message`, restores the last choice that built a trace but keeps the typed list as the
  // user wrote it, keeps the trace; returns false.
  bool reject(const std::string& error);
  // The values and ops read back from wherever the trace lives (for export).
  void set_host_values(std::vector<std::uint32_t> values, std::vector<Op> ops);

  void go(int step) { transport.go(step, last_step()); }
  void tick(double dt) { transport.tick(dt, last_step()); }

 private:
  Trace meta_;
  std::vector<std::uint32_t> input_;
  StepChoice last_good_;
  bool host_values_ = false;
};

}  // namespace primlab::ui
