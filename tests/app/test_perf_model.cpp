// The Performance tab's model without a window or a GPU: sweep scheduling, the worker and its
// cancellation (within a second), the JSON/CSV export and import round trip, the baseline diff.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "model/perf_model.h"

using namespace primlab::perf;

namespace {

Entry entry(const std::string& impl, bool gpu, bool block = false, bool items = false) {
  Entry e;
  e.primitive = "scan_exclusive";
  e.impl = impl;
  e.types = {"u32", "f32"};
  e.gpu = gpu;
  e.takes_block = block;
  e.takes_items = items;
  return e;
}

// A backend whose runs take `run_ms` each (sleeping in 5 ms slices, polling the cancel flag),
// with a time that grows with n so that the rows look like measurements.
class FakeBackend : public Backend {
 public:
  explicit FakeBackend(double run_ms, bool gpu = true) : run_ms_(run_ms), gpu_(gpu) {}
  std::vector<Entry> entries() const override {
    return {entry("scan-naive", true, true), entry("cub", true), entry("primlab", true), entry("cpu", false)};
  }
  bool has_gpu() const override { return gpu_; }
  std::string device() const override { return gpu_ ? "Fake GPU" : "no CUDA device"; }
  void begin(Results& h) override {
    h.gpu = "Fake GPU";
    h.copy_gbps = 1000;
  }
  Row run(const Job& j, const std::atomic<bool>& cancel) override {
    ++calls;
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < run_ms_) {
      if (cancel.load()) return Row{j.primitive, j.impl, j.type, j.n, j.block, j.items, 0, 0, 0, 0, 0, 0, 0, "cancelled"};
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    Row r{j.primitive, j.impl, j.type, j.n, j.block, j.items, 5};
    r.median_ms = 1e-6 * double(j.n) * (j.impl == "cub" ? 1.0 : j.impl == "scan-naive" ? 4.0 : 1.25);
    r.p10_ms = r.p90_ms = r.median_ms;
    r.items_per_s = double(j.n) / (r.median_ms * 1e-3);
    r.gbps = 8 * double(j.n) / (r.median_ms * 1e-3) / 1e9;
    if (j.n == (std::int64_t(1) << 12) && j.impl == "primlab") r.error = "CUDA error";  // one failing run
    return r;
  }
  std::atomic<int> calls{0};

 private:
  double run_ms_;
  bool gpu_;
};

void wait_done(PerfState& s, double limit_s) {
  const auto t0 = std::chrono::steady_clock::now();
  do {
    poll_sweep(s);
    if (!s.progress.running) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < limit_s);
}

}  // namespace

TEST(PerfSchedule, SizesAscendingThenEntriesInTableOrder) {
  std::vector<Entry> es = {entry("scan-naive", true, true), entry("cub", true), entry("cpu", false)};
  Plan p;
  p.impls = {"cpu", "scan-naive", "cub"};
  p.log2_min = 10;
  p.log2_max = 14;
  p.log2_step = 2;
  p.block = 128;
  std::vector<std::string> skipped;
  const auto jobs = schedule(p, es, true, &skipped);
  ASSERT_EQ(jobs.size(), 9u);  // 2^10, 2^12, 2^14 x 3 entries
  EXPECT_TRUE(skipped.empty());
  EXPECT_EQ(jobs[0].impl, "scan-naive");
  EXPECT_EQ(jobs[1].impl, "cub");
  EXPECT_EQ(jobs[2].impl, "cpu");
  EXPECT_EQ(jobs[3].n, 1 << 12);
  EXPECT_EQ(jobs[0].block, 128);  // takes a block
  EXPECT_EQ(jobs[1].block, 0);    // does not
  EXPECT_FALSE(jobs[2].gpu);
}

TEST(PerfSchedule, SizesIncludeTheLargestAndX4Steps) {
  Plan p;
  p.log2_min = 10;
  p.log2_max = 15;
  p.log2_step = 2;
  const auto n = plan_sizes(p);
  ASSERT_EQ(n.size(), 4u);
  EXPECT_EQ(n.back(), 1 << 15);
  p.log2_step = 1;
  p.log2_min = 10;
  p.log2_max = 28;
  EXPECT_EQ(plan_sizes(p).size(), 19u);
}

