// The distributed sort's CPU stepper on G virtual GPUs, checked against facts computed here from
// the trace's own rows: the ranks' sorted keys concatenate to a host sort; the splitters balance
// the ranks (largest <= ceil(n/G) + 2 slack, slack = n / (8 G)) on uniform, Zipf-skewed, all-equal
// and tiny inputs; each shard is staged in runs by destination, each exchange arrow's bytes are
// 4 x the keys of shard r whose destination is s, and GPU s receives exactly them; every round of
// the splitter search is its host loop's three launches; the labels' counters are the rows' facts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

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

// Every fact of one trace; returns the balance of the top-digit splitters (before refining).
double check(const std::vector<std::uint32_t>& in, int G, int bits, ElemType type = ElemType::U32) {
  SCOPED_TRACE("G=" + std::to_string(G) + " digit bits=" + std::to_string(bits) + " n=" + std::to_string(in.size()));
  const Trace t = run(in, G, bits, type);
  const std::int32_t n = std::int32_t(in.size());
  const std::size_t last = t.steps.size() - 1;
  // The result: a host sort, in the key type's order.
  std::vector<std::uint32_t> want = in;
  if (type == ElemType::I32)
    std::sort(want.begin(), want.end(), [](std::uint32_t a, std::uint32_t b) { return std::int32_t(a) < std::int32_t(b); });
  else
    std::sort(want.begin(), want.end());
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
  // Destinations: GPU s's keys are the sorted keys at [edges[s], edges[s + 1]) (as multisets).
  const std::size_t part = step_of(t, "partition"), ex = step_of(t, "exchange");
  const std::vector<std::uint32_t> dest = row(t, part, kDistDest);
  const std::vector<std::uint32_t> bytes = row(t, ex, kDistBytes);
  const std::vector<std::uint32_t> recv = row(t, ex, kDistRecv);
  const std::vector<std::uint32_t> staged = row(t, part, kDistPart);
  EXPECT_EQ(row(t, part, kDistBytes), bytes) << "the partition counts what each GPU sends";
  std::int64_t across = 0;
  for (int s = 0; s < G; ++s) {
    std::vector<std::uint32_t> got(recv.begin() + edges[std::size_t(s)], recv.begin() + edges[std::size_t(s + 1)]);
    std::vector<std::uint32_t> sent;
    for (int r = 0; r < G; ++r) {
      std::uint32_t keys = 0;
      std::vector<std::uint32_t> to_s;
      for (std::int32_t i = shard[std::size_t(r)]; i < shard[std::size_t(r + 1)]; ++i)
        if (dest[std::size_t(i)] == std::uint32_t(s)) {
          ++keys;
          to_s.push_back(in[std::size_t(i)]);
        }
      EXPECT_EQ(bytes[std::size_t(r * G + s)], 4 * keys) << r << " -> " << s;
      across += r != s ? 4 * keys : 0;
      // Shard r is staged in runs by destination: its run for s follows its runs for the GPUs before s.
      std::int32_t at = shard[std::size_t(r)];
      for (int e = 0; e < s; ++e) at += std::int32_t(bytes[std::size_t(r * G + e)] / 4);
      std::vector<std::uint32_t> run(staged.begin() + at, staged.begin() + at + std::int32_t(keys));
      std::sort(run.begin(), run.end());
      std::sort(to_s.begin(), to_s.end());
      EXPECT_EQ(run, to_s) << "GPU " << r << "'s run for GPU " << s;
      sent.insert(sent.end(), to_s.begin(), to_s.end());
    }
    std::vector<std::uint32_t> slice(want.begin() + edges[std::size_t(s)], want.begin() + edges[std::size_t(s + 1)]);
    std::sort(got.begin(), got.end());
    std::sort(sent.begin(), sent.end());
    std::sort(slice.begin(), slice.end());
    EXPECT_EQ(got, sent) << "GPU " << s << " receives what the others send it";
    EXPECT_EQ(got, slice) << "GPU " << s << " holds its range of the sorted keys";
  }
  // One arrow per pair that sends; the labels' and counters' numbers.
  std::int32_t pairs = 0;
  for (std::uint32_t b : bytes) pairs += b > 0;
  EXPECT_EQ(t.steps[ex].launch.active, pairs);
  for (std::int64_t k = 0; k < t.steps[ex].op_count(); ++k) {
    const Op& o = t.ops[std::size_t(t.steps[ex].op_begin + k)];
    if (o.kind == 0) continue;
    EXPECT_GT(bytes[std::size_t(o.thread)], 0u) << "an arrow for a pair that sends nothing";
  }
  EXPECT_EQ(t.steps[ex].counters.global_write_bytes, 4 * std::int64_t(n));
  EXPECT_NE(t.steps[ex].label.find(std::to_string(across) + " bytes cross"), std::string::npos) << t.steps[ex].label;
  double first = -1;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    const Step& st = t.steps[s];
    if (st.phase != "splitters") continue;
    const std::vector<std::uint32_t> c = row(t, s, kDistCounts);
    char text[32];
    std::snprintf(text, sizeof text, "balance (largest / mean) %.2f", balance_of(c, n));
    EXPECT_NE(st.label.find(text), std::string::npos) << st.label;
    if (first < 0) first = balance_of(c, n);
  }
  // Every round is the host loop's three launches: the histograms, the all-reduce, the cuts. Each
  // GPU's histogram counts the cells its keys show; the all-reduced one is their sum; round 1
  // counts every key.
  const std::size_t cells = t.rows[kDistHist].length;
  std::size_t rounds = 0;
  for (std::size_t s = 1; s < t.steps.size() && t.steps[s].phase == "histogram"; s += 3, ++rounds) {
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
    if (rounds == 0) EXPECT_EQ(total, std::uint32_t(n));
  }
  EXPECT_GE(rounds, 1u);
  EXPECT_EQ(t.steps[1 + 3 * rounds].phase, "partition");
  return first;
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
  for (int bits = 2; bits <= 8; ++bits) check(in, 4, bits);
  for (auto& k : in) k = rng();  // the whole 32-bit range, int32 negatives included
  for (int G : {3, 8}) {
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
  EXPECT_EQ(rounds_of(t), 2u) << "the top digit, then the next digit of bucket 0";
  EXPECT_NE(t.steps[3].label.find("the next round refines it"), std::string::npos) << t.steps[3].label;
  EXPECT_NE(t.steps[6].label.find("split by position"), std::string::npos) << t.steps[6].label;
  std::mt19937 rng(5);
  std::vector<std::uint32_t> zipf(2000);
  for (auto& k : zipf) k = std::uint32_t(1000.0 / (1 + rng() % 1000));  // heavy on 1, 2, 3, ...
  for (int G = 2; G <= max_gpus(); ++G)
    for (int bits : {2, 5, 8}) check(zipf, G, bits);
}

TEST(DistributedSort, EqualKeysAreSplitByPosition) {
  for (int G = 2; G <= max_gpus(); ++G) {
    const std::vector<std::uint32_t> in(std::size_t(37 * G + 3), 42u);
    EXPECT_DOUBLE_EQ(check(in, G, 4), 1.0 * double((in.size() + G - 1) / G) * G / double(in.size()));
    const Trace t = run(in, G, 4);
    EXPECT_NE(t.steps[step_of(t, "splitters")].label.find("split by position"), std::string::npos);
    EXPECT_NE(t.steps[step_of(t, "histogram")].explain.find("All keys are equal"), std::string::npos);
  }
}

TEST(DistributedSort, FewerKeysThanGpusAndOneKey) {
  check(words({9, 2, 5}), 8, 4);
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
