// The host side of the multi-GPU primitives, the same on every rank (it sees the same gathered
// counts): where the cuts between ranks go, the classes of keys a rank partitions into, and who
// sends how many keys to whom. Pure C++, so that it is tested without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace primlab::detail {

// A histogram to take on every rank: of bits [width - level - digit_bits, width - level) of the
// keys' images (the range's bits, as an unsigned `width`-bit value x) among the keys whose top
// `level` bits equal `prefix`.
struct SplitterQuery {
  std::uint64_t prefix = 0;
  int level = 0;
};

// Finds G - 1 cuts in the global order of N keys, cut s near position s * N / G. A cut is either
// at a key value (the keys below it go left) or inside a run of keys equal to a value, at a
// position (those runs are ordered rank-major). Each round asks histograms of the queries(), one
// per distinct bucket that still holds a cut; answer() takes them from every rank.
class SplitterSearch {
 public:
  // rank_totals: keys per rank. slack: how far from its target a cut may land on a bucket edge.
  SplitterSearch(int width, std::vector<std::int64_t> rank_totals, std::int64_t slack);
  static constexpr int kDigitBits = 8;

  bool done() const;
  int digit_bits() const;  // of the round queries() describes
  std::vector<SplitterQuery> queries() const;
  // counts[(r * queries().size() + q) * 2^digit_bits() + digit]: rank r's histogram of query q.
  void answer(const std::vector<std::int64_t>& counts);

  struct Cut {
    std::uint64_t value = 0;    // the class boundary: keys with x < value are left of the cut
    bool at_end = false;        // value is 2^width: every key is left of the cut
    bool tie = false;           // inside the run of keys equal to value, at `position`
    std::int64_t position = 0;  // the cut's position in the global order
  };
  const std::vector<Cut>& cuts() const { return cuts_; }
  int rounds() const { return rounds_; }

 private:
  struct Open {
    std::uint64_t prefix = 0;  // the bucket holding the cut, `level` bits
    int level = 0;
    std::int64_t below = 0;  // keys in the global order before that bucket
  };
  int width_;
  int ranks_;
  std::int64_t total_ = 0;
  std::int64_t slack_;
  int level_ = 0;  // of every open cut (they refine in step)
  int rounds_ = 0;
  std::vector<Cut> cuts_;
  std::vector<Open> open_;        // per cut
  std::vector<bool> resolved_;    // per cut
};

// The classes a rank partitions its keys into: class c holds the x in [lower[c], lower[c + 1])
// (the last up to 2^width). Every cut value is a class boundary; a tie cut's run of equal keys is
// a class of its own.
std::vector<std::uint64_t> class_lower_bounds(const std::vector<SplitterSearch::Cut>& cuts, int width);

// Who sends what. The senders are the pieces of the global input order: the ranks, or each
// rank's chunks (rank-major, so sender q = rank * chunks + chunk); class_counts[q * classes + c]
// is sender q's count of class c; cut_positions are the receivers - 1 cuts' positions.
// send[q * receivers + s] is the number of keys sender q sends to rank s. A sender's keys in class
// order go to non-decreasing destinations, so each send is one contiguous run.
std::vector<std::int64_t> send_counts(int senders, int receivers, int classes,
                                      const std::vector<std::int64_t>& class_counts,
                                      const std::vector<std::int64_t>& cut_positions);

// The runs sender `me` sends, one per receiving rank: where class c of its staged keys starts is
// class_start[c] (the classes need not be staged in class order, but the classes one rank
// receives from it must lie side by side, as a partition by key order or its reverse leaves them).
struct Run {
  std::int64_t offset = 0, count = 0;
};
std::vector<Run> send_runs(int senders, int receivers, int classes, const std::vector<std::int64_t>& class_counts,
                           const std::vector<std::int64_t>& cut_positions, int me,
                           const std::vector<std::int64_t>& class_start);

// Where each sender's keys land at rank s: landing[q * receivers + s] keys into s's result, after
// those of every earlier sender (the global input order, which the stable local sort keeps).
std::vector<std::int64_t> landing_offsets(int senders, int receivers, const std::vector<std::int64_t>& send);

// A run of `bytes` landing `at` bytes past a 16-byte boundary of its receiver (its address modulo
// 16) goes as a head (the bytes before the receiver's next boundary, under 16) and a body that
// starts on that boundary. Sender and receiver compute it alike.
constexpr std::size_t kExchangeAlign = 16;
inline std::size_t head_bytes(std::size_t at, std::size_t bytes) {
  const std::size_t to_boundary = (kExchangeAlign - at % kExchangeAlign) % kExchangeAlign;
  return to_boundary < bytes ? to_boundary : bytes;
}

}  // namespace primlab::detail
