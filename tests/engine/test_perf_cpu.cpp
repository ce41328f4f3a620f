// The Performance tab's CPU baselines against straightforward host references: single- and
// multi-thread scan, reduce, select, histogram and sort on the bench's seeded inputs, at sizes
// around the chunk and thread boundaries; and the CPU backend's rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "engine/cpu_backend.h"

using namespace primlab::perf;

namespace {
const std::atomic<bool> kNoCancel{false};
const std::int64_t kSizes[] = {0, 1, 4095, 4096, 4097, 100003, (1 << 18) + 1, 1 << 20};
}  // namespace

TEST(PerfCpu, ScansMatchTheReference) {
  for (std::int64_t n : kSizes)
    for (bool par : {false, true})
      for (bool excl : {true, false}) {
        std::vector<std::uint32_t> in(std::size_t(n) + 1), out(std::size_t(n) + 1), ref(std::size_t(n) + 1);
        fill_inputs("u32", in.data(), n, 7, 4);
        if (excl) std::exclusive_scan(in.begin(), in.begin() + n, ref.begin(), 0u);
        else std::inclusive_scan(in.begin(), in.begin() + n, ref.begin());
        ASSERT_TRUE(run_cpu_primitive(excl ? "scan_exclusive" : "scan_inclusive", "u32", par, 5, in.data(), out.data(),
                                      n, kNoCancel));
        EXPECT_TRUE(std::equal(ref.begin(), ref.begin() + n, out.begin())) << n << " par " << par << " excl " << excl;
      }
}

TEST(PerfCpu, ReduceSelectHistogramSortMatchTheReference) {
  for (std::int64_t n : kSizes)
    for (bool par : {false, true}) {
      std::vector<std::int32_t> in(std::size_t(n) + 1), out(std::max<std::size_t>(std::size_t(n), 256) + 1);
      fill_inputs("i32", in.data(), n, 11, 3);
      std::vector<std::uint32_t> u(std::size_t(n) + 1), sum(2);
      fill_inputs("u32", u.data(), n, 11, 3);
      ASSERT_TRUE(run_cpu_primitive("reduce_sum", "u32", par, 7, u.data(), sum.data(), n, kNoCancel));
      EXPECT_EQ(sum[0], std::accumulate(u.begin(), u.begin() + n, 0u)) << n;

      std::int64_t count = -1;
      ASSERT_TRUE(run_cpu_primitive("select_if", "i32", par, 7, in.data(), out.data(), n, kNoCancel, &count));
      std::vector<std::int32_t> keep;
      std::copy_if(in.begin(), in.begin() + n, std::back_inserter(keep), [](std::int32_t x) { return x < 0; });
      ASSERT_EQ(count, std::int64_t(keep.size())) << n;
      EXPECT_TRUE(std::equal(keep.begin(), keep.end(), out.begin())) << n;

      std::vector<std::uint32_t> bins(256);
      ASSERT_TRUE(run_cpu_primitive("histogram_even", "i32", par, 7, in.data(), bins.data(), n, kNoCancel));
      std::vector<std::uint32_t> ref(256, 0);
      for (std::int64_t i = 0; i < n; ++i) ++ref[(std::uint32_t(in[std::size_t(i)]) ^ 0x80000000u) >> 24];
      EXPECT_EQ(bins, ref) << n;

      ASSERT_TRUE(run_cpu_primitive("sort_keys", "i32", par, 6, in.data(), out.data(), n, kNoCancel));
      std::vector<std::int32_t> sorted(in.begin(), in.begin() + n);
      std::sort(sorted.begin(), sorted.end());
      EXPECT_TRUE(std::equal(sorted.begin(), sorted.end(), out.begin())) << n << " par " << par;
    }
}

TEST(PerfCpu, FloatsAreUniformInZeroOneAndUnsupportedTypesAreRefused) {
  std::vector<float> f(1000);
  fill_inputs("f32", f.data(), 1000, 3, 2);
  for (float x : f) ASSERT_TRUE(x >= 0.f && x < 1.f);
  std::vector<std::uint8_t> u(64), o(1024);
  EXPECT_FALSE(run_cpu_primitive("scan_exclusive", "u8", false, 1, u.data(), o.data(), 64, kNoCancel));
  EXPECT_FALSE(run_cpu_primitive("nonesuch", "u32", false, 1, u.data(), o.data(), 4, kNoCancel));
}

TEST(PerfCpu, ACancelledRunReturnsAtOnce) {
  std::atomic<bool> cancel{true};
  std::vector<std::uint32_t> in(1 << 20), out(1 << 20);
  EXPECT_FALSE(run_cpu_primitive("scan_exclusive", "u32", true, 4, in.data(), out.data(), 1 << 20, cancel));
}

TEST(PerfCpu, BackendRowsCarryTimesAndThroughput) {
  CpuBackend b(4);
  const auto es = b.entries();
  ASSERT_NE(find_entry(es, "scan_exclusive", "cpu"), nullptr);
  ASSERT_NE(find_entry(es, "sort_keys", "cpu-par"), nullptr);
  EXPECT_FALSE(find_entry(es, "scan_exclusive", "cpu")->gpu);
  EXPECT_NE(b.device().find("GPU rows need a CUDA device"), std::string::npos);
  Results h;
  b.begin(h);
  EXPECT_GT(h.copy_gbps, 0);
  std::atomic<bool> cancel{false};
  Job j{"scan_exclusive", "cpu-par", "u32", 1 << 16, 0, 0, 0, false};
  const Row r = b.run(j, cancel);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_GE(r.runs, 3);
  EXPECT_LE(r.p10_ms, r.median_ms);
  EXPECT_LE(r.median_ms, r.p90_ms);
  EXPECT_NEAR(r.gbps, 8.0 * (1 << 16) / (r.median_ms * 1e-3) / 1e9, 1e-6 * r.gbps);
  j.impl = "gpu-thing";
  EXPECT_FALSE(b.run(j, cancel).ok());
}
