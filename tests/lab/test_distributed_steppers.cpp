// The distributed sort's CPU stepper on G virtual GPUs, checked against facts computed here from
// the trace's own rows: the ranks' sorted keys concatenate to a host sort; the scheme is the
// library's (partition first; on up to 4 GPUs sort first after a first splitter round that leaves
// a cut open, computed here from the keys' top digit); the splitters balance
// the ranks (largest <= ceil(n/G) + 2 slack, slack = n / (8 G)) on uniform, Zipf-skewed, all-equal
// and tiny inputs; each shard is staged (partition first) or sorted (sort first) so that its run
// for each GPU and piece is one stretch, which lands unchanged in its place in the receiver's
// range; the pieces of a GPU's range are in key order; the pipeline's steps come in the order the
// library overlaps them (piece 0's transfer, then each transfer beside the sort or merge of the
// piece before, then the last sort or merge), each sort or merge leaving its piece sorted and the
// rest of the output as it was; every round of the splitter search is its host loop's three
// launches; the labels' counters are the rows' facts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "lab/algorithms/distributed/radix_sort/distributed_sort.h"
#include "lab/catalog.h"
#include "lab/model/input.h"

using namespace primlab;
using namespace primlab::lab;  // the rows

namespace {

std::size_t step_of(const Trace& t, const std::string& phase) {
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].phase == phase) return s;
  ADD_FAILURE() << "no step " << phase;
  return 0;
}

std::vector<std::size_t> steps_of(const Trace& t, const std::string& phase) {
  std::vector<std::size_t> v;
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].phase == phase) v.push_back(s);
  return v;
}

std::vector<std::uint32_t> row(const Trace& t, std::size_t s, int r) {
  const std::uint32_t* p = t.row(s, std::size_t(r));
  return {p, p + t.rows[std::size_t(r)].length};
}

Trace run(const std::vector<std::uint32_t>& in, int gpus, int digit_bits, ElemType type = ElemType::U32) {
  StepConfig cfg;
  cfg.n = std::int32_t(in.size());
  cfg.bins = gpus;
  cfg.digit_bits = digit_bits;
  cfg.type = type;
  Trace t;
  const Result r = build_trace_cpu(*find_algorithm("distributed-sort"), cfg, in, t);
  EXPECT_TRUE(r.ok()) << r.message();
  return t;
}

double balance_of(const std::vector<std::uint32_t>& counts, std::int32_t n) {
  const std::uint32_t most = *std::max_element(counts.begin(), counts.end());
  return n == 0 ? 1.0 : double(most) * double(counts.size()) / n;
}

// The pieces every GPU's range is cut into: the bytes row is G x G x pieces.
int pieces_of(const Trace& t, int G) { return int(t.rows[kDistBytes].length) / (G * G); }

