// Trace output: human-readable text and JSON (for `trace`, the app's export and tests).
#pragma once
#include <iosfwd>
#include <string>

#include "lab/model/trace.h"

namespace primlab {

// Every step's label, launch and counters, then the rows (all rows when all_rows, else the
// focus row); padding after n is set off with '|'.
void write_trace_text(std::ostream& os, const Trace& t, const std::string& backend, bool all_rows);
// The whole trace as one JSON object (ops without the empty slots).
void write_trace_json(std::ostream& os, const Trace& t, const std::string& backend);

std::string counters_summary(const Counters& c);

}  // namespace primlab
