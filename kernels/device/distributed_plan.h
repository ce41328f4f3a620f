// The host side of the multi-GPU primitives, the same on every rank (it sees the same gathered
// counts): where the cuts between ranks go, the classes of keys a rank partitions into, and who
// sends how many keys to whom. Pure C++, so that it is tested without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/segment_tile.h"

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
  // Every inner bucket edge the answered histograms showed: the keys with x < value are the first
  // `position` of the global order. The pieces of a rank's range are cut at these.
  struct Edge {
    std::uint64_t value = 0;
    std::int64_t position = 0;
  };
  const std::vector<Edge>& edges() const { return edges_; }
  std::int64_t total() const { return total_; }
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
  std::vector<Edge> edges_;
  std::vector<Open> open_;        // per cut
  std::vector<bool> resolved_;    // per cut
};

// The classes a rank partitions its keys into: class c holds the x in [lower[c], lower[c + 1])
// (the last up to 2^width). Every cut value is a class boundary; a tie cut's run of equal keys is
// a class of its own.
std::vector<std::uint64_t> class_lower_bounds(const std::vector<SplitterSearch::Cut>& cuts, int width);

// The pieces of every rank's range (DistributedOptions::pieces): up to `pieces` - 1 values per
// rank, ascending, each an edge of the search strictly inside the rank's range, the one nearest a
// target; the targets cut the range into pieces whose sizes grow by `growth` from one to the next.
// A rank whose range holds no edge (keys equal on the range) keeps one piece.
std::vector<std::vector<std::uint64_t>> piece_bounds(const SplitterSearch& search, int pieces, double growth);

// The classes of a call: the cuts' (class_lower_bounds) and the pieces' bounds together, and
// piece[s * classes + c], the piece of rank s that class c's keys fall in there (class c's keys
// that rank s receives all fall in one piece, since every piece bound is a class bound).
struct Classes {
  std::vector<std::uint64_t> lower;
  std::vector<int> piece;
  int pieces = 1;
};
Classes make_classes(const SplitterSearch& search, int width, int pieces, double growth);

// Who sends what. class_counts[q * classes + c] is rank q's count of class c; cut_positions are the
// ranks - 1 cuts' positions. send[(q * ranks + s) * pieces + j] is the number of keys rank q sends
// to rank s in piece j. A rank's keys in class order go to non-decreasing (destination, piece),
// so each send is one contiguous run.
std::vector<std::int64_t> send_counts(int ranks, const Classes& classes, const std::vector<std::int64_t>& class_counts,
                                      const std::vector<std::int64_t>& cut_positions);

// The runs rank `me` sends, [s * pieces + j]: where class c of its staged keys starts is
// class_start[c] (the classes need not be staged in class order, but the classes of one run must
// lie side by side, as a partition by key order or its reverse leaves them).
struct Run {
  std::int64_t offset = 0, count = 0;
};
std::vector<Run> send_runs(int ranks, const Classes& classes, const std::vector<std::int64_t>& class_counts,
                           const std::vector<std::int64_t>& cut_positions, int me,
                           const std::vector<std::int64_t>& class_start);

// Where each run lands in its receiver's result, indexed as send: rank s holds its pieces in
// order, and in piece j the runs of ranks 0, 1, ... (the global input order, which a stable local
// sort keeps). A piece's start is where rank 0's run lands in it.
std::vector<std::int64_t> landing_offsets(int ranks, int pieces, const std::vector<std::int64_t>& send);

// A run of `bytes` landing `at` bytes past a 256-byte boundary of its receiver (its address modulo
// 256) goes as a head (the bytes before the receiver's next boundary, under 256) and a body that
// starts on that boundary. Sender and receiver compute it alike. NCCL moved bodies aligned to 16
// bytes on both sides, but to different offsets from a 256-byte boundary, at 64-77 % of its rate
// for runs aligned to 256 (4 x H200, f0a1a4d: partition-first against sort-first's exchange).
constexpr std::size_t kExchangeAlign = 256;
inline std::size_t head_bytes(std::size_t at, std::size_t bytes) {
  const std::size_t to_boundary = (kExchangeAlign - at % kExchangeAlign) % kExchangeAlign;
  return to_boundary < bytes ? to_boundary : bytes;
}