// What partition first's splitter rounds do, as the library rules (primlab/distributed.h): the
// rounds it tries (the first, of the top digit of the span the keys differ in; a second where one
// bucket holds every open cut but not every key, and a whole digit lies below it) and whether they
// turn the sort to sort first (a cut left open, or a second round's cut split by position). A cut whose target,
// the start of shard s + 1, lies farther than the slack from both edges of its bucket is refined
// by the bucket's next digit, or split by position where no bits are left.
struct Tried {
  int rounds = 0;
  bool turns = false;
};
Tried partition_first_rounds(const std::vector<std::uint32_t>& in, int G, int bits, ElemType type) {
  const int span = span_of(in);
  const std::int32_t n = std::int32_t(in.size()), slack = n / (8 * G);
  std::vector<std::uint32_t> x;
  for (std::uint32_t w : in) {
    const std::uint32_t v = type == ElemType::I32 ? w ^ 0x80000000u : w;
    x.push_back(span >= 32 ? v : v & ((1u << span) - 1u));
  }
  struct Open {
    std::uint32_t prefix = 0;
    std::int32_t below = 0;
    bool resolved = false, tie = false;
  };
  std::vector<Open> cuts(std::size_t(std::max(G - 1, 0)));
  int level = 0;
  Tried t;
  auto round = [&] {
    const int d = std::min(bits, span - level), rest = span - level - d;
    for (int s = 0; s + 1 < G; ++s) {
      Open& c = cuts[std::size_t(s)];
      if (c.resolved) continue;
      std::vector<std::int32_t> h(std::size_t(1) << d, 0);
      for (std::uint32_t v : x)
        if (level == 0 || v >> (span - level) == c.prefix) ++h[std::size_t((v >> rest) & ((1u << d) - 1u))];
      const std::int32_t local = std::int32_t(std::int64_t(n) * (s + 1) / G) - c.below;
      std::int32_t cum = 0;
      std::size_t b = 0;
      while (b + 1 < h.size() && cum + h[b] <= local) cum += h[b++];
      if (std::min(local - cum, cum + h[b] - local) <= slack) {
        c.resolved = true;
      } else if (rest == 0) {
        c.resolved = c.tie = true;
      } else {
        c.prefix = (c.prefix << d) | std::uint32_t(b);
        c.below += cum;
      }
    }
    level += d;
    ++t.rounds;
  };
  if (in.empty()) return t;
  round();
  std::vector<std::uint32_t> open;
  for (const Open& c : cuts)
    if (!c.resolved && std::find(open.begin(), open.end(), c.prefix) == open.end()) open.push_back(c.prefix);
  const int top = std::min(bits, span);
  const bool every_key_in_one =
      std::all_of(x.begin(), x.end(), [&](std::uint32_t v) { return v >> (span - top) == x[0] >> (span - top); });
  if (open.size() == 1 && !every_key_in_one && span >= 2 * bits) round();
  t.turns = std::any_of(cuts.begin(), cuts.end(), [&](const Open& c) { return !c.resolved || (t.rounds == 2 && c.tie); });
  return t;
}

