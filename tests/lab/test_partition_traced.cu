// Radix partitions on the GPU against the host (GPU label: needs a CUDA device), over the catalog's
// sweep of each partition row: partition-stable's output equals std::stable_sort by digit;
// partition-atomic's is not stable, but every partition holds the host's multiset at the host's
// offsets. The CPU-against-CUDA trace comparison of both is the catalog-driven test's
// (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include <algorithm>

#include "lab/algorithms/partition/radix_partition/radix_partition.h"
#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/run/backend.h"

using namespace primlab;
using namespace primlab::lab;  // the rows

namespace {

std::vector<std::uint32_t> final_row(const Trace& t, int r) {
  const std::uint32_t* p = t.row(t.steps.size() - 1, std::size_t(r));
  return {p, p + t.rows[std::size_t(r)].length};
}

void expect_partitioned_like_the_host(const Algorithm& a, const StepConfig& c, const std::vector<std::uint32_t>& in) {
  Trace gpu;
  if (!build_trace_cuda(a, c, in, gpu).ok()) return;  // refused alike on the CPU: the catalog-driven test
  const std::uint32_t mask = std::uint32_t(c.bins - 1);
  auto digit = [&](std::uint32_t k) { return (k >> c.digit_start) & mask; };
  std::vector<std::uint32_t> want = in;
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t x, std::uint32_t y) { return digit(x) < digit(y); });
  std::vector<std::uint32_t> got = final_row(gpu, int(gpu.rows.size()) - 1);  // out, each variant's last row
  if (!a.deterministic) {
    // Same multiset in every partition, at the host's offsets.
    const auto offs = final_row(gpu, kPartOffsets);
    for (int d = 0; d < c.bins; ++d) {
      const std::size_t lo = offs[std::size_t(d)], hi = d + 1 < c.bins ? offs[std::size_t(d + 1)] : std::size_t(c.n);
      ASSERT_LE(lo, hi);
      ASSERT_LE(hi, std::size_t(c.n));
      std::sort(got.begin() + lo, got.begin() + hi);
      std::sort(want.begin() + lo, want.begin() + hi);
    }
  }
  EXPECT_EQ(got, want);
}

TEST(PartitionTraced, OutputMatchesTheHost) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  for (const char* algo : test::family("partition")) {
    const Algorithm& a = *find_algorithm(algo);
    for (const test::SweepConfig& sc : test::sweep_for(a)) {
      SCOPED_TRACE(sc.rc.what);
      const StepConfig& c = sc.rc.cfg;
      auto in = make_input(sc.kind, c.n, c.type, c.seed);
      if (sc.full_range)
        for (auto& w : in) w = w * 0x9E3779B9u + c.seed;
      expect_partitioned_like_the_host(a, c, in);
    }
  }
}

}  // namespace
