// Distributed radix sort on G virtual GPUs (2 to 8, StepConfig::bins): the plan (one step per
// launch of distributed_sort.cuh's host code) and the CPU reference, which runs the same launches.
// The n keys are split into G contiguous shards (shard g = [g n / G, (g + 1) n / G)). Every round
// of the splitter search is three launches: every GPU counts a digit of its keys in the buckets
// that hold an open cut (round 0: the top digit of every key), the counts are all-reduced, and the
// G - 1 cuts walk the sum towards s n / G. A cut that lands inside a bucket too far from both of its
// edges (more than the slack, n / (8 G)) is refined with the next digit in the next round; a
// bucket of equal keys (no bits left) is cut by position, since equal keys are interchangeable in
// a keys-only sort (the global order is shard-major). Then every GPU stages its keys by the classes
// the cuts define (which groups them by destination), sends group s to GPU s (the exchange), and
// sorts what it received. GPU s ends up with the global positions [edge s, edge s + 1) of the
// sorted keys: every one of them within 2 x slack + 1 of n / G. The library
// (primlab/distributed.h) runs this partition-first scheme on 5 to 8 ranks; on 2 to 4 it sorts
// each shard first and merges what arrives, as the partition and local-sort steps say.
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
  std::int32_t counted = 0;              // keys in the queried buckets
  int open = 0, at_edge = 0, refined = 0, ties = 0;  // cuts walked; placed on an edge, refined, split by position
};

// Everything the host code decides and the kernels compute, from the input.
struct Model {
  std::int32_t n = 0;
  int gpus = 0, digit_bits = 0, span = 0;
  std::int32_t slack = 0;
  std::int32_t cells = 0;                // per GPU: the largest round's cells (the histograms' room)
  int threads = 0, rounds = 0;           // a GPU's block and its keys per thread
  int sort_threads = 0, sort_rounds = 0;
  std::vector<std::uint32_t> x;          // the keys' images
  std::vector<std::int32_t> shard;       // G + 1
  std::vector<RoundRun> search;
  Classes classes;
  std::vector<std::int32_t> edges;       // G + 1, final
  std::vector<std::int32_t> cls, pos, dest;  // per key: class, staged position, destination GPU
  std::vector<std::int32_t> send;        // [from][to] keys
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

  // find_splitters: rounds until every cut is placed.
  std::vector<Cut> cuts(std::size_t(G - 1));
  for (int level = 0;;) {
    RoundRun rr;
    Round& round = rr.round;
    round.level = level;
    round.bits = std::min(m.digit_bits, m.span - level);
    round.rest = m.span - level - round.bits;
    for (const Cut& c : cuts)
      if (!c.resolved && (round.queries == 0 || round.prefix[round.queries - 1] != c.prefix))
        round.prefix[round.queries++] = c.prefix;
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
    if (std::all_of(cuts.begin(), cuts.end(), [](const Cut& c) { return c.resolved != 0; })) break;
  }
  m.edges = m.search.back().edges;

