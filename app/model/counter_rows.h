// The counters of one step of a trace and their totals so far, as named rows: what the Step and
// Race tabs' counters table shows, with what each row counts.
#pragma once
#include <vector>

#include "lab/model/trace.h"

namespace primlab::ui {

struct CounterRow {
  const char* name;
  long long this_step, so_far;
  const char* tip;       // what the row counts, in plain words
  bool so_far_is_max;    // so_far is the largest value of the steps so far, not their sum
};

std::vector<CounterRow> counter_rows(const Trace& t, int step);

// Two counts differ when they are more than 10 % apart (of the larger): what the Race highlights.
constexpr bool counters_differ(long long a, long long b) {
  const long long hi = a > b ? a : b, lo = a > b ? b : a;
  return (hi - lo) * 10 > (hi < 0 ? -hi : hi);
}

}  // namespace primlab::ui
