// The counters of one step of a trace and their totals so far, as named rows: what the Step and
// Race tabs' counters table shows.
#pragma once
#include <vector>

#include "lab/model/trace.h"

namespace primlab::ui {

struct CounterRow {
  const char* name;
  long long this_step, so_far;
};

std::vector<CounterRow> counter_rows(const Trace& t, int step);

}  // namespace primlab::ui
