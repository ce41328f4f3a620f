// Distributed radix sort on G virtual GPUs (2 to 8, StepConfig::bins): the plan (one step per
// launch of distributed_sort.cuh's host code) and the CPU reference, which runs the same launches.
// The scheme is the library's: partition first (kernels/tuning/distributed.cuh, for keys on every
// rank count); on up to 4 GPUs, a first splitter round that leaves a cut open turns it to sort
// first, whose search starts again (the model keeps that round, the first of Model::search).
// The n keys are split into G contiguous shards (shard g = [g n / G, (g + 1) n / G)). Sort first,
// every GPU first sorts its shard. Every round of the splitter search is three launches: every
// GPU counts a digit of its keys in the buckets that hold an open cut (round 0: the top digit of
// every key), the counts are all-reduced, and the G - 1 cuts walk the sum towards s n / G. A cut
// that lands inside a bucket too far from both of its edges (more than the slack, n / (8 G)) is
// refined with the next digit in the next round; a bucket of equal keys (no bits left) is cut by
// position, since equal keys are interchangeable in a keys-only sort (the global order is
// shard-major). Each GPU's range of the result is then cut into up to 4 pieces at bucket edges the
// rounds counted (the library's piece_bounds: growing 1.5x one from the next partition first,
// equal sort first). Partition first, every GPU stages its keys by the classes the cuts and the
// pieces define (which groups them by destination and piece); sort first, every GPU finds where
// each class starts in its sorted shard. Then the pipeline: piece 0 travels; piece j travels while
// piece j - 1 is sorted (partition first) or merged (sort first) on every GPU; the last piece is
// sorted or merged last. GPU s ends up with the global positions [edge s, edge s + 1) of the
// sorted keys: every one of them within 2 x slack + 1 of n / G.
// Keys are radix images: uint32 as they are, int32 with the sign bit flipped; the digits are taken
// from the bits the keys differ in (span_of), so that small keys read in a few digits.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <utility>

#include "lab/algorithms/distributed/radix_sort/distributed_sort.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab;  // the rows and the kernels' arguments

std::string fmt_balance(double b) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f", b);
  return s;
}

std::string bits_text(int lo, int hi) { return "bits [" + std::to_string(lo) + ", " + std::to_string(hi) + ")"; }

// A key as the kernels read it (radix_image): int32 with the sign bit flipped, bits [0, span).
std::uint32_t image_of(std::uint32_t w, ElemType t, int span) {
  const std::uint32_t x = t == ElemType::I32 ? w ^ 0x80000000u : w;
  return span >= 32 ? x : x & ((1u << span) - 1u);
}

// One round of the splitter search, as the host code runs it: its argument to the kernels, and
// what its three launches (count_buckets, all_reduce, place_cuts) do.
struct RoundRun {
  Round round;
  std::int32_t cells = 0;                // queries x 2^bits
  std::vector<std::int32_t> cell;        // per key: its cell, -1 outside the queried buckets
  std::vector<std::uint32_t> gpu_hist;   // [gpu][cells]
  std::vector<std::uint32_t> hist;       // [cells]
  std::vector<std::int32_t> landed;      // per cut walked this round: the hist cell it landed in, else -1
  std::vector<std::int32_t> walked;      // per cut: the cells its walk read
  std::vector<Cut> cuts;                 // after the round
  std::vector<std::int32_t> edges;       // G + 1: where GPU s starts after the round
  std::vector<std::int32_t> below;       // per queried bucket: the keys before it in the global order
  std::int32_t counted = 0;              // keys in the queried buckets
  int open = 0, at_edge = 0, refined = 0, ties = 0;  // cuts walked; placed on an edge, refined, split by position
};

// Everything the host code decides and the kernels compute, from the input.
struct Model {
  std::int32_t n = 0;
  int gpus = 0, digit_bits = 0, span = 0;
  DistScheme scheme = DistScheme::PartitionFirst;
  int tried = 0;  // sort first: the rounds partition first ran before it turned
  int pieces = 1;                        // the classes' pieces: the most of any GPU
  std::int32_t slack = 0;
  std::int32_t cells = 0;                // per GPU: the largest round's cells (the histograms' room)
  int threads = 0, rounds = 0;           // a GPU's block and its keys per thread
  int sort_threads = 0;                  // a GPU's block for its pieces' sorts or merges
  std::vector<std::uint32_t> x;          // the keys' images
  std::vector<std::int32_t> shard;       // G + 1
  std::vector<RoundRun> search;          // the rounds in the order they run (sort first: partition first's, then its own)
  std::vector<SearchEdge> seen;          // every inner edge of the buckets the rounds counted
  Classes classes;
  std::vector<std::int32_t> edges;       // G + 1, final
  std::vector<std::int32_t> cls, pos, dest;  // per key: class, staged position (partition first), destination GPU
  std::vector<std::int32_t> send;        // [(from * G + to) * pieces + piece] keys
  std::vector<std::int32_t> piece_start, piece_count;  // [gpu * pieces + piece]: where in the result, how many
  std::vector<int> piece_rounds;         // per piece: keys per thread of its sort or merge

  std::int32_t sent(int r, int s, int j) const { return send[std::size_t((r * gpus + s) * pieces + j)]; }
  // Where GPU r's run of piece j for GPU s starts in its staged shard, and where it lands in s's.
  std::int32_t run_from(int r, int s, int j) const {
    std::int32_t from = shard[std::size_t(r)];
    for (int e = 0; e < gpus; ++e)
      for (int k = 0; k < pieces; ++k) from += e < s || (e == s && k < j) ? sent(r, e, k) : 0;
    return from;
  }
  std::int32_t run_to(int r, int s, int j) const {
    std::int32_t to = piece_start[std::size_t(s * pieces + j)];
    for (int e = 0; e < r; ++e) to += sent(e, s, j);
    return to;
  }
};

int class_of(const Classes& k, std::uint32_t x) {
  int c = 0;
  while (c + 1 < k.count && k.lower[c + 1] <= x) ++c;
  return c;
}

int destination(const Classes& k, int c, int g, std::int32_t j) {
  if (k.dest[c] >= 0) return k.dest[c];
  const std::int32_t position = k.run_start[c] + k.run_before[c][g] + j;
  int d = 0;
  while (d + 1 < k.gpus && k.edges[d + 1] <= position) ++d;
  return d;
}