TEST(PerfSchedule, WithoutADeviceOnlyCpuRowsRunAndTheReasonIsGiven) {
  std::vector<Entry> es = {entry("scan-naive", true, true), entry("cub", true), entry("cpu", false)};
  Plan p;
  p.impls = {"scan-naive", "cub", "cpu", "nonesuch"};
  p.log2_min = p.log2_max = 10;
  std::vector<std::string> skipped;
  const auto jobs = schedule(p, es, false, &skipped);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].impl, "cpu");
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0], "scan-naive, cub: GPU rows need a CUDA device");
  EXPECT_NE(skipped[1].find("not in the table"), std::string::npos);
}

TEST(PerfSchedule, BlockSweepRunsTunableEntriesAtEveryBlockAndOthersOnce) {
  std::vector<Entry> es = {entry("scan-naive", true, true), entry("cub", true)};
  Plan p;
  p.impls = {"scan-naive", "cub"};
  p.mode = SweepMode::BlockSizes;
  p.block_sweep_log2_n = 20;
  const auto jobs = schedule(p, es, true);
  ASSERT_EQ(jobs.size(), 1 + block_sizes().size());
  EXPECT_EQ(jobs[0].impl, "cub");
  EXPECT_EQ(jobs[0].block, 0);
  for (std::size_t i = 1; i < jobs.size(); ++i) {
    EXPECT_EQ(jobs[i].impl, "scan-naive");
    EXPECT_EQ(jobs[i].block, block_sizes()[i - 1]);
    EXPECT_EQ(jobs[i].n, 1 << 20);
  }
}

TEST(PerfSchedule, BlockSweepKeepsToEachEntrysBlockLimits) {
  Entry e = entry("reduce5", true, true);
  e.min_block = 64;
  e.max_block = 512;
  e.block_pow2 = true;
  Plan p;
  p.impls = {"reduce5"};
  p.mode = SweepMode::BlockSizes;
  const auto jobs = schedule(p, {e}, true);
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_EQ(jobs.front().block, 64);
  EXPECT_EQ(jobs.back().block, 512);
}

TEST(PerfSchedule, CpuRowsAboveTheHostLimitAreSkipped) {
  std::vector<Entry> es = {entry("cpu", false)};
  Plan p;
  p.impls = {"cpu"};
  p.log2_min = 10;
  p.log2_max = 12;
  p.host_max_n = 1 << 11;
  std::vector<std::string> skipped;
  EXPECT_EQ(schedule(p, es, true, &skipped).size(), 2u);
  EXPECT_EQ(skipped.size(), 1u);
}

TEST(PerfSchedule, DistributionsAreTheBenchsSkewedPrimitives) {
  EXPECT_EQ(base_primitive("sort_keys_zipf"), "sort_keys");
  EXPECT_EQ(distribution_of("sort_keys_zipf"), "zipf");
  EXPECT_EQ(distribution_of("sort_keys"), "uniform");
  EXPECT_EQ(base_primitive("scan_exclusive"), "scan_exclusive");
  EXPECT_EQ(with_distribution("sort_keys", "sorted"), "sort_keys_sorted");
  EXPECT_EQ(with_distribution("sort_keys", "uniform"), "sort_keys");
  std::vector<Entry> es(3, entry("cub", true));
  es[0].primitive = "sort_keys_zipf";
  es[1].primitive = "sort_keys";
  es[2].primitive = "sort_keys_allequal";
  EXPECT_EQ(distributions_of(es, "sort_keys"), (std::vector<std::string>{"uniform", "zipf", "allequal"}));
}

TEST(PerfWorker, RunsEveryJobOffTheCallerThreadWithRatiosToCub) {
  PerfState s;
  auto fake = std::make_shared<FakeBackend>(1);
  init_perf(s, fake);
  s.plan.impls = {"scan-naive", "cub", "primlab", "cpu"};
  s.plan.log2_min = 10;
  s.plan.log2_max = 14;
  ASSERT_TRUE(start_sweep(s)) << s.message;
  EXPECT_FALSE(start_sweep(s));  // one sweep at a time
  wait_done(s, 10);
  ASSERT_FALSE(s.progress.running);
  EXPECT_EQ(s.progress.done, 20);
  EXPECT_EQ(s.results.rows.size(), 20u);
  EXPECT_EQ(s.results.gpu, "Fake GPU");
  EXPECT_EQ(s.results.copy_gbps, 1000);
  int errors = 0;
  for (const Row& r : s.results.rows) {
    errors += !r.error.empty();
    if (r.impl == "scan-naive") {
      EXPECT_NEAR(r.ratio_to_cub, 0.25, 1e-9);
    }
    if (r.impl == "cub") {
      EXPECT_NEAR(r.ratio_to_cub, 1.0, 1e-9);
    }
  }
  EXPECT_EQ(errors, 1);  // the failing run is a row with its error; the sweep went on
  // Running again replaces rows of the same key rather than adding.
  ASSERT_TRUE(start_sweep(s));
  wait_done(s, 10);
  EXPECT_EQ(s.results.rows.size(), 20u);
}

