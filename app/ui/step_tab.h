// The Step tab: the controls (preset, algorithm, options, block size, input, backend, view toggles)
// beside the transport, the trace view, the step's code listing and its counters.
#pragma once
#include "ui/step_pane.h"
#include "ui/widgets.h"

namespace primlab::ui {

void draw_step_tab(StepPane& pane, ViewPrograms& programs);

}  // namespace primlab::ui