// place_cuts for one cut: the walk along its bucket's histogram, and where it leaves the cut.
void walk(const Model& m, RoundRun& rr, int s, Cut& c) {
  const Round& round = rr.round;
  int q = 0;
  while (round.prefix[q] != c.prefix) ++q;
  const int buckets = 1 << round.bits;
  const std::uint32_t* h = rr.hist.data() + q * buckets;
  const std::int32_t target = m.shard[std::size_t(s + 1)], local = target - c.below;
  std::int32_t cum = 0;
  int b = 0;
  while (b + 1 < buckets && cum + std::int32_t(h[b]) <= local) cum += std::int32_t(h[b++]);
  rr.landed[std::size_t(s)] = q * buckets + b;
  rr.walked[std::size_t(s)] = b + 1;
  rr.open += 1;
  const std::int32_t to_lower = local - cum, to_upper = cum + std::int32_t(h[b]) - local;
  const std::uint64_t bucket = (std::uint64_t(c.prefix) << round.bits) | std::uint64_t(b);
  c.at = c.below + (to_lower <= to_upper ? cum : cum + std::int32_t(h[b]));
  if (std::min(to_lower, to_upper) <= m.slack) {
    c.bound = (to_lower <= to_upper ? bucket : bucket + 1) << round.rest;
    c.resolved = 1;
    rr.at_edge += 1;
  } else if (round.rest == 0) {
    c.at = target;
    c.tie = c.resolved = 1;
    c.bound = bucket;
    c.run_start = c.below + cum;
    std::int32_t before = 0;
    for (int g = 0; g < m.gpus; ++g) {
      c.run_before[g] = before;
      before += std::int32_t(rr.gpu_hist[std::size_t(g * rr.cells + q * buckets + b)]);
    }
    rr.ties += 1;
  } else {
    c.prefix = std::uint32_t(bucket);
    c.below += cum;
    rr.refined += 1;
  }
}

Model model(const StepConfig& cfg, const std::vector<std::uint32_t>& input) {
  Model m;
  m.n = std::int32_t(input.size());
  m.gpus = cfg.bins;
  m.digit_bits = cfg.digit_bits;
  m.span = span_of(input);
  m.slack = m.n / (8 * m.gpus);
  const int G = m.gpus;
  for (std::uint32_t w : input) m.x.push_back(image_of(w, cfg.type, m.span));
  std::int32_t widest = 0;
  for (int g = 0; g <= G; ++g) {
    m.shard.push_back(std::int32_t(std::int64_t(m.n) * g / G));
    if (g > 0) widest = std::max(widest, m.shard[std::size_t(g)] - m.shard[std::size_t(g - 1)]);
  }
  m.threads = gpu_threads(widest);
  m.rounds = (widest + m.threads - 1) / m.threads;
  auto gpu_of = [&](std::int32_t i) {
    int g = 0;
    while (i >= m.shard[std::size_t(g + 1)]) ++g;
    return g;
  };

  // find_splitters: rounds until every cut is placed, or max_rounds of them.
  std::vector<Cut> cuts(std::size_t(G - 1));
  int level = 0;
  auto placed = [&cuts] { return std::all_of(cuts.begin(), cuts.end(), [](const Cut& c) { return c.resolved != 0; }); };
  auto find_splitters = [&](int max_rounds) {
    for (int k = 0; k != max_rounds && !placed(); ++k) {
      RoundRun rr;
      Round& round = rr.round;
      round.level = level;
      round.bits = std::min(m.digit_bits, m.span - level);
      round.rest = m.span - level - round.bits;
      for (const Cut& c : cuts)
        if (!c.resolved && (round.queries == 0 || round.prefix[round.queries - 1] != c.prefix)) {
          rr.below.push_back(c.below);
          round.prefix[round.queries++] = c.prefix;
        }
      rr.cells = round.queries << round.bits;
      rr.cell.assign(std::size_t(m.n), -1);
      rr.gpu_hist.assign(std::size_t(G * rr.cells), 0u);
      rr.hist.assign(std::size_t(rr.cells), 0u);
      for (std::int32_t i = 0; i < m.n; ++i) {
        const std::uint32_t x = m.x[std::size_t(i)];
        const std::uint32_t top = level == 0 ? 0u : x >> (m.span - level);
        int q = 0;
        while (q < round.queries && round.prefix[q] != top) ++q;
        if (q == round.queries) continue;
        const std::int32_t cell = (q << round.bits) | std::int32_t((x >> round.rest) & ((1u << round.bits) - 1u));
        rr.cell[std::size_t(i)] = cell;
        rr.gpu_hist[std::size_t(gpu_of(i) * rr.cells + cell)] += 1;
        rr.counted += 1;
      }
      for (int g = 0; g < G; ++g)
        for (std::int32_t c = 0; c < rr.cells; ++c) rr.hist[std::size_t(c)] += rr.gpu_hist[std::size_t(g * rr.cells + c)];
      for (int q = 0; q < round.queries; ++q) {  // the host code keeps every inner edge of a counted bucket
        std::int32_t at = rr.below[std::size_t(q)];
        for (int b = 1; b < (1 << round.bits); ++b) {
          at += std::int32_t(rr.hist[std::size_t((q << round.bits) + b - 1)]);
          const std::uint64_t value = ((std::uint64_t(round.prefix[q]) << round.bits) | std::uint64_t(b)) << round.rest;
          m.seen.push_back({std::uint32_t(value), at});
        }
      }
      rr.landed.assign(std::size_t(G - 1), -1);
      rr.walked.assign(std::size_t(G - 1), 0);
      for (int s = 0; s + 1 < G; ++s)
        if (!cuts[std::size_t(s)].resolved) walk(m, rr, s, cuts[std::size_t(s)]);
      rr.cuts = cuts;
      rr.edges = {0};
      for (const Cut& c : cuts) rr.edges.push_back(c.at);
      rr.edges.push_back(m.n);
      m.cells = std::max(m.cells, rr.cells);
      m.search.push_back(std::move(rr));
      level += round.bits;
    }
  };
  // Partition first on up to 4 GPUs: one round, and a second where one bucket holds every open cut
  // but not every key, and a whole digit lies below it; then sort first from a new search where a
  // cut is left open or cut by position (turn_to_sort_first).
  if (G <= kDistSortFirstMaxGpus) {
    find_splitters(1);
    const int count = int(cuts.size());
    const bool second = open_buckets(cuts.data(), count) == 1 && !one_bucket_holds_every_key(m.seen, m.n) &&
                        m.span >= 2 * m.digit_bits;
    if (second) find_splitters(1);
    if (!placed() || (second && any_tie(cuts.data(), count))) {
      m.scheme = DistScheme::SortFirst;
      m.tried = int(m.search.size());
      cuts.assign(cuts.size(), Cut{});
      level = 0;
      m.seen.clear();
    }
  }
  find_splitters(-1);
  m.edges = m.search.back().edges;

  // cut_pieces: each GPU's range cut at counted edges; the classes of the cuts and the pieces.
  m.classes = make_classes(cuts.data(), G, m.span, m.n,
                           piece_bounds(m.seen, m.edges.data(), G, kDistPieces, m.scheme == DistScheme::PartitionFirst));
  m.pieces = m.classes.pieces;
  const int P = m.pieces;

  // Each key's class, its place in its shard's class order (partition_by_class stages it there),
  // its destination (a run of equal keys by position: the key's rank in its class on its GPU) and
  // piece. Sort first, a class's keys lie in the same order in the sorted shard, so what each GPU
  // sends each GPU in each piece is the same.
  m.cls.resize(std::size_t(m.n));
  m.pos.resize(std::size_t(m.n));
  m.dest.resize(std::size_t(m.n));
  m.send.assign(std::size_t(G * G * P), 0);
  for (int g = 0; g < G; ++g) {
    const std::int32_t lo = m.shard[std::size_t(g)], hi = m.shard[std::size_t(g + 1)];
    std::vector<std::int32_t> first(std::size_t(m.classes.count), 0), next;
    for (std::int32_t i = lo; i < hi; ++i) {
      m.cls[std::size_t(i)] = class_of(m.classes, m.x[std::size_t(i)]);
      first[std::size_t(m.cls[std::size_t(i)])] += 1;
    }
    std::int32_t at = lo;
    for (std::int32_t& f : first) at += std::exchange(f, at);
    next = first;
    for (std::int32_t i = lo; i < hi; ++i) {
      const int c = m.cls[std::size_t(i)];
      m.pos[std::size_t(i)] = next[std::size_t(c)]++;
      const int d = destination(m.classes, c, g, m.pos[std::size_t(i)] - first[std::size_t(c)]);
      m.dest[std::size_t(i)] = d;
      m.send[std::size_t((g * G + d) * P + piece_of(m.classes, d, m.x[std::size_t(i)]))] += 1;
    }
  }
  m.piece_start.assign(std::size_t(G * P), 0);
  m.piece_count.assign(std::size_t(G * P), 0);
  for (int d = 0; d < G; ++d) {
    std::int32_t at = m.edges[std::size_t(d)];
    for (int j = 0; j < P; ++j) {
      std::int32_t count = 0;
      for (int r = 0; r < G; ++r) count += m.sent(r, d, j);
      m.piece_start[std::size_t(d * P + j)] = at;
      m.piece_count[std::size_t(d * P + j)] = count;
      at += count;
    }
  }
  std::int32_t widest_range = 0;
  for (int g = 0; g < G; ++g) widest_range = std::max(widest_range, m.edges[std::size_t(g + 1)] - m.edges[std::size_t(g)]);
  m.sort_threads = gpu_threads(widest_range);
  for (int j = 0; j < P; ++j) {
    std::int32_t widest = 0;
    for (int d = 0; d < G; ++d) widest = std::max(widest, m.piece_count[std::size_t(d * P + j)]);
    m.piece_rounds.push_back(std::max(1, (widest + m.sort_threads - 1) / m.sort_threads));
  }
  return m;
}

