// Splitter search, classes and send counts of the multi-GPU primitives (see distributed_plan.h).
#include "device/distributed_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace primlab::detail {

namespace {
using U128 = unsigned __int128;
}  // namespace

SplitterSearch::SplitterSearch(int width, std::vector<std::int64_t> rank_totals, std::int64_t slack)
    : width_(width), ranks_(static_cast<int>(rank_totals.size())), slack_(slack) {
  total_ = std::accumulate(rank_totals.begin(), rank_totals.end(), std::int64_t(0));
  const int n_cuts = std::max(ranks_ - 1, 0);
  cuts_.assign(n_cuts, Cut{});
  open_.assign(n_cuts, Open{});
  resolved_.assign(n_cuts, total_ == 0 || width_ == 0);
  for (int s = 0; s < n_cuts; ++s) cuts_[s].position = total_ * (s + 1) / ranks_;
  if (width_ == 0) {  // an empty bit range: every key is equal, so every cut is a tie on 0
    for (Cut& c : cuts_) c.tie = true;
  }
}

bool SplitterSearch::done() const {
  return std::all_of(resolved_.begin(), resolved_.end(), [](bool r) { return r; });
}

int SplitterSearch::digit_bits() const { return std::min(kDigitBits, width_ - level_); }

std::vector<SplitterQuery> SplitterSearch::queries() const {
  std::vector<SplitterQuery> q;
  for (std::size_t s = 0; s < cuts_.size(); ++s) {
    if (resolved_[s]) continue;
    // Open cuts are in position order, so their buckets are too: equal ones are neighbours.
    if (q.empty() || q.back().prefix != open_[s].prefix) q.push_back({open_[s].prefix, level_});
  }
  return q;
}

void SplitterSearch::answer(const std::vector<std::int64_t>& counts) {
  const std::vector<SplitterQuery> q = queries();
  const int d = digit_bits();
  const std::size_t buckets = std::size_t(1) << d;
  const int rest = width_ - level_ - d;
  std::vector<std::int64_t> total(buckets);
  std::size_t qi = 0, recorded = q.size();  // the query whose edges were recorded last
  for (std::size_t s = 0; s < cuts_.size(); ++s) {
    if (resolved_[s]) continue;
    Open& o = open_[s];
    while (q[qi].prefix != o.prefix) ++qi;
    std::fill(total.begin(), total.end(), 0);
    for (int r = 0; r < ranks_; ++r)
      for (std::size_t b = 0; b < buckets; ++b) total[b] += counts[(r * q.size() + qi) * buckets + b];
    if (recorded != qi) {  // the bucket's inner edges, once per bucket
      std::int64_t at = o.below;
      for (std::size_t b = 1; b < buckets; ++b) {
        at += total[b - 1];
        edges_.push_back({static_cast<std::uint64_t>(((U128(o.prefix) << d) | b) << rest), at});
      }
      recorded = qi;
    }
    Cut& cut = cuts_[s];
    const std::int64_t local = cut.position - o.below;
    std::int64_t cum = 0;
    std::size_t b = 0;
    while (cum + total[b] <= local) cum += total[b++];
    const std::int64_t to_lower = local - cum, to_upper = cum + total[b] - local;
    const U128 bucket = (U128(o.prefix) << d) | b;
    if (std::min(to_lower, to_upper) <= slack_) {  // close enough to a bucket edge: cut there
      const bool lower = to_lower <= to_upper;
      const U128 value = (lower ? bucket : bucket + 1) << rest;
      cut.at_end = (value >> width_) != 0;
      cut.value = cut.at_end ? 0 : static_cast<std::uint64_t>(value);
      cut.position = o.below + (lower ? cum : cum + total[b]);
      resolved_[s] = true;
    } else if (rest == 0) {  // inside a run of equal keys: cut it at the target position
      cut.value = static_cast<std::uint64_t>(bucket);
      cut.tie = true;
      resolved_[s] = true;
    } else {
      o = {static_cast<std::uint64_t>(bucket), level_ + d, o.below + cum};
    }
  }
  level_ += d;
  ++rounds_;
}