// Every fact of one trace; returns the balance of the top-digit splitters (before refining).
double check(const std::vector<std::uint32_t>& in, int G, int bits, ElemType type = ElemType::U32) {
  SCOPED_TRACE("G=" + std::to_string(G) + " digit bits=" + std::to_string(bits) + " n=" + std::to_string(in.size()));
  const Trace t = run(in, G, bits, type);
  const std::int32_t n = std::int32_t(in.size());
  const std::size_t last = t.steps.size() - 1;
  // Partition first; on up to 4 GPUs it tries one splitter round (or two), then sorts first if
  // they leave a cut open.
  const Tried tried = partition_first_rounds(in, G, bits, type);
  const bool sort_first = G <= kDistSortFirstMaxGpus && tried.turns;
  auto before = [&](std::uint32_t a, std::uint32_t b) {
    return type == ElemType::I32 ? std::int32_t(a) < std::int32_t(b) : a < b;
  };
  // The scheme: the library's for G and, on 4 GPUs, for the keys.
  EXPECT_NE(t.title.find(sort_first ? "(partition first, then sort first" : "(partition first,"),
            std::string::npos)
      << t.title;
  EXPECT_EQ(steps_of(t, "presort").size(), sort_first ? 1u : 0u);
  EXPECT_EQ(steps_of(t, "runs").size(), sort_first ? 1u : 0u);
  EXPECT_EQ(steps_of(t, "partition").size(), sort_first ? 0u : 1u);
  // The result: a host sort, in the key type's order.
  std::vector<std::uint32_t> want = in;
  std::sort(want.begin(), want.end(), before);
  EXPECT_EQ(row(t, last, kDistSorted), want);
  // Shards: contiguous, as equal as possible.
  const std::vector<std::int32_t>& shard = t.steps[0].bands;
  EXPECT_EQ(shard.size(), std::size_t(G + 1));
  for (int r = 0; r <= G; ++r) EXPECT_EQ(shard[std::size_t(r)], std::int64_t(r) * n / G);
  // Splitters: the edges row, non-decreasing from 0 to n; the counts row its differences; balanced.
  const std::vector<std::uint32_t> edges = row(t, last, kDistEdges);
  const std::vector<std::uint32_t> counts = row(t, last, kDistCounts);
  EXPECT_EQ(edges.front(), 0u);
  EXPECT_EQ(edges.back(), std::uint32_t(n));
  const std::int32_t slack = n / (8 * G), fair = (n + G - 1) / G;
  for (int s = 0; s < G; ++s) {
    EXPECT_LE(edges[std::size_t(s)], edges[std::size_t(s + 1)]);
    EXPECT_EQ(counts[std::size_t(s)], edges[std::size_t(s + 1)] - edges[std::size_t(s)]);
    EXPECT_LE(std::int32_t(counts[std::size_t(s)]), fair + 2 * slack) << "GPU " << s;
  }
  EXPECT_EQ(t.steps[last].bands, std::vector<std::int32_t>(edges.begin(), edges.end()));
  // Sort first: each shard sorted before anything else.
  const std::vector<std::uint32_t> staged = row(t, last, kDistPart);
  if (sort_first) {
    EXPECT_EQ(step_of(t, "presort"), std::size_t(1 + 3 * tried.rounds)) << "after the tried rounds' three launches each";
    for (int r = 0; r < G; ++r) {
      std::vector<std::uint32_t> shard_keys(in.begin() + shard[std::size_t(r)], in.begin() + shard[std::size_t(r + 1)]);
      std::stable_sort(shard_keys.begin(), shard_keys.end(), before);
      EXPECT_TRUE(std::equal(shard_keys.begin(), shard_keys.end(), staged.begin() + shard[std::size_t(r)]))
          << "shard " << r << " sorted";
    }
  }
  // Who sends what: bytes[(r G + s) P + j]. GPU r's runs lie in its staged shard in (s, j) order;
  // each lands unchanged in s's range, piece by piece, each piece in sender order.
  const int P = pieces_of(t, G);
  EXPECT_GE(P, 1);
  EXPECT_LE(P, kDistPieces);
  if (P < 1 || P > kDistPieces) return 0;
  const std::vector<std::uint32_t> bytes = row(t, last, kDistBytes);
  const std::vector<std::uint32_t> recv = row(t, last, kDistRecv);
  auto sent = [&](int r, int s, int j) { return std::int32_t(bytes[std::size_t((r * G + s) * P + j)] / 4); };
  std::vector<std::int32_t> piece_start(std::size_t(G * P)), piece_count(std::size_t(G * P));
  for (int s = 0; s < G; ++s) {
    std::int32_t at = std::int32_t(edges[std::size_t(s)]);
    for (int j = 0; j < P; ++j) {
      piece_start[std::size_t(s * P + j)] = at;
      for (int r = 0; r < G; ++r) at += sent(r, s, j);
      piece_count[std::size_t(s * P + j)] = at - piece_start[std::size_t(s * P + j)];
    }
    EXPECT_EQ(at, std::int32_t(edges[std::size_t(s + 1)])) << "GPU " << s << " receives its range";
  }
  std::int64_t across = 0;
  for (int r = 0; r < G; ++r) {
    std::int32_t from = shard[std::size_t(r)];
    for (int s = 0; s < G; ++s)
      for (int j = 0; j < P; ++j) {
        std::int32_t to = piece_start[std::size_t(s * P + j)];
        for (int e = 0; e < r; ++e) to += sent(e, s, j);
        const std::int32_t keys = sent(r, s, j);
        EXPECT_TRUE(std::equal(staged.begin() + from, staged.begin() + from + keys, recv.begin() + to))
            << "GPU " << r << "'s run of piece " << j << " for GPU " << s << " lands unchanged";
        across += r != s ? 4 * keys : 0;
        from += keys;
      }
    EXPECT_EQ(from, shard[std::size_t(r + 1)]) << "GPU " << r << " sends its whole shard";
  }
  // GPU s holds its range of the sorted keys; its pieces are in key order.
  for (int s = 0; s < G; ++s) {
    std::vector<std::uint32_t> got(recv.begin() + edges[std::size_t(s)], recv.begin() + edges[std::size_t(s + 1)]);
    std::vector<std::uint32_t> slice(want.begin() + edges[std::size_t(s)], want.begin() + edges[std::size_t(s + 1)]);
    std::sort(got.begin(), got.end());
    std::sort(slice.begin(), slice.end());
    EXPECT_EQ(got, slice) << "GPU " << s << " holds its range of the sorted keys";
    for (int j = 0; j + 1 < P; ++j) {
      const std::int32_t a = piece_start[std::size_t(s * P + j)], b = piece_start[std::size_t(s * P + j + 1)];
      const std::int32_t e = b + piece_count[std::size_t(s * P + j + 1)];
      if (a == b || b == e) continue;
      const std::uint32_t most = *std::max_element(recv.begin() + a, recv.begin() + b, before);
      const std::uint32_t least = *std::min_element(recv.begin() + b, recv.begin() + e, before);
      EXPECT_FALSE(before(least, most)) << "GPU " << s << ": piece " << j + 1 << " after piece " << j;
    }
  }
  // Partition first: each shard is staged in runs by destination; a key's destination is its
  // run's.
  if (!sort_first) {
    const std::size_t part = step_of(t, "partition");
    const std::vector<std::uint32_t> dest = row(t, part, kDistDest);
    EXPECT_EQ(row(t, part, kDistBytes), bytes) << "the partition counts what each GPU sends";
    for (int r = 0; r < G; ++r) {
      std::int32_t at = shard[std::size_t(r)];
      for (int s = 0; s < G; ++s) {
        std::vector<std::uint32_t> to_s, run;
        for (std::int32_t i = shard[std::size_t(r)]; i < shard[std::size_t(r + 1)]; ++i)
          if (dest[std::size_t(i)] == std::uint32_t(s)) to_s.push_back(in[std::size_t(i)]);
        std::int32_t keys = 0;
        for (int j = 0; j < P; ++j) keys += sent(r, s, j);
        run.assign(staged.begin() + at, staged.begin() + at + keys);
        std::sort(run.begin(), run.end());
        std::sort(to_s.begin(), to_s.end());
        EXPECT_EQ(run, to_s) << "GPU " << r << "'s run for GPU " << s;
        at += keys;
      }
    }
  } else {
    EXPECT_EQ(row(t, step_of(t, "runs"), kDistBytes), bytes) << "locate_runs counts what each GPU sends";
  }
  // The pieces per GPU the partition or the runs step names: the largest is P, and a GPU receives
  // keys in no piece past its own count.
  {
    const std::string& label = t.steps[step_of(t, sort_first ? "runs" : "partition")].label;
    const std::size_t at = label.find("pieces per GPU ");
    EXPECT_NE(at, std::string::npos) << label;
    std::vector<int> named;
    if (at != std::string::npos) {
      std::istringstream words(label.substr(at + 15));
      for (int k; words >> k;) named.push_back(k);
    }
    EXPECT_EQ(named.size(), std::size_t(G)) << label;
    if (named.size() == std::size_t(G)) {
      EXPECT_EQ(*std::max_element(named.begin(), named.end()), P) << label;
      for (int s = 0; s < G; ++s)
        for (int j = named[std::size_t(s)]; j < P; ++j)
          EXPECT_EQ(piece_count[std::size_t(s * P + j)], 0) << "GPU " << s << " piece " << j << ": " << label;
    }
  }
  // The pipeline: piece 0's transfer, then piece j's beside piece j - 1's sort or merge, then the
  // last sort or merge; one arrow per pair that sends in the piece; each sort or merge leaves its
  // piece sorted and the rest of the output as it was.
  const std::string local = sort_first ? "merge" : "sort";
  const std::vector<std::size_t> ex = steps_of(t, "exchange"), fin = steps_of(t, local);
  EXPECT_EQ(ex.size(), std::size_t(P));
  EXPECT_EQ(fin.size(), std::size_t(P));
  EXPECT_EQ(steps_of(t, sort_first ? "sort" : "merge").size(), 0u);
  if (ex.size() != std::size_t(P) || fin.size() != std::size_t(P)) return 0;
  const std::size_t first = ex[0];
  for (int j = 0; j < P; ++j) {
    EXPECT_EQ(ex[std::size_t(j)], first + (j == 0 ? 0 : 2 * j - 1)) << "piece " << j << "'s transfer";
    EXPECT_EQ(fin[std::size_t(j)], first + 2 * j + (j + 1 < P ? 2 : 1)) << "piece " << j << "'s " << local;
    const Step& x = t.steps[ex[std::size_t(j)]];
    const Step& f = t.steps[fin[std::size_t(j)]];
    EXPECT_NE(x.label.find("piece " + std::to_string(j + 1) + " of " + std::to_string(P)), std::string::npos) << x.label;
    EXPECT_NE(f.label.find("piece " + std::to_string(j + 1) + " of " + std::to_string(P)), std::string::npos) << f.label;
    // Which steps run side by side: the transfer of piece j and the sort or merge of piece j - 1,
    // the step after it; the first transfer and the last sort or merge alone.
    const std::string verb = sort_first ? "merges " : "sorts ";
    auto piece = [&](int k) { return "piece " + std::to_string(k + 1) + " of " + std::to_string(P); };
    const std::string x_beside = j == 0 ? "; no sort or merge beside it"
                                        : "; side by side with the next step, where every GPU " + verb + piece(j - 1);
    const std::string f_beside = j + 1 < P ? "; side by side with the step before, " + piece(j + 1) + "'s transfer"
                                           : "; after the last transfer, nothing beside it";
    EXPECT_NE(x.label.find(x_beside), std::string::npos) << x.label;
    EXPECT_NE(f.label.find(f_beside), std::string::npos) << f.label;
    if (j > 0) {
      EXPECT_EQ(fin[std::size_t(j - 1)], ex[std::size_t(j)] + 1) << "piece " << j - 1 << " beside piece " << j;
    }
    std::int32_t pairs = 0;
    for (int r = 0; r < G; ++r)
      for (int s = 0; s < G; ++s) pairs += sent(r, s, j) > 0;
    EXPECT_EQ(x.launch.active, pairs) << "piece " << j;
    for (std::int64_t k = 0; k < x.op_count(); ++k) {
      const Op& o = t.ops[std::size_t(x.op_begin + k)];
      if (o.kind == 0) continue;
      EXPECT_GT(sent(o.thread / G, o.thread % G, j), 0) << "an arrow for a pair that sends nothing";
    }
    const std::vector<std::uint32_t> out = row(t, fin[std::size_t(j)], kDistSorted);
    const std::vector<std::uint32_t> was = row(t, fin[std::size_t(j)] - 1, kDistSorted);
    for (int s = 0; s < G; ++s)
      for (int k = 0; k < P; ++k) {
        const std::int32_t a = piece_start[std::size_t(s * P + k)], e = a + piece_count[std::size_t(s * P + k)];
        if (k != j) {
          EXPECT_TRUE(std::equal(out.begin() + a, out.begin() + e, was.begin() + a)) << "GPU " << s << " piece " << k;
          continue;
        }
        std::vector<std::uint32_t> sorted(recv.begin() + a, recv.begin() + e);
        std::stable_sort(sorted.begin(), sorted.end(), before);
        EXPECT_TRUE(std::equal(sorted.begin(), sorted.end(), out.begin() + a)) << "GPU " << s << " piece " << j;
      }
  }
  std::int64_t written = 0, crossing = 0;
  for (std::size_t s : ex) {
    written += t.steps[s].counters.global_write_bytes;
    const std::string& label = t.steps[s].label;
    const std::size_t at = label.find(" bytes cross");
    EXPECT_NE(at, std::string::npos) << label;
    crossing += std::stoll(label.substr(label.rfind(' ', at - 1) + 1, at - label.rfind(' ', at - 1) - 1));
  }
  EXPECT_EQ(written, 4 * std::int64_t(n));
  EXPECT_EQ(crossing, across);
  double first_balance = -1;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    const Step& st = t.steps[s];
    if (st.phase != "splitters") continue;
    const std::vector<std::uint32_t> c = row(t, s, kDistCounts);
    char text[32];
    std::snprintf(text, sizeof text, "balance (largest / mean) %.2f", balance_of(c, n));
    EXPECT_NE(st.label.find(text), std::string::npos) << st.label;
    if (first_balance < 0) first_balance = balance_of(c, n);
  }
  // Every round is the host loop's three launches: the histograms, the all-reduce, the cuts. Each
  // GPU's histogram counts the cells its keys show; the all-reduced one is their sum; round 1
  // counts every key.
  // The tried round is a search of its own, which the presort follows.
  const std::size_t cells = t.rows[kDistHist].length;
  std::size_t rounds = 0, s = step_of(t, "histogram");
  EXPECT_EQ(s, 1u);
  for (; s < t.steps.size() && t.steps[s].phase == "histogram"; s += 3, ++rounds) {
    EXPECT_EQ(t.steps[s + 1].phase, "all-reduce");
    EXPECT_EQ(t.steps[s + 2].phase, "splitters");
    if (t.steps[s + 1].phase != "all-reduce" || t.steps[s + 2].phase != "splitters") break;
    const std::vector<std::uint32_t> cell = row(t, s, kDistCell), per = row(t, s, kDistGpuHist);
    std::vector<std::uint32_t> want_per(per.size(), 0u);
    for (int r = 0; r < G; ++r)
      for (std::int32_t i = shard[std::size_t(r)]; i < shard[std::size_t(r + 1)]; ++i)
        if (cell[std::size_t(i)] != ~0u) ++want_per[std::size_t(r) * cells + cell[std::size_t(i)]];
    EXPECT_EQ(per, want_per) << "round " << rounds + 1;
    const std::vector<std::uint32_t> global = row(t, s + 1, kDistHist);
    std::uint32_t total = 0;
    for (std::size_t b = 0; b < cells; ++b) {
      std::uint32_t sum = 0;
      for (int r = 0; r < G; ++r) sum += per[std::size_t(r) * cells + b];
      EXPECT_EQ(global[b], sum);
      total += global[b];
    }
    if (rounds == 0) {
      EXPECT_EQ(total, std::uint32_t(n));
    }
    const std::string& placed = t.steps[s + 2].label;
    EXPECT_NE(placed.find("round " + std::to_string(rounds + 1) + ":"), std::string::npos) << placed;
    const bool turns = placed.find("turns the sort to sort first") != std::string::npos;
    EXPECT_EQ(turns, sort_first && s == std::size_t(1 + 3 * (tried.rounds - 1))) << placed;
    if (turns) {
      EXPECT_EQ(t.steps[s + 3].phase, "presort");
      s += 1;
      rounds = std::size_t(-1);  // the search starts again
    }
  }
  EXPECT_GE(rounds, 1u);
  EXPECT_EQ(t.steps[s].phase, sort_first ? "runs" : "partition");
  EXPECT_EQ(s + 1, first);
  return first_balance;
}

