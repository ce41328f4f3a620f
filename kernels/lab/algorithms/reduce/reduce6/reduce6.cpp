// Harris's kernel 6: reduce5 with the whole tree unrolled by the block size, a template parameter
// (reduce6_timed.cu). It loads, adds and touches shared memory exactly as reduce5 does, in the
// same order: what it removes (the loop counter, the compare of s, the branches the compiler now
// decides) are instructions, which the counters do not count. So its steps are reduce5's schedule,
// run by reduce5's CPU and CUDA steppers, shown on its own listing: each level highlights its own
// unrolled `if (blockSize >= ...)` line.
#include "lab/algorithms/reduce/reduce6/unrolled_tree.h"
#include "lab/algorithms/reduce/reduce_common.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {

PlanFn plan_reduce5;
CpuFn cpu_reduce5;
CudaFn cuda_reduce5;

Result plan_reduce6(const StepConfig& cfg, Trace& t) {
  if (Result r = plan_reduce5(cfg, t); !r.ok()) return r;
  const reduce::Schedule sc = reduce::make_schedule(reduce::kReduce5, cfg.n, cfg.block);
  t.title = "reduce6: completely unrolled (block size as a template parameter)";
  const plan::Code code = plan::code(t, "reduce6");
  for (std::size_t k = 0; k < sc.steps.size(); ++k) {
    const reduce::RStep& st = sc.steps[k];
    const reduce::Pass& p = sc.pass[st.pass];
    Step& step = t.steps[k + 1];
    const std::string pre =
        st.pass == 1 ? "pass 2 (1 block over " + std::to_string(p.in_len) + " partial sums): " : "";
    const bool warp = st.kind == reduce::Kind::Unrolled;
    switch (st.kind) {
      case reduce::Kind::Load: step.code_line = code.line("load"); break;
      case reduce::Kind::Write: step.code_line = code.line("write"); break;
      default:
        step.code_line = unrolled_tree::line(code, warp, st.s);
        step.label = pre + unrolled_tree::label(warp, st.s, std::min(32, p.B));
        break;
    }
  }
  return {};
}

void cpu_reduce6(const StepConfig& cfg, const std::vector<std::uint32_t>& in, Trace& t) { cpu_reduce5(cfg, in, t); }

}  // namespace primlab::steppers
