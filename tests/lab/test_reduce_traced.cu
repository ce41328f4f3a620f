// The stepped CUDA reductions (reduce1..reduce7, warp shuffle) against the CPU reference on the
// inputs that round differently at every level (full-range words, float special values) and on the
// host loops with many passes, whose launches hand the partial sums from row to row (GPU label:
// needs a CUDA device). Blocks and types come from each row's limits. The sweep over sizes, blocks
// and types of every row is the catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include <cmath>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

std::vector<const Algorithm*> reductions() {
  std::vector<const Algorithm*> v;
  for (const char* name : test::family("reduce")) v.push_back(find_algorithm(name));
  return v;
}

std::vector<int> blocks_of(const Algorithm& a, std::initializer_list<int> ladder) {
  std::vector<int> v;
  for (int b : ladder)
    if (b >= a.min_block && b <= a.max_block && (!a.block_pow2 || (b & (b - 1)) == 0)) v.push_back(b);
  return v;
}

// Blocks of one and two threads over thousands of elements: a dozen launches, each pass reading the
// row the pass before wrote (buf[0], buf[1] in turn) and the last writing d_out.
TEST(ReduceTraced, ManyPassesAgree) {
  ASSERT_TRUE(backend().cuda);
  for (const Algorithm* a : reductions())
    for (int block : blocks_of(*a, {1, 2})) {
      StepConfig cfg;
      cfg.n = 3000;
      cfg.block = block;
      SCOPED_TRACE(std::string(a->name) + " block " + std::to_string(block));
      test::expect_backends_agree(*a, cfg, make_input(InputKind::Random, cfg.n, ElemType::I32, 1));
    }
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
      for (const Algorithm* a : reductions()) {
        if (type == ElemType::F32 && !(a->options & kOptFloat)) continue;
        for (int block : blocks_of(*a, {32, 128, 1024})) {
          StepConfig cfg;
          cfg.n = n;
          cfg.block = block;
          cfg.type = type;
          SCOPED_TRACE(std::string(a->name) + " n=" + std::to_string(n) + " block=" + std::to_string(block));
          test::expect_backends_agree(*a, cfg, in);
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
  for (const Algorithm* a : reductions()) {
    if (!(a->options & kOptFloat)) continue;
    for (int block : blocks_of(*a, {1, 4, 64})) {
      StepConfig cfg;
      cfg.n = int(in.size());
      cfg.block = block;
      cfg.type = ElemType::F32;
      test::expect_backends_agree(*a, cfg, in);
      cfg.n = int(minus_inf.size());
      test::expect_backends_agree(*a, cfg, minus_inf);
      cfg.n = int(with_nan.size());
      Trace gpu;
      ASSERT_TRUE(ok(build_trace_cuda(*a, cfg, with_nan, gpu)));
      EXPECT_TRUE(std::isnan(word_to_float(gpu.row(gpu.steps.size() - 1, gpu.rows.size() - 1)[0]))) << a->name;
    }
  }
}

}  // namespace
