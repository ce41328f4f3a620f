// Counter rows of a trace step.
#include "model/counter_rows.h"

namespace primlab::ui {

std::vector<CounterRow> counter_rows(const Trace& t, int step) {
  const Step& st = t.steps[std::size_t(step)];
  const Counters c = st.counters, tot = t.totals(std::size_t(step));
  long long idle_total = 0;
  for (int s = 0; s <= step; ++s) idle_total += t.steps[std::size_t(s)].launch.launched() - t.steps[std::size_t(s)].launch.active;
  return {
      {"adds", c.adds, tot.adds, "combine operations (a + b, or the algorithm's operator) done by all threads", false},
      {"global bytes read", c.global_read_bytes, tot.global_read_bytes,
       "bytes loaded from global memory (device DRAM) by all threads", false},
      {"global bytes written", c.global_write_bytes, tot.global_write_bytes,
       "bytes stored to global memory by all threads", false},
      {"shared accesses", c.shared_accesses, tot.shared_accesses,
       "shared-memory loads and stores, one per thread and access", false},
      {"worst bank conflict", c.bank_conflict, tot.bank_conflict,
       "the most threads of one warp that hit the same shared-memory bank at different addresses in one access "
       "(0: no shared-memory access; 1: no conflict; n: the access takes n wavefronts). 'so far' is the maximum over the steps, not a sum",
       true},
      {"divergent warps", c.divergent_warps, tot.divergent_warps,
       "warp branches where only some of the live lanes took the path (the warp runs both paths one after the "
       "other)", false},
      {"idle threads", st.launch.launched() - st.launch.active, idle_total,
       "threads launched in this step that did no work (launched blocks x threads - active threads)", false},
      {"atomics", c.atomics, tot.atomics, "atomic read-modify-write operations (atomicAdd, atomicCAS...)", false},
      {"launches", c.launches, tot.launches, "kernel launches that this step starts", false},
  };
}

}  // namespace primlab::ui