std::vector<std::uint64_t> class_lower_bounds(const std::vector<SplitterSearch::Cut>& cuts, int width) {
  std::vector<std::uint64_t> lower{0};
  const U128 end = U128(1) << width;
  for (const SplitterSearch::Cut& c : cuts) {
    if (c.at_end) continue;
    lower.push_back(c.value);
    if (c.tie && U128(c.value) + 1 < end) lower.push_back(c.value + 1);
  }
  std::sort(lower.begin(), lower.end());
  lower.erase(std::unique(lower.begin(), lower.end()), lower.end());
  return lower;
}

std::vector<std::vector<std::uint64_t>> piece_bounds(const SplitterSearch& search, int pieces, double growth) {
  const std::vector<SplitterSearch::Cut>& cuts = search.cuts();
  const int ranks = int(cuts.size()) + 1;
  std::vector<std::vector<std::uint64_t>> bounds(ranks);
  if (pieces <= 1) return bounds;
  // The targets' fractions of a range: the pieces' sizes are 1, growth, growth^2, ... (scaled).
  std::vector<double> fraction{0.0};
  for (int j = 0; j < pieces; ++j) fraction.push_back(fraction.back() + std::pow(growth, j));
  for (double& f : fraction) f /= fraction.back();
  for (int r = 0; r < ranks; ++r) {
    const std::int64_t lo = r == 0 ? 0 : cuts[r - 1].position;
    const std::int64_t hi = r + 1 == ranks ? search.total() : cuts[r].position;
    std::vector<const SplitterSearch::Edge*> inside;
    for (const SplitterSearch::Edge& e : search.edges())
      if (lo < e.position && e.position < hi) inside.push_back(&e);
    if (inside.empty()) continue;
    for (int j = 1; j < pieces; ++j) {
      const double target = double(lo) + fraction[j] * double(hi - lo);
      const SplitterSearch::Edge* best = inside.front();
      for (const SplitterSearch::Edge* e : inside)
        if (std::abs(double(e->position) - target) < std::abs(double(best->position) - target)) best = e;
      bounds[r].push_back(best->value);
    }
    std::sort(bounds[r].begin(), bounds[r].end());
    bounds[r].erase(std::unique(bounds[r].begin(), bounds[r].end()), bounds[r].end());
  }
  return bounds;
}

Classes make_classes(const SplitterSearch& search, int width, int pieces, double growth) {
  Classes c;
  c.lower = class_lower_bounds(search.cuts(), width);
  const std::vector<std::vector<std::uint64_t>> bounds = piece_bounds(search, pieces, growth);
  for (const auto& b : bounds) c.lower.insert(c.lower.end(), b.begin(), b.end());
  std::sort(c.lower.begin(), c.lower.end());
  c.lower.erase(std::unique(c.lower.begin(), c.lower.end()), c.lower.end());
  c.pieces = std::max(pieces, 1);
  const std::size_t classes = c.lower.size();
  c.piece.assign(bounds.size() * classes, 0);
  for (std::size_t s = 0; s < bounds.size(); ++s)
    for (std::size_t k = 0; k < classes; ++k)
      c.piece[s * classes + k] =
          int(std::upper_bound(bounds[s].begin(), bounds[s].end(), c.lower[k]) - bounds[s].begin());
  return c;
}

namespace {

// Calls piece(q, s, j, c, first, count) for every part of rank q's keys of class c that goes to
// rank s (in its piece j): `count` keys from the class's `first`-th on. Class c's keys of rank q
// take the global positions after those of every smaller class and of the same class of every
// earlier rank.
template <class Piece>
void for_each_piece(int ranks, const Classes& classes, const std::vector<std::int64_t>& class_counts,
                    const std::vector<std::int64_t>& cut_positions, Piece piece) {
  const int C = int(classes.lower.size());
  const std::int64_t total = std::accumulate(class_counts.begin(), class_counts.end(), std::int64_t(0));
  std::vector<std::int64_t> edge{0};  // rank s takes global positions [edge[s], edge[s + 1])
  edge.insert(edge.end(), cut_positions.begin(), cut_positions.end());
  edge.push_back(total);
  std::int64_t start = 0;
  for (int c = 0; c < C; ++c) {
    for (int q = 0; q < ranks; ++q) {
      const std::int64_t end = start + class_counts[std::size_t(q) * C + c];
      for (int s = 0; s < ranks; ++s) {
        const std::int64_t lo = std::max(start, edge[s]), hi = std::min(end, edge[s + 1]);
        if (hi > lo) piece(q, s, classes.piece[std::size_t(s) * C + c], c, lo - start, hi - lo);
      }
      start = end;
    }
  }
}

}  // namespace

