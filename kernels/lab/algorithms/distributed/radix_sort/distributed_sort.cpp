// Distributed radix sort on G virtual GPUs (2 to 8, StepConfig::bins): the plan and the CPU
// stepper. It steps the structure of a multi-GPU sort that partitions first (the library's
// primlab/distributed.h on 4 ranks below 2^30 keys a rank and on 5 to 8; on 2 and 3, and on 4 from
// 2^30, the library sorts each shard first and merges what arrives, as the partition and
// local-sort steps say) on one device; the CUDA stepper (distributed_sort_traced.cu) runs each
// step as a kernel.
// The n keys are split into G contiguous shards (shard r = [r n / G, (r + 1) n / G)). Every GPU
// counts the top digit of its shard; the counts are all-reduced into a global histogram; G - 1
// splitters cut its prefix sum near s n / G. A cut that lands inside a bucket too far from both of
// its edges (more than the slack, n / (8 G)) is refined with the next digit, round after round;
// a bucket of equal keys (no bits left) is cut by position, since equal keys are interchangeable in
// a keys-only sort (the run's keys are ordered shard-major, the global input order). Then every GPU
// groups its keys by destination, sends group s to GPU s (the exchange, 4 bytes a key), and sorts
// what it received. GPU s ends up with the global positions [edge s, edge s + 1) of the sorted
// keys: every one of them within 2 x slack + 1 of n / G.
// Keys are radix keys: uint32 as they are, int32 with the sign bit flipped. The digits are taken
// from the bits the keys differ in (below the highest bit where any two keys differ), so that
// small keys read in a few digits; the digit width is StepConfig::digit_bits.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "lab/algorithms/distributed/radix_sort/distributed_sort.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {

using namespace distributed;  // the rows and radix_key

std::string fmt_balance(double b) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f", b);
  return s;
}

std::string bits_text(int lo, int hi) { return "bits [" + std::to_string(lo) + ", " + std::to_string(hi) + ")"; }

}  // namespace

