// Histograms on the GPU against the CPU reference (GPU label: needs a CUDA device). Every step ends
// at a barrier where all atomics have landed, so the global-atomic and shared variants give the CPU's
// trace bit for bit (values, ops, counters, the atomics/collisions row). The tagged variant agrees
// on everything but the rows that depend on which lane lands first: the tag bits and the per-sample
// retries (their per-step total, k(k-1)/2 for k lanes on one bin, agrees).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

struct Case {
  std::string algo;
  int n, block, bins;
  ElemType type;
  InputKind kind;
  std::uint32_t seed;
};

std::string name_of(const ::testing::TestParamInfo<Case>& i) {
  const Case& c = i.param;
  std::string s = c.algo + "_n" + std::to_string(c.n) + "_b" + std::to_string(c.block) + "_bins" +
                  std::to_string(c.bins) + (c.type == ElemType::U32 ? "_u32" : "_i32") + "_k" +
                  std::to_string(int(c.kind)) + "_s" + std::to_string(c.seed);
  for (char& ch : s)
    if (!isalnum((unsigned char)ch)) ch = '_';
  return s;
}

// Zeroes the rows whose words depend on the order in which lanes land (tagged variant).
void blank_order_rows(Trace& t) {
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::string& nm = t.rows[r].name;
    if (nm.rfind("warp sub-histograms: tag", 0) != 0 && nm.rfind("failed writes", 0) != 0) continue;
    for (std::size_t s = 0; s < t.steps.size(); ++s) std::fill(t.row(s, r), t.row(s, r) + t.width, 0u);
  }
}

class HistogramTraced : public ::testing::TestWithParam<Case> {};

TEST_P(HistogramTraced, MatchesCpu) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Case c = GetParam();
  const Algorithm* a = find_algorithm(c.algo);
  ASSERT_NE(a, nullptr);
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.bins = c.bins;
  cfg.type = c.type;
  cfg.seed = c.seed;
  auto in = make_input(c.kind, c.n, c.type, c.seed);
  if (c.seed % 2) {
    for (auto& w : in) w = w * 0x9E3779B9u + c.seed;  // the whole 32-bit range, negatives included
  }
  Trace cpu, gpu;
  ASSERT_EQ(build_trace_cpu(*a, cfg, in, cpu), "");
  ASSERT_EQ(build_trace_cuda(*a, cfg, in, gpu), "");
  if (c.algo == "histogram-tagged") {
    blank_order_rows(cpu);
    blank_order_rows(gpu);
  }
  EXPECT_EQ(compare_traces(cpu, gpu), "");
}

std::vector<Case> cases() {
  std::vector<Case> v;
  const InputKind kinds[] = {InputKind::Random, InputKind::AllEqual, InputKind::Sorted, InputKind::FewDistinct,
                             InputKind::Reversed};
  std::uint32_t seed = 1;
  for (const char* algo : {"histogram-atomic", "histogram-shared", "histogram-tagged"})
    for (int n : {1, 2, 31, 32, 33, 100, 256, 1000, 1024, 4095, 4096})
      for (int block : {1, 7, 32, 64, 96, 256, 1024})
        for (int bins : {2, 16, 256}) {
          if (block == 1 && n > 256) continue;
          ++seed;
          v.push_back({algo, n, block, bins, seed % 3 == 0 ? ElemType::U32 : ElemType::I32, kinds[seed % 5], seed});
        }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Histograms, HistogramTraced, ::testing::ValuesIn(cases()), name_of);

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
  ASSERT_EQ(build_trace_cuda(*find_algorithm("histogram-tagged"), cfg, in, gpu), "");
  int stats = -1;
  for (std::size_t r = 0; r < gpu.rows.size(); ++r)
    if (gpu.rows[r].name.rfind("this step", 0) == 0) stats = int(r);
  ASSERT_GE(stats, 0);
  EXPECT_EQ(gpu.row(2, std::size_t(stats))[1], 64u);       // collisions
  EXPECT_EQ(gpu.row(2, std::size_t(stats))[2], 2u * 496);  // retries
  EXPECT_EQ(gpu.steps[2].counters.shared_accesses, 2 * 3 * 32 * 33 / 2);
}

}  // namespace