std::size_t rounds_of(const Trace& t) {
  std::size_t k = 0;
  for (const Step& s : t.steps) k += s.phase == "splitters";
  return k;
}

std::vector<std::uint32_t> words(std::initializer_list<std::uint32_t> v) { return v; }

// The most virtual GPUs the row takes (its bins limit).
int max_gpus() { return find_algorithm("distributed-sort")->max_bins; }

TEST(DistributedSort, UniformKeysBalanceOnTheTopDigit) {
  std::mt19937 rng(3);
  std::vector<std::uint32_t> in(480);
  for (auto& k : in) k = rng() & 0xffu;
  for (int G = 2; G <= max_gpus(); ++G) check(in, G, 4);
  for (int bits = 2; bits <= 8; ++bits) {
    check(in, 4, bits);
    check(in, 2, bits);
  }
  for (auto& k : in) k = rng();  // the whole 32-bit range, int32 negatives included
  for (int G : {2, 3, 8}) {
    check(in, G, 8);
    check(in, G, 8, ElemType::I32);
  }
}

TEST(DistributedSort, ZipfSkewNeedsTheNextDigitAndPositions) {
  // 45 of 48 keys share the top digit 0 (the preset distributed-zipf).
  const auto in = words({7, 3, 12, 1, 2, 0, 3, 66, 3, 1, 0, 3, 1, 3, 7, 0, 12, 2, 3, 7, 12, 12, 1, 5,
                         97, 1, 7, 3, 7, 12, 255, 5, 3, 3, 7, 3, 1, 3, 3, 3, 0, 3, 3, 3, 14, 3, 1, 1});
  EXPECT_GE(check(in, 4, 4), 3.0);  // the top digit alone puts 45 keys on one GPU
  const Trace t = run(in, 4, 4);
  EXPECT_NE(t.title.find("partition first, then sort first"), std::string::npos) << t.title;
  EXPECT_EQ(rounds_of(t), 4u) << "partition first's top digit and bucket 0's next digit (a cut by position turns it); "
                                  "then sort first's top digit and the next digit of bucket 0";
  EXPECT_NE(t.steps[3].label.find("the next round refines it"), std::string::npos) << t.steps[3].label;
  EXPECT_EQ(t.steps[3].label.find("turns the sort to sort first"), std::string::npos) << t.steps[3].label;
  EXPECT_NE(t.steps[6].label.find("split by position"), std::string::npos) << t.steps[6].label;
  EXPECT_NE(t.steps[6].label.find("turns the sort to sort first"), std::string::npos) << t.steps[6].label;
  EXPECT_EQ(t.steps[7].phase, "presort");
  EXPECT_NE(t.steps[13].label.find("split by position"), std::string::npos) << t.steps[13].label;
  const Trace eight = run(in, 8, 4);  // sort first merges at most 4 runs: 8 GPUs partition first
  EXPECT_NE(eight.title.find("(partition first,"), std::string::npos) << eight.title;
  EXPECT_NE(eight.steps[3].label.find("the next round refines it"), std::string::npos) << eight.steps[3].label;
  check(in, 8, 4);
  check(in, 2, 4);  // sort first: the run of threes split between two GPUs
  check(in, 3, 2);
  std::mt19937 rng(5);
  std::vector<std::uint32_t> zipf(2000);
  for (auto& k : zipf) k = std::uint32_t(1000.0 / (1 + rng() % 1000));  // heavy on 1, 2, 3, ...
  for (int G = 2; G <= max_gpus(); ++G)
    for (int bits : {2, 5, 8}) check(zipf, G, bits);
}

