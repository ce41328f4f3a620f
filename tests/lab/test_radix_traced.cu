// The CUDA traced radix sorts (radix-split, radix-digits) against the CPU reference on float specials
// and int32 extremes, bit for bit (GPU label). The sweep over sizes, blocks, types and options is the
// catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

TEST(RadixTracedEdge, FloatSpecialsAndInt32Extremes) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> f, i;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 0.0 1e30 -1e30 -nan 0.1 -2.5", ElemType::F32, f).ok());
  ASSERT_TRUE(parse_input_list("2147483647 -2147483648 0 -1 2147483647 5 -2147483648 -9", ElemType::I32, i).ok());
  for (bool desc : {false, true}) {
    StepConfig cfg;
    cfg.block = 4;
    cfg.digit_bits = 5;
    cfg.key_value = true;
    cfg.descending = desc;
    cfg.type = ElemType::F32;
    cfg.n = int(f.size());
    Trace cpu, gpu;
    ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("radix-digits"), cfg, f, cpu)));
    ASSERT_TRUE(ok(build_trace_cuda(*find_algorithm("radix-digits"), cfg, f, gpu)));
    EXPECT_TRUE(ok(compare_traces(cpu, gpu))) << "float desc=" << desc;
  }
  StepConfig cfg;
  cfg.block = 2;
  cfg.n = int(i.size());
  cfg.input = &i;
  Trace cpu, gpu;
  ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("radix-split"), cfg, i, cpu)));
  ASSERT_TRUE(ok(build_trace_cuda(*find_algorithm("radix-split"), cfg, i, gpu)));
  EXPECT_TRUE(ok(compare_traces(cpu, gpu))) << "int32 extremes";
}

}  // namespace