// A shard staged by digit with gaps, so that each run to another rank starts at its receiver's
// alignment and leaves from where it lies (a copy to give it that alignment cost 1.35 ms of a
// 9.58 ms sort, 4 x H100, bench/NOTES-distributed.md). Without gaps digit d's keys lie at
// [digit_start[d], digit_start[d + 1]); with them, `gap[d]` elements more come before digit d.
// A run that starts at a digit's start wants part p (keys, then values) of its first element at
// want[p] bytes past a kExchangeAlign boundary, where part p's elements of elem[p] bytes are
// staged from stage_at[p] bytes past one. The gaps give every run both, or its keys' alignment
// where both cannot be had, each under kRunGap elements (the library's smallest element is 4
// bytes). A run that starts inside a digit gets no gap.
constexpr std::int64_t kRunGap = std::int64_t(kExchangeAlign / 4);
struct StagedRun {
  std::int64_t offset = 0;  // without gaps
  std::size_t want[2] = {0, 0};
};
struct StageLayout {
  int parts = 1;
  std::size_t elem[2] = {4, 4};
  std::size_t stage_at[2] = {0, 0};
};
std::vector<std::int64_t> stage_gaps(const std::vector<std::int64_t>& digit_start, std::vector<StagedRun> runs,
                                     const StageLayout& layout);
// Where the element at `offset` (without gaps) lies with them.
std::int64_t with_gaps(const std::vector<std::int64_t>& digit_start, const std::vector<std::int64_t>& gap,
                       std::int64_t offset);

// The least move of at least `distance` elements that is a multiple of 256 elements: staged runs so
// moved keep every part's alignment to kExchangeAlign.
inline std::int64_t keeping_alignment(std::int64_t distance) { return (distance + 255) / 256 * 256; }

// The same partition with the rank's own runs written straight to where they land in its receive
// buffer, so that nothing copies them there: the digits before the own runs lie in the stage with
// their gaps, the own runs' digits at recv_at plus their landing, and the digits after them from
// aux_at on, each at its staged position modulo 256 elements (which keeps every part's alignment).
// Positions are in elements past the stage's start (the receive buffer and aux lie past the
// stage, at the same element distance for keys and values). `at` is empty where this cannot be:
// the own runs' landings do not rise with their digits (a descending sort of several pieces), a
// digit straddles an own run's end, the digits after them do not fit aux_size, or the partition's
// positions span 2^32 elements.
struct OwnRun {
  std::int64_t offset = 0, count = 0;  // in the stage, without gaps
  std::int64_t landing = 0;            // in the receive buffer
};
struct DigitPlacement {
  std::vector<std::int64_t> at;  // at[d]: where digit d's first key goes; at[256]: past the last key
  std::int64_t own_begin = 0, own_end = 0, shift = 0;
  // Where a run to another rank, staged at `offset` without gaps, lies.
  std::int64_t place(const std::vector<std::int64_t>& digit_start, const std::vector<std::int64_t>& gap,
                     std::int64_t offset) const {
    return with_gaps(digit_start, gap, offset) + (offset >= own_end ? shift : 0);
  }
};
DigitPlacement place_digits(const std::vector<std::int64_t>& digit_start, const std::vector<std::int64_t>& gap,
                            const std::vector<OwnRun>& own, std::int64_t recv_at, std::int64_t aux_at,
                            std::int64_t aux_size);

