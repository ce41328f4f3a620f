// The measuring engine without a device: the CPU rows (one thread and cpu-par) against
// straightforward host references on the generator's inputs, at sizes around the chunk and thread
// boundaries; the session's rows, header and sweep; the results' JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "engine/cpu_rows.h"
#include "engine/inputs.h"
#include "engine/session.h"
#include "lab/catalog.h"

using namespace primlab::bench;

namespace {
const std::atomic<bool> kNoCancel{false};
const std::int64_t kSizes[] = {0, 1, 4095, 4096, 4097, 100003, (1 << 18) + 1, 1 << 20};
}  // namespace

TEST(EngineCpu, ScansMatchTheReference) {
  for (std::int64_t n : kSizes)
    for (bool par : {false, true})
      for (bool excl : {true, false}) {
        std::vector<std::uint32_t> in(std::size_t(n) + 1), out(std::size_t(n) + 1), ref(std::size_t(n) + 1);
        fill_host(Type::u32, in.data(), n, 7, 4);
        if (excl) std::exclusive_scan(in.begin(), in.begin() + n, ref.begin(), 0u);
        else std::inclusive_scan(in.begin(), in.begin() + n, ref.begin());
        ASSERT_TRUE(run_cpu_primitive(excl ? "scan_exclusive" : "scan_inclusive", Type::u32, par, 5, in.data(), out.data(),
                                      n, kNoCancel));
        EXPECT_TRUE(std::equal(ref.begin(), ref.begin() + n, out.begin())) << n << " par " << par << " excl " << excl;
      }
}

TEST(EngineCpu, ReduceSelectHistogramSortMatchTheReference) {
  for (std::int64_t n : kSizes)
    for (bool par : {false, true}) {
      std::vector<std::int32_t> in(std::size_t(n) + 1), out(std::max<std::size_t>(std::size_t(n), 256) + 1);
      fill_host(Type::i32, in.data(), n, 11, 3);
      std::vector<std::uint32_t> u(std::size_t(n) + 1), sum(2);
      fill_host(Type::u32, u.data(), n, 11, 3);
      ASSERT_TRUE(run_cpu_primitive("reduce_sum", Type::u32, par, 7, u.data(), sum.data(), n, kNoCancel));
      EXPECT_EQ(sum[0], std::accumulate(u.begin(), u.begin() + n, 0u)) << n;

      std::int64_t count = -1;
      ASSERT_TRUE(run_cpu_primitive("select_if", Type::i32, par, 7, in.data(), out.data(), n, kNoCancel, &count));
      std::vector<std::int32_t> keep;
      std::copy_if(in.begin(), in.begin() + n, std::back_inserter(keep), [](std::int32_t x) { return x < 0; });
      ASSERT_EQ(count, std::int64_t(keep.size())) << n;
      EXPECT_TRUE(std::equal(keep.begin(), keep.end(), out.begin())) << n;

      std::vector<std::uint32_t> bins(256);
      ASSERT_TRUE(run_cpu_primitive("histogram_even", Type::i32, par, 7, in.data(), bins.data(), n, kNoCancel));
      std::vector<std::uint32_t> ref(256, 0);
      for (std::int64_t i = 0; i < n; ++i) ++ref[(std::uint32_t(in[std::size_t(i)]) ^ 0x80000000u) >> 24];
      EXPECT_EQ(bins, ref) << n;

      ASSERT_TRUE(run_cpu_primitive("sort_keys", Type::i32, par, 6, in.data(), out.data(), n, kNoCancel));
      std::vector<std::int32_t> sorted(in.begin(), in.begin() + n);
      std::sort(sorted.begin(), sorted.end());
      EXPECT_TRUE(std::equal(sorted.begin(), sorted.end(), out.begin())) << n << " par " << par;
    }
}

