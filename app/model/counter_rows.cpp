// Counter rows of a trace step.
#include "model/counter_rows.h"

namespace primlab::ui {

std::vector<CounterRow> counter_rows(const Trace& t, int step) {
  const Step& st = t.steps[std::size_t(step)];
  const Counters c = st.counters, tot = t.totals(std::size_t(step));
  long long idle_total = 0;
  for (int s = 0; s <= step; ++s) idle_total += t.steps[std::size_t(s)].launch.launched() - t.steps[std::size_t(s)].launch.active;
  return {
      {"adds", c.adds, tot.adds},
      {"global bytes read", c.global_read_bytes, tot.global_read_bytes},
      {"global bytes written", c.global_write_bytes, tot.global_write_bytes},
      {"shared accesses", c.shared_accesses, tot.shared_accesses},
      {"worst bank conflict (n-way)", c.bank_conflict, tot.bank_conflict},
      {"divergent warps", c.divergent_warps, tot.divergent_warps},
      {"idle threads", st.launch.launched() - st.launch.active, idle_total},
      {"atomics", c.atomics, tot.atomics},
      {"launches", c.launches, tot.launches},
  };
}

}  // namespace primlab::ui
