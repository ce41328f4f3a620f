// The CUDA traced scans against the CPU reference on float special values, bit for bit (GPU label:
// needs a CUDA device). The sweep over sizes, blocks and options is the catalog-driven test's
// (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

TEST(TracedEdge, FloatSpecialValuesMatch) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 1e30 -1e30 0.1", ElemType::F32, in).ok());
  for (const Algorithm& a : algorithms()) {
    if (a.family != std::string("scan")) continue;
    StepConfig cfg;
    cfg.n = int(in.size());
    cfg.block = 4;
    cfg.type = ElemType::F32;
    Trace cpu, gpu;
    ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, cpu)));
    ASSERT_TRUE(ok(build_trace_cuda(a, cfg, in, gpu)));
    EXPECT_TRUE(ok(compare_traces(cpu, gpu))) << a.name;
  }
}

}  // namespace
