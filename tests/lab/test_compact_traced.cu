// The CUDA traced stream compaction produces the CPU reference's trace step for step, bit for bit
// (the map, the chosen scan's own CUDA steps, the scatter and the count), and the same count in
// the last step's label (GPU label: needs a CUDA device).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

struct Case {
  int n;
  int block;
  int variant;
  int predicate;
  ElemType type;
  std::uint32_t seed;
};

std::string name_of(const ::testing::TestParamInfo<Case>& i) {
  const Case& c = i.param;
  return "n" + std::to_string(c.n) + "_b" + std::to_string(c.block) + "_v" + std::to_string(c.variant) + "_p" +
         std::to_string(c.predicate) + (c.type == ElemType::F32 ? "_f32" : "_i32") + "_s" + std::to_string(c.seed);
}

void expect_same(const StepConfig& cfg, const std::vector<std::uint32_t>& in) {
  const Algorithm& a = *find_algorithm("compact");
  Trace cpu, gpu;
  const std::string e1 = build_trace_cpu(a, cfg, in, cpu), e2 = build_trace_cuda(a, cfg, in, gpu);
  ASSERT_EQ(e1, e2);
  if (!e1.empty()) return;
  EXPECT_EQ(compare_traces(cpu, gpu), "") << "n=" << cfg.n << " block=" << cfg.block << " variant=" << cfg.variant;
  for (std::size_t s = 0; s < cpu.steps.size(); ++s) ASSERT_EQ(cpu.steps[s].label, gpu.steps[s].label);
}

class CompactTracedEqualsCpu : public ::testing::TestWithParam<Case> {};

TEST_P(CompactTracedEqualsCpu, StepForStep) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Case c = GetParam();
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.type = c.type;
  cfg.variant = c.variant;
  cfg.predicate = c.predicate;
  cfg.threshold = 4;
  cfg.conflict_offsets = c.seed % 5 != 0;
  expect_same(cfg, make_input(c.seed % 3 == 0 ? InputKind::Reversed : InputKind::Random, c.n, c.type, c.seed));
}

std::vector<Case> cases() {
  std::vector<Case> v;
  std::uint32_t seed = 1;
  for (int variant : {0, 1, 2})
    for (int n : {1, 2, 3, 5, 8, 31, 32, 33, 64, 100, 127, 128, 129, 500, 512, 1000, 1024, 1025, 2047, 2048, 3000,
                  4095, 4096})
      for (int block : {1, 8, 32, 128, 1024}) {
        if (block == 1 && n > 512) continue;
        ++seed;
        v.push_back({n, block, variant, int(seed % 3), seed % 4 == 0 ? ElemType::F32 : ElemType::I32, seed});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Compaction, CompactTracedEqualsCpu, ::testing::ValuesIn(cases()), name_of);

TEST(CompactTraced, SpecialValuesAndSeedSample) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> f, seed;
  std::string err;
  ASSERT_TRUE(parse_input_list("-0.0 0 nan 2 -2 3.5 inf -inf 4 1e30 -7 0.5", ElemType::F32, f, err));
  ASSERT_TRUE(parse_input_list("1 2 0 1 2 0 2 0 0 1 0 1 0 3 0", ElemType::I32, seed, err));  // seed 002
  for (int variant : {0, 1, 2})
    for (int predicate : {0, 1, 2})
      for (int block : {1, 4, 32}) {
        StepConfig cfg;
        cfg.block = block;
        cfg.variant = variant;
        cfg.predicate = predicate;
        cfg.threshold = 1;
        cfg.n = int(f.size());
        cfg.type = ElemType::F32;
        expect_same(cfg, f);
        cfg.n = int(seed.size());
        cfg.type = ElemType::I32;
        expect_same(cfg, seed);
      }
}

TEST(CompactTraced, NonPowerOfTwoBlockRejectedAlikeForTheSharedScan) {
  ASSERT_TRUE(backend().cuda);
  StepConfig cfg;
  cfg.n = 20;
  cfg.block = 6;
  cfg.variant = 2;
  expect_same(cfg, make_input(InputKind::Random, 20, ElemType::I32, 1));
}

}  // namespace
