// A trace built for Python (primlab.lab), shared by _primlab, which builds it, and _render, which
// draws its steps.
#pragma once
#include <string>

#include "lab/model/trace.h"

namespace primlab::python {

struct LabTrace {
  Trace trace;
  std::string backend;  // "CPU reference" or "CUDA: <GPU>", as the `trace` tool names it
};

}  // namespace primlab::python