// Largest range / mean of the ranges between edges (1 for no keys).
double balance(const std::vector<std::int32_t>& edges) {
  const int G = int(edges.size()) - 1;
  std::int32_t most = 0;
  for (int s = 0; s < G; ++s) most = std::max(most, edges[std::size_t(s + 1)] - edges[std::size_t(s)]);
  return edges.back() == 0 ? 1.0 : double(most) * G / edges.back();
}

std::string counts_text(const std::vector<std::int32_t>& edges) {
  std::string t;
  for (std::size_t s = 0; s + 1 < edges.size(); ++s) t += (s ? " " : "") + std::to_string(edges[s + 1] - edges[s]);
  return t;
}

std::string digit_text(const Model& m, const Round& r) {
  const int hi = m.span - r.level;
  return bits_text(hi - r.bits, hi);
}

// The rounds partition first ran before it turned to sort first: one or two, or none.
std::size_t tried_rounds(const Model& m) { return m.scheme == DistScheme::SortFirst ? std::size_t(m.tried) : 0; }

// The round's number in its search (1 for the first).
std::size_t round_number(const Model& m, std::size_t k) { return 1 + (k < tried_rounds(m) ? k : k - tried_rounds(m)); }

std::string splitters_label(const Model& m, std::size_t k) {
  const RoundRun& rr = m.search[k];
  std::string what;
  auto part = [&](int count, const std::string& text) {
    if (count) what += (what.empty() ? "" : "; ") + std::to_string(count) + " cut(s) " + text;
  };
  part(rr.at_edge, "on a bucket edge within slack = " + std::to_string(m.slack) + " keys of s n/G");
  part(rr.refined, "inside a bucket: the next round refines it");
  part(rr.ties, "inside a run of equal keys: split by position");
  return "place_cuts, round " + std::to_string(round_number(m, k)) + ": keys per GPU " + counts_text(rr.edges) +
         ", balance (largest / mean) " + fmt_balance(balance(rr.edges)) + "; " + what;
}

