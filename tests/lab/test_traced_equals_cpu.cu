// The CUDA traced steppers produce the CPU reference's trace step for step, bit for bit: values of
// every row, op slots, launch shapes and counters (GPU label: needs a CUDA device).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"

using namespace primlab;

namespace {

struct Case {
  std::string algo;
  int n;
  int block;
  bool inclusive;
  ElemType type;
  std::uint32_t seed;
  bool offsets;
};

std::string name_of(const ::testing::TestParamInfo<Case>& i) {
  const Case& c = i.param;
  std::string s = c.algo + "_n" + std::to_string(c.n) + "_b" + std::to_string(c.block) +
                  (c.inclusive ? "_inc" : "_exc") + (c.type == ElemType::F32 ? "_f32" : "_i32") + "_s" +
                  std::to_string(c.seed) + (c.offsets ? "" : "_nooffs");
  for (char& ch : s)
    if (!isalnum((unsigned char)ch)) ch = '_';
  return s;
}

class TracedEqualsCpu : public ::testing::TestWithParam<Case> {};

TEST_P(TracedEqualsCpu, StepForStep) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Case c = GetParam();
  const Algorithm* a = find_algorithm(c.algo);
  ASSERT_NE(a, nullptr);
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.inclusive = c.inclusive;
  cfg.type = c.type;
  cfg.conflict_offsets = c.offsets;
  const auto in = make_input(c.seed % 3 == 0 ? InputKind::Reversed : InputKind::Random, c.n, c.type, c.seed);
  Trace cpu, gpu;
  ASSERT_EQ(build_trace_cpu(*a, cfg, in, cpu), "");
  ASSERT_EQ(build_trace_cuda(*a, cfg, in, gpu), "");
  EXPECT_EQ(compare_traces(cpu, gpu), "");
}

std::vector<Case> cases() {
  std::vector<Case> v;
  std::uint32_t seed = 1;
  for (const char* algo : {"scan-naive", "scan-blelloch", "scan-shared"})
    for (int n : {1, 2, 3, 5, 8, 31, 32, 33, 64, 100, 127, 128, 129, 500, 512, 1000, 1024, 1025, 2047, 2048, 3000,
                  4095, 4096})
      for (int block : {1, 8, 32, 128, 1024}) {
        if (block == 1 && n > 512) continue;  // 4096 one-thread blocks: slow to no purpose
        ++seed;
        v.push_back({algo, n, block, seed % 2 == 0, seed % 5 == 0 ? ElemType::F32 : ElemType::I32, seed,
                     seed % 7 != 0});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Scans, TracedEqualsCpu, ::testing::ValuesIn(cases()), name_of);

TEST(TracedEdge, FloatSpecialValuesMatch) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> in;
  std::string err;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 1e30 -1e30 0.1", ElemType::F32, in, err));
  for (const Algorithm& a : algorithms()) {
    if (a.family != std::string("scan")) continue;
    StepConfig cfg;
    cfg.n = int(in.size());
    cfg.block = 4;
    cfg.type = ElemType::F32;
    Trace cpu, gpu;
    ASSERT_EQ(build_trace_cpu(a, cfg, in, cpu), "");
    ASSERT_EQ(build_trace_cuda(a, cfg, in, gpu), "");
    EXPECT_EQ(compare_traces(cpu, gpu), "") << a.name;
  }
}

}  // namespace