TEST(EngineCpu, FloatsAreUniformInZeroOneAndUnsupportedTypesAreRefused) {
  std::vector<float> f(1000);
  fill_host(Type::f32, f.data(), 1000, 3, 2);
  for (float x : f) ASSERT_TRUE(x >= 0.f && x < 1.f);
  std::vector<std::uint8_t> u(64), o(1024);
  EXPECT_FALSE(run_cpu_primitive("scan_exclusive", Type::u8, false, 1, u.data(), o.data(), 64, kNoCancel));
  EXPECT_FALSE(run_cpu_primitive("nonesuch", Type::u32, false, 1, u.data(), o.data(), 4, kNoCancel));
}

TEST(EngineCpu, ACancelledRunReturnsAtOnce) {
  std::atomic<bool> cancel{true};
  std::vector<std::uint32_t> in(1 << 20), out(1 << 20);
  EXPECT_FALSE(run_cpu_primitive("scan_exclusive", Type::u32, true, 4, in.data(), out.data(), 1 << 20, cancel));
}

TEST(EngineCpu, TheGeneratorIsSplitmix64AndItsThreadsAgree) {
  // Element 0 of stream s is splitmix64's first output for the state s (Vigna's reference
  // generator: 0xE220A8397B1DCDAF for state 0, 6457827717110365317 for 1234567).
  EXPECT_EQ(input_bits(0, 0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(input_bits(1234567, 0), 6457827717110365317ull);
  // Filling on several threads gives the numbers of one thread, and streams differ.
  std::vector<std::uint32_t> one(100001), four(100001), other(100001);
  fill_host(Type::u32, one.data(), std::int64_t(one.size()), 42, 1);
  fill_host(Type::u32, four.data(), std::int64_t(four.size()), 42, 4);
  fill_host(Type::u32, other.data(), std::int64_t(other.size()), 43, 4);
  EXPECT_EQ(one, four);
  EXPECT_NE(one, other);
  // Bytes cover every value about evenly; doubles lie in [0, 1).
  std::vector<std::uint8_t> b(1 << 16);
  fill_host(Type::u8, b.data(), std::int64_t(b.size()), 7, 2);
  std::vector<int> count(256, 0);
  for (std::uint8_t v : b) ++count[v];
  for (int v = 0; v < 256; ++v) EXPECT_NEAR(count[std::size_t(v)], 256, 80) << "byte " << v;
  std::vector<double> d(1000);
  fill_host(Type::f64, d.data(), 1000, 7, 2);
  for (double v : d) EXPECT_TRUE(v >= 0.0 && v < 1.0) << v;
}

TEST(EngineCpu, OneMinimumBytesTable) {
  EXPECT_EQ(min_bytes_per_elem("scan_exclusive", Type::u32), 8.0);
  EXPECT_EQ(min_bytes_per_elem("reduce_sum", Type::f64), 8.0);
  EXPECT_EQ(min_bytes_per_elem("select_flagged", Type::u32), 7.0);
  EXPECT_EQ(min_bytes_per_elem("sort_keys", Type::u32), 4.0 + 2 * 4 * 4);
  EXPECT_EQ(min_bytes_per_elem("sort_keys_zipf", Type::u32), min_bytes_per_elem("sort_keys", Type::u32));
  EXPECT_EQ(min_bytes_per_elem("sort_pairs", Type::u32), 4.0 + 4 * 4 * 4);
  EXPECT_EQ(min_bytes_per_elem("nonesuch", Type::u32), 0.0);
}

TEST(EngineCpu, SessionRowsCarryTimesAndThroughput) {
  Session session(4);
  const Impl* par = find_impl(session.table(), "scan_exclusive", "cpu-par");
  ASSERT_NE(par, nullptr);
  ASSERT_NE(find_impl(session.table(), "sort_keys", "cpu"), nullptr);
  EXPECT_TRUE(par->on_host);
  EXPECT_EQ(session.cpu_threads(), 4);
  if (!session.has_device()) EXPECT_NE(session.device().find("GPU rows need a CUDA device"), std::string::npos);
  Settings s;
  s.host_runs = 0;  // as many as 0.2 s allows, at least 3
  const Row r = session.measure(*par, Type::u32, 1 << 16, s, nullptr);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.impl, "cpu-par");
  EXPECT_EQ(r.type, "u32");
  EXPECT_GE(r.runs, 3);
  EXPECT_LE(r.p10_ms, r.median_ms);
  EXPECT_LE(r.median_ms, r.p90_ms);
  EXPECT_NEAR(r.gbps, 8.0 * (1 << 16) / (r.median_ms * 1e-3) / 1e9, 1e-6 * r.gbps);
  s.host_runs = 2;
  EXPECT_EQ(session.measure(*par, Type::u32, 1 << 10, s, nullptr).runs, 2);
  EXPECT_EQ(session.measure(*par, Type::u8, 1 << 10, s, nullptr).error, "no u8 version");
  const std::atomic<bool> cancel{true};
  EXPECT_EQ(session.measure(*par, Type::u32, 1 << 20, s, &cancel).error, "cancelled");
}

TEST(EngineCpu, TheHeaderIsMeasuredOnce) {
  Session session(2);
  const Results& a = session.header();
  EXPECT_GT(a.copy_gbps, 0);
  EXPECT_FALSE(a.date.empty());
  const double first = a.copy_gbps;
  EXPECT_EQ(session.header().copy_gbps, first);  // cached, not measured again
  EXPECT_EQ(&session.header(), &a);
}

TEST(EngineCpu, ASweepRunsEveryChosenRowInTableOrder) {
  Session session(2);
  SweepOptions o;
  o.primitives = {"reduce_sum", "histogram_even"};
  o.impls = {"cpu", "cpu-par"};
  o.types = {Type::u8, Type::u32};
  o.sizes = {1000, 1 << 12};
  o.host_max_n = 1000;  // the 2^12 rows are skipped
  o.settings.host_runs = 1;
  int seen = 0;
  o.on_row = [&](const Row&) { ++seen; };
  Results r;
  session.sweep(o, &r);
  // reduce_sum has no u8 row: u32 x {cpu, cpu-par}; histogram_even: {u8, u32} x {cpu, cpu-par}.
  ASSERT_EQ(r.rows.size(), 6u);
  EXPECT_EQ(seen, 6);
  EXPECT_EQ(r.rows[0].primitive, "reduce_sum");
  EXPECT_EQ(r.rows[0].impl, "cpu");
  EXPECT_EQ(r.rows[1].impl, "cpu-par");
  EXPECT_EQ(r.rows[2].primitive, "histogram_even");
  EXPECT_EQ(r.rows[2].type, "u8");
  for (const Row& x : r.rows) {
    EXPECT_TRUE(x.ok()) << x.impl << " " << x.error;
    EXPECT_EQ(x.n, 1000);
    EXPECT_EQ(x.runs, 1);
  }
  EXPECT_EQ(r.copy_gbps, session.header().copy_gbps);
}

TEST(EngineCpu, ResultsKeepTheCubVersionAndRenameTheLabsOldNames) {
  Results r;
  r.gpu = "G";
  r.cub = "3.0.1";
  r.rows.push_back(Row{"scan_exclusive", "scan-naive", "u32", 1024, 256, 0, 5, 1.0});
  Results back;
  primlab::Result got = parse_json(to_json(r), &back);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_EQ(back.cub, "3.0.1");
  EXPECT_EQ(to_json(back), to_json(r));
  // The committed results of 2026-11-22 name the lab's kernels as the bench did before the catalog.
  got = read_json(std::string(PRIMLAB_SOURCE_DIR) + "/bench/results/nvidia-h200-2026-11-22.json", &back);
  ASSERT_TRUE(got.ok()) << got.message();
  auto has = [&](const std::string& prim, const std::string& impl) {
    for (const Row& x : back.rows)
      if (x.primitive == prim && x.impl == impl) return true;
    return false;
  };
  EXPECT_TRUE(has("scan_exclusive", "scan-naive"));
  EXPECT_TRUE(has("scan_exclusive", "scan-shared"));
  EXPECT_TRUE(has("histogram_even", "histogram-atomic"));
  EXPECT_TRUE(has("reduce_sum", "reduce1"));
  EXPECT_FALSE(has("scan_exclusive", "naive"));
  EXPECT_FALSE(has("histogram_even", "shared-atomic"));
  got = read_json(std::string(PRIMLAB_SOURCE_DIR) + "/bench/results/nvidia-h200-2026-11-22-sort.json", &back);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(has("sort_keys", "radix-split"));
  EXPECT_TRUE(has("bitonic_sort_keys", "bitonic-sort"));
  // A name no table knows is kept as it is.
  ASSERT_TRUE(parse_json(R"({"results": [{"primitive": "scan_exclusive", "impl": "mystery", "n": 4}]})", &back).ok());
  EXPECT_EQ(back.rows.at(0).impl, "mystery");
}

TEST(EngineCpu, TheLabsRowsAreTheCatalogsTimedForms) {
  const Table table = make_table();
  // Every timed form that this build can run is a row named by the catalog, with its limits.
  int timed = 0;
  for (const primlab::Algorithm& a : primlab::algorithms()) {
    if (!a.timed.primitive || !a.timed.run) continue;
    ++timed;
    const Impl* im = find_impl(table, a.timed.primitive, a.name);
    ASSERT_NE(im, nullptr) << a.name;
    EXPECT_EQ(im->types.size(), a.timed.types.size()) << a.name;
    EXPECT_TRUE(im->takes_block);
    EXPECT_EQ(im->takes_items, a.timed.takes_items) << a.name;
    EXPECT_EQ(im->min_block, a.min_block);
    EXPECT_EQ(im->max_block, a.max_block);
    EXPECT_EQ(im->block_pow2, a.block_pow2);
  }
  // Every other row is the engine's own (no second list of teaching names).
  int own = 0;
  for (const Impl& im : table) {
    if (primlab::find_algorithm(im.impl)) continue;
    ++own;
    EXPECT_TRUE(im.impl == "primlab" || im.impl == "cub" || im.impl == "thrust" || im.impl == "cpu" ||
                im.impl == "cpu-par")
        << im.primitive << " " << im.impl;
  }
  EXPECT_EQ(own + timed, int(table.size()));
#if !PRIMLAB_HAVE_CUDA
  EXPECT_EQ(timed, 0);  // the catalog's timed forms have no run without CUDA
#endif
}

TEST(EngineCpu, ABlockOutsideTheRowsLimitsIsTheRowsError) {
  Impl im;
  im.takes_block = true;
  im.min_block = 32;
  im.max_block = 512;
  im.block_pow2 = true;
  EXPECT_TRUE(check_block(im, 0).ok());
  EXPECT_TRUE(check_block(im, 64).ok());
  EXPECT_EQ(check_block(im, 16).message(), "block 16 outside [32, 512]");
  EXPECT_EQ(check_block(im, 1024).message(), "block 1024 outside [32, 512]");
  EXPECT_FALSE(check_block(im, 96).ok());
  EXPECT_EQ(check_block(im, 96).message(), "block 96 is not a power of two");
  im.takes_block = false;
  EXPECT_TRUE(check_block(im, 96).ok());
}

TEST(EngineCpu, RatiosAreAgainstTheFasterCubAndBothVersionsAreKept) {
  Results r;
  r.cub = "3.0.1";
  r.cub_newer = "3.6.0";
  auto row = [](const char* impl, double ms) {
    Row x;
    x.primitive = "sort_keys";
    x.impl = impl;
    x.type = "u32";
    x.n = 65536;
    x.median_ms = ms;
    return x;
  };
  r.rows = {row("primlab", 0.036), row("cub", 0.062), row("cub-3.6", 0.051), row("thrust", 0.07)};
  compute_ratios(r.rows);
  EXPECT_NEAR(r.rows[0].ratio_to_cub, 0.051 / 0.036, 1e-9);  // the faster CUB: 3.6 here
  EXPECT_NEAR(r.rows[1].ratio_to_cub, 0.051 / 0.062, 1e-9);
  EXPECT_NEAR(r.rows[2].ratio_to_cub, 1.0, 1e-9);
  Results back;
  ASSERT_TRUE(parse_json(to_json(r), &back).ok());
  EXPECT_EQ(back.cub, "3.0.1");
  EXPECT_EQ(back.cub_newer, "3.6.0");
}
