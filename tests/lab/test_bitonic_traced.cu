// The CUDA traced bitonic sort produces the CPU reference's trace bit for bit (values of every row,
// op slots, launch shapes, counters incl. shared accesses and bank conflicts) (GPU label).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

struct Case {
  int n, block;
  ElemType type;
  bool desc, kv;
  std::uint32_t seed;
};

std::string name_of(const ::testing::TestParamInfo<Case>& i) {
  const Case& c = i.param;
  return "n" + std::to_string(c.n) + "_b" + std::to_string(c.block) + "_" + elem_type_name(c.type) +
         (c.desc ? "_desc" : "_asc") + (c.kv ? "_kv" : "_keys") + "_s" + std::to_string(c.seed);
}

class BitonicTraced : public ::testing::TestWithParam<Case> {};

TEST_P(BitonicTraced, EqualsCpuStepForStep) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Case c = GetParam();
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.type = c.type;
  cfg.descending = c.desc;
  cfg.key_value = c.kv;
  const InputKind kind = c.seed % 4 == 0 ? InputKind::Reversed : c.seed % 4 == 1 ? InputKind::FewDistinct : InputKind::Random;
  const auto in = make_input(kind, c.n, c.type, c.seed);
  const Algorithm& a = *find_algorithm("bitonic-sort");
  Trace cpu, gpu;
  ASSERT_EQ(build_trace_cpu(a, cfg, in, cpu), "");
  ASSERT_EQ(build_trace_cuda(a, cfg, in, gpu), "");
  EXPECT_EQ(compare_traces(cpu, gpu), "");
}

std::vector<Case> cases() {
  std::vector<Case> v;
  std::uint32_t seed = 1;
  for (int n : {1, 2, 3, 8, 13, 32, 33, 64, 100, 256, 257, 1000, 1024, 2048, 3000, 4096})
    for (int block : {1, 4, 32, 64, 256, 1024}) {
      if (block == 1 && n > 256) continue;
      ++seed;
      v.push_back({n, block, ElemType(seed % 3), seed % 2 == 0, seed % 5 < 2, seed});
    }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Sweep, BitonicTraced, ::testing::ValuesIn(cases()), name_of);

TEST(BitonicTracedEdge, FloatSpecialsAndSentinelTies) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> f, i;
  std::string err;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, f, err));
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648", ElemType::I32, i, err));
  const Algorithm& a = *find_algorithm("bitonic-sort");
  for (bool kv : {false, true})
    for (bool desc : {false, true})
      for (int which = 0; which < 2; ++which) {
        const auto& in = which ? i : f;
        StepConfig cfg;
        cfg.n = int(in.size());
        cfg.block = 2;
        cfg.type = which ? ElemType::I32 : ElemType::F32;
        cfg.key_value = kv;
        cfg.descending = desc;
        Trace cpu, gpu;
        ASSERT_EQ(build_trace_cpu(a, cfg, in, cpu), "");
        ASSERT_EQ(build_trace_cuda(a, cfg, in, gpu), "");
        EXPECT_EQ(compare_traces(cpu, gpu), "") << (which ? "int32" : "float") << " kv=" << kv << " desc=" << desc;
      }
}

}  // namespace
