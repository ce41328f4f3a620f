// The stepped CUDA bitonic sort (bitonic_sort.cuh run with the recording probe) against the CPU
// reference on float specials (-NaN first, +NaN last) and int32 extremes beside the padding, bit for
// bit, with the lines it lights being the lines that ran (GPU label). The sweep over sizes, blocks,
// types and options is the catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

TEST(BitonicTracedEdge, FloatSpecialsAndInt32ExtremesBesideThePadding) {
  ASSERT_TRUE(backend().cuda);
  const Algorithm& a = *find_algorithm("bitonic-sort");
  std::vector<std::uint32_t> f, i;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, f).ok());
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648", ElemType::I32, i).ok());
  for (int combo = 0; combo < 4; ++combo)
    for (int which = 0; which < 2; ++which) {
      if (which == 0 && !(a.options & kOptFloat)) continue;
      const auto& in = which ? i : f;
      StepConfig cfg;
      cfg.n = int(in.size());
      cfg.block = std::max(a.min_block, 2);
      cfg.type = which ? ElemType::I32 : ElemType::F32;
      cfg.key_value = (a.options & kOptKeyValue) && combo % 2;
      cfg.descending = (a.options & kOptDescending) && combo / 2;
      SCOPED_TRACE(std::string(which ? "int32" : "float") + " kv=" + std::to_string(cfg.key_value) +
                   " desc=" + std::to_string(cfg.descending));
      test::expect_backends_agree(a, cfg, in);
    }
}

}  // namespace
