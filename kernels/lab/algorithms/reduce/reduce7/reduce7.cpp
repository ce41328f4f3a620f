// Harris's kernel 7: plan, listing and the CPU reference. One step per round of the grid-stride
// loop (each thread adds the pair in[i] + in[i + B] to its register sum, i += gridSize), one for
// the store to shared memory, then one per stride of kernel 6's unrolled tree; the counters show
// the point: global reads spread over a small grid, and the tree's shared traffic paid once per
// block for many elements.
#include "lab/algorithms/reduce/cpu_tree_steps.h"
#include "lab/algorithms/reduce/reduce6/unrolled_tree.h"
#include "lab/algorithms/reduce/reduce7/reduce7_schedule.h"
#include "lab/algorithms/reduce/reduce_common.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
using namespace reduce7;

Result plan_reduce7(const StepConfig& cfg, Trace& t) {
  const Schedule sc = make_schedule(cfg.n, cfg.block);
  t.title = "reduce7: many elements per thread (grid-stride loop, Brent's theorem)";
  t.width = sc.width;
  const plan::Code code = plan::code(t, "reduce7");
  plan::standard_rows(t, "x (input)", cfg.n, cfg.type);
  for (const RowSpec& r : sc.rows) plan::add_row(t, r.name, RowKind::Values, r.length, cfg.type, false);
  plan::initial_step(t);
  for (const RStep& st : sc.steps) {
    const Pass& p = sc.pass[st.pass];
    const std::string pre = st.pass == 1 ? "pass 2 (1 block over " + std::to_string(p.in_len) + " partial sums): " : "";
    const std::string B = std::to_string(p.B);
    std::string label;
    int line = -1, ops = 1, focus = p.shared_row;
    switch (st.kind) {
      case Kind::Round:
        line = code.line("round");
        ops = 2;
        focus = p.sum_row;
        label = "round " + std::to_string(st.s + 1) + " of " + std::to_string(p.rounds) + ": i = block*" +
                std::to_string(2 * p.B) + " + tid + " + std::to_string(st.s) + "*gridSize; sum += in[i] + in[i+" + B +
                "] (gridSize = " + std::to_string(p.grid()) + ")";
        break;
      case Kind::Store:
        line = code.line("store");
        label = "sdata[tid] = sum: each block's " + B + " register sums into shared memory";
        break;
      case Kind::Level:
      case Kind::Unrolled: {
        const bool warp = st.kind == Kind::Unrolled;
        line = unrolled_tree::line(code, warp, st.s);
        label = unrolled_tree::label(warp, st.s, std::min(32, p.B));
        break;
      }
      case Kind::Write:
        line = code.line("write");
        focus = p.out_row;
        label = "if (tid == 0) out[block] = sdata[0]" +
                std::string(p.out_row == int(t.rows.size()) - 1 ? ": the sum" : ": " + std::to_string(p.blocks) + " partial sums");
        break;
    }
    Step& step = plan::add_step(t, pre + label, pre.empty() ? "pass 1" : "pass 2", line, p.blocks, p.B,
                                active_threads(sc, st), ops, focus);
    step.barrier = !(st.kind == Kind::Round && st.s == 0);  // one kernel a pass
    switch (st.kind) {
      case Kind::Round:
        step.explain = "Grid-stride round " + std::to_string(st.s + 1) + " of " + std::to_string(p.rounds) +
                       ": each thread adds two more elements, a grid's width further on, into its register sum. "
                       "Few threads doing log n serial adds each keep the work O(n) (Brent's theorem).";
        break;
      case Kind::Store:
        step.explain = "Each thread stores its register sum into shared memory for the block's tree.";
        break;
      case Kind::Level: step.explain = reduce::sequential_level_prose(st.s); break;
      case Kind::Unrolled: step.explain = reduce::unrolled_prose(st.s); break;
      case Kind::Write: step.explain = reduce::write_prose(st.pass + 1 < sc.passes, p.blocks); break;
    }
  }
  return {};
}

// Runs the planned schedule warp by warp, the way the CUDA stepper's kernels run it.
void cpu_reduce7(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  const Schedule sc = make_schedule(t.n, t.block);
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  run.snapshot_initial();
  for (std::size_t k = 0; k < sc.steps.size(); ++k) {
    const RStep& st = sc.steps[k];
    const Pass& p = sc.pass[st.pass];
    run.begin(k + 1);
    Counters& c = run.count();
    const std::uint32_t* in = run.row(p.in_row);
    std::uint32_t* sum = run.row(p.sum_row);
    std::uint32_t* out = run.row(p.out_row);
    const int s = st.s;
    for (std::int32_t b = 0; b < p.blocks; ++b) {
      std::uint32_t* sh = run.row(p.shared_row) + b * p.W;
      const std::int32_t shared_base = b * p.W;
      const std::int64_t t0 = std::int64_t(b) * p.B;
      for (std::int32_t first = 0; first < p.B; first += 32) {
        const int lanes = std::min<std::int32_t>(32, p.B - first);
        int paths[32];
        std::int32_t pa[32], pb[32];
        switch (st.kind) {
          case Kind::Round: {
            for (int l = 0; l < lanes; ++l) paths[l] = p.index(b, first + l, s) < p.in_len;
            run.branch(paths, lanes);  // the loop's `i < n`
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l;
              const std::int64_t i = p.index(b, tid, s);
              if (i >= p.in_len) continue;
              const std::int32_t dst = std::int32_t(t0 + tid);
              std::uint32_t x = in[i];
              c.global_read_bytes += 4;
              run.op(t0 + tid, 0, OpKind::Add, p.in_row, std::int32_t(i), p.sum_row, dst);
              if (i + p.B < p.in_len) {
                x = cpu::add_words(x, in[i + p.B], t.type);
                c.global_read_bytes += 4;
                c.adds += 1;
                run.op(t0 + tid, 1, OpKind::Add, p.in_row, std::int32_t(i + p.B), p.sum_row, dst);
              }
              sum[dst] = cpu::add_words(sum[dst], x, t.type);
              c.adds += 1;
            }
            break;
          }
          case Kind::Store: {
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l;
              pa[l] = tid;
              sh[tid] = sum[t0 + tid];
              run.op(t0 + tid, 0, OpKind::Move, p.sum_row, std::int32_t(t0 + tid), p.shared_row, shared_base + tid);
            }
            run.shared_access(pa, lanes);
            break;
          }
          case Kind::Level: {
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l;
              paths[l] = tid < s;
              pa[l] = tid < s ? tid : -1;
              pb[l] = tid < s ? tid + s : -1;
            }
            reduce::cpu_tree_level(run, c, sh, shared_base, p.shared_row, t0 + first, paths, pa, pb, lanes, t.type);
            break;
          }
          case Kind::Unrolled: {
            reduce::cpu_unrolled_line(run, c, sh, shared_base, p.shared_row, t0, first, s, lanes, t.type);
            break;
          }
          case Kind::Write: {
            for (int l = 0; l < lanes; ++l) {
              paths[l] = first + l == 0;
              pa[l] = first + l == 0 ? 0 : -1;
            }
            run.branch(paths, lanes);
            run.shared_access(pa, lanes);
            if (first != 0) break;
            out[b] = sh[0];
            c.global_write_bytes += 4;
            run.op(t0, 0, OpKind::Move, p.shared_row, shared_base, p.out_row, b);
            break;
          }
        }
      }
    }
    run.end();
  }
  const int total_row = int(t.rows.size()) - 1;
  t.steps.back().label += " = " + format_word(t.row(t.steps.size() - 1, total_row)[0], t.type);
}

}  // namespace primlab::steppers