Result check_config(const StepConfig& cfg) {
  if (cfg.bins < 2 || cfg.bins > kDistMaxGpus)
    return Result::failure("distributed sort runs on 2 to 8 virtual GPUs (got " + std::to_string(cfg.bins) + ")");
  if (cfg.digit_bits < 2 || cfg.digit_bits > 8)
    return Result::failure("the digit takes 2 to 8 bits (got " + std::to_string(cfg.digit_bits) + ")");
  if (cfg.type == ElemType::F32) return Result::failure("distributed sort takes int32 or uint32 keys");
  if (!cfg.input || cfg.input->size() != std::size_t(cfg.n))
    return Result::failure("distributed sort plans its splitters from the input, which is missing");
  return {};
}

}  // namespace

// "piece 2 of 3"
std::string piece_text(int j, int pieces) { return "piece " + std::to_string(j + 1) + " of " + std::to_string(pieces); }

Result plan_distributed_sort(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Model m = model(cfg, *cfg.input);
  const int G = m.gpus, P = m.pieces;
  const std::int32_t n = m.n, cells = m.cells;
  const bool sort_first = m.scheme == DistScheme::SortFirst;
  const std::string scheme = sort_first ? "partition first, then sort first" : "partition first";
  t.title = "Distributed radix sort on " + std::to_string(G) + " virtual GPUs (" + scheme + ", " + std::to_string(P) +
            (P == 1 ? " piece)" : " pieces)");
  t.width = std::max({n, G * cells, G * G * P, G + 1});
  t.block = m.threads;  // a GPU's block
  t.elems_per_thread = 1;
  const plan::Code code = plan::code(t, "distributed-sort");
  const std::string G_cells = std::to_string(cells);
  plan::standard_rows(t, "keys (GPU g holds shard g)", n, cfg.type);
  plan::add_row(t, "cell: each key's histogram cell this round (registers; -1: not counted)", RowKind::Index, n,
                ElemType::I32);
  plan::add_row(t, "gpu_hist[g * " + G_cells + " + c]: each GPU's counts", RowKind::Values, G * cells, ElemType::U32,
                false);
  plan::add_row(t, "hist[c]: the sum over the GPUs (all-reduce)", RowKind::Values, cells, ElemType::U32, false);
  plan::add_row(t, "counts: keys per GPU", RowKind::Values, G, ElemType::U32, false);
  plan::add_row(t, "edges: global position where GPU s starts", RowKind::Values, G + 1, ElemType::U32, false);
  plan::add_row(t, sort_first ? "d: destination GPU (registers; partition first only)" : "d: destination GPU (registers)",
                RowKind::Index, n, ElemType::I32);
  plan::add_row(t, sort_first ? "part: each shard sorted, so in runs by destination and piece"
                              : "part: each shard by class, so by destination and piece",
                RowKind::Values, n, cfg.type);
  plan::add_row(t,
                "bytes[(r * " + std::to_string(G) + " + s) * " + std::to_string(P) +
                    " + j]: bytes GPU r sends GPU s in piece j",
                RowKind::Values, G * G * P, ElemType::U32, false);
  plan::add_row(t, "recv: what GPU s received, piece by piece, each in sender order", RowKind::Values, n, cfg.type);
  plan::add_row(t, "out: each GPU's keys sorted", RowKind::Values, n, cfg.type);
  plan::initial_step(t, kDistKeys);
  Step& in = t.steps.back();
  in.label = "input: " + counted(n, "key") + " in " + std::to_string(G) + " shards of about n/G = " +
             fmt_balance(double(n) / G) + "; " + scheme + ", as primlab's library sorts on " + std::to_string(G) + " GPUs";
  in.explain = std::string(n < G ? "Fewer keys than GPUs: some GPUs hold no key; they still take part in every collective "
                                   "step. "
                                 : "The keys are split into G contiguous shards, one per virtual GPU, as equal as possible. ") +
               "The scheme is the one primlab's library takes on " + std::to_string(G) +
               " GPUs (kernels/tuning/distributed.cuh, measured on 2 and 4 H200s): it partitions each shard first "
               "and sorts what arrives, which measured faster than sorting each shard first and merging at every "
               "size. On up to 4 GPUs, splitter rounds that leave a cut open turn it to sort first, whose search "
               "starts again: a first round that leaves cuts in more than one bucket (or in the one bucket that "
               "holds every key), or a second round (which refines the one bucket that holds every open cut, as "
               "skewed keys give) that still leaves one open or cuts a run of equal keys by position. Partition "
               "first would stage such keys by class and sort whole pieces. Either way each GPU's range of the "
               "result travels in pieces, and a piece is sorted or merged while the next one travels.";
  in.bands = m.shard;
  auto add_presort = [&] {
    Step& pre = plan::add_step(t, "sort_shards: every GPU sorts its shard, part[lo + rank] = key (stable)", "presort",
                               code.line("presort"), G, m.threads, n, m.rounds, kDistPart);
    pre.also_lit = {code.line("sort (rank)")};
    pre.explain = "Sort first: each GPU sorts its own shard before anything moves (the library runs its one-GPU radix "
                  "sort; here a rank sort, one thread a key). Its keys for each GPU and each piece then lie side by "
                  "side, ready to be sent from where they are; what arrives is sorted runs, which a merge joins. The "
                  "library reads its first splitter round from this sort's own digit counts, and finds the later "
                  "rounds' counts by binary searches in the sorted shard; the lab counts them with the same kernel "
                  "as partition first.";
    pre.bands = m.shard;
  };
  const int reduce_threads = std::min(cells, 1024);
  for (std::size_t k = 0; k < m.search.size(); ++k) {
    if (sort_first && k == tried_rounds(m)) add_presort();
    const RoundRun& rr = m.search[k];
    const bool first = round_number(m, k) == 1;
    const std::string digit = digit_text(m, rr.round), round = std::to_string(round_number(m, k));
    Step& hist = plan::add_step(
        t, first && rr.round.bits == 0
               ? std::string("count_buckets, round 1: every GPU clears gpu_hist and counts its keys in cell 0 (the keys "
                             "are all equal: no digit bit)")
           : first ? "count_buckets, round 1: every GPU clears gpu_hist and counts the top digit " + digit + " of its shard"
                   : "count_buckets, round " + round + ": every GPU counts " + digit + " of its keys in the " +
                         std::to_string(rr.round.queries) + " bucket(s) that hold a cut",
        "histogram", code.line("histogram"), G, m.threads, rr.counted, m.rounds, kDistGpuHist);
    hist.bands = m.shard;
    hist.explain = m.span == 0 ? "All keys are equal: there are no bits they differ in, so every key falls in cell 0."
                   : first     ? "Each GPU counts its own keys per top digit: a local histogram, no communication yet."
                               : "Only the buckets that hold a cut are looked at again, by their next digit: each GPU "
                                 "counts its keys in them (cell = bucket x 2^bits + digit), the others are not counted.";
    if (!first && rr.round.queries == 1)
      hist.explain += " The library has these counts already where the bucket is the top digit that a sample of every "
                      "GPU's shard puts a quarter of its keys in (skewed keys): its first round counted that digit's "
                      "keys by their next digit too, and this round reads no key.";
    Step& reduce = plan::add_step(t, "all_reduce: hist[c] = gpu_hist[0][c] + ... + gpu_hist[" + std::to_string(G - 1) +
                                         "][c]; every GPU receives the sum",
                                  "all-reduce", code.line("all-reduce"), plan::div_up(cells, reduce_threads),
                                  reduce_threads, cells, G, kDistHist);
    reduce.also_lit = {code.line("all-reduce (sum)")};
    reduce.explain = "An all-reduce sums the G histograms cell by cell, so that every GPU knows how many keys of each "
                     "bucket exist in the whole input and places the same cuts.";
    Step& place = plan::add_step(t, splitters_label(m, k), "splitters", code.line("splitters"), 1, G - 1, rr.open, 1,
                                 kDistCounts);
    place.explain = std::string(first ? "Each cut s walks the prefix sum of the histogram to its target, the start of "
                                        "shard s + 1 (s n/G), and takes the nearest bucket edge. A bucket larger than a "
                                        "GPU's fair share (skew) leaves a cut far from its target: the balance shows how "
                                        "uneven the GPUs would be."
                                      : "The refined cuts walk the histogram of their bucket's next digit and move to "
                                        "finer edges; a bucket of equal keys, with no bits left, is split by position "
                                        "instead.") +
                    " The host keeps every inner edge of the buckets counted: the pieces are cut there.";
    if (k + 1 == tried_rounds(m)) {
      place.label += "; a cut left open turns the sort to sort first";
      place.explain += " Partition first stops after this round: its stage is cut at the top digit's edges and, "
                       "where a second round refined one bucket alone, at that bucket's next digit's, and a cut left "
                       "open (or split by position) lies at neither. It would stage such keys by class and sort in "
                       "whole pieces. The library turns to sort first instead (a sort whose options leave the scheme "
                       "to it, on up to 4 GPUs): every GPU sorts its shard, and the splitter search starts again; "
                       "the rounds so far were the only ones spent.";
    }
  }
  std::string bounds_text;
  for (int d = 0; d < G; ++d) bounds_text += (d ? " " : "") + std::to_string(1 + m.classes.bounds[d]);
  if (sort_first) {
    Step& runs = plan::add_step(t, "locate_runs: every GPU finds where each of the " + std::to_string(m.classes.count) +
                                       " classes starts in its sorted shard (binary search); pieces per GPU " +
                                       bounds_text,
                                "runs", code.line("runs"), G, m.classes.count, G * m.classes.count, 1, kDistBytes);
    runs.explain = "The cuts and the pieces' bounds cut the key range into classes, each going to one GPU and piece (a "
                   "run of equal keys at a cut goes by position). In a sorted shard each class is one stretch, so a "
                   "binary search for its first key finds it, without a pass over the keys; the class's keys add to "
                   "what the GPU sends that GPU in that piece (the bytes row). Each GPU's range is cut into up to 4 "
                   "pieces of about equal size, at bucket edges the splitter rounds counted.";
    runs.bands = m.shard;
  } else {
    Step& part = plan::add_step(t, "partition_by_class: every GPU stages its keys by class (the cuts' and the pieces' "
                                   "boundaries), part[next[c] + rank] = key, which groups them by destination d and "
                                   "piece; pieces per GPU " + bounds_text,
                                "partition", code.line("partition"), G, m.threads, n, m.rounds, kDistPart);
    part.also_lit = {code.line("partition (rank)")};
    part.explain = "Each GPU sorts its shard by class only, stably: the cuts and the pieces' bounds cut the key range "
                   "into classes, each going to one GPU and piece (a run of equal keys at a cut goes by position), so "
                   "the keys for GPU 0's first piece come first, then its second piece, then GPU 1's and so on, each "
                   "one contiguous run to send. Each GPU's range is cut into up to 4 pieces at bucket edges the "
                   "splitter rounds counted, each about 1.5x the one before, since the sort of a piece hides the "
                   "transfer of the next, larger one.";
    if (m.search.size() == 2)
      part.explain += " Two splitter rounds refined one bucket (skewed keys): every class is a run of top digits "
                      "and of that bucket's next digits. The library stages the shard by one radix pass of 511 bins, "
                      "the top digits with the bucket's split by their next digit (on a GPU with less than 66 KB of "
                      "shared memory a block, two passes: the bucket's keys put aside, then sorted by that digit), and "
                      "a piece inside the bucket is then sorted by the digits below both; the lab stages by class in "
                      "one step.";
    part.bands = m.shard;
  }
  // The pipeline, in the order the library overlaps it: piece 0's transfer alone, then piece j's
  // transfer beside piece j - 1's sort or merge, then the last piece's sort or merge alone.
  const std::string local_kernel = sort_first ? "merge_piece" : "sort_piece";
  const std::string local_verb = sort_first ? "merges" : "sorts";
  auto add_exchange = [&](int j) {
    std::int64_t across = 0, stay = 0;
    std::int32_t pairs = 0;
    for (int r = 0; r < G; ++r)
      for (int d = 0; d < G; ++d) {
        const std::int32_t c = m.sent(r, d, j);
        (r != d ? across : stay) += c;
        pairs += c > 0;
      }
    const std::string beside = j == 0 ? "no sort or merge beside it: no piece has arrived yet"
                                      : "side by side with the next step, where every GPU " + local_verb + " " +
                                            piece_text(j - 1, P);
    Step& ex = plan::add_step(t, "exchange_runs, " + piece_text(j, P) + " (the exchange's stream): " +
                                     std::to_string(4 * across) + " bytes cross between GPUs, " + std::to_string(4 * stay) +
                                     " stay on their GPU; " + beside,
                              "exchange", code.line("exchange"), G, G, pairs, 1, kDistRecv);
    ex.explain = "GPU r sends its run of this piece for GPU s to s: one arrow per pair, 4 bytes a key (the bytes row, "
                 "which every GPU reads). The piece lands in its place in GPU s's range, after s's earlier pieces, in "
                 "order of the sender. " +
                 std::string(j == 0 ? (sort_first ? "No merge can hide the first piece's transfer. Sort first, the "
                                                    "pieces are equal: the library's merges ran faster than its "
                                                    "transfers, so a larger next piece would not hide behind them."
                                                  : "No sort can hide the first piece's transfer, which is why the "
                                                    "pieces grow: the first is the smallest. Beside it the library "
                                                    "counts the digits of every piece's own run for its sorts' "
                                                    "passes: the run lies in place once the partition is done, and "
                                                    "counting it is the one part of a sort that waits for no "
                                                    "received key.")
                                    : "The library runs this transfer on the exchange's own stream (NCCL's, at the "
                                      "highest priority) while each GPU's stream " + local_verb + " the piece before, "
                                      "the next step: the two run at the same time. The lab runs them one after the "
                                      "other.") +
                 (sort_first ? " A GPU's own run does not move in the library: the merge reads it where it lies in "
                               "the sorted shard (the lab copies it beside the others)."
                             : " A GPU's own run does not move in the library: the partition pass wrote it "
                               "straight to its place among the received keys (the lab copies it beside the "
                               "others; a descending sort of several pieces copies it on the GPU too).") +
                 (across == 0 ? " No key crosses between GPUs in this piece: the library makes no transfer for it." : "");
    ex.bands = m.edges;
  };
  auto add_local = [&](int j) {
    std::int32_t keys = 0;
    for (int d = 0; d < G; ++d) keys += m.piece_count[std::size_t(d * P + j)];
    const std::string beside = j + 1 < P ? "side by side with the step before, " + piece_text(j + 1, P) + "'s transfer"
                                         : "after the last transfer, nothing beside it";
    Step& local = plan::add_step(
        t, local_kernel + ", " + piece_text(j, P) + " (each GPU's stream): every GPU " + local_verb +
               (sort_first ? " the " + std::to_string(G) + " sorted runs of its piece, each key at its place in its run "
                             "plus the keys of the other runs before it; "
                           : " its piece, each key at its rank among the piece's keys; ") +
               beside,
        sort_first ? "merge" : "sort", code.line(sort_first ? "merge" : "sort"), G, m.sort_threads, keys,
        m.piece_rounds[std::size_t(j)], kDistSorted);
    if (!sort_first) local.also_lit = {code.line("sort (rank)")};
    local.explain =
        std::string(sort_first
                        ? "Each GPU merges the runs of this piece that every GPU sent it, sorted already: a key's place "
                          "is its place in its own run plus the keys of each other run that come before it (smaller, "
                          "or equal from an earlier GPU: stable), found by a binary search in each run. The library "
                          "merges them by merge path, in rounds of pairs; the result is the same. "
                        : "Each GPU sorts this piece of what it received, stably, in its place in its range (a rank "
                          "sort, one thread a key). Where the cuts fell on top-digit edges (one splitter round), the "
                          "library sorts it top digit by top digit: its partition by the top digit was the sort's "
                          "first pass, so each top digit's keys, one run of them from each GPU, are sorted by the "
                          "bits below it (three radix passes for 32-bit keys, not four); else it runs its one-GPU "
                          "radix sort. ") +
        "The pieces of a GPU's range are in key order, so once every piece is sorted GPU s holds the sorted keys at "
        "global positions [edge s, edge s+1). " +
        (j + 1 < P ? "The library runs this on each GPU's stream as soon as the piece's transfer is in (a wait on the "
                     "stream, not on the host), while the next piece travels: the step before and this one run at the "
                     "same time."
                   : "This is the last piece: nothing travels beside it.");
    local.bands = m.edges;
  };
  add_exchange(0);
  for (int j = 1; j < P; ++j) {
    add_exchange(j);
    add_local(j - 1);
  }
  add_local(P - 1);
  return {};
}