namespace distributed {

Model model(const StepConfig& cfg, const std::vector<std::uint32_t>& input) {
  Model m;
  m.n = std::int32_t(input.size());
  m.gpus = cfg.bins;
  m.digit_bits = cfg.digit_bits;
  m.slack = m.n / (8 * m.gpus);
  const int G = m.gpus;
  m.keys.resize(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) m.keys[i] = radix_key(input[i], cfg.type);
  std::uint32_t diff = 0;
  for (std::uint32_t k : m.keys) diff |= k ^ m.keys[0];
  while (m.span < 32 && (diff >> m.span) != 0) ++m.span;
  for (int r = 0; r <= G; ++r) m.shard.push_back(std::int32_t(std::int64_t(r) * m.n / G));

  // The splitter search: round 0 on the top digit, then one round per refined digit.
  struct Open {
    std::uint32_t prefix = 0;  // the bucket holding the cut: the top `level` bits of the span
    std::int32_t below = 0;    // keys before that bucket in the global order
  };
  std::vector<Open> open(std::size_t(G - 1));
  std::vector<bool> resolved(std::size_t(G - 1), false);
  std::vector<std::int32_t> cut(std::size_t(G - 1));
  for (int s = 1; s < G; ++s) cut[std::size_t(s - 1)] = m.shard[std::size_t(s)];
  const std::uint32_t span_mask = m.span == 32 ? ~0u : (1u << m.span) - 1u;
  int level = 0;
  while (true) {
    Round rd;
    rd.level = level;
    rd.bits = std::min(m.digit_bits, m.span - level);
    const int rest = m.span - level - rd.bits;
    const std::int32_t buckets = 1 << rd.bits;
    for (int s = 0; s + 1 < G; ++s)
      if (!resolved[std::size_t(s)] && (rd.queries.empty() || rd.queries.back() != open[std::size_t(s)].prefix))
        rd.queries.push_back(open[std::size_t(s)].prefix);
    if (rd.queries.empty()) break;
    // Every GPU's counts of the digit among its keys in each queried bucket, then their sum.
    rd.gpu_hist.assign(std::size_t(G) * rd.queries.size() * buckets, 0);
    rd.slot.assign(input.size(), -1);
    for (int r = 0; r < G; ++r)
      for (std::int32_t i = m.shard[std::size_t(r)]; i < m.shard[std::size_t(r + 1)]; ++i) {
        const std::uint32_t x = m.keys[std::size_t(i)] & span_mask;
        const std::uint32_t prefix = level == 0 ? 0u : x >> (m.span - level);
        const auto q = std::find(rd.queries.begin(), rd.queries.end(), prefix);
        if (q == rd.queries.end()) continue;
        const std::int32_t d = std::int32_t((x >> rest) & std::uint32_t(buckets - 1));
        rd.slot[std::size_t(i)] = std::int32_t(q - rd.queries.begin()) * buckets + d;
        rd.gpu_hist[std::size_t(r) * rd.queries.size() * buckets + std::size_t(rd.slot[std::size_t(i)])] += 1;
      }
    rd.hist.assign(rd.queries.size() * buckets, 0);
    rd.cut_slot.assign(std::size_t(G - 1), -1);
    for (int r = 0; r < G; ++r)
      for (std::size_t c = 0; c < rd.hist.size(); ++c) rd.hist[c] += rd.gpu_hist[std::size_t(r) * rd.hist.size() + c];
    // Each open cut walks the prefix sum of its bucket's histogram.
    for (int s = 0; s + 1 < G; ++s) {
      if (resolved[std::size_t(s)]) continue;
      Open& o = open[std::size_t(s)];
      const std::int32_t q = std::int32_t(std::find(rd.queries.begin(), rd.queries.end(), o.prefix) - rd.queries.begin());
      const std::int32_t* h = rd.hist.data() + std::size_t(q) * buckets;
      const std::int32_t target = m.shard[std::size_t(s + 1)], local = target - o.below;
      std::int32_t cum = 0, b = 0;
      while (cum + h[b] <= local) cum += h[b++];
      rd.walked += b + 1;
      rd.cut_slot[std::size_t(s)] = q * buckets + b;
      const std::int32_t to_lower = local - cum, to_upper = cum + h[b] - local;
      const bool lower = to_lower <= to_upper;
      cut[std::size_t(s)] = o.below + (lower ? cum : cum + h[b]);  // the nearest bucket edge
      if (std::min(to_lower, to_upper) <= m.slack) {
        resolved[std::size_t(s)] = true;
        rd.at_edge += 1;
      } else if (rest == 0) {  // a run of equal keys: cut it at the target position
        cut[std::size_t(s)] = target;
        resolved[std::size_t(s)] = true;
        rd.ties += 1;
      } else {
        rd.refined += 1;
        o = {(o.prefix << rd.bits) | std::uint32_t(b), o.below + cum};
      }
    }
    rd.edges = {0};
    rd.edges.insert(rd.edges.end(), cut.begin(), cut.end());
    rd.edges.push_back(m.n);
    m.rounds.push_back(std::move(rd));
    level += m.rounds.back().bits;
    if (m.rounds.back().bits == 0) break;  // the span is empty: every cut was a tie
  }
  m.edges = m.rounds.back().edges;

  // Destinations: a key's place in the stable global order, then the GPU whose range holds it.
  std::vector<std::int32_t> order(input.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return m.keys[std::size_t(a)] < m.keys[std::size_t(b)]; });
  m.dest.resize(input.size());
  for (std::int32_t p = 0; p < m.n; ++p) {
    int s = 0;
    while (p >= m.edges[std::size_t(s + 1)]) ++s;
    m.dest[std::size_t(order[std::size_t(p)])] = s;
  }
  m.send.assign(std::size_t(G) * G, 0);
  for (int r = 0; r < G; ++r)
    for (std::int32_t i = m.shard[std::size_t(r)]; i < m.shard[std::size_t(r + 1)]; ++i)
      m.send[std::size_t(r) * G + std::size_t(m.dest[std::size_t(i)])] += 1;
  return m;
}

