// The CUDA traced reductions (reduce1..reduce5, warp shuffle) on the inputs that round differently
// at every level: full-range words, float special values, and the partial sums one block cannot add
// (GPU label: needs a CUDA device). The sweep over sizes, blocks and types of every row is the
// catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include <cmath>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

TEST(ReduceTraced, TooManyPartialSumsRejectedAlike) {
  ASSERT_TRUE(backend().cuda);
  StepConfig cfg;
  cfg.n = 4096;
  cfg.block = 2;
  test::expect_backends_agree(*find_algorithm("reduce1"), cfg, make_input(InputKind::Random, 4096, ElemType::I32, 1));
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
          test::expect_backends_agree(a, cfg, in);
        }
      }
    }
}

TEST(ReduceTraced, FloatSpecialValues) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> in;
  // inf and -inf in separate inputs: inf + -inf is a NaN, whose payload the backends may write differently.
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 -0.0 3 1e30 -1e30 0.1 7", ElemType::F32, in).ok());
  std::vector<std::uint32_t> minus_inf;
  ASSERT_TRUE(parse_input_list("-0.0 -inf 3 1e-40 -2", ElemType::F32, minus_inf).ok());
  std::vector<std::uint32_t> with_nan;
  ASSERT_TRUE(parse_input_list("1 2 nan 4 5 6", ElemType::F32, with_nan).ok());
  for (const Algorithm& a : algorithms()) {
    if (a.family != std::string("reduce")) continue;
    for (int block : {1, 4, 64}) {
      StepConfig cfg;
      cfg.n = int(in.size());
      cfg.block = block;
      cfg.type = ElemType::F32;
      test::expect_backends_agree(a, cfg, in);
      cfg.n = int(minus_inf.size());
      test::expect_backends_agree(a, cfg, minus_inf);
      cfg.n = int(with_nan.size());
      Trace gpu;
      ASSERT_TRUE(ok(build_trace_cuda(a, cfg, with_nan, gpu)));
      EXPECT_TRUE(std::isnan(word_to_float(gpu.row(gpu.steps.size() - 1, gpu.rows.size() - 1)[0]))) << a.name;
    }
  }
}

}  // namespace