TEST(PerfWorker, CancelStopsWithinASecondAndKeepsFinishedRows) {
  PerfState s;
  auto fake = std::make_shared<FakeBackend>(2000);  // each run would take 2 s
  init_perf(s, fake);
  s.plan.impls = {"scan-naive", "cub"};
  s.plan.log2_min = 10;
  s.plan.log2_max = 20;
  ASSERT_TRUE(start_sweep(s));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  poll_sweep(s);
  EXPECT_TRUE(s.progress.running);
  EXPECT_EQ(s.progress.current, "scan-naive at n = 2^10");
  const auto t0 = std::chrono::steady_clock::now();
  cancel_sweep(s);
  poll_sweep(s);
  EXPECT_TRUE(s.progress.cancelling || !s.progress.running);
  wait_done(s, 5);
  const double stop_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(s.progress.running);
  EXPECT_LT(stop_s, 1.0);
  EXPECT_TRUE(s.results.rows.empty());  // the interrupted run is not a measurement
  EXPECT_EQ(fake->calls.load(), 1);
  // A new sweep starts after a cancel.
  s.worker = nullptr;
  init_perf(s, std::make_shared<FakeBackend>(1));
  s.plan.log2_max = 11;
  ASSERT_TRUE(start_sweep(s));
  wait_done(s, 5);
  EXPECT_EQ(s.results.rows.size(), 4u);
}

TEST(PerfWorker, WithoutADeviceTheTabRunsTheCpuRows) {
  PerfState s;
  init_perf(s, std::make_shared<FakeBackend>(1, false));
  EXPECT_FALSE(s.has_gpu);
  EXPECT_EQ(s.plan.impls, std::vector<std::string>{"cpu"});  // select_all picks what runs here
  s.plan.impls = {"scan-naive", "cpu"};
  s.plan.log2_min = s.plan.log2_max = 10;
  ASSERT_TRUE(start_sweep(s));
  ASSERT_EQ(s.skipped.size(), 1u);
  EXPECT_NE(s.skipped[0].find("CUDA device"), std::string::npos);
  wait_done(s, 5);
  ASSERT_EQ(s.results.rows.size(), 1u);
  EXPECT_EQ(s.results.rows[0].impl, "cpu");
}

TEST(PerfWorker, AnNSweepMovesTheAnswerLinesNIntoItsRangeAndTypedSizesRunAsTyped) {
  PerfState s;
  init_perf(s, std::make_shared<FakeBackend>(1, false));
  s.plan.log2_min = 10;
  s.plan.log2_max = 12;
  ASSERT_EQ(s.plan.block_sweep_log2_n, 20);
  ASSERT_TRUE(start_sweep(s));
  EXPECT_EQ(s.plan.block_sweep_log2_n, 12);
  wait_done(s, 5);
  s.plan.sizes = {1000, 3000};  // perf --n 1000,3000
  EXPECT_EQ(plan_sizes(s.plan), (std::vector<std::int64_t>{1000, 3000}));
  ASSERT_TRUE(start_sweep(s));
  wait_done(s, 5);
  std::vector<std::int64_t> ns;
  for (const Row& r : s.results.rows) ns.push_back(r.n);
  EXPECT_EQ(ns, (std::vector<std::int64_t>{1024, 2048, 4096, 1000, 3000}));
}

