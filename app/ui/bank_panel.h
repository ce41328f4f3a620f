// The Step tab's shared-memory bank panel: the step's recorded warp accesses (Step::accesses), and
// for the chosen one a lanes x banks grid as profilers draw it, beside the block's shared memory as
// 32 banks x rows with its padding words and the words the lanes hit; each bank's conflict degree
// and the wavefront that serves each lane. Hovering a cell names lane, word, bank, row and element.
#pragma once
#include "lab/model/trace.h"

namespace primlab::ui {

void bank_panel(const Trace& t, int step);

}  // namespace primlab::ui
