// The CUDA traced bitonic sort against the CPU reference on float specials (-NaN first, +NaN last)
// and sentinel ties, bit for bit (GPU label). The sweep over sizes, blocks, types and options is the
// catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

TEST(BitonicTracedEdge, FloatSpecialsAndSentinelTies) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> f, i;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, f).ok());
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648", ElemType::I32, i).ok());
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
        ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, cpu)));
        ASSERT_TRUE(ok(build_trace_cuda(a, cfg, in, gpu)));
        EXPECT_TRUE(ok(compare_traces(cpu, gpu))) << (which ? "int32" : "float") << " kv=" << kv << " desc=" << desc;
      }
}

}  // namespace
