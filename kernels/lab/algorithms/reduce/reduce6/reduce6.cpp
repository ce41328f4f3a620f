// Harris's kernel 6: the plan, which follows reduce6.cuh's host loop (one launch a pass until one
// block is left: a step for the load, one per barrier level and per warp line of the unrolled
// tree, one for the write), and the CPU reference, which runs the same kernel warp by warp. It
// loads and adds as reduce5 does; what it removes (the loop counter, the compare of s, the
// branches the compiler now decides) are instructions, which the counters do not count. Each
// tree step lights its own `if (blockSize >= 2s)` line.
#include "lab/algorithms/reduce/cpu_tree_steps.h"
#include "lab/algorithms/reduce/reduce_rows.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace reduce;

// Load, then Level (barrier) strides s = blockSize/2 .. 64, Unrolled (warp) strides s = 32 .. 1
// below blockSize, then Write.
enum class Kind { Load, Level, Unrolled, Write };

struct RStep {
  Kind kind;
  std::size_t pass;
  std::int32_t s;
};

std::vector<RStep> schedule(const Layout& L) {
  std::vector<RStep> steps;
  for (std::size_t k = 0; k < L.passes.size(); ++k) {
    const std::int32_t b = L.passes[k].threads;
    steps.push_back({Kind::Load, k, 0});
    for (std::int32_t s = b / 2; s > 32; s /= 2) steps.push_back({Kind::Level, k, s});
    for (std::int32_t s = std::min(32, b / 2); s > 0; s /= 2) steps.push_back({Kind::Unrolled, k, s});
    steps.push_back({Kind::Write, k, 0});
  }
  return steps;
}
}  // namespace

Result plan_reduce6(const StepConfig& cfg, Trace& t) {
  const Layout L = reduce6_layout(cfg.n, cfg.block);
  t.title = "reduce6: completely unrolled (block size as a template parameter)";
  t.width = L.width;
  t.elems_per_thread = 2;
  const plan::Code code = plan::code(t, "reduce6");
  plan::standard_rows(t, "x (input)", cfg.n, cfg.type);
  const int shared = plan::add_row(t, "sdata[] in shared memory, a slice per block", RowKind::Values, L.width, cfg.type);
  add_partial_rows(t, L, cfg.type);
  plan::initial_step(t);
  for (const RStep& st : schedule(L)) {
    const Pass& p = L.passes[st.pass];
    const std::string B = std::to_string(p.threads);
    std::string label, prose;
    int line = -1, ops = 1, focus = shared;
    std::vector<int> also;
    switch (st.kind) {
      case Kind::Load:
        line = code.line("load");
        ops = p.threads < 64 ? 3 : 2;
        label = "load: sdata[tid] = in[i] + in[i+" + B + "], i < n = " + std::to_string(p.len) +
                ": the first add during the load" + (p.threads < 64 ? "; sdata[tid+" + B + "] = 0" : "");
        prose = pass_prose(L, st.pass) + "Each thread loads two elements " + B +
                " apart and adds them on the way into shared memory, as reduce4 does." +
                (p.threads < 64 ? " A block below 64 threads also zeroes sdata[tid+" + B +
                                      "], which the last warp's upper lanes read."
                                : "");
        break;
      case Kind::Level:
      case Kind::Unrolled: {
        const bool warp = st.kind == Kind::Unrolled;
        line = unrolled_line(code, warp, st.s);
        also.push_back(unrolled_helper_line(code, warp));
        label = unrolled_label(warp, st.s, std::min(32, p.threads));
        prose = warp ? unrolled_prose(st.s) : level_prose(st.s);
        break;
      }
      case Kind::Write:
        line = code.line("write");
        focus = p.out_row;
        label = "if (tid == 0) out[blockIdx.x] = sdata[0]" + write_target(L, st.pass);
        prose = write_prose(L, st.pass);
        break;
    }
    const std::int32_t active = st.kind == Kind::Load      ? p.threads
                                : st.kind == Kind::Level    ? st.s
                                : st.kind == Kind::Unrolled ? std::min(32, p.threads)
                                                            : 1;
    Step& step = plan::add_step(t, pass_prefix(L, st.pass) + label, pass_phase(st.pass), line, p.blocks, p.threads,
                                p.blocks * active, ops, focus);
    step.also_lit = also;
    step.explain = prose;
    step.barrier = st.kind != Kind::Load;  // a pass is one launch
  }
  return {};
}

// Runs the kernel of each pass warp by warp, step by step.
void cpu_reduce6(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  const Layout L = reduce6_layout(t.n, t.block);
  const int shared = kStdRows;
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  run.snapshot_initial();
  std::size_t s = 0;
  for (const RStep& st : schedule(L)) {
    run.begin(++s);
    const Pass& p = L.passes[st.pass];
    const std::int32_t b = p.threads;
    // `if (tid < 32)` runs in the step after the last barrier level: the first warp line, or the
    // write of a one-thread block.
    const bool enter_warp = (st.kind == Kind::Unrolled && st.s == std::min(32, b / 2)) || (st.kind == Kind::Write && b == 1);
    for (std::int32_t blk = 0; blk < p.blocks; ++blk) {
      const std::int32_t base = blk * p.per_block;
      const TreeBlock k{run, t.type, shared, run.row(shared) + base, base, std::int64_t(blk) * b};
      for (std::int32_t first = 0; first < b; first += 32) {
        const int lanes = std::min<std::int32_t>(32, b - first);
        if (enter_warp) cpu_last_warp_branch(k, first, lanes);
        switch (st.kind) {
          case Kind::Load: cpu_pair_load(k, run.row(p.in_row), p.in_row, p.len, b, first, lanes, b < 64); break;
          case Kind::Level: cpu_sequential_level(k, first, st.s, lanes); break;
          case Kind::Unrolled:
            if (first == 0) cpu_warp_line(k, st.s, lanes);
            break;
          case Kind::Write: cpu_tree_write(k, run.row(p.out_row), p.out_row, blk, first, lanes); break;
        }
      }
    }
    run.end();
  }
  t.steps.back().label += " = " + format_word(t.row(t.steps.size() - 1, std::size_t(L.out))[0], t.type);
}

}  // namespace primlab::steppers
