// The counters table's rows: every row says what it counts, and the bank-conflict row's "so far"
// is the worst degree of the steps so far (a max, marked so), while the others are sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "lab/shared_scan_trace.h"
#include "model/counter_rows.h"

using primlab::ui::counter_rows;
using primlab::ui::CounterRow;

TEST(CounterRows, EveryRowSaysWhatItCountsAndOnlyTheConflictIsAMax) {
  const primlab::Trace t = test::shared_scan_trace(false);
  ASSERT_GT(t.steps.size(), 2u);
  long long worst = 0, shared = 0;
  for (int step = 0; step < int(t.steps.size()); ++step) {
    const auto rows = counter_rows(t, step);
    worst = std::max<long long>(worst, t.steps[std::size_t(step)].counters.bank_conflict);
    shared += t.steps[std::size_t(step)].counters.shared_accesses;
    for (const CounterRow& r : rows) {
      EXPECT_GT(std::string(r.tip).size(), 20u) << r.name;
      EXPECT_EQ(r.so_far_is_max, std::string(r.name) == "worst bank conflict") << r.name;
      if (r.so_far_is_max) EXPECT_EQ(r.so_far, worst) << "step " << step;
      if (std::string(r.name) == "shared accesses") EXPECT_EQ(r.so_far, shared) << "step " << step;
    }
  }
  EXPECT_GT(worst, 1) << "the preset without offsets has bank conflicts";
}
