// The Step tab's shared-memory bank panel: the step's recorded warp accesses (Step::accesses), and
// for the chosen one a lanes x banks grid as profilers draw it, beside the block's shared memory as
// 32 banks x rows with its padding words and the words the lanes hit; each bank's conflict degree
// and the wavefront that serves each lane. Hovering a cell names lane, word, bank, row and element.
#pragma once
#include "lab/model/trace.h"

namespace primlab::ui {

// Draws the panel into the space left in the current window: the grids' cells shrink to fit it,
// from the text's height down to 4 px a lane.
void bank_panel(const Trace& t, int step);
// The height the panel takes `width` pixels wide with cells of the text's height, and with the
// smallest cells.
float bank_panel_height(const Trace& t, int step, float width);
float bank_panel_min_height(const Trace& t, int step, float width);

}  // namespace primlab::ui