std::vector<std::int64_t> send_counts(int ranks, const Classes& classes, const std::vector<std::int64_t>& class_counts,
                                      const std::vector<std::int64_t>& cut_positions) {
  const int P = classes.pieces;
  std::vector<std::int64_t> send(std::size_t(ranks) * ranks * P, 0);
  for_each_piece(ranks, classes, class_counts, cut_positions,
                 [&](int q, int s, int j, int, std::int64_t, std::int64_t count) {
                   send[(std::size_t(q) * ranks + s) * P + j] += count;
                 });
  return send;
}

std::vector<Run> send_runs(int ranks, const Classes& classes, const std::vector<std::int64_t>& class_counts,
                           const std::vector<std::int64_t>& cut_positions, int me,
                           const std::vector<std::int64_t>& class_start) {
  const int P = classes.pieces;
  std::vector<Run> runs(std::size_t(ranks) * P);
  std::vector<bool> seen(runs.size(), false);
  for_each_piece(ranks, classes, class_counts, cut_positions,
                 [&](int q, int s, int j, int c, std::int64_t first, std::int64_t count) {
                   if (q != me) return;
                   const std::size_t i = std::size_t(s) * P + j;
                   const std::int64_t at = class_start[c] + first;
                   runs[i].offset = seen[i] ? std::min(runs[i].offset, at) : at;
                   runs[i].count += count;
                   seen[i] = true;
                 });
  return runs;
}

std::vector<std::int64_t> landing_offsets(int ranks, int pieces, const std::vector<std::int64_t>& send) {
  std::vector<std::int64_t> landing(send.size(), 0);
  for (int s = 0; s < ranks; ++s) {
    std::int64_t at = 0;
    for (int j = 0; j < pieces; ++j)
      for (int q = 0; q < ranks; ++q) {
        const std::size_t i = (std::size_t(q) * ranks + s) * pieces + j;
        landing[i] = at;
        at += send[i];
      }
  }
  return landing;
}

std::vector<std::int64_t> stage_gaps(const std::vector<std::int64_t>& digit_start, std::vector<StagedRun> runs,
                                     const StageLayout& layout) {
  std::vector<std::int64_t> gap(digit_start.size(), 0);
  std::sort(runs.begin(), runs.end(), [](const StagedRun& a, const StagedRun& b) { return a.offset < b.offset; });
  std::int64_t shift = 0;  // the gaps before the run
  for (const StagedRun& run : runs) {
    const auto d = std::lower_bound(digit_start.begin(), digit_start.end(), run.offset);
    if (d == digit_start.end() || *d != run.offset) continue;
    auto fits = [&](std::int64_t g, int p) {
      const std::size_t at = layout.stage_at[p] + std::size_t(run.offset + shift + g) * layout.elem[p];
      return at % kExchangeAlign == run.want[p] % kExchangeAlign;
    };
    std::int64_t chosen = 0;
    for (int need = layout.parts; need >= 1; --need) {
      std::int64_t g = 0;
      while (g < kRunGap && !(fits(g, 0) && (need < 2 || fits(g, 1)))) ++g;
      if (g < kRunGap) {
        chosen = g;
        break;
      }
    }
    gap[std::size_t(d - digit_start.begin())] += chosen;
    shift += chosen;
  }
  return gap;
}

std::int64_t with_gaps(const std::vector<std::int64_t>& digit_start, const std::vector<std::int64_t>& gap,
                       std::int64_t offset) {
  std::int64_t at = offset;
  for (std::size_t d = 0; d < digit_start.size() && digit_start[d] <= offset; ++d) at += gap[d];
  return at;
}

