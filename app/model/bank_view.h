// One warp access to shared memory as the banks see it: which word, bank and row each lane hits,
// which element (or padding word) that word holds, and how many distinct words each bank must
// serve. What the Step tab's bank panel draws (ui/bank_panel.h); plain data, no GL or ImGui.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/trace.h"

namespace primlab::ui {

constexpr int kBanks = 32;

// What a word of a block's shared memory holds: an element's logical index, or kPaddingWord for
// a word that the addressing skips (Trace::shared_layout).
constexpr std::int32_t kPaddingWord = -1;
std::int32_t element_at(const Trace& t, std::int32_t word);

struct LaneHit {
  std::int32_t word = -1;     // -1: the lane is idle in this access
  std::int32_t element = -1;  // what the word holds (kPaddingWord for padding)
  int bank() const { return word % kBanks; }
  int row() const { return word / kBanks; }
  bool active() const { return word >= 0; }
};

struct BankView {
  std::array<LaneHit, 32> lanes;
  std::array<int, kBanks> bank_words{};  // distinct words each bank serves (its degree)
  int degree = 0;                        // the worst bank: the access takes `degree` wavefronts
  std::int32_t warps = 0;                // warps of the step that made this access
  int first_row = 0, last_row = -1;      // the rows of shared memory the access touches
  std::int32_t words = 0;                // words to draw: the layout, grown to the highest address
  // Lanes of `lane`'s word (a broadcast when more than one).
  int lanes_on_word(std::int32_t word) const;
};

BankView bank_view(const Trace& t, const WarpAccess& a);

// The rows of shared memory to draw, at most `fit` of them: every row when the memory fits, else
// the rows from the first to the last the access touches when they fit, else only the rows that
// hold a lane's word (at most 32).
std::vector<int> rows_to_draw(const BankView& v, int fit);

// The access shown first: the first of the step's worst, -1 when the step makes none.
int worst_access(const Step& st);

// "lanes 0-31, words 0..62: 2-way, x3 warps": a one-line name of an access for a list.
std::string access_summary(const WarpAccess& a);

}  // namespace primlab::ui