namespace {

// partition_by_class, warp by warp: the class counts, the one-thread scan of their starts, the
// stable scatter (warps in order, lanes of one class ranked), and the bytes each GPU sends each GPU
// in each piece.
void cpu_partition(cpu::CpuRun& run, const Model& m, const Step& st) {
  const int G = m.gpus, T = m.threads, C = m.classes.count, cells = G * m.pieces;
  const std::uint32_t* key = run.row(kDistKeys);
  Counters& cn = run.count();
  auto none = [](std::int64_t, std::int32_t, std::int32_t, std::int32_t) {};
  cpu::block_stride_loop(run, st.launch, T, C, none);      // count[c] = 0
  cpu::block_stride_loop(run, st.launch, T, cells, none);  // sends[e] = 0
  auto key_of = [&](std::int32_t g, int k, std::int32_t tid) {
    const std::int32_t i = m.shard[std::size_t(g)] + k * T + tid;
    return i < m.shard[std::size_t(g + 1)] ? i : -1;
  };
  cpu::for_each_warp(st.launch, [&](std::int32_t g, std::int32_t first, int lanes) {
    for (int k = 0; k < m.rounds; ++k) {
      int paths[32];
      std::int32_t a[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t i = key_of(g, k, first + l);
        paths[l] = i >= 0;
        a[l] = i >= 0 ? m.cls[std::size_t(i)] : -1;
        if (i >= 0) {
          cn.global_read_bytes += 4;
          cn.atomics += 1;
        }
      }
      run.branch(paths, lanes);
      run.shared_access(a, lanes);
    }
    int zero[32];
    for (int l = 0; l < lanes; ++l) zero[l] = first + l == 0;
    run.branch(zero, lanes);
  });
  for (int g = 0; g < G; ++g)
    for (std::int32_t c = 0; c < C; ++c)
      for (int access = 0; access < 3; ++access) run.shared_access(&c, 1);  // thread 0: first, next, count
  cpu::for_each_warp(st.launch, [&](std::int32_t g, std::int32_t first, int lanes) {
    for (int k = 0; k < m.rounds; ++k) {
      int paths[32], leader[32];
      std::int32_t idx[32], c[32], lead[32], e[32];
      for (int l = 0; l < lanes; ++l) {
        idx[l] = key_of(g, k, first + l);
        paths[l] = idx[l] >= 0;
        c[l] = idx[l] >= 0 ? m.cls[std::size_t(idx[l])] : -1;
        const int d = idx[l] >= 0 ? m.dest[std::size_t(idx[l])] : -1;
        e[l] = d >= 0 ? d * m.pieces + piece_of(m.classes, d, m.x[std::size_t(idx[l])]) : -1;
      }
      run.branch(paths, lanes);
      for (int l = 0; l < lanes; ++l) {
        int rank = 0;
        for (int o = 0; o < l; ++o) rank += c[o] == c[l];
        leader[l] = idx[l] >= 0 && rank == 0;
        lead[l] = leader[l] ? c[l] : -1;
      }
      run.shared_access(c, lanes);  // next[c]
      run.branch(leader, lanes);
      run.shared_access(lead, lanes);  // the leader moves next[c]
      run.shared_access(c, lanes);  // first[c]
      run.shared_access(e, lanes);  // sends[e]
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t i = idx[l];
        if (i < 0) continue;
        run.row(kDistPart)[m.pos[std::size_t(i)]] = key[i];
        run.op(std::int64_t(g) * T + first + l, k, OpKind::Move, kDistKeys, i, kDistPart, m.pos[std::size_t(i)]);
        run.row(kDistDest)[i] = std::uint32_t(m.dest[std::size_t(i)]);
        cn.global_read_bytes += 4;
        cn.global_write_bytes += 4;
        cn.atomics += 1;
      }
    }
  });
  cpu::block_stride_loop(run, st.launch, T, cells, [&](std::int64_t, std::int32_t g, std::int32_t e, std::int32_t) {
    run.row(kDistBytes)[g * cells + e] = std::uint32_t(4 * m.send[std::size_t(g * cells + e)]);
    cn.global_write_bytes += 4;
  });
}

