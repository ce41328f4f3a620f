// The CUDA traced stream compaction against the CPU reference on float special values and the seed's
// sample, and a block the shared-memory scan refuses on both backends alike (GPU label: needs a CUDA
// device). The sweep over sizes, blocks, variants and predicates is the catalog-driven test's
// (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

TEST(CompactTraced, SpecialValuesAndSeedSample) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> f, seed;
  ASSERT_TRUE(parse_input_list("-0.0 0 nan 2 -2 3.5 inf -inf 4 1e30 -7 0.5", ElemType::F32, f).ok());
  ASSERT_TRUE(parse_input_list("1 2 0 1 2 0 2 0 0 1 0 1 0 3 0", ElemType::I32, seed).ok());  // seed 002
  const Algorithm& compact = *find_algorithm("compact");
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
        test::expect_backends_agree(compact, cfg, f);
        cfg.n = int(seed.size());
        cfg.type = ElemType::I32;
        test::expect_backends_agree(compact, cfg, seed);
      }
}

TEST(CompactTraced, NonPowerOfTwoBlockRejectedAlikeForTheSharedScan) {
  ASSERT_TRUE(backend().cuda);
  StepConfig cfg;
  cfg.n = 20;
  cfg.block = 6;
  cfg.variant = 2;
  test::expect_backends_agree(*find_algorithm("compact"), cfg, make_input(InputKind::Random, 20, ElemType::I32, 1));
}

}  // namespace