double balance(const std::vector<std::int32_t>& edges) {
  const int G = int(edges.size()) - 1;
  std::int32_t most = 0;
  for (int s = 0; s < G; ++s) most = std::max(most, edges[std::size_t(s + 1)] - edges[std::size_t(s)]);
  return edges.back() == 0 ? 1.0 : double(most) * G / edges.back();
}

}  // namespace distributed

namespace {
using distributed::Model;

std::int32_t widest(const std::vector<std::int32_t>& edges) {
  std::int32_t w = 0;
  for (std::size_t s = 0; s + 1 < edges.size(); ++s) w = std::max(w, edges[s + 1] - edges[s]);
  return std::max(w, 1);
}

std::string counts_text(const std::vector<std::int32_t>& edges) {
  std::string t;
  for (std::size_t s = 0; s + 1 < edges.size(); ++s) t += (s ? " " : "") + std::to_string(edges[s + 1] - edges[s]);
  return t;
}

std::string round_label(const Model& m, std::size_t k) {
  const distributed::Round& rd = m.rounds[k];
  const int hi = m.span - rd.level;
  const std::string keys = "keys per GPU " + counts_text(rd.edges) + ", balance (largest / mean) " +
                           fmt_balance(distributed::balance(rd.edges));
  std::string what;
  auto part = [&](int count, const std::string& text) {
    if (count) what += (what.empty() ? "" : "; ") + std::to_string(count) + " cut(s) " + text;
  };
  part(rd.at_edge, "on a bucket edge within " + std::to_string(m.slack) + " keys of s n/G");
  part(rd.refined, "inside a bucket: refine with the next digit");
  part(rd.ties, "inside a run of equal keys: split by position");
  if (k == 0)
    return "splitters from the top digit (" + bits_text(hi - rd.bits, hi) + "): " + keys + "; " + what;
  return "refine: every GPU counts " + bits_text(hi - rd.bits, hi) + " of its keys in " +
         std::to_string(rd.queries.size()) + " bucket(s), all-reduced; " + keys + "; " + what;
}

}  // namespace