DigitPlacement place_digits(const std::vector<std::int64_t>& digit_start, const std::vector<std::int64_t>& gap,
                            const std::vector<OwnRun>& own, std::int64_t recv_at, std::int64_t aux_at,
                            std::int64_t aux_size) {
  const int digits = int(digit_start.size()) - 1;
  DigitPlacement p;
  p.own_begin = digit_start.back();
  for (const OwnRun& r : own)
    if (r.count > 0) {
      p.own_begin = std::min(p.own_begin, r.offset);
      p.own_end = std::max(p.own_end, r.offset + r.count);
    }
  if (p.own_end == 0) return p;  // no own keys: nothing to place
  const std::int64_t first_after = with_gaps(digit_start, gap, p.own_end);
  if (aux_at < first_after) return p;
  p.shift = keeping_alignment(aux_at - first_after);
  if (with_gaps(digit_start, gap, digit_start.back()) + p.shift > aux_at + aux_size) return p;
  std::vector<std::int64_t> at(std::size_t(digits) + 1, -1);
  std::int64_t end = 0;
  for (int d = 0; d < digits; ++d) {
    const std::int64_t s = digit_start[std::size_t(d)], keys = digit_start[std::size_t(d) + 1] - s;
    if (keys == 0) continue;
    if (s + keys <= p.own_begin || s >= p.own_end) {
      at[std::size_t(d)] = p.place(digit_start, gap, s);
    } else {
      const auto run = std::find_if(own.begin(), own.end(), [&](const OwnRun& r) {
        return r.count > 0 && r.offset <= s && s + keys <= r.offset + r.count;
      });
      if (run == own.end()) return p;
      at[std::size_t(d)] = recv_at + run->landing + (s - run->offset);
    }
    end = at[std::size_t(d)] + keys;
  }
  // An empty digit starts where the next digit with keys does.
  at[std::size_t(digits)] = end;
  for (int d = digits - 1; d >= 0; --d)
    if (at[std::size_t(d)] < 0) at[std::size_t(d)] = at[std::size_t(d) + 1];
  for (int d = 0; d < digits; ++d)
    if (at[std::size_t(d) + 1] - at[std::size_t(d)] < digit_start[std::size_t(d) + 1] - digit_start[std::size_t(d)]) return p;
  if (at.back() - at.front() > std::int64_t(std::numeric_limits<std::uint32_t>::max())) return p;
  p.at = std::move(at);
  return p;
}

int StageBins::bin_at(std::uint64_t value, bool at_end, int width) const {
  if (at_end) return size();
  const int shift = width - 8;
  const int top = int(value >> shift);
  const std::uint64_t below = value & ((std::uint64_t(1) << shift) - 1);
  if (below == 0) return hot < 0 || top <= hot ? top : top + 255;
  const int sub_shift = shift - 8;
  if (top != hot || sub_shift < 0 || (below & ((std::uint64_t(1) << sub_shift) - 1)) != 0) return -1;
  return hot + int(below >> sub_shift);
}

std::vector<std::int64_t> StageBins::counts(const std::int64_t* top, const std::int64_t* sub) const {
  std::vector<std::int64_t> n;
  n.reserve(std::size_t(size()));
  for (int t = 0; t < 256; ++t) {
    if (t == hot) n.insert(n.end(), sub, sub + 256);
    else n.push_back(top[t]);
  }
  return n;
}

std::vector<std::uint32_t> given_counts(const std::vector<std::int64_t>& place, const std::vector<std::int64_t>& keys,
                                        std::int64_t& base) {
  const std::size_t digits = place.size();
  // An empty digit 0 starts at the lowest place of a digit with keys, and so does the pass's output.
  base = keys[0] > 0 ? place[0] : std::numeric_limits<std::int64_t>::max();
  for (std::size_t t = 1; t < digits && keys[0] == 0; ++t)
    if (keys[t] > 0) base = std::min(base, place[t]);
  if (base == std::numeric_limits<std::int64_t>::max()) base = place[0];
  for (std::size_t t = 0; t < digits; ++t)
    if (keys[t] > 0 && (place[t] < base || place[t] + keys[t] - base > std::int64_t(std::numeric_limits<std::uint32_t>::max()) + 1))
      return {};
  // Digit t starts at the sum of the counts below it, so count t is the step to the next digit's
  // start (an empty digit starts where the one before it does).
  std::vector<std::int64_t> start(digits, base);
  for (std::size_t t = 1; t < digits; ++t) start[t] = keys[t] > 0 ? place[t] : start[t - 1];
  std::vector<std::uint32_t> counts(digits);
  for (std::size_t t = 0; t < digits; ++t)
    counts[t] = std::uint32_t(t + 1 < digits ? start[t + 1] - start[t] : keys[t]);
  return counts;
}

