// StepPane: one stepped trace on screen: the plain session (model/), the GL buffers that hold its
// trace, the view's options and the framebuffer it is drawn into. The Step tab has one pane, the
// Race tab two.
#pragma once
#include "model/step_session.h"
#include "ui/code_panel.h"
#include "view/trace_buffers.h"
#include "view/trace_view.h"

namespace primlab::ui {

struct StepPane {
  StepSession session;
  view::TraceBuffers buffers;
  view::ViewOptions options;
  view::Framebuffer fb;
  CodeShown code;  // what its code panel showed last
  bool banks_open = false;  // the Step tab's shared-memory bank panel
  float image_x = 0, image_y = 0;  // screen position of the view's top left in the last frame
};

// Builds the trace for the session's choice into fresh buffers (CUDA when chosen and present,
// else the CPU reference). On failure the pane keeps its trace and buffers, the session its last
// good choice and the reason in `message`; returns false.
bool rebuild(StepPane& p);
// The trace with its values and ops on the host, read back from the GL buffers when the CUDA
// backend filled them (for export and tests).
const Trace& host_trace(StepPane& p);

}  // namespace primlab::ui