// rank_sort: [lo, hi) of `in` to `out`, each key at its stable rank, thread (block, (a - lo) % R)
// in round (a - lo) / R.
void cpu_rank_sort(cpu::CpuRun& run, int block, std::int32_t R, int in_row, int out_row, std::int32_t lo,
                   std::int32_t hi, ElemType type) {
  const std::uint32_t* in = run.row(in_row);
  Counters& cn = run.count();
  for (std::int32_t a = lo; a < hi; ++a) {
    const std::uint32_t x = image_of(in[a], type, 32);
    std::int32_t rank = 0;
    for (std::int32_t b = lo; b < hi; ++b) {
      const std::uint32_t y = image_of(in[b], type, 32);
      rank += y < x || (y == x && b < a);
    }
    run.row(out_row)[lo + rank] = in[a];
    run.op(std::int64_t(block) * R + (a - lo) % R, (a - lo) / R, OpKind::Move, in_row, a, out_row, lo + rank);
    cn.global_read_bytes += 4 * std::int64_t(1 + hi - lo);
    cn.global_write_bytes += 4;
  }
}

// locate_runs: thread c of GPU g searches where class c starts in g's sorted shard, then adds the
// class's keys to what g sends each GPU in each piece; the bytes row from those sums.
void cpu_locate_runs(cpu::CpuRun& run, const Model& m, ElemType type) {
  const int G = m.gpus, C = m.classes.count, cells = G * m.pieces;
  const Classes& k = m.classes;
  const std::uint32_t* part = run.row(kDistPart);
  Counters& cn = run.count();
  for (int g = 0; g < G; ++g) {
    const std::int32_t lo = m.shard[std::size_t(g)], hi = m.shard[std::size_t(g + 1)];
    std::vector<std::int32_t> first(std::size_t(C + 1), hi);
    for (int c = 0; c < C; ++c) {
      std::int32_t at = lo, len = hi - lo, probes = 0;
      while (len > 0) {
        const std::int32_t half = len / 2;
        ++probes;
        if (image_of(part[at + half], type, m.span) < k.lower[c]) {
          at += half + 1;
          len -= half + 1;
        } else {
          len = half;
        }
      }
      first[std::size_t(c)] = at;
      cn.global_read_bytes += 4 * std::int64_t(probes);
    }
    for (int c = 0; c < C; ++c) {
      const std::int32_t count = first[std::size_t(c + 1)] - first[std::size_t(c)];
      const std::int32_t p0 = k.run_start[c] + k.run_before[c][g];
      bool recorded = false;
      for (int d = 0; d < G; ++d) {
        const std::int32_t keys =
            k.dest[c] >= 0 ? (k.dest[c] == d ? count : 0)
                           : std::max(0, std::min(p0 + count, k.edges[d + 1]) - std::max(p0, k.edges[d]));
        if (keys == 0) continue;
        const int e = d * m.pieces + piece_of(k, d, k.lower[c]);
        if (!recorded)
          run.op(std::int64_t(g) * C + c, 0, OpKind::Move, kDistPart, first[std::size_t(c)], kDistBytes, g * cells + e);
        recorded = true;
        cn.atomics += 1;
      }
    }
    for (int e = 0; e < cells; ++e) {
      run.row(kDistBytes)[g * cells + e] = std::uint32_t(4 * m.send[std::size_t(g * cells + e)]);
      cn.global_write_bytes += 4;
    }
  }
}

