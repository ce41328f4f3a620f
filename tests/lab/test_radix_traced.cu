// The CUDA traced radix sorts (radix-split, radix-digits) produce the CPU reference's trace bit for
// bit: every row, op slots, launch shapes and counters (GPU label).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

struct Case {
  std::string algo;
  int n, block, digit_bits;
  ElemType type;
  bool desc, kv, with_input;
  std::uint32_t seed;
};

std::string name_of(const ::testing::TestParamInfo<Case>& i) {
  const Case& c = i.param;
  std::string s = c.algo + "_n" + std::to_string(c.n) + "_b" + std::to_string(c.block) + "_d" +
                  std::to_string(c.digit_bits) + "_" + elem_type_name(c.type) + (c.desc ? "_desc" : "_asc") +
                  (c.kv ? "_kv" : "_keys") + (c.with_input ? "_sized" : "_full") + "_s" + std::to_string(c.seed);
  for (char& ch : s)
    if (!isalnum((unsigned char)ch)) ch = '_';
  return s;
}

class RadixTraced : public ::testing::TestWithParam<Case> {};

TEST_P(RadixTraced, EqualsCpuStepForStep) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Case c = GetParam();
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.type = c.type;
  cfg.digit_bits = c.digit_bits;
  cfg.descending = c.desc;
  cfg.key_value = c.kv;
  const InputKind kind = c.seed % 4 == 0 ? InputKind::Reversed : c.seed % 4 == 1 ? InputKind::FewDistinct : InputKind::Random;
  auto in = make_input(kind, c.n, c.type, c.seed);
  if (c.type == ElemType::I32 && c.seed % 3 == 0)
    for (std::size_t i = 0; i < in.size(); i += 3) in[i] = std::uint32_t(-std::int32_t(in[i]) - 1);  // negatives
  if (c.with_input) cfg.input = &in;
  const Algorithm& a = *find_algorithm(c.algo);
  Trace cpu, gpu;
  ASSERT_EQ(build_trace_cpu(a, cfg, in, cpu), "");
  ASSERT_EQ(build_trace_cuda(a, cfg, in, gpu), "");
  EXPECT_EQ(compare_traces(cpu, gpu), "");
}

std::vector<Case> cases() {
  std::vector<Case> v;
  std::uint32_t seed = 1;
  for (int n : {1, 2, 7, 8, 33, 100, 256, 1000, 4096})
    for (int block : {1, 8, 32, 100, 256, 1024}) {
      if (block == 1 && n > 256) continue;
      ++seed;
      v.push_back({"radix-split", n, block, 4, seed % 2 ? ElemType::I32 : ElemType::U32, false, false, seed % 5 != 0,
                   seed});
    }
  for (int D = 2; D <= 8; ++D)
    for (int n : {1, 5, 16, 100, 257, 1024, 4096})
      for (int block : {1, 4, 32, 128, 1024}) {
        if (block == 1 && n > 257) continue;
        if (n == 4096 && block < 128) continue;
        ++seed;
        v.push_back({"radix-digits", n, block, D, ElemType(seed % 3), seed % 2 == 0, seed % 3 != 1, true, seed});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Sweep, RadixTraced, ::testing::ValuesIn(cases()), name_of);

TEST(RadixTracedEdge, FloatSpecialsAndInt32Extremes) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> f, i;
  std::string err;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, f, err));
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648 -9", ElemType::I32, i, err));
  for (bool desc : {false, true}) {
    StepConfig cfg;
    cfg.block = 4;
    cfg.digit_bits = 5;
    cfg.key_value = true;
    cfg.descending = desc;
    cfg.type = ElemType::F32;
    cfg.n = int(f.size());
    Trace cpu, gpu;
    ASSERT_EQ(build_trace_cpu(*find_algorithm("radix-digits"), cfg, f, cpu), "");
    ASSERT_EQ(build_trace_cuda(*find_algorithm("radix-digits"), cfg, f, gpu), "");
    EXPECT_EQ(compare_traces(cpu, gpu), "") << "float desc=" << desc;
  }
  StepConfig cfg;
  cfg.block = 2;
  cfg.n = int(i.size());
  cfg.input = &i;
  Trace cpu, gpu;
  ASSERT_EQ(build_trace_cpu(*find_algorithm("radix-split"), cfg, i, cpu), "");
  ASSERT_EQ(build_trace_cuda(*find_algorithm("radix-split"), cfg, i, gpu), "");
  EXPECT_EQ(compare_traces(cpu, gpu), "") << "int32 extremes";
}

}  // namespace