Result plan_distributed_sort(const StepConfig& cfg, Trace& t) {
  if (cfg.bins < 2 || cfg.bins > 8)
    return Result::failure("distributed sort runs on 2 to 8 virtual GPUs (got " + std::to_string(cfg.bins) + ")");
  if (cfg.digit_bits < 2 || cfg.digit_bits > 8)
    return Result::failure("the digit takes 2 to 8 bits (got " + std::to_string(cfg.digit_bits) + ")");
  if (cfg.type == ElemType::F32) return Result::failure("distributed sort takes int32 or uint32 keys");
  if (!cfg.input || cfg.input->size() != std::size_t(cfg.n))
    return Result::failure("distributed sort plans its splitters from the input, which is missing");
  const Model m = distributed::model(cfg, *cfg.input);
  const int G = m.gpus;
  const std::int32_t B = 1 << m.digit_bits, n = m.n;
  std::size_t refine_cells = 0;
  for (std::size_t k = 1; k < m.rounds.size(); ++k) refine_cells = std::max(refine_cells, m.rounds[k].hist.size());
  t.title = "Distributed radix sort on " + std::to_string(G) + " virtual GPUs";
  t.width = std::max({n, G * B, G * G, G + 1, std::int32_t(refine_cells)});
  t.block = widest(m.shard);  // the drawing's "block" is one GPU's shard
  t.elems_per_thread = 1;
  const plan::Code code = plan::code(t, "distributed-sort");
  const int top = m.rounds[0].bits;
  plan::standard_rows(t, "keys (GPU r holds shard r)", n, cfg.type);
  plan::add_row(t, "top digit, " + bits_text(m.span - top, m.span), RowKind::Index, n, ElemType::I32);
  plan::add_row(t, "per-GPU histograms [gpu][digit]", RowKind::Values, G * B, ElemType::U32, false);
  plan::add_row(t, "global histogram (all-reduce)", RowKind::Values, B, ElemType::U32, false);
  plan::add_row(t, "keys per GPU (splitters)", RowKind::Values, G, ElemType::U32, false);
  plan::add_row(t, "splitters: global position where GPU s starts", RowKind::Values, G + 1, ElemType::U32, false);
  plan::add_row(t, "destination GPU", RowKind::Index, n, ElemType::I32);
  plan::add_row(t, "partitioned by destination (per GPU)", RowKind::Values, n, cfg.type);
  plan::add_row(t, "bytes sent [from][to]", RowKind::Values, G * G, ElemType::U32, false);
  plan::add_row(t, "received (GPU s)", RowKind::Values, n, cfg.type);
  plan::add_row(t, "sorted on each GPU", RowKind::Values, n, cfg.type);
  if (refine_cells) plan::add_row(t, "refined histogram [bucket][next digit]", RowKind::Values, std::int32_t(refine_cells), ElemType::U32, false);
  const std::int32_t S = t.block;
  plan::initial_step(t, kRowMain);
  Step& in = t.steps.back();
  in.label = "input: " + std::to_string(n) + " keys in " + std::to_string(G) + " shards of about n/G = " +
             fmt_balance(double(n) / G);
  in.explain = n < G ? "Fewer keys than GPUs: some GPUs hold no key; they still take part in every collective step."
                     : "The keys are split into G contiguous shards, one per virtual GPU, as equal as possible.";
  in.bands = m.shard;
  Step& hist = plan::add_step(t, "histogram: every GPU counts the top digit " + bits_text(m.span - top, m.span) +
                                     " of its shard", "histogram", code.line("histogram"), G, S, n, 1, kGpuHist);
  hist.explain = m.span == 0 ? "All keys are equal: there are no bits they differ in, so every key falls in bucket 0."
                             : "Each GPU counts its own keys per top digit: a local histogram, no communication yet.";
  plan::add_step(t, "all-reduce: the per-GPU histograms are summed; every GPU holds the global histogram", "all-reduce",
                 code.line("all-reduce"), G, B, G * B, 1, kGlobalHist)
      .explain = "An all-reduce sums the G histograms, so that every GPU knows how many keys of each digit exist "
                 "in the whole input and can place the same splitters.";
  for (std::size_t k = 0; k < m.rounds.size(); ++k) {
    const distributed::Round& rd = m.rounds[k];
    if (k == 0) {
      Step& sp = plan::add_step(t, round_label(m, k), "splitters", code.line("splitters"), 1, G - 1, G - 1, 1, kCounts);
      sp.explain = "Each cut walks the prefix sum of the global histogram to its target s n/G and takes the nearest "
                   "bucket edge. A bucket larger than a GPU's fair share (skew) leaves a cut far from its target: "
                   "the balance counter shows how uneven the GPUs would be.";
      continue;
    }
    const std::int32_t active = std::int32_t(std::count_if(rd.slot.begin(), rd.slot.end(), [](std::int32_t c) { return c >= 0; }));
    plan::add_step(t, round_label(m, k), "refine", code.line("refine"), G, S, active, 1, kRefine).explain =
        "Only the buckets that hold a cut are looked at again, by the next digit: every GPU counts its keys in them "
        "and the counts are all-reduced, so the cuts can move to finer edges. A bucket of equal keys is split by "
        "position instead.";
  }
  const std::int32_t R = widest(m.edges);
  Step& part = plan::add_step(t, "partition: every GPU groups its keys by destination GPU (stable counting sort)",
                              "partition", code.line("partition"), G, S, n, 1, kPart);
  part.explain = "Each GPU sorts its shard by destination only: the keys for GPU 0 first, then GPU 1 and so on, each "
                 "group one contiguous run to send. primlab's library does this on 4 GPUs below 2^30 keys a GPU and "
                 "on 5 to 8; on 2 and 3 GPUs, and on 4 from 2^30, it sorts each shard completely here, which leaves "
                 "the groups in order too.";
  part.bands = m.shard;
  std::int64_t across = 0;
  for (int r = 0; r < G; ++r)
    for (int s = 0; s < G; ++s) across += r != s ? m.send[std::size_t(r) * G + s] : 0;
  const std::int32_t pairs = std::int32_t(std::count_if(m.send.begin(), m.send.end(), [](std::int32_t c) { return c > 0; }));
  Step& ex = plan::add_step(t, "exchange (all-to-all): " + std::to_string(4 * across) + " bytes cross between GPUs, " +
                                   std::to_string(4 * (n - across)) + " stay on their GPU",
                            "exchange", code.line("exchange"), G, G, pairs, 1, kRecv);
  ex.explain = "GPU r sends its group s to GPU s: one arrow per pair, 4 bytes a key (the bytes row). GPU s stores "
               "what it receives in order of the sender.";
  ex.bands = m.edges;
  Step& sort = plan::add_step(t, "local sort: every GPU sorts the keys it received", "sort",
                              code.line("sort"), G, R, n, 1, kSorted);
  sort.explain = "Each GPU sorts its own keys, stably (the library runs its one-GPU radix sort here; this step puts "
                 "each key at its rank among the keys its GPU received); no key moves between GPUs again. GPU s holds "
                 "the sorted keys at global positions [edge s, edge s+1). The library cuts each GPU's range into a "
                 "few pieces by key and sends them one after another, so that it sorts one piece while the next "
                 "travels. Where it sorted each shard before the exchange, the runs a GPU receives are sorted "
                 "already and it merges them instead.";
  sort.bands = m.edges;
  return {};
}