  // partition_by_class: each shard staged by class, stably; a key's destination from its class.
  m.classes = make_classes(cuts.data(), G, m.span, m.n);
  m.cls.resize(std::size_t(m.n));
  m.pos.resize(std::size_t(m.n));
  m.dest.resize(std::size_t(m.n));
  m.send.assign(std::size_t(G * G), 0);
  for (int g = 0; g < G; ++g) {
    const std::int32_t lo = m.shard[std::size_t(g)], hi = m.shard[std::size_t(g + 1)];
    std::vector<std::int32_t> first(std::size_t(m.classes.count), 0), next;
    for (std::int32_t i = lo; i < hi; ++i) first[std::size_t(m.cls[std::size_t(i)] = class_of(m.classes, m.x[std::size_t(i)]))] += 1;
    std::int32_t at = lo;
    for (std::int32_t& f : first) at += std::exchange(f, at);
    next = first;
    for (std::int32_t i = lo; i < hi; ++i) {
      const int c = m.cls[std::size_t(i)];
      m.pos[std::size_t(i)] = next[std::size_t(c)]++;
      m.dest[std::size_t(i)] = destination(m.classes, c, g, m.pos[std::size_t(i)] - first[std::size_t(c)]);
      m.send[std::size_t(g * G + m.dest[std::size_t(i)])] += 1;
    }
  }
  std::int32_t widest_range = 0;
  for (int g = 0; g < G; ++g) widest_range = std::max(widest_range, m.edges[std::size_t(g + 1)] - m.edges[std::size_t(g)]);
  m.sort_threads = gpu_threads(widest_range);
  m.sort_rounds = std::max(1, (widest_range + m.sort_threads - 1) / m.sort_threads);
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

std::string splitters_label(const Model& m, std::size_t k) {
  const RoundRun& rr = m.search[k];
  std::string what;
  auto part = [&](int count, const std::string& text) {
    if (count) what += (what.empty() ? "" : "; ") + std::to_string(count) + " cut(s) " + text;
  };
  part(rr.at_edge, "on a bucket edge within slack = " + std::to_string(m.slack) + " keys of s n/G");
  part(rr.refined, "inside a bucket: the next round refines it");
  part(rr.ties, "inside a run of equal keys: split by position");
  return "place_cuts, round " + std::to_string(k + 1) + ": keys per GPU " + counts_text(rr.edges) +
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

Result plan_distributed_sort(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Model m = model(cfg, *cfg.input);
  const int G = m.gpus;
  const std::int32_t n = m.n, cells = m.cells;
  t.title = "Distributed radix sort on " + std::to_string(G) + " virtual GPUs";
  t.width = std::max({n, G * cells, G * G, G + 1});
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
  plan::add_row(t, "d: destination GPU (registers)", RowKind::Index, n, ElemType::I32);
  plan::add_row(t, "part: each shard by class, so by destination", RowKind::Values, n, cfg.type);
  plan::add_row(t, "bytes[r * " + std::to_string(G) + " + s]: bytes GPU r sends GPU s", RowKind::Values, G * G,
                ElemType::U32, false);
  plan::add_row(t, "recv: what GPU s received, in sender order", RowKind::Values, n, cfg.type);
  plan::add_row(t, "out: each GPU's keys sorted", RowKind::Values, n, cfg.type);
  plan::initial_step(t, kDistKeys);
  Step& in = t.steps.back();
  in.label = "input: " + std::to_string(n) + " keys in " + std::to_string(G) + " shards of about n/G = " +
             fmt_balance(double(n) / G);
  in.explain = n < G ? "Fewer keys than GPUs: some GPUs hold no key; they still take part in every collective step."
                     : "The keys are split into G contiguous shards, one per virtual GPU, as equal as possible.";
  in.bands = m.shard;
  const int reduce_threads = std::min(cells, 1024);
  for (std::size_t k = 0; k < m.search.size(); ++k) {
    const RoundRun& rr = m.search[k];
    const std::string digit = digit_text(m, rr.round), round = std::to_string(k + 1);
    Step& hist = plan::add_step(
        t, k == 0 ? "count_buckets, round 1: every GPU clears gpu_hist and counts the top digit " + digit + " of its shard"
                  : "count_buckets, round " + round + ": every GPU counts " + digit + " of its keys in the " +
                        std::to_string(rr.round.queries) + " bucket(s) that hold a cut",
        "histogram", code.line("histogram"), G, m.threads, rr.counted, m.rounds, kDistGpuHist);
    hist.bands = m.shard;
    hist.explain = m.span == 0 ? "All keys are equal: there are no bits they differ in, so every key falls in cell 0."
                   : k == 0    ? "Each GPU counts its own keys per top digit: a local histogram, no communication yet."
                               : "Only the buckets that hold a cut are looked at again, by their next digit: each GPU "
                                 "counts its keys in them (cell = bucket x 2^bits + digit), the others are not counted.";
    Step& reduce = plan::add_step(t, "all_reduce: hist[c] = gpu_hist[0][c] + ... + gpu_hist[" + std::to_string(G - 1) +
                                         "][c]; every GPU receives the sum",
                                  "all-reduce", code.line("all-reduce"), plan::div_up(cells, reduce_threads),
                                  reduce_threads, cells, G, kDistHist);
    reduce.also_lit = {code.line("all-reduce (sum)")};
    reduce.explain = "An all-reduce sums the G histograms cell by cell, so that every GPU knows how many keys of each "
                     "bucket exist in the whole input and places the same cuts.";
    plan::add_step(t, splitters_label(m, k), "splitters", code.line("splitters"), 1, G - 1, rr.open, 1, kDistCounts)
        .explain = k == 0 ? "Each cut s walks the prefix sum of the histogram to its target, the start of shard s + 1 "
                            "(s n/G), and takes the nearest bucket edge. A bucket larger than a GPU's fair share "
                            "(skew) leaves a cut far from its target: the balance shows how uneven the GPUs would be."
                          : "The refined cuts walk the histogram of their bucket's next digit and move to finer edges; "
                            "a bucket of equal keys, with no bits left, is split by position instead.";
  }
  Step& part = plan::add_step(t, "partition_by_class: every GPU stages its keys by class (the cuts' boundaries), "
                                 "part[next[c] + rank] = key, which groups them by destination d",
                              "partition", code.line("partition"), G, m.threads, n, m.rounds, kDistPart);
  part.also_lit = {code.line("partition (rank)")};
  part.explain = "Each GPU sorts its shard by class only, stably: the cuts cut the key range into classes, each going "
                 "to one GPU (a run of equal keys at a cut goes by position), so the keys for GPU 0 come first, then "
                 "GPU 1 and so on, each group one contiguous run to send. primlab's library does this on 5 to 8 GPUs; "
                 "on 2 to 4 it sorts each shard completely here, which leaves the groups in order too.";
  part.bands = m.shard;
  std::int64_t across = 0;
  for (int r = 0; r < G; ++r)
    for (int s = 0; s < G; ++s) across += r != s ? m.send[std::size_t(r * G + s)] : 0;
  const std::int32_t pairs = std::int32_t(std::count_if(m.send.begin(), m.send.end(), [](std::int32_t c) { return c > 0; }));
  Step& ex = plan::add_step(t, "exchange_runs (all-to-all): " + std::to_string(4 * across) + " bytes cross between "
                                   "GPUs, " + std::to_string(4 * (n - across)) + " stay on their GPU",
                            "exchange", code.line("exchange"), G, G, pairs, 1, kDistRecv);
  ex.explain = "GPU r sends its run for GPU s to s: one arrow per pair, 4 bytes a key (the bytes row, which every GPU "
               "reads). GPU s stores what it receives in order of the sender.";
  ex.bands = m.edges;
  Step& sort = plan::add_step(t, "sort_received: every GPU puts each key it received at its rank among them",
                              "sort", code.line("sort"), G, m.sort_threads, n, m.sort_rounds, kDistSorted);
  sort.explain = "Each GPU sorts its own keys, stably: a rank sort, one thread a key reading all of the GPU's keys, "
                 "where the library runs its one-GPU radix sort; no key moves between GPUs again. GPU s holds the "
                 "sorted keys at global positions [edge s, edge s+1). On 2 to 4 GPUs the library sorted each shard "
                 "before the exchange, so the runs a GPU receives are sorted already and it merges them instead.";
  sort.bands = m.edges;
  return {};
}

namespace {

// partition_by_class, warp by warp: the class counts, the one-thread scan of their starts, the
// stable scatter (warps in order, lanes of one class ranked), and the bytes each GPU sends.
void cpu_partition(cpu::CpuRun& run, const Model& m, const Step& st) {
  const int G = m.gpus, T = m.threads, C = m.classes.count;
  const std::uint32_t* key = run.row(kDistKeys);
  Counters& cn = run.count();
  auto none = [](std::int64_t, std::int32_t, std::int32_t, std::int32_t) {};
  cpu::block_stride_loop(run, st.launch, T, C, none);  // count[c] = 0
  cpu::block_stride_loop(run, st.launch, T, G, none);  // sends[d] = 0
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
      std::int32_t idx[32], c[32], lead[32], d[32];
      for (int l = 0; l < lanes; ++l) {
        idx[l] = key_of(g, k, first + l);
        paths[l] = idx[l] >= 0;
        c[l] = idx[l] >= 0 ? m.cls[std::size_t(idx[l])] : -1;
        d[l] = idx[l] >= 0 ? m.dest[std::size_t(idx[l])] : -1;
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
      run.shared_access(d, lanes);  // sends[d]
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t i = idx[l];
        if (i < 0) continue;
        run.row(kDistPart)[m.pos[std::size_t(i)]] = key[i];
        run.op(std::int64_t(g) * T + first + l, k, OpKind::Move, kDistKeys, i, kDistPart, m.pos[std::size_t(i)]);
        run.row(kDistDest)[i] = std::uint32_t(d[l]);
        cn.global_read_bytes += 4;
        cn.global_write_bytes += 4;
        cn.atomics += 1;
      }
    }
  });
  cpu::block_stride_loop(run, st.launch, T, G, [&](std::int64_t, std::int32_t g, std::int32_t d, std::int32_t) {
    run.row(kDistBytes)[g * G + d] = std::uint32_t(4 * m.send[std::size_t(g * G + d)]);
    cn.global_write_bytes += 4;
  });
}

}  // namespace