// The bins partition-first stages a shard by, in the order's image: its top digits, and where the
// splitters refined one of them in a second round (one hot top digit, as skewed keys give), that
// digit's 256 sub-digits (the digit below it) in its place: 511 bins. A pass by the top digit
// stages the others and writes the hot digit's keys aside, a pass by the sub-digit stages those.
// Every cut and piece bound of such a search is a bin edge, and each bin's count on every rank is
// in the rounds' histograms, which every rank holds.
struct StageBins {
  int hot = -1;  // the refined top digit, or -1 (256 bins, the top digits)
  int size() const { return hot < 0 ? 256 : 511; }
  bool in_hot(int bin) const { return hot >= 0 && bin >= hot && bin < hot + 256; }
  int top_of(int bin) const { return hot < 0 || bin < hot ? bin : in_hot(bin) ? hot : bin - 255; }
  // The bin whose lowest value is `value` in a `width`-bit image (size() for 2^width), or -1 where
  // no bin starts there.
  int bin_at(std::uint64_t value, bool at_end, int width) const;
  // Rank r's keys per bin, from its histograms of the top digit (top[256]) and of the hot digit's
  // sub-digit (sub[256], unused without a hot digit).
  std::vector<std::int64_t> counts(const std::int64_t* top, const std::int64_t* sub) const;
};

// The given counts (onesweep::run's given_counts) of a one-pass partition whose digit t's keys go
// `place[t]` elements past where the stage starts, and `base`, where the pass's output starts (the
// place of digit 0, which a pass puts first): the pass adds the counts modulo 2^32, so the places
// need not rise with the digits. Empty where some digit with keys lies before base or 2^32
// elements past it.
std::vector<std::uint32_t> given_counts(const std::vector<std::int64_t>& place, const std::vector<std::int64_t>& keys,
                                        std::int64_t& base);

// Where the pass by the top digit writes the hot digit's `count` keys (the pass by the sub-digit
// reads them there): a free stretch, past none of the staged keys it must not overwrite and not
// before `at[0]` (the pass's output starts there), in the stage (elements [0, recv_at)) past the
// digits staged there, else in aux past those placed there; -1 where neither has room. `at` and
// `digit_start` as in DigitPlacement (places, and starts without gaps, of every bin).
std::int64_t hot_scratch(const std::vector<std::int64_t>& at, const std::vector<std::int64_t>& digit_start,
                         std::int64_t count, std::int64_t recv_at, std::int64_t aux_at, std::int64_t aux_size);

// A segmented sort of a piece (onesweep::run_segmented), where every top digit of the order's image
// is a segment sorted by the bits below it: partition-first's pass by the top digit is then the
// sort's first pass. A chunk is the keys of one segment that lie side by side in the piece as it
// landed: one rank's keys of one top digit.
struct SegmentChunk {
  std::int64_t src = 0, count = 0;
  int seg = 0;
};
// The chunks of a piece, segment by segment and in rank order within one (the global input order).
// Rank q's run of the piece lands at landing[q] of the piece and holds its keys of order-image
// ranks [first[q], first[q] + count[q]) among its own, whose B bins counted digit_counts[q * B +
// t]: in ascending bin order, or descending where `reversed` (the stage's order for a descending
// sort). Bin t is in segment segment_of[t] (non-decreasing; empty: the bin's own), renumbered so
// that segment 0 is the piece's lowest; `lowest`, where given, is told which that is.
std::vector<SegmentChunk> piece_chunks(int ranks, const std::vector<std::int64_t>& digit_counts,
                                       const std::vector<std::int64_t>& first, const std::vector<std::int64_t>& count,
                                       const std::vector<std::int64_t>& landing, bool reversed,
                                       const std::vector<int>& segment_of = {}, int* lowest = nullptr);

// The tables of a segmented sort, as the spans the GPU cuts its tiles from (tile_of): pass 0's
// from the chunks (a tile never spans two), the later passes' from the segments as pass 0 leaves
// them (segment s from start[s] on).
struct SegmentPlan {
  std::vector<TileSpan> first, later;
  std::vector<std::uint32_t> start;
  std::uint32_t first_tiles = 0, later_tiles = 0;
};
SegmentPlan segment_plan(const std::vector<SegmentChunk>& chunks, int segments, int tile);

}  // namespace primlab::detail