TEST(DistributedSort, EqualKeysAreSplitByPositionInOnePiece) {
  for (int G = 2; G <= max_gpus(); ++G) {
    const std::vector<std::uint32_t> in(std::size_t(37 * G + 3), 42u);
    EXPECT_DOUBLE_EQ(check(in, G, 4), 1.0 * double((in.size() + G - 1) / G) * G / double(in.size()));
    const Trace t = run(in, G, 4);
    EXPECT_NE(t.steps[step_of(t, "splitters")].label.find("split by position"), std::string::npos);
    EXPECT_NE(t.steps[step_of(t, "histogram")].explain.find("All keys are equal"), std::string::npos);
    EXPECT_EQ(pieces_of(t, G), 1) << "no bucket edge inside a range: one piece, as the library keeps";
    EXPECT_NE(t.title.find("1 piece)"), std::string::npos) << t.title;
  }
}

// The pieces follow the library's piece_bounds: up to 4 per GPU, at counted edges; partition
// first, each about 1.5x the one before (the first, whose transfer nothing hides, the smallest),
// on uniform keys and on skewed ones (70 % of them share the top digit 0x42, which a second round
// refines); sort first (two hot top digits, 40 % each, leave open cuts in two buckets), about equal.
TEST(DistributedSort, RangesTravelInPiecesThatGrowPartitionFirst) {
  std::mt19937 rng(11);
  std::vector<std::uint32_t> uniform(960), skewed(960), two_hot(960);
  for (auto& k : uniform) k = rng();
  for (std::size_t i = 0; i < skewed.size(); ++i) skewed[i] = i % 10 < 7 ? 0x42000000u | (rng() & 0xFFFFFFu) : rng();
  for (std::size_t i = 0; i < two_hot.size(); ++i)
    two_hot[i] = i % 10 < 4 ? 0x42000000u | (rng() & 0xFFFFFFu) : i % 10 < 8 ? 0x90000000u | (rng() & 0xFFFFFFu) : rng();
  struct Case {
    int G;
    const std::vector<std::uint32_t>* in;
    const char* name;
    bool sort_first;
  };
  for (const Case& c : {Case{2, &uniform, "uniform", false}, Case{4, &uniform, "uniform", false},
                        Case{8, &uniform, "uniform", false}, Case{2, &skewed, "skewed", false},
                        Case{4, &skewed, "skewed", false}, Case{4, &two_hot, "two hot digits", true}}) {
    const int G = c.G;
    SCOPED_TRACE("G=" + std::to_string(G) + " " + c.name);
    const Trace t = run(*c.in, G, 8);
    EXPECT_EQ(t.title.find("then sort first") != std::string::npos, c.sort_first) << t.title;
    const int P = pieces_of(t, G);
    EXPECT_EQ(P, kDistPieces) << "the rounds' buckets leave edges inside every range";
    const std::vector<std::uint32_t> bytes = row(t, t.steps.size() - 1, kDistBytes);
    for (int s = 0; s < G; ++s) {
      std::vector<std::int32_t> size(std::size_t(P), 0);
      for (int r = 0; r < G; ++r)
        for (int j = 0; j < P; ++j) size[std::size_t(j)] += std::int32_t(bytes[std::size_t((r * G + s) * P + j)] / 4);
      std::int32_t range = 0;
      for (std::int32_t x : size) range += x;
      for (int j = 0; j < P; ++j) EXPECT_GT(size[std::size_t(j)], 0) << "GPU " << s << " piece " << j;
      if (c.sort_first) {
        for (int j = 0; j < P; ++j) EXPECT_NEAR(size[std::size_t(j)], range / P, range / 8 + 2) << "GPU " << s;
      } else {
        EXPECT_LT(size[0], size[std::size_t(P - 1)]) << "GPU " << s;
        EXPECT_NEAR(double(size[std::size_t(P - 1)]) / size[0], 27.0 / 8, 1.5) << "GPU " << s;
      }
    }
    check(*c.in, G, 8);
  }
}

