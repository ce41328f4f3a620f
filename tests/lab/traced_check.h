// The CPU reference against the CUDA traced stepper for one config (GPU tests): deterministic rows
// give the same trace bit for bit (values of every row, op slots, launch shapes, counters, labels,
// the warps' shared-memory accesses lane by lane); the others (atomic order) the same steps, launch
// shapes and counters, the same shared words accessed, and every value row's final state as a
// multiset (atomics permute values inside a row; index rows such as owners and tags name which lane
// won and may differ).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "lab/catalog.h"
#include "lab/result_check.h"

namespace test {

inline std::vector<std::uint32_t> final_values(const primlab::Trace& t, std::size_t r) {
  const std::uint32_t* p = t.row(t.steps.size() - 1, r);
  std::vector<std::uint32_t> v(p, p + std::min(t.rows[r].length, t.width));
  std::sort(v.begin(), v.end());
  return v;
}

// A step's warp accesses with the lanes forgotten: each access's active word addresses, sorted, once
// per warp. Where atomics decide which lane wins (the tagged histogram's retries), the lanes that
// try again differ between backends, the words they hit do not.
inline std::vector<std::vector<std::int32_t>> addresses_of(const std::vector<primlab::WarpAccess>& accesses) {
  std::vector<std::vector<std::int32_t>> v;
  for (const primlab::WarpAccess& w : accesses) {
    std::vector<std::int32_t> a;
    for (std::int32_t x : w.addr)
      if (x >= 0) a.push_back(x);
    std::sort(a.begin(), a.end());
    v.insert(v.end(), std::size_t(w.warps), a);
  }
  std::sort(v.begin(), v.end());
  return v;
}

inline void expect_same_up_to_atomic_order(const primlab::Trace& cpu, const primlab::Trace& gpu) {
  ASSERT_EQ(cpu.steps.size(), gpu.steps.size());
  ASSERT_EQ(cpu.rows.size(), gpu.rows.size());
  ASSERT_EQ(cpu.width, gpu.width);
  for (std::size_t s = 0; s < cpu.steps.size(); ++s) {
    EXPECT_EQ(cpu.steps[s].label, gpu.steps[s].label) << "step " << s;
    EXPECT_TRUE(cpu.steps[s].launch == gpu.steps[s].launch) << "step " << s;
    EXPECT_TRUE(cpu.steps[s].counters == gpu.steps[s].counters) << "step " << s;
    EXPECT_EQ(addresses_of(cpu.steps[s].accesses), addresses_of(gpu.steps[s].accesses)) << "step " << s;
  }
  for (std::size_t r = 0; r < cpu.rows.size(); ++r) {
    if (cpu.rows[r].kind != primlab::RowKind::Values) continue;
    EXPECT_EQ(final_values(cpu, r), final_values(gpu, r)) << "row " << cpu.rows[r].name;
  }
}

// The code panel's promise, checked against the kernel: every kernel line whose probe call
// recorded an op in a step (the recording probe notes its source line) is a line the step lights,
// and a step that records ops names at least one line. A line that ran unlit, or a step tagged on
// the wrong line, fails here.
inline void expect_lit_lines_ran(const primlab::Trace& gpu) {
  for (std::size_t s = 1; s < gpu.steps.size(); ++s) {
    const primlab::Step& st = gpu.steps[s];
    bool has_ops = false;
    for (std::int64_t k = 0; k < st.op_count() && !has_ops; ++k)
      has_ops = primlab::kind_of(gpu.ops[std::size_t(st.op_begin + k)].kind) != primlab::OpKind::None;
    EXPECT_TRUE(!has_ops || !st.source_lines.empty())
        << "step " << s << " (" << st.label << ") recorded ops but no source line";
    const std::vector<int> lit = primlab::step_code_lines(gpu, s);
    for (std::int32_t src : st.source_lines) {
      bool listed = false, in_lit = false;
      for (std::size_t line = 0; line < gpu.code_sources.size(); ++line) {
        const auto& srcs = gpu.code_sources[line];
        if (std::find(srcs.begin(), srcs.end(), src) == srcs.end()) continue;
        listed = true;
        in_lit |= std::find(lit.begin(), lit.end(), int(line)) != lit.end();
      }
      EXPECT_TRUE(listed) << "step " << s << " (" << st.label << "): source line " << src
                          << " recorded an op but is in no listed line";
      EXPECT_TRUE(in_lit) << "step " << s << " (" << st.label << "): the line at source line " << src
                          << " ran but the step does not light it";
    }
  }
}

inline void expect_backends_agree(const primlab::Algorithm& a, const primlab::StepConfig& cfg,
                                  const std::vector<std::uint32_t>& in) {
  primlab::Trace cpu, gpu;
  const primlab::Result on_cpu = build_trace_cpu(a, cfg, in, cpu);
  const primlab::Result on_gpu = build_trace_cuda(a, cfg, in, gpu);
  ASSERT_EQ(on_cpu.ok(), on_gpu.ok()) << "both backends accept or refuse a config alike: " << on_cpu.message()
                                      << " / " << on_gpu.message();
  if (!on_cpu.ok()) return;  // a plan's own limit (the catalog test checks it comes with a message)
  expect_lit_lines_ran(gpu);
  if (!a.deterministic) {
    expect_same_up_to_atomic_order(cpu, gpu);
    return;
  }
  EXPECT_TRUE(ok(compare_traces(cpu, gpu)));
  for (std::size_t s = 0; s < cpu.steps.size() && s < gpu.steps.size(); ++s)
    EXPECT_EQ(cpu.steps[s].label, gpu.steps[s].label) << "step " << s;  // labels carry results (a sum, a count)
}

}  // namespace test
