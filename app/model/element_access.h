// Who touched one element in one step: the step's operations (Trace::ops) whose source or
// destination is that index of that row. The hover tooltip names these threads.
#pragma once
#include <string>
#include <vector>

#include "lab/model/trace.h"

namespace primlab::ui {

struct ElementAccess {
  Op op;               // the operation, as in the trace
  bool reads = false;  // the thread read the element
  bool writes = false; // the thread wrote it
};

// The operations of `step` that read or wrote index `index` of row `row`, in op-slot order; empty
// when no thread touched it. Needs the trace's ops on the host. A compare-swap reads both keys
// and writes one only where the step's touch flags say it was written (the pair swapped).
std::vector<ElementAccess> element_accesses(const Trace& t, int step, int row, int index);

// True when an operation of `step` names row `row` (any index of it, or of the row whose cells it
// shows in another form). A row no op names is a value the kernel holds (a register, a byte it took
// from a word): that its element is not touched says nothing about its use.
bool step_names_row(const Trace& t, int step, int row);

// "buf[3]": index `index` of row `row`, named by its array in the code, the row name's leading
// identifier ("buf" of "buf (in padded to m = 8)", "data" of "data[] in shared memory").
std::string row_ref(const Trace& t, int row, int index);

// One line for the tooltip: "thread 0 (block 0, warp 0, lane 0) reads and writes: add x[3] -> x[7]".
std::string describe_access(const Trace& t, const ElementAccess& a);

}  // namespace primlab::ui