// exchange_runs of piece j: thread d of GPU r copies r's run of the piece for d to its landing.
void cpu_exchange(cpu::CpuRun& run, const Model& m, int j) {
  const int G = m.gpus;
  Counters& cn = run.count();
  for (int r = 0; r < G; ++r)
    for (int d = 0; d < G; ++d) {
      const std::int32_t count = m.sent(r, d, j), from = m.run_from(r, d, j), to = m.run_to(r, d, j);
      if (count == 0) continue;
      std::copy(run.row(kDistPart) + from, run.row(kDistPart) + from + count, run.row(kDistRecv) + to);
      // One arrow per pair that sends, from the middle of the run to the middle of where it lands.
      run.op(std::int64_t(r) * G + d, 0, OpKind::Move, kDistPart, from + count / 2, kDistRecv, to + count / 2);
      cn.global_read_bytes += 4 * std::int64_t(count);
      cn.global_write_bytes += 4 * std::int64_t(count);
    }
}

// merge_piece of piece j: each key of GPU d's piece at its place in its run plus, by binary search,
// the keys of every other run before it (smaller; or equal, from an earlier sender).
void cpu_merge(cpu::CpuRun& run, const Model& m, int j, std::int32_t R, ElemType type) {
  const int G = m.gpus, P = m.pieces;
  const std::uint32_t* recv = run.row(kDistRecv);
  Counters& cn = run.count();
  for (int d = 0; d < G; ++d) {
    const std::int32_t lo = m.piece_start[std::size_t(d * P + j)], count = m.piece_count[std::size_t(d * P + j)];
    for (std::int32_t a = lo; a < lo + count; ++a) {
      int r = 0;
      std::int32_t run_lo = lo;
      while (a >= run_lo + m.sent(r, d, j)) run_lo += m.sent(r++, d, j);
      const std::uint32_t x = image_of(recv[a], type, 32);
      std::int32_t rank = a - run_lo, probes = 0, at = lo;
      for (int q = 0; q < G; ++q) {
        const std::int32_t len = m.sent(q, d, j);
        std::int32_t before = 0, rest = q == r ? 0 : len;
        while (rest > 0) {
          const std::int32_t half = rest / 2;
          const std::uint32_t y = image_of(recv[at + before + half], type, 32);
          ++probes;
          if (y < x || (q < r && y == x)) {
            before += half + 1;
            rest -= half + 1;
          } else {
            rest = half;
          }
        }
        rank += before;
        at += len;
      }
      run.row(kDistSorted)[lo + rank] = recv[a];
      run.op(std::int64_t(d) * R + (a - lo) % R, (a - lo) / R, OpKind::Move, kDistRecv, a, kDistSorted, lo + rank);
      cn.global_read_bytes += 4 * std::int64_t(1 + probes);
      cn.global_write_bytes += 4;
    }
  }
}

}  // namespace