// Skewed keys whose cuts a second round places in the one hot bucket stay partition first, as the
// library stages them (one radix pass of 511 bins); the partition step says so, and the second
// round's count step that the library counted it in the first.
TEST(DistributedSort, ASecondRoundInOneHotBucketKeepsPartitionFirst) {
  std::mt19937 rng(13);
  std::vector<std::uint32_t> skewed(960);
  for (std::size_t i = 0; i < skewed.size(); ++i) skewed[i] = i % 10 < 7 ? 0x42000000u | (rng() & 0xFFFFFFu) : rng();
  for (int G : {2, 3, 4}) {
    SCOPED_TRACE("G=" + std::to_string(G));
    const Trace t = run(skewed, G, 8);
    EXPECT_EQ(t.title.find("then sort first"), std::string::npos) << t.title;
    EXPECT_EQ(rounds_of(t), 2u);
    EXPECT_NE(t.steps[step_of(t, "partition")].explain.find("one radix pass of 511 bins"), std::string::npos);
    // The second round's count step says the library counted it in the first.
    std::size_t second = 0;
    for (std::size_t s = 0; s < t.steps.size(); ++s)
      if (t.steps[s].label.rfind("count_buckets, round 2", 0) == 0) second = s;
    ASSERT_GT(second, 0u);
    EXPECT_NE(t.steps[second].explain.find("this round reads no key"), std::string::npos);
    check(skewed, G, 8);
  }
}

