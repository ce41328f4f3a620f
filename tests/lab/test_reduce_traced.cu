// The CUDA traced reductions (reduce1..reduce5, warp shuffle) produce the CPU reference's trace
// step for step, bit for bit: every row, op slot, launch shape and counter, and the same sum in the
// last step's label (GPU label: needs a CUDA device).
#include <gtest/gtest.h>

#include <cmath>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

struct Case {
  std::string algo;
  int n;
  int block;
  ElemType type;
  std::uint32_t seed;
};

std::string name_of(const ::testing::TestParamInfo<Case>& i) {
  const Case& c = i.param;
  std::string s = c.algo + "_n" + std::to_string(c.n) + "_b" + std::to_string(c.block) + "_" +
                  elem_type_name(c.type) + "_s" + std::to_string(c.seed);
  for (char& ch : s)
    if (!isalnum((unsigned char)ch)) ch = '_';
  return s;
}

void expect_same(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& in) {
  Trace cpu, gpu;
  const std::string e1 = build_trace_cpu(a, cfg, in, cpu), e2 = build_trace_cuda(a, cfg, in, gpu);
  ASSERT_EQ(e1, e2) << "both backends accept or reject the config alike";
  if (!e1.empty()) return;
  EXPECT_EQ(compare_traces(cpu, gpu), "") << a.name << " n=" << cfg.n << " block=" << cfg.block;
  for (std::size_t s = 0; s < cpu.steps.size(); ++s) ASSERT_EQ(cpu.steps[s].label, gpu.steps[s].label);
}

class ReduceTracedEqualsCpu : public ::testing::TestWithParam<Case> {};

TEST_P(ReduceTracedEqualsCpu, StepForStep) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Case c = GetParam();
  const Algorithm* a = find_algorithm(c.algo);
  ASSERT_NE(a, nullptr);
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.type = c.type;
  expect_same(*a, cfg, make_input(c.seed % 3 == 0 ? InputKind::Reversed : InputKind::Random, c.n, c.type, c.seed));
}

std::vector<Case> cases() {
  std::vector<Case> v;
  std::uint32_t seed = 1;
  for (const char* algo : {"reduce1", "reduce2", "reduce3", "reduce4", "reduce5", "reduce-shuffle"})
    for (int n : {1, 2, 3, 5, 8, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 500, 512, 1000, 1024, 1025, 2047, 2048,
                  3000, 4095, 4096})
      for (int block : {1, 2, 8, 32, 64, 128, 256, 1024}) {
        if (block <= 2 && n > 600) continue;  // hundreds of tiny blocks: slow to no purpose
        ++seed;
        v.push_back({algo, n, block, seed % 3 == 0 ? ElemType::F32 : seed % 3 == 1 ? ElemType::I32 : ElemType::U32,
                     seed});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Reductions, ReduceTracedEqualsCpu, ::testing::ValuesIn(cases()), name_of);

TEST(ReduceTraced, TooManyPartialSumsRejectedAlike) {
  ASSERT_TRUE(backend().cuda);
  StepConfig cfg;
  cfg.n = 4096;
  cfg.block = 2;
  expect_same(*find_algorithm("reduce1"), cfg, make_input(InputKind::Random, 4096, ElemType::I32, 1));
}

// Full-range int32 words and floats of many magnitudes, rounded differently at every level (no NaN:
// its payload is the one thing the CPU and the GPU may write differently; NaN is checked by value below).
TEST(ReduceTraced, FullRangeWordsMatchBitForBit) {
  ASSERT_TRUE(backend().cuda);
  std::uint32_t x = 12345u;
  for (ElemType type : {ElemType::I32, ElemType::F32})
    for (int n : {37, 1000, 4096}) {
      std::vector<std::uint32_t> in(static_cast<std::size_t>(n), 0u);
      for (auto& w : in) {
        x = x * 1664525u + 1013904223u;
        w = x;
        // Floats: any sign and mantissa, exponents 2^-27 .. 2^22, so no sum overflows into inf - inf.
        if (type == ElemType::F32) w = (x & 0x807fffffu) | ((100u + (x >> 9) % 50u) << 23);
      }
      for (const Algorithm& a : algorithms()) {
        if (a.family != std::string("reduce")) continue;
        for (int block : {32, 128, 1024}) {
          StepConfig cfg;
          cfg.n = n;
          cfg.block = block;
          cfg.type = type;
          expect_same(a, cfg, in);
        }
      }
    }
}

TEST(ReduceTraced, FloatSpecialValues) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> in;
  std::string err;
  // inf and -inf in separate inputs: inf + -inf is a NaN, whose payload the backends may write differently.
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 -0.0 3 1e30 -1e30 0.1 7", ElemType::F32, in, err));
  std::vector<std::uint32_t> minus_inf;
  ASSERT_TRUE(parse_input_list("-0.0 -inf 3 1e-40 -2", ElemType::F32, minus_inf, err));
  std::vector<std::uint32_t> with_nan;
  ASSERT_TRUE(parse_input_list("1 2 nan 4 5 6", ElemType::F32, with_nan, err));
  for (const Algorithm& a : algorithms()) {
    if (a.family != std::string("reduce")) continue;
    for (int block : {1, 4, 64}) {
      StepConfig cfg;
      cfg.n = int(in.size());
      cfg.block = block;
      cfg.type = ElemType::F32;
      expect_same(a, cfg, in);
      cfg.n = int(minus_inf.size());
      expect_same(a, cfg, minus_inf);
      cfg.n = int(with_nan.size());
      Trace gpu;
      ASSERT_EQ(build_trace_cuda(a, cfg, with_nan, gpu), "");
      EXPECT_TRUE(std::isnan(word_to_float(gpu.row(gpu.steps.size() - 1, gpu.rows.size() - 1)[0]))) << a.name;
    }
  }
}

}  // namespace