TEST(PerfExport, JsonRoundTripKeepsEveryField) {
  Results r;
  r.gpu = "NVIDIA H200";
  r.cuda_version = "12.8";
  r.driver = "CUDA driver API 12.8";
  r.commit = "abc123";
  r.date = "2026-11-22";
  r.copy_gbps = 3912.5;
  Row a{"scan_exclusive", "scan-shared", "u32", 1 << 20, 256, 0, 40, 0.125, 0.12, 0.13, 8.4e9, 67.1, 0.5, ""};
  Row b{"scan_exclusive", "scan-naive", "f32", 1 << 28, 0, 4, 0, 0, 0, 0, 0, 0, 0, "skipped: needs 9.0 GiB"};
  r.rows = {a, b};
  const std::string path = ::testing::TempDir() + "perf_roundtrip.json";
  primlab::Result done = write_json(r, path);
  ASSERT_TRUE(done.ok()) << done.message();
  Results back;
  done = read_json(path, &back);
  ASSERT_TRUE(done.ok()) << done.message();
  EXPECT_EQ(back.gpu, r.gpu);
  EXPECT_EQ(back.cuda_version, r.cuda_version);
  EXPECT_EQ(back.driver, r.driver);
  EXPECT_EQ(back.commit, r.commit);
  EXPECT_EQ(back.date, r.date);
  EXPECT_DOUBLE_EQ(back.copy_gbps, r.copy_gbps);
  ASSERT_EQ(back.rows.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const Row& x = r.rows[std::size_t(i)];
    const Row& y = back.rows[std::size_t(i)];
    EXPECT_EQ(row_key(x), row_key(y));
    EXPECT_EQ(x.runs, y.runs);
    EXPECT_DOUBLE_EQ(x.median_ms, y.median_ms);
    EXPECT_DOUBLE_EQ(x.p10_ms, y.p10_ms);
    EXPECT_DOUBLE_EQ(x.p90_ms, y.p90_ms);
    EXPECT_DOUBLE_EQ(x.items_per_s, y.items_per_s);
    EXPECT_DOUBLE_EQ(x.gbps, y.gbps);
    EXPECT_DOUBLE_EQ(x.ratio_to_cub, y.ratio_to_cub);
    EXPECT_EQ(x.error, y.error);
  }
  EXPECT_EQ(to_json(back), to_json(r));
}

TEST(PerfExport, ReadsTheBenchCommandsJson) {
  // As the engine writes it (engine/results.cpp): "cuda" and "cuda_version", optional keys left out.
  const char* text = R"({"gpu": "NVIDIA H200", "cuda": "12.8", "cuda_version": "12.8", "driver": "d",
    "commit": "c", "date": "2026-11-01", "copy_gbps": 3900.0, "results": [
    {"primitive": "scan_exclusive", "impl": "cub", "type": "u32", "n": 1048576, "median_ms": 0.01,
     "p10_ms": 0.009, "p90_ms": 0.011, "items_per_s": 1e11, "gbps": 800.0, "ratio_to_cub": 1.0, "runs": 200},
    {"primitive": "reduce_sum", "impl": "reduce1", "type": "i32", "n": 1024, "median_ms": 0.004,
     "p10_ms": 0.004, "p90_ms": 0.004, "items_per_s": 2.5e8, "gbps": 1.0, "block": 128,
     "items_per_thread": 8, "runs": 200}]})";
  Results r;
  primlab::Result parsed = parse_json(text, &r);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[1].block, 128);
  EXPECT_EQ(r.rows[1].items, 8);
  EXPECT_EQ(r.rows[0].n, 1 << 20);
  parsed = parse_json("{\"gpu\": 1}", &r);
  EXPECT_FALSE(parsed.ok());
  EXPECT_NE(parsed.message().find("results"), std::string::npos);
  EXPECT_FALSE(parse_json("not json", &r).ok());
  EXPECT_FALSE(read_json("/nonexistent/perf.json", &r).ok());
}

TEST(PerfExport, CsvHasAHeaderAndOneLinePerRow) {
  Results r;
  r.rows = {Row{"reduce_sum", "cpu", "i32", 1024, 0, 0, 3, 0.5, 0.4, 0.6, 2e6, 0.008, 0, "say \"hi\""}};
  const std::string csv = to_csv(r);
  EXPECT_EQ(csv.rfind("primitive,impl,type,n,block,items_per_thread,runs,median_ms", 0), 0u);
  EXPECT_NE(csv.find("\nreduce_sum,cpu,i32,1024,0,0,3,0.5,0.4,0.6,2000000,0.008,0,\"say 'hi'\"\n"), std::string::npos);
  const primlab::Result wrote = write_csv(r, "/nonexistent/dir/x.csv");
  EXPECT_FALSE(wrote.ok());
  EXPECT_FALSE(wrote.message().empty());
}

