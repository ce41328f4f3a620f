// The bank panel's facts (model/bank_view.h) against the shared scan's addressing worked out by
// hand: lanes, words, banks, rows, elements, padding words and each bank's distinct words.
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/result_check.h"
#include "lab/shared_scan_trace.h"
#include "model/bank_view.h"

using namespace primlab;

namespace {

// Step 4 of the preset shared-scan-bank-conflicts: up-sweep d=128, offset=4, thread t reads a = 8t+3.
TEST(BankView, WorstAccessOfTheUpSweepWithoutOffsets) {
  const Trace t = test::shared_scan_trace(false);
  const Step& st = t.steps[4];
  ASSERT_EQ(st.label.rfind("up-sweep d=128, offset=4:", 0), 0u) << st.label;
  const int k = ui::worst_access(st);
  ASSERT_GE(k, 0);
  const ui::BankView v = ui::bank_view(t, st.accesses[std::size_t(k)]);
  EXPECT_EQ(v.degree, 8);
  EXPECT_EQ(v.degree, st.counters.bank_conflict);
  EXPECT_EQ(v.lanes[9].word, 75);  // 8 * 9 + 3
  EXPECT_EQ(v.lanes[9].bank(), 11);
  EXPECT_EQ(v.lanes[9].row(), 2);
  EXPECT_EQ(v.lanes[9].element, 75);
  EXPECT_EQ(v.bank_words[11], 8);  // lanes 1, 5, 9, ..., 29
  EXPECT_EQ(v.bank_words[0], 0);
  EXPECT_EQ(v.words, 1024);
  EXPECT_EQ(v.first_row, 0);
  EXPECT_EQ(v.last_row, (8 * 31 + 3) / 32);
}

TEST(BankView, OffsetsMoveTheLanesIntoDistinctBanksPastPaddingWords) {
  const Trace t = test::shared_scan_trace(true);
  const Step& st = t.steps[4];
  ASSERT_EQ(st.label.rfind("up-sweep d=128, offset=4:", 0), 0u) << st.label;
  for (const WarpAccess& a : st.accesses) {
    const ui::BankView v = ui::bank_view(t, a);
    EXPECT_EQ(v.degree, 1);
    for (int b = 0; b < ui::kBanks; ++b) EXPECT_LE(v.bank_words[std::size_t(b)], 1);
  }
  const ui::BankView v = ui::bank_view(t, st.accesses[std::size_t(ui::worst_access(st))]);
  EXPECT_EQ(v.words, 1024 + 31);
  EXPECT_EQ(v.lanes[9].word, 75 + 2);  // a + (a >> 5)
  EXPECT_EQ(v.lanes[9].element, 75);
  EXPECT_EQ(ui::element_at(t, 32), ui::kPaddingWord);
  EXPECT_EQ(ui::element_at(t, 65), ui::kPaddingWord);
  EXPECT_EQ(ui::element_at(t, 66), 64);
  EXPECT_EQ(ui::access_summary(st.accesses[0]).find("1-way") != std::string::npos, true);
}

TEST(BankView, BroadcastIsOneWordAndNoConflict) {
  Trace t;
  std::vector<WarpAccess> v;
  std::int32_t addrs[32];
  for (int l = 0; l < 32; ++l) addrs[l] = l < 16 ? 7 : 7 + 32 * (l - 15);
  record_access(v, addrs, 32);
  const ui::BankView b = ui::bank_view(t, v[0]);
  EXPECT_EQ(b.lanes_on_word(7), 16);
  EXPECT_EQ(b.bank_words[7], 17);  // word 7 once, then 16 more words of bank 7
  EXPECT_EQ(b.degree, 17);
  EXPECT_EQ(ui::element_at(t, 40), 40);  // no layout: word w holds element w
}

TEST(BankView, RowsToDrawFollowTheAccessWhenTheMemoryIsLong) {
  const Trace scan = test::shared_scan_trace(false);
  const ui::BankView all = ui::bank_view(scan, scan.steps[4].accesses[0]);
  EXPECT_EQ(ui::rows_to_draw(all, 40).size(), 32u);  // 1024 words: every row
  Trace t;  // no layout: 64 words a lane (the per-thread counters' tid*64 + data)
  std::vector<WarpAccess> v;
  std::int32_t addrs[32];
  for (int l = 0; l < 32; ++l) addrs[l] = 64 * l + 5;
  record_access(v, addrs, 32);
  const ui::BankView spread = ui::bank_view(t, v[0]);
  EXPECT_EQ(spread.degree, 32);
  const std::vector<int> rows = ui::rows_to_draw(spread, 40);
  ASSERT_EQ(rows.size(), 32u);  // 63 rows touched do not fit: the 32 rows that hold a word
  EXPECT_EQ(rows[0], 0);
  EXPECT_EQ(rows[1], 2);
  EXPECT_EQ(rows[31], 62);
  addrs[31] = 64 * 10 + 5;  // now rows 0..60: fits in 61
  v.clear();
  record_access(v, addrs, 32);
  EXPECT_EQ(ui::rows_to_draw(ui::bank_view(t, v[0]), 61).size(), 61u);
}

}  // namespace