void cpu_distributed_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  const Model m = distributed::model(cfg, input);
  const int G = m.gpus;
  const std::int32_t B = 1 << m.digit_bits, S = t.block;
  cpu::CpuRun ctx(t);
  std::copy(input.begin(), input.end(), ctx.row(kRowMain));
  ctx.snapshot_initial();
  const std::uint32_t* key = ctx.row(kRowMain);
  auto shard_of = [&](std::int32_t i) {
    int r = 0;
    while (i >= m.shard[std::size_t(r + 1)]) ++r;
    return r;
  };
  // The thread of key i in a per-GPU launch: block r (the GPU), thread i - shard start.
  auto thread_of = [&](std::int32_t i, const std::vector<std::int32_t>& edges, std::int32_t threads) {
    int r = 0;
    while (i >= edges[std::size_t(r + 1)]) ++r;
    return std::int64_t(r) * threads + (i - edges[std::size_t(r)]);
  };
  std::size_t round = 0;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    ctx.begin(s);
    const std::string& phase = t.steps[s].phase;
    const distributed::Round& rd = m.rounds[std::min(round, m.rounds.size() - 1)];
    if (phase == "histogram") {
      for (std::int32_t i = 0; i < m.n; ++i) {  // every GPU r over its shard [shard[r], shard[r + 1])
        const int r = shard_of(i);
        ctx.row(kDigit)[i] = std::uint32_t(rd.slot[std::size_t(i)]);
        ctx.row(kGpuHist)[r * B + rd.slot[std::size_t(i)]] += 1;
        ctx.op(thread_of(i, m.shard, S), 0, OpKind::Atomic, kRowMain, i, kGpuHist, r * B + rd.slot[std::size_t(i)]);
        ctx.count().global_read_bytes += 4;
        ctx.count().atomics += 1;
      }
    } else if (phase == "all-reduce") {
      for (int r = 0; r < G; ++r)
        for (std::int32_t b = 0; b < B; ++b) {
          ctx.row(kGlobalHist)[b] += ctx.row(kGpuHist)[r * B + b];
          ctx.op(std::int64_t(r) * B + b, 0, OpKind::Add, kGpuHist, r * B + b, kGlobalHist, b);
          ctx.count().adds += 1;
          ctx.count().global_read_bytes += 4;
          ctx.count().global_write_bytes += 4;  // every GPU receives the sum
        }
    } else if (phase == "splitters" || phase == "refine") {
      if (phase == "refine") {
        std::fill(ctx.row(kRefine), ctx.row(kRefine) + t.rows[kRefine].length, 0u);
        for (std::int32_t i = 0; i < m.n; ++i) {
          ctx.count().global_read_bytes += 4;
          if (rd.slot[std::size_t(i)] < 0) continue;  // not in a bucket that holds a cut
          ctx.row(kRefine)[rd.slot[std::size_t(i)]] += 1;
          ctx.op(thread_of(i, m.shard, S), 0, OpKind::Atomic, kRowMain, i, kRefine, rd.slot[std::size_t(i)]);
          ctx.count().atomics += 1;
        }
        ctx.count().adds += std::int64_t(G) * std::int64_t(rd.hist.size());  // the all-reduce
      }
      for (int c = 0; c <= G; ++c) ctx.row(kEdges)[c] = std::uint32_t(rd.edges[std::size_t(c)]);
      for (int g = 0; g < G; ++g) ctx.row(kCounts)[g] = std::uint32_t(rd.edges[std::size_t(g + 1)] - rd.edges[std::size_t(g)]);
      for (int c = 1; c < G && phase == "splitters"; ++c) ctx.op(c - 1, 0, OpKind::Move, kGlobalHist, rd.cut_slot[std::size_t(c - 1)], kEdges, c);
      ctx.count().global_read_bytes += 4 * rd.walked;
      ctx.count().adds += rd.walked;
      ++round;
    } else if (phase == "partition") {
      for (int r = 0; r < G; ++r) {
        std::int32_t at = m.shard[std::size_t(r)];
        for (int d = 0; d < G; ++d)
          for (std::int32_t i = m.shard[std::size_t(r)]; i < m.shard[std::size_t(r + 1)]; ++i) {
            if (m.dest[std::size_t(i)] != d) continue;
            ctx.row(kDest)[i] = std::uint32_t(d);
            ctx.row(kPart)[at] = key[i];
            ctx.op(thread_of(i, m.shard, S), 0, OpKind::Move, kRowMain, i, kPart, at);
            ++at;
          }
      }
      ctx.count().global_read_bytes += 4 * std::int64_t(m.n);
      ctx.count().global_write_bytes += 4 * std::int64_t(m.n);
    } else if (phase == "exchange") {
      std::vector<std::int32_t> from(m.shard.begin(), m.shard.end() - 1), to(m.edges.begin(), m.edges.end() - 1);
      for (int r = 0; r < G; ++r)
        for (int d = 0; d < G; ++d) {
          const std::int32_t c = m.send[std::size_t(r) * G + d];
          ctx.row(kBytes)[r * G + d] = std::uint32_t(4 * c);
          if (c == 0) continue;
          std::copy(ctx.row(kPart) + from[r], ctx.row(kPart) + from[r] + c, ctx.row(kRecv) + to[d]);
          // One arrow per pair that sends, from the middle of the run to the middle of where it lands.
          ctx.op(std::int64_t(r) * G + d, 0, OpKind::Move, kPart, from[r] + c / 2, kRecv, to[d] + c / 2);
          ctx.count().global_read_bytes += 4 * std::int64_t(c);
          ctx.count().global_write_bytes += 4 * std::int64_t(c);
          from[r] += c;
          to[d] += c;
        }
    } else if (phase == "sort") {
      std::copy(ctx.row(kRecv), ctx.row(kRecv) + m.n, ctx.row(kSorted));
      for (int d = 0; d < G; ++d) {
        const std::int32_t lo = m.edges[std::size_t(d)], hi = m.edges[std::size_t(d + 1)];
        std::vector<std::int32_t> idx(std::size_t(hi - lo));
        std::iota(idx.begin(), idx.end(), lo);
        std::stable_sort(idx.begin(), idx.end(), [&](std::int32_t a, std::int32_t b) {
          return radix_key(ctx.row(kRecv)[a], cfg.type) < radix_key(ctx.row(kRecv)[b], cfg.type);
        });
        for (std::int32_t j = 0; j < hi - lo; ++j) {
          ctx.row(kSorted)[lo + j] = ctx.row(kRecv)[idx[std::size_t(j)]];
          ctx.op(thread_of(idx[std::size_t(j)], m.edges, t.steps[s].launch.threads), 0, OpKind::Move, kRecv,
                 idx[std::size_t(j)], kSorted, lo + j);
        }
      }
      ctx.count().global_read_bytes += 4 * std::int64_t(m.n);
      ctx.count().global_write_bytes += 4 * std::int64_t(m.n);
    }
    ctx.end();
  }
}

}  // namespace primlab::steppers
