// The histograms on the GPU (GPU label: needs a CUDA device): the lecture's retry loop on one bin
// gives the CPU's counts whichever lanes land first, and the kernels' grid-stride loops with many
// trips, partial warps and capped grids give the CPU reference's trace (the same steps, counters,
// shared words and final rows). The sweep of every row over sizes, blocks and bins is the
// catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

std::vector<std::uint32_t> final_row(const Trace& t, const std::string& prefix) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind(prefix, 0) == 0) {
      const std::uint32_t* p = t.row(t.steps.size() - 1, r);
      return {p, p + t.rows[r].length};
    }
  ADD_FAILURE() << "no row named " << prefix << "...";
  return {};
}

// The tagged loop on all-equal samples: 32 lanes on one bin take 32 attempts and 496 failed writes
// a warp, on the GPU as on the CPU, whichever lanes land first.
TEST(HistogramTracedEdge, TaggedRetriesOfOneBin) {
  ASSERT_TRUE(backend().cuda);
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;
  cfg.bins = 8;
  const auto in = make_input(InputKind::AllEqual, 64, ElemType::I32, 1);
  Trace gpu;
  ASSERT_TRUE(ok(build_trace_cuda(*find_algorithm("histogram-tagged"), cfg, in, gpu)));
  const auto same = final_row(gpu, "lanes on the same bin");
  EXPECT_EQ(std::count(same.begin(), same.end(), 32u), 64);
  const auto failed = final_row(gpu, "failed writes");
  EXPECT_EQ(std::accumulate(failed.begin(), failed.end(), 0u), 2u * 496);
  EXPECT_EQ(gpu.steps[2].phase, "count");
  EXPECT_EQ(gpu.steps[2].counters.shared_accesses, 2 * 3 * 32 * 33 / 2);
  EXPECT_EQ(final_row(gpu, "hist")[in[0] % 8], 64u);
}

// Each histogram row at the edges of its grid: many trips of the grid-stride loop on a capped grid
// (the smallest block the row takes), a block whose last warp is one lane, a block of three warps.
TEST(HistogramTracedEdge, ManyTripsAndPartialWarpsMatchTheCpu) {
  ASSERT_TRUE(backend().cuda);
  bool many_trips = false;
  for (const char* name : test::family("histogram")) {
    const Algorithm& a = *find_algorithm(name);
    for (int block : {a.min_block, 33, 96, a.max_block})
      for (ElemType type : {ElemType::I32, ElemType::U32}) {
        StepConfig cfg;
        cfg.n = a.max_n / 2;  // in one-thread blocks the bytes histogram's warp accesses fill most of a trace's record
        cfg.block = block;
        cfg.bins = std::min(256, a.max_bins);
        cfg.type = type;
        cfg.seed = 7;
        if (!validate(a, cfg).ok()) continue;
        SCOPED_TRACE(std::string(name) + " block=" + std::to_string(block));
        auto in = make_input(InputKind::FewDistinct, cfg.n, type, 5);
        for (auto& w : in) w = w * 0x9E3779B9u + 11u;  // negative words too
        Trace cpu;
        ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, cpu)));
        for (const Step& s : cpu.steps) many_trips |= s.phase == "count" && s.ops_per_thread > 4;
        test::expect_backends_agree(a, cfg, in);
      }
  }
  EXPECT_TRUE(many_trips) << "no config made the grid-stride loop take many trips";
}

}  // namespace
