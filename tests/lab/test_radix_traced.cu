// The stepped CUDA radix sorts (radix_split.cuh and radix_digits.cuh run with the recording probe)
// against the CPU reference on float specials, int32 extremes and full-range keys (every bit a
// pass, the scan on several levels), bit for bit, with the lines they light being the lines that ran
// (GPU label). The sweep over sizes, blocks, types and options is the catalog-driven test's
// (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

TEST(RadixTracedEdge, FloatSpecialsInt32ExtremesAndFullRangeKeys) {
  ASSERT_TRUE(backend().cuda);
  const Algorithm& digits = *find_algorithm("radix-digits");
  const Algorithm& split = *find_algorithm("radix-split");
  std::vector<std::uint32_t> f, i;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, f).ok());
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648 -9", ElemType::I32, i).ok());
  for (int combo = 0; combo < 4; ++combo) {
    StepConfig cfg;
    cfg.block = std::max(digits.min_block, 4);
    cfg.digit_bits = 5;
    cfg.key_value = (digits.options & kOptKeyValue) && combo % 2;
    cfg.descending = (digits.options & kOptDescending) && combo / 2;
    for (int which = 0; which < 2; ++which) {
      if (which == 0 && !(digits.options & kOptFloat)) continue;
      const auto& in = which ? i : f;
      cfg.type = which ? ElemType::I32 : ElemType::F32;
      cfg.n = int(in.size());
      SCOPED_TRACE(std::string("radix-digits ") + (which ? "int32" : "float") + " combo " + std::to_string(combo));
      test::expect_backends_agree(digits, cfg, in);
    }
  }
  for (int block : {split.min_block, 2, 32}) {
    if (block < split.min_block || block > split.max_block) continue;
    StepConfig cfg;
    cfg.block = block;
    cfg.n = int(i.size());
    SCOPED_TRACE("radix-split int32 extremes, block " + std::to_string(block));
    test::expect_backends_agree(split, cfg, i);
  }
  // Full-range uint32 keys: 32 passes, and a scan of several levels.
  StepConfig cfg;
  cfg.n = std::min(split.max_n, 300);
  cfg.block = std::max(split.min_block, 8);
  cfg.type = ElemType::U32;
  auto keys = make_input(InputKind::Random, cfg.n, cfg.type, 7);
  for (auto& w : keys) w = w * 0x9E3779B9u + 1;
  SCOPED_TRACE("radix-split full range");
  test::expect_backends_agree(split, cfg, keys);
}

}  // namespace
