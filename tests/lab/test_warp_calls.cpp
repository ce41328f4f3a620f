// The stepped CUDA run's warp-wide calls: lanes record their part of each branch and shared access
// on their own, and fold_warp_calls puts them back together into the warp's calls the CPU reference
// counts, however the hardware parted and interleaved the lanes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "lab/run/warp_calls.h"

using namespace primlab;
using namespace primlab::stepped;

namespace {

struct Records {
  std::vector<std::int32_t> words;
  void add(int step, int warp, int line, LaneCall call, int lane, int value) {
    const std::int32_t lane_value = std::int32_t(std::uint32_t(value) << 5 | std::uint32_t(lane));
    for (std::int32_t w : {step, warp, line * 2 + int(call), lane_value}) words.push_back(w);
  }
};

Trace steps(int n) {
  Trace t;
  t.steps.resize(std::size_t(n));
  return t;
}

}  // namespace

// Lanes 0-15 run a loop twice, lanes 16-31 once (a grid-stride loop's last round), then all 32 make
// one access after the loop. The hardware runs the lanes that left the loop early on ahead: their
// post-loop access comes first, apart from the other half's. Folded, the loop's first round is one
// 32-lane access and one divergent branch, its second a 16-lane access, and the access after the loop
// is one 32-lane access, as the CPU reference counts a warp.
TEST(WarpCalls, LanesThatLeaveALoopApartMeetAgainAfterIt) {
  Records r;
  const int step = 1, warp = 3, loop_line = 40, after_line = 44;
  for (int lane = 16; lane < 32; ++lane) {
    r.add(step, warp, loop_line, kAccessCall, lane, lane * 32);  // every lane in bank 0: degree = lanes
    r.add(step, warp, loop_line + 1, kBranchCall, lane, 0);      // leaves
    r.add(step, warp, after_line, kAccessCall, lane, lane);
  }
  for (int lane = 0; lane < 16; ++lane) {
    r.add(step, warp, loop_line, kAccessCall, lane, lane * 32);
    r.add(step, warp, loop_line + 1, kBranchCall, lane, 1);  // another round
  }
  for (int lane = 0; lane < 16; ++lane) {
    r.add(step, warp, loop_line, kAccessCall, lane, lane * 32 + 1);
    r.add(step, warp, loop_line + 1, kBranchCall, lane, 0);
  }
  for (int lane = 0; lane < 16; ++lane) r.add(step, warp, after_line, kAccessCall, lane, lane);

  Trace t = steps(2);
  fold_warp_calls(r.words, t);
  const Step& st = t.steps[1];
  EXPECT_EQ(st.counters.shared_accesses, 32 + 16 + 32);
  EXPECT_EQ(st.counters.bank_conflict, 32);
  EXPECT_EQ(st.counters.divergent_warps, 1);
  ASSERT_EQ(st.accesses.size(), 3u);
  std::vector<int> lanes;
  for (const WarpAccess& w : st.accesses) lanes.push_back(w.active_lanes());
  std::sort(lanes.begin(), lanes.end());
  EXPECT_EQ(lanes, (std::vector<int>{16, 32, 32}));
  const auto conflict_free = std::find_if(st.accesses.begin(), st.accesses.end(),
                                          [](const WarpAccess& w) { return w.degree() == 1; });
  ASSERT_NE(conflict_free, st.accesses.end());
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(conflict_free->addr[std::size_t(lane)], lane);
  EXPECT_EQ(t.steps[0].counters.shared_accesses, 0);
}

// The order the lanes' records arrive in across lanes does not matter, only each lane's own order;
// warps, steps and lines stay apart, and a branch that all lanes take alike is not divergent.
TEST(WarpCalls, TheFoldDependsOnEachLanesOrderAlone) {
  struct Rec {
    int step, warp, line, call, lane, value;
  };
  std::vector<Rec> recs;
  for (int s = 1; s <= 2; ++s)
    for (int warp = 0; warp < 2; ++warp)
      for (int lane = 0; lane < 32; ++lane) {
        recs.push_back({s, warp, 7, kBranchCall, lane, warp == 1 && lane == 5});  // warp 1 diverges
        recs.push_back({s, warp, 8, kAccessCall, lane, (lane % 4) * 32 + s});    // degree 4
        recs.push_back({s, warp, 9, kAccessCall, lane, lane});                   // degree 1
      }
  const auto fold = [](const std::vector<Rec>& order) {
    Records r;
    for (const Rec& x : order) r.add(x.step, x.warp, x.line, LaneCall(x.call), x.lane, x.value);
    Trace t = steps(3);
    fold_warp_calls(r.words, t);
    return t;
  };
  const Trace a = fold(recs);
  for (int s = 1; s <= 2; ++s) {
    EXPECT_EQ(a.steps[std::size_t(s)].counters.shared_accesses, 2 * 64);
    EXPECT_EQ(a.steps[std::size_t(s)].counters.bank_conflict, 4);
    EXPECT_EQ(a.steps[std::size_t(s)].counters.divergent_warps, 1);
    EXPECT_EQ(a.steps[std::size_t(s)].accesses.size(), 2u);  // two distinct accesses, two warps each
  }
  // Shuffle across lanes, keeping each lane's records in order: a stable sort by a random key per lane.
  std::mt19937 rng(7);
  for (int round = 0; round < 5; ++round) {
    std::vector<int> key(2 * 2 * 32);
    for (int& k : key) k = int(rng() % 1000);
    std::vector<Rec> shuffled = recs;
    std::stable_sort(shuffled.begin(), shuffled.end(), [&](const Rec& x, const Rec& y) {
      return key[std::size_t(((x.step - 1) * 2 + x.warp) * 32 + x.lane)] <
             key[std::size_t(((y.step - 1) * 2 + y.warp) * 32 + y.lane)];
    });
    const Trace b = fold(shuffled);
    for (int s = 1; s <= 2; ++s) {
      EXPECT_EQ(b.steps[std::size_t(s)].counters, a.steps[std::size_t(s)].counters);
      EXPECT_EQ(b.steps[std::size_t(s)].accesses, a.steps[std::size_t(s)].accesses);
    }
  }
}

// A lane that takes part in a call with no access (-1) still counts the call: its next access on the
// line joins the warp's next access, not this one.
TEST(WarpCalls, ALaneWithNoAccessStillCountsTheCall) {
  Records r;
  r.add(1, 0, 12, kAccessCall, 0, -1);
  r.add(1, 0, 12, kAccessCall, 0, 64);
  for (int lane = 1; lane < 32; ++lane) {
    r.add(1, 0, 12, kAccessCall, lane, lane);
    r.add(1, 0, 12, kAccessCall, lane, 64 + lane);
  }
  Trace t = steps(2);
  fold_warp_calls(r.words, t);
  EXPECT_EQ(t.steps[1].counters.shared_accesses, 31 + 32);
  EXPECT_EQ(t.steps[1].counters.bank_conflict, 1);
  ASSERT_EQ(t.steps[1].accesses.size(), 2u);
  EXPECT_EQ(t.steps[1].accesses[0].addr[0], -1);
  EXPECT_EQ(t.steps[1].accesses[1].addr[0], 64);
}