std::int64_t hot_scratch(const std::vector<std::int64_t>& at, const std::vector<std::int64_t>& digit_start,
                         std::int64_t count, std::int64_t recv_at, std::int64_t aux_at, std::int64_t aux_size) {
  constexpr std::int64_t kRound = 64;  // 256 bytes of the smallest element
  auto up = [](std::int64_t x) { return (x + kRound - 1) / kRound * kRound; };
  std::int64_t stage_end = at[0], aux_end = aux_at;
  for (std::size_t f = 0; f + 1 < digit_start.size(); ++f) {
    const std::int64_t keys = digit_start[f + 1] - digit_start[f];
    if (keys == 0) continue;
    if (at[f] < recv_at) stage_end = std::max(stage_end, at[f] + keys);
    else if (at[f] >= aux_at) aux_end = std::max(aux_end, at[f] + keys);
  }
  if (up(stage_end) + count <= recv_at) return up(stage_end);
  if (up(aux_end) + count <= aux_at + aux_size) return up(aux_end);
  return -1;
}

std::vector<SegmentChunk> piece_chunks(int ranks, const std::vector<std::int64_t>& digit_counts,
                                       const std::vector<std::int64_t>& first, const std::vector<std::int64_t>& count,
                                       const std::vector<std::int64_t>& landing, bool reversed,
                                       const std::vector<int>& segment_of, int* lowest) {
  const int bins = int(digit_counts.size()) / std::max(ranks, 1);
  const int segments = segment_of.empty() ? bins : segment_of.back() + 1;
  // len[q][s], at[q][s]: rank q's keys of segment s in its run of the piece, and where they start in
  // it (a rank's keys of one segment lie side by side there, its bins in stage order).
  std::vector<std::int64_t> len(std::size_t(ranks) * segments, 0);
  std::vector<std::int64_t> at(std::size_t(ranks) * segments, std::numeric_limits<std::int64_t>::max());
  int lo = segments, hi = 0;
  for (int q = 0; q < ranks; ++q) {
    const std::int64_t a = first[q], b = first[q] + count[q];
    std::int64_t below = 0;  // q's keys of the bins below t
    for (int t = 0; t < bins && count[q] > 0; ++t) {
      const std::int64_t c = digit_counts[std::size_t(q) * bins + t];
      const std::int64_t from = std::max(a, below), to = std::min(b, below + c);
      below += c;
      if (to <= from) continue;
      const int seg = segment_of.empty() ? t : segment_of[std::size_t(t)];
      const std::size_t i = std::size_t(q) * segments + seg;
      len[i] += to - from;
      at[i] = std::min(at[i], landing[q] + (reversed ? b - to : from - a));
      lo = std::min(lo, seg);
      hi = std::max(hi, seg + 1);
    }
  }
  std::vector<SegmentChunk> chunks;
  for (int seg = lo; seg < hi; ++seg)
    for (int q = 0; q < ranks; ++q) {
      const std::size_t i = std::size_t(q) * segments + seg;
      if (len[i] > 0) chunks.push_back({at[i], len[i], seg - lo});
    }
  if (lowest != nullptr) *lowest = lo;
  return chunks;
}

SegmentPlan segment_plan(const std::vector<SegmentChunk>& chunks, int segments, int tile) {
  SegmentPlan plan;
  std::vector<std::int64_t> size(std::size_t(std::max(segments, 0)), 0);
  for (const SegmentChunk& ch : chunks) size[std::size_t(ch.seg)] += ch.count;
  plan.start.assign(size.size(), 0);
  for (std::size_t s = 1; s < size.size(); ++s) plan.start[s] = std::uint32_t(plan.start[s - 1] + size[s - 1]);
  // A span of `count` keys from `src` of segment `seg`, after the table's tiles so far.
  auto cut = [tile](std::vector<TileSpan>& spans, std::uint32_t& tiles, std::int64_t src, std::int64_t count, int seg,
                    std::uint32_t seg_first) {
    if (count == 0) return;
    spans.push_back({std::uint32_t(src), std::uint32_t(count), std::uint32_t(seg), tiles, seg_first});
    tiles += std::uint32_t((count + tile - 1) / tile);
  };
  int seg = -1;
  std::uint32_t seg_first = 0;
  for (const SegmentChunk& ch : chunks) {
    if (ch.seg != seg) {
      seg = ch.seg;
      seg_first = plan.first_tiles;
    }
    cut(plan.first, plan.first_tiles, ch.src, ch.count, ch.seg, seg_first);
  }
  for (int s = 0; s < segments; ++s)
    cut(plan.later, plan.later_tiles, plan.start[std::size_t(s)], size[std::size_t(s)], s, plan.later_tiles);
  return plan;
}

}  // namespace primlab::detail