TEST(PerfDiff, PairsRowsOfTheSameKeyAndGivesTheSpeedup) {
  Results now, base;
  now.rows = {Row{"scan_exclusive", "cub", "u32", 1024, 0, 0, 5, 1.0}, Row{"scan_exclusive", "scan-naive", "u32", 1024, 256, 0, 5, 2.0},
              Row{"scan_exclusive", "scan-naive", "u32", 2048, 0, 0, 5, 3.0}};
  base.rows = {Row{"scan_exclusive", "cub", "u32", 1024, 0, 0, 5, 2.0}, Row{"scan_exclusive", "scan-naive", "u32", 1024, 128, 0, 5, 1.0},
               Row{"scan_exclusive", "scan-naive", "u32", 2048, 0, 0, 0, 0, 0, 0, 0, 0, 0, "CUDA error"}};
  const auto d = diff(now, base);
  ASSERT_EQ(d.size(), 1u);  // other block size and a failed baseline row do not pair
  EXPECT_EQ(d[0].now.impl, "cub");
  EXPECT_DOUBLE_EQ(d[0].speedup, 2.0);
}

TEST(PerfFormat, SizesAndTimes) {
  EXPECT_EQ(format_n(1 << 20), "2^20");
  EXPECT_EQ(format_n(1000), "1000");
  EXPECT_EQ(format_ms(0.0125), "12.5 us");
  EXPECT_EQ(format_ms(4.5), "4.5 ms");
  EXPECT_EQ(format_ms(2500), "2.5 s");
  EXPECT_EQ(format_rate(1.5e9), "1.5 G/s");
}

TEST(PerfBaseline, AnOldBaselinesTeachingNamesPairWithTheCatalogNames) {
  // Saved before the lab's kernels took their catalog names: "naive" is now "scan-naive".
  const char* text = R"({"gpu": "G", "results": [
    {"primitive": "scan_exclusive", "impl": "naive", "type": "u32", "n": 1024, "median_ms": 2.0, "block": 256},
    {"primitive": "scan_exclusive", "impl": "cub", "type": "u32", "n": 1024, "median_ms": 1.0}]})";
  Results base, now;
  const primlab::Result parsed = parse_json(text, &base);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  now.rows = {Row{"scan_exclusive", "scan-naive", "u32", 1024, 256, 0, 5, 1.0},
              Row{"scan_exclusive", "cub", "u32", 1024, 0, 0, 5, 1.0}};
  const std::vector<Diff> d = diff(now, base);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].base.impl, "scan-naive");
  EXPECT_DOUBLE_EQ(d[0].speedup, 2.0);
}

// A log time axis gets at least two labelled ticks inside its range, however narrow: a block-size
// sweep whose times lie within one decade and hold no 1-2-5 value.
TEST(PerfTicks, NarrowLogRangeStillHasTicks) {
  for (auto [lo, hi] : {std::pair{0.0121, 0.0143}, std::pair{0.0031, 0.0038}, std::pair{6.1, 6.9}, std::pair{0.8, 1.7}}) {
    const std::vector<double> t = axis_ticks(lo, hi, true, false);
    ASSERT_GE(t.size(), 2u) << lo << ".." << hi;
    for (double v : t) {
      EXPECT_GE(v, lo);
      EXPECT_LE(v, hi);
    }
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
  }
  // Wide ranges keep the decades; over at most three of them, 2 and 5 between.
  auto near = [](const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return false;
    for (std::size_t i = 0; i < got.size(); ++i)
      if (std::fabs(got[i] - want[i]) > 1e-9 * want[i]) return false;
    return true;
  };
  EXPECT_TRUE(near(axis_ticks(0.00008, 20, true, false), {0.0001, 0.001, 0.01, 0.1, 1, 10}));
  EXPECT_TRUE(near(axis_ticks(0.00098, 0.18, true, false), {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1}));
  EXPECT_TRUE(near(axis_ticks(1, 100, true, false), {1, 2, 5, 10, 20, 50, 100}));
  // n on a power-of-two axis.
  EXPECT_EQ(axis_ticks(1000, 5000, true, true), (std::vector<double>{1024, 2048, 4096}));
}
