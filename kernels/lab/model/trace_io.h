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

// "adds=3 global read=12B write=4B shared=0 conflict=none divergent warps=0 launches=1".
std::string counters_summary(const Counters& c);
// "3 of 4 threads in 1 block": the threads that worked of those launched.
std::string launch_summary(const LaunchShape& l);

}  // namespace primlab
