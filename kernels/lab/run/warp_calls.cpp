// Folding the lanes' records of warp-wide calls into warp calls (warp_calls.h).
#include "lab/run/warp_calls.h"

#include <algorithm>
#include <tuple>

namespace primlab::stepped {

void fold_warp_calls(const std::vector<std::int32_t>& records, Trace& t) {
  struct Lane {
    std::int32_t step, warp, call, lane, value, k;
  };
  std::vector<Lane> lanes(records.size() / kLaneWords);
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const std::int32_t* r = records.data() + i * kLaneWords;
    lanes[i] = {r[0], r[1], r[2], r[3] & 31, r[3] >> 5, 0};
  }
  const auto call_of = [](const Lane& a) { return std::tie(a.step, a.warp, a.call, a.lane); };
  // Each lane's records are in its program order: its k-th record of a call is the call's k-th time.
  std::stable_sort(lanes.begin(), lanes.end(), [&](const Lane& a, const Lane& b) { return call_of(a) < call_of(b); });
  for (std::size_t i = 1; i < lanes.size(); ++i)
    if (call_of(lanes[i]) == call_of(lanes[i - 1])) lanes[i].k = lanes[i - 1].k + 1;
  const auto warp_call_of = [](const Lane& a) { return std::tie(a.step, a.warp, a.call, a.k); };
  std::sort(lanes.begin(), lanes.end(), [&](const Lane& a, const Lane& b) {
    return std::tie(a.step, a.warp, a.call, a.k, a.lane) < std::tie(b.step, b.warp, b.call, b.k, b.lane);
  });
  for (std::size_t i = 0, j = 0; i < lanes.size(); i = j) {
    std::int32_t value[32];
    std::fill(value, value + 32, -1);
    for (j = i; j < lanes.size() && warp_call_of(lanes[j]) == warp_call_of(lanes[i]); ++j)
      value[lanes[j].lane] = lanes[j].value;
    Step& st = t.steps[std::size_t(lanes[i].step)];
    if (lanes[i].call % 2 == kBranchCall) {
      st.counters.divergent_warps += std::any_of(lanes.begin() + i, lanes.begin() + j,
                                                 [&](const Lane& l) { return l.value != lanes[i].value; });
      continue;
    }
    st.counters.shared_accesses += std::count_if(value, value + 32, [](std::int32_t w) { return w >= 0; });
    st.counters.bank_conflict = std::max<std::int64_t>(st.counters.bank_conflict, bank_conflict_degree(value, 32));
    record_access(st.accesses, value, 32);
  }
}

}  // namespace primlab::stepped