void cpu_distributed_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  const Model m = model(cfg, input);
  const int G = m.gpus, T = m.threads;
  const std::int32_t cells = m.cells;
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kDistKeys));
  run.snapshot_initial();
  std::uint32_t* gpu_hist = run.row(kDistGpuHist);
  std::uint32_t* hist = run.row(kDistHist);
  std::size_t k = 0;  // the round of the splitter search
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& cn = run.count();
    const RoundRun& rr = m.search[std::min(k, m.search.size() - 1)];
    if (st.phase == "histogram") {
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
    } else if (st.phase == "exchange") {
      for (int r = 0; r < G; ++r) {
        std::int32_t from = m.shard[std::size_t(r)];
        for (int d = 0; d < G; ++d) {
          const std::int32_t count = m.send[std::size_t(r * G + d)];
          std::int32_t to = m.edges[std::size_t(d)];
          for (int e = 0; e < r; ++e) to += m.send[std::size_t(e * G + d)];
          if (count > 0) {
            std::copy(run.row(kDistPart) + from, run.row(kDistPart) + from + count, run.row(kDistRecv) + to);
            // One arrow per pair that sends, from the middle of the run to the middle of where it lands.
            run.op(std::int64_t(r) * G + d, 0, OpKind::Move, kDistPart, from + count / 2, kDistRecv, to + count / 2);
            cn.global_read_bytes += 4 * std::int64_t(count);
            cn.global_write_bytes += 4 * std::int64_t(count);
          }
          from += count;
        }
      }
    } else if (st.phase == "sort") {
      const std::uint32_t* recv = run.row(kDistRecv);
      const std::int32_t R = st.launch.threads;
      for (int d = 0; d < G; ++d) {
        const std::int32_t lo = m.edges[std::size_t(d)], hi = m.edges[std::size_t(d + 1)];
        for (std::int32_t a = lo; a < hi; ++a) {
          const std::uint32_t x = image_of(recv[a], cfg.type, 32);
          std::int32_t rank = 0;
          for (std::int32_t b = lo; b < hi; ++b) {
            const std::uint32_t y = image_of(recv[b], cfg.type, 32);
            rank += y < x || (y == x && b < a);
          }
          run.row(kDistSorted)[lo + rank] = recv[a];
          run.op(std::int64_t(d) * R + (a - lo) % R, (a - lo) / R, OpKind::Move, kDistRecv, a, kDistSorted, lo + rank);
          cn.global_read_bytes += 4 * std::int64_t(1 + hi - lo);
          cn.global_write_bytes += 4;
        }
      }
    }
    run.end();
  }
}

}  // namespace primlab::steppers