void cpu_distributed_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  const Model m = model(cfg, input);
  const int G = m.gpus, T = m.threads, P = m.pieces;
  const std::int32_t cells = m.cells;
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kDistKeys));
  run.snapshot_initial();
  std::uint32_t* gpu_hist = run.row(kDistGpuHist);
  std::uint32_t* hist = run.row(kDistHist);
  std::size_t k = 0;  // the round of the splitter search
  int exchanged = 0, finished = 0;  // the pieces sent, and sorted or merged
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& cn = run.count();
    const RoundRun& rr = m.search[std::min(k, m.search.size() - 1)];
    if (st.phase == "presort") {
      for (int g = 0; g < G; ++g)
        cpu_rank_sort(run, g, T, kDistKeys, kDistPart, m.shard[std::size_t(g)], m.shard[std::size_t(g + 1)], cfg.type);
    } else if (st.phase == "histogram") {
      std::fill(gpu_hist, gpu_hist + G * cells, 0u);
      cn.global_write_bytes += 4 * std::int64_t(G) * cells;
      for (int g = 0; g < G; ++g)
        for (std::int32_t i = m.shard[std::size_t(g)]; i < m.shard[std::size_t(g + 1)]; ++i) {
          const std::int32_t c = rr.cell[std::size_t(i)], local = i - m.shard[std::size_t(g)];
          run.row(kDistCell)[i] = std::uint32_t(c);
          cn.global_read_bytes += 4;
          if (c < 0) continue;
          gpu_hist[g * cells + c] += 1;
          run.op(std::int64_t(g) * T + local % T, local / T, OpKind::Atomic, kDistKeys, i, kDistGpuHist, g * cells + c);
          cn.atomics += 1;
        }
    } else if (st.phase == "all-reduce") {
      for (std::int32_t c = 0; c < cells; ++c) {
        std::uint32_t sum = 0;
        for (int g = 0; g < G; ++g) {
          sum += gpu_hist[g * cells + c];
          run.op(c, g, OpKind::Add, kDistGpuHist, g * cells + c, kDistHist, c);
        }
        hist[c] = sum;
      }
      cn.adds += std::int64_t(G) * cells;
      cn.global_read_bytes += 4 * std::int64_t(G) * cells;
      cn.global_write_bytes += 4 * std::int64_t(G) * cells;
    } else if (st.phase == "splitters") {
      for (int c = 0; c + 1 < G; ++c) {
        if (rr.landed[std::size_t(c)] < 0) continue;
        run.op(c, 0, OpKind::Move, kDistHist, rr.landed[std::size_t(c)], kDistEdges, c + 1);
        cn.global_read_bytes += 4 * rr.walked[std::size_t(c)];
        cn.adds += rr.walked[std::size_t(c)];
        if (rr.cuts[std::size_t(c)].tie) cn.global_read_bytes += 4 * G;
      }
      for (int g = 0; g <= G; ++g) run.row(kDistEdges)[g] = std::uint32_t(rr.edges[std::size_t(g)]);
      for (int g = 0; g < G; ++g)
        run.row(kDistCounts)[g] = std::uint32_t(rr.edges[std::size_t(g + 1)] - rr.edges[std::size_t(g)]);
      ++k;
    } else if (st.phase == "partition") {
      cpu_partition(run, m, st);
    } else if (st.phase == "runs") {
      cpu_locate_runs(run, m, cfg.type);
    } else if (st.phase == "exchange") {
      cpu_exchange(run, m, exchanged++);
    } else if (st.phase == "sort") {
      const int j = finished++;
      for (int d = 0; d < G; ++d) {
        const std::int32_t lo = m.piece_start[std::size_t(d * P + j)];
        cpu_rank_sort(run, d, st.launch.threads, kDistRecv, kDistSorted, lo, lo + m.piece_count[std::size_t(d * P + j)],
                      cfg.type);
      }
    } else if (st.phase == "merge") {
      cpu_merge(run, m, finished++, st.launch.threads, cfg.type);
    }
    run.end();
  }
}

}  // namespace primlab::steppers
