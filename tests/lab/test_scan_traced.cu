// The stepped CUDA scans against the CPU reference (GPU label: needs a CUDA device): float special
// values bit for bit, and every step of every scan row and of the compaction, at the configs the
// rows' limits give, lighting the lines its kernels ran (each kernel is the one listed). The sweep
// over sizes, blocks and options is the catalog-driven test's (test_catalog_traced.cu).
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

TEST(TracedEdge, FloatSpecialValuesMatch) {
  ASSERT_TRUE(backend().cuda);
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("1 -0.0 inf 2.5 nan -inf 3 1e30 -1e30 0.1", ElemType::F32, in).ok());
  for (const char* name : test::family("scan")) {
    const Algorithm& a = *find_algorithm(name);
    if (!(a.options & kOptFloat)) continue;
    StepConfig cfg;
    cfg.n = int(in.size());
    cfg.block = 4;
    cfg.type = ElemType::F32;
    fit_config(a, cfg);
    for (bool inclusive : {false, true}) {
      cfg.inclusive = inclusive && (a.options & kOptInclusive);
      Trace cpu, gpu;
      ASSERT_TRUE(ok(build_trace_cpu(a, cfg, in, cpu))) << name;
      ASSERT_TRUE(ok(build_trace_cuda(a, cfg, in, gpu))) << name;
      EXPECT_TRUE(ok(compare_traces(cpu, gpu))) << name;
    }
  }
}

// Every step that records ops names the source lines that recorded them, and the step lights them.
TEST(TracedScans, EveryStepLightsTheLinesItsKernelRan) {
  ASSERT_TRUE(backend().cuda);
  std::vector<const char*> rows = test::family("scan");
  rows.push_back("compact");
  for (const char* name : rows) {
    const Algorithm& a = *find_algorithm(name);
    for (const test::RowConfig& rc : test::configs_for(a)) {
      SCOPED_TRACE(rc.what);
      Trace gpu;
      const Result r = build_trace_cuda(a, rc.cfg, make_input(InputKind::Random, rc.cfg.n, rc.cfg.type, rc.cfg.seed), gpu);
      if (!r.ok()) continue;  // a plan's own limit: the catalog test holds both backends to it
      test::expect_lit_lines_ran(gpu);
      for (std::size_t s = 1; s < gpu.steps.size(); ++s) {
        bool any_op = false;
        for (std::int64_t o = 0; o < gpu.steps[s].op_count() && !any_op; ++o)
          any_op = gpu.ops[std::size_t(gpu.steps[s].op_begin + o)].kind != 0;
        if (any_op) EXPECT_FALSE(gpu.steps[s].source_lines.empty()) << "step " << s << ": " << gpu.steps[s].label;
      }
    }
  }
}

}  // namespace
