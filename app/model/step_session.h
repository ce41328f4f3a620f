// StepSession: the Step tab's plain state (what the user chose, where the transport is) and the
// trace it shows. Widgets edit the state; rebuild() turns it into a trace in GL buffers through
// the CUDA device when there is one, else the CPU reference. A bad choice keeps the old trace.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "lab/catalog.h"
#include "model/step_choice.h"
#include "lab/model/input.h"
#include "view/trace_buffers.h"
#include "view/trace_view.h"

namespace primlab::ui {

struct Transport {
  int step = 0;
  bool playing = false;
  float speed = 2.f;     // steps per second
  double accum = 0.0;    // seconds since the last automatic step
};

class StepSession {
 public:
  StepChoice choice;
  Transport transport;
  view::ViewOptions view;
  std::string message;   // the last error, shown until the next successful rebuild
  std::string backend;   // what filled the current trace

  const Trace& trace() const { return meta_; }
  const view::TraceBuffers& buffers() const { return *buf_; }
  bool has_trace() const { return !meta_.steps.empty(); }
  const std::vector<std::uint32_t>& input() const { return input_; }

  // Builds the trace for `choice`. On failure sets `message`, keeps the previous trace and
  // restores the previous choice, and returns false.
  bool rebuild();
  // Advances the transport by dt seconds of playing.
  void tick(double dt);
  void go(int step);  // clamps

  // The host copy of the current trace's values (the CPU backend keeps one; the CUDA backend
  // reads the GL buffer back on demand, for export only).
  const Trace& host_trace();

 private:
  Trace meta_;
  std::unique_ptr<view::TraceBuffers> buf_ = std::make_unique<view::TraceBuffers>();
  std::vector<std::uint32_t> input_;
  StepChoice last_good_;
  bool host_complete_ = false;
};

}  // namespace primlab::ui