TEST(DistributedSort, FewerKeysThanGpusAndOneKey) {
  check(words({9, 2, 5}), 8, 4);
  check(words({9, 2, 5}), 3, 4);
  check(words({7}), 2, 2);
  check(words({7}), 8, 8);
  check(words({1, 0}), 3, 3, ElemType::I32);
  const Trace t = run(words({9, 2, 5}), 8, 4);
  EXPECT_NE(t.steps[0].explain.find("Fewer keys than GPUs"), std::string::npos);
}

TEST(DistributedSort, RejectsWhatItCannotRun) {
  const Algorithm& a = *find_algorithm("distributed-sort");
  StepConfig cfg;
  cfg.n = 4;
  const std::vector<std::uint32_t> in = {1, 2, 3, 4};
  Trace t;
  for (int g : {1, 9}) {
    cfg.bins = g;
    EXPECT_FALSE(build_trace_cpu(a, cfg, in, t).ok()) << g;
  }
  cfg.bins = 4;
  cfg.type = ElemType::F32;
  EXPECT_FALSE(build_trace_cpu(a, cfg, in, t).ok());
  cfg.type = ElemType::U32;
  cfg.n = 0;
  const Result r = build_trace_cpu(a, cfg, {}, t);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message().find("n must be"), std::string::npos) << r.message();
}

}  // namespace
