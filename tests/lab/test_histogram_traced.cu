// The tagged histogram on the GPU: the lecture's retry loop on one bin gives the CPU's counts
// whichever lanes land first (GPU label: needs a CUDA device). The sweep of every histogram over
// sizes, blocks and bins is the catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

// The tagged loop on all-equal samples: 32 lanes on one bin take 32 rounds and 496 retries a warp,
// on the GPU as on the CPU, whichever lanes land first.
TEST(HistogramTracedEdge, TaggedRetriesOfOneBin) {
  ASSERT_TRUE(backend().cuda);
  StepConfig cfg;
  cfg.n = 64;
  cfg.block = 32;
  cfg.bins = 8;
  const auto in = make_input(InputKind::AllEqual, 64, ElemType::I32, 1);
  Trace gpu;
  ASSERT_TRUE(ok(build_trace_cuda(*find_algorithm("histogram-tagged"), cfg, in, gpu)));
  int stats = -1;
  for (std::size_t r = 0; r < gpu.rows.size(); ++r)
    if (gpu.rows[r].name.rfind("this step", 0) == 0) stats = int(r);
  ASSERT_GE(stats, 0);
  EXPECT_EQ(gpu.row(2, std::size_t(stats))[1], 64u);       // collisions
  EXPECT_EQ(gpu.row(2, std::size_t(stats))[2], 2u * 496);  // retries
  EXPECT_EQ(gpu.steps[2].counters.shared_accesses, 2 * 3 * 32 * 33 / 2);
}

}  // namespace
