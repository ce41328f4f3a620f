// The recorded warp accesses to shared memory (Step::accesses) against the counters they explain:
// for every catalog row at its limits and options, a step's worst conflict degree is the largest
// degree over its recorded accesses and its shared-access count is their active lanes; and the
// shared scan's records and layout against the GPU Gems 3 addressing worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/shared_scan_trace.h"

using namespace primlab;

namespace {

TEST(SharedAccesses, RecordKeepsDistinctAccessesSortedWithTheirWarpCount) {
  std::vector<WarpAccess> v;
  const std::int32_t a[3] = {5, 6, 7}, b[3] = {0, -1, 64}, idle[3] = {-1, -1, -1};
  record_access(v, a, 3);
  record_access(v, b, 3);
  record_access(v, a, 3, 2);
  record_access(v, idle, 3);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].addr[0], 0);   // sorted by address: b first
  EXPECT_EQ(v[0].addr[1], -1);
  EXPECT_EQ(v[0].addr[3], -1);  // lanes past `lanes` are idle
  EXPECT_EQ(v[0].warps, 1);
  EXPECT_EQ(v[0].degree(), 2);  // words 0 and 64 in bank 0
  EXPECT_EQ(v[0].active_lanes(), 2);
  EXPECT_EQ(v[1].warps, 3);
  EXPECT_EQ(v[1].degree(), 1);
  EXPECT_EQ(extra_wavefronts(v), 1);
}

TEST(SharedAccesses, CountersAreTheRecordedAccessesForEveryRow) {
  test::for_each_row_trace([](const Trace& t) {
    for (std::size_t s = 0; s < t.steps.size(); ++s) {
      const Step& st = t.steps[s];
      std::int64_t worst = 0, lanes = 0;
      for (const WarpAccess& w : st.accesses) {
        EXPECT_GT(w.warps, 0);
        worst = std::max<std::int64_t>(worst, w.degree());
        lanes += std::int64_t(w.warps) * w.active_lanes();
      }
      EXPECT_EQ(st.counters.bank_conflict, worst) << "step " << s << ": " << st.label;
      EXPECT_EQ(st.counters.shared_accesses, lanes) << "step " << s << ": " << st.label;
      EXPECT_TRUE(std::is_sorted(st.accesses.begin(), st.accesses.end(),
                                 [](const WarpAccess& x, const WarpAccess& y) { return x.addr < y.addr; }));
    }
  });
}

const Step& step_labelled(const Trace& t, const std::string& head) {
  for (const Step& s : t.steps)
    if (s.label.rfind(head, 0) == 0) return s;
  ADD_FAILURE() << "no step " << head;
  return t.steps[0];
}

// Up-sweep d=256, offset=2 of 1024 elements, 512 threads a block: thread t reads a = 4t+1 and
// reads and writes b = 4t+3. Without the offsets a warp's 32 b's are words 4t+3, a stride of 4
// words: 4 lanes share each of 8 banks (4-way). With them, b + (b >> 5) moves each group of 8
// lanes one bank further (banks 3,7,..,31, then 4,8,..,0, ...): 32 lanes in 32 banks.
TEST(SharedAccesses, OffsetsSpreadTheUpSweepOverTheBanks) {
  const Trace without = test::shared_scan_trace(false), with = test::shared_scan_trace(true);
  const Step& a = step_labelled(without, "up-sweep d=256, offset=2:");
  const Step& b = step_labelled(with, "up-sweep d=256, offset=2:");
  ASSERT_FALSE(a.accesses.empty());
  ASSERT_FALSE(b.accesses.empty());
  const auto lane_b = [](const Step& s) {
    for (const WarpAccess& w : s.accesses)
      if (w.addr[0] == 3 || w.addr[0] == 3 + (3 >> 5)) return w;
    return WarpAccess{};
  };
  const WarpAccess wa = lane_b(a), wb = lane_b(b);
  EXPECT_EQ(wa.addr[31], 4 * 31 + 3);
  EXPECT_EQ(wa.degree(), 4);
  EXPECT_EQ(wb.addr[31], 4 * 31 + 3 + (4 * 31 + 3) / 32);
  EXPECT_EQ(wb.degree(), 1);
  EXPECT_EQ(wa.warps, 2);  // the first of 8 active warps reads and writes temp[b]
  EXPECT_EQ(a.counters.bank_conflict, 4);
  EXPECT_EQ(b.counters.bank_conflict, 1);
  EXPECT_GT(extra_wavefronts(a.accesses), extra_wavefronts(b.accesses));
}

TEST(SharedAccesses, SharedScanLayoutNamesThePaddingWords) {
  const Trace with = test::shared_scan_trace(true), without = test::shared_scan_trace(false);
  const std::size_t E = 1024;
  ASSERT_EQ(with.shared_layout.size(), E + (E - 1) / 32);
  EXPECT_EQ(with.shared_layout[31], 31);
  EXPECT_EQ(with.shared_layout[32], -1);  // the padding word after the first 32 elements
  EXPECT_EQ(with.shared_layout[33], 32);
  EXPECT_EQ(std::count(with.shared_layout.begin(), with.shared_layout.end(), -1), std::ptrdiff_t((E - 1) / 32));
  ASSERT_EQ(without.shared_layout.size(), E);
  EXPECT_EQ(std::count(without.shared_layout.begin(), without.shared_layout.end(), -1), 0);
  // Every recorded address is a word of the layout that holds an element.
  for (const Trace* t : {&with, &without})
    for (const Step& s : t->steps)
      for (const WarpAccess& w : s.accesses)
        for (std::int32_t addr : w.addr)
          if (addr >= 0) {
            ASSERT_LT(std::size_t(addr), t->shared_layout.size()) << s.label;
            EXPECT_GE(t->shared_layout[std::size_t(addr)], 0) << s.label;
          }
}

}  // namespace
