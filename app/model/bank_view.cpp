// The bank panel's data: see bank_view.h.
#include "model/bank_view.h"

#include <algorithm>

namespace primlab::ui {

std::int32_t element_at(const Trace& t, std::int32_t word) {
  if (word < 0) return kPaddingWord;
  if (std::size_t(word) < t.shared_layout.size()) return t.shared_layout[std::size_t(word)];
  return t.shared_layout.empty() ? word : kPaddingWord;
}

int BankView::lanes_on_word(std::int32_t word) const {
  return int(std::count_if(lanes.begin(), lanes.end(), [&](const LaneHit& h) { return h.word == word; }));
}

BankView bank_view(const Trace& t, const WarpAccess& a) {
  BankView v;
  v.warps = a.warps;
  v.words = std::int32_t(t.shared_layout.size());
  std::int32_t lo = -1, hi = -1;
  for (int l = 0; l < 32; ++l) {
    const std::int32_t w = a.addr[std::size_t(l)];
    if (w < 0) continue;
    v.lanes[std::size_t(l)] = {w, element_at(t, w)};
    lo = lo < 0 ? w : std::min(lo, w);
    hi = std::max(hi, w);
  }
  for (int b = 0; b < kBanks; ++b) {
    int distinct = 0;
    for (int l = 0; l < 32; ++l) {
      const LaneHit& h = v.lanes[std::size_t(l)];
      if (!h.active() || h.bank() != b) continue;
      bool seen = false;
      for (int m = 0; m < l && !seen; ++m) seen = v.lanes[std::size_t(m)].word == h.word;
      distinct += !seen;
    }
    v.bank_words[std::size_t(b)] = distinct;
    v.degree = std::max(v.degree, distinct);
  }
  if (hi >= 0) {
    v.first_row = lo / kBanks;
    v.last_row = hi / kBanks;
    v.words = std::max(v.words, hi + 1);
  }
  return v;
}

std::vector<int> rows_to_draw(const BankView& v, int fit) {
  std::vector<int> rows;
  const int total = (v.words + kBanks - 1) / kBanks;
  if (total <= fit) {
    for (int r = 0; r < total; ++r) rows.push_back(r);
  } else if (v.last_row - v.first_row < fit) {
    for (int r = v.first_row; r <= v.last_row; ++r) rows.push_back(r);
  } else {
    for (const LaneHit& h : v.lanes)
      if (h.active()) rows.push_back(h.row());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  return rows;
}

int worst_access(const Step& st) {
  int best = -1, worst = 0;
  for (std::size_t i = 0; i < st.accesses.size(); ++i)
    if (st.accesses[i].degree() > worst) {
      worst = st.accesses[i].degree();
      best = int(i);
    }
  return best;
}

std::string access_summary(const WarpAccess& a) {
  int first = -1, last = -1;
  std::int32_t lo = -1, hi = -1;
  for (int l = 0; l < 32; ++l) {
    const std::int32_t w = a.addr[std::size_t(l)];
    if (w < 0) continue;
    if (first < 0) first = l;
    last = l;
    lo = lo < 0 ? w : std::min(lo, w);
    hi = std::max(hi, w);
  }
  std::string s = "lanes " + std::to_string(first) + (last > first ? "-" + std::to_string(last) : "") + ", words " +
                  std::to_string(lo) + (hi > lo ? ".." + std::to_string(hi) : "") + ": " +
                  std::to_string(a.degree()) + "-way";
  if (a.warps > 1) s += ", x" + std::to_string(a.warps) + " warps";
  return s;
}

}  // namespace primlab::ui
