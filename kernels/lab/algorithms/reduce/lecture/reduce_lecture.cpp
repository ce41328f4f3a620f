// The lecture's reductions (seed 004) reduce1..reduce5 and the warp-shuffle reduction: plans,
// listings and the CPU reference. One step per tree level (a block-wide barrier), per unrolled
// warp line of reduce5, per shuffle offset; the counters show what each variant fixes: reduce1
// diverges in every warp, reduce2 trades that for bank conflicts, reduce3 has neither, reduce4
// halves the idle threads, reduce5 drops the last warp's barriers and branches.
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/algorithms/reduce/cpu_tree_steps.h"
#include "lab/algorithms/reduce/reduce_common.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace reduce;

Result plan_reduce(int v, const StepConfig& cfg, Trace& t) {
  const Schedule sc = make_schedule(v, cfg.n, cfg.block);
  if (!sc.error.empty()) return Result::failure(sc.error);
  const char* titles[] = {"",
                          "reduce1: interleaved addressing (divergent branch)",
                          "reduce2: strided index (bank conflicts)",
                          "reduce3: sequential addressing",
                          "reduce4: first add during load",
                          "reduce5: last warp unrolled",
                          "Warp-shuffle reduction"};
  t.title = titles[v];
  t.width = sc.width;
  t.elems_per_thread = sc.epb;
  // Each variant's listing is its timed kernel (reduce_lecture_timed.cu).
  const char* listings[] = {"", "reduce1", "reduce2", "reduce3", "reduce4", "reduce5", "reduce-shuffle"};
  const plan::Code code = plan::code(t, listings[v]);
  plan::standard_rows(t, "x (input)", cfg.n, cfg.type);
  for (const RowSpec& r : sc.rows) plan::add_row(t, r.name, RowKind::Values, r.length, cfg.type, r.element_space);
  plan::initial_step(t);
  for (const RStep& st : sc.steps) {
    const Pass& p = sc.pass[st.pass];
    const std::string pre = st.pass == 1 ? "pass 2 (1 block over " + std::to_string(p.in_len) + " partial sums): " : "";
    const std::string S = std::to_string(st.s), TS = std::to_string(2 * st.s);
    std::string label;
    int line = -1, ops = 1, focus = p.shared_row;
    switch (st.kind) {
      case Kind::Load:
        ops = sc.epb;
        line = code.line("load");
        focus = sc.shuffle() ? p.regs_row : p.shared_row;
        label = sc.epb == 1 ? "load: data[tid] = in[i]"
                            : std::string(sc.shuffle() ? "load: v" : "load: data[tid]") + " = in[i] + in[i+" +
                                  std::to_string(p.B) + "], the first add during the load";
        break;
      case Kind::Level:
        line = code.line("level");
        if (v == kReduce1)
          label = "s=" + S + ": if (tid % " + TS + " == 0) data[tid] += data[tid+" + S + "]";
        else if (v == kReduce2)
          label = "s=" + S + ": index = " + TS + "*tid; if (index < " + std::to_string(p.B) + ") data[index] += data[index+" +
                  S + "]";
        else
          label = "s=" + S + ": if (tid < " + S + ") data[tid] += data[tid+" + S + "]";
        break;
      case Kind::Unrolled: {
        line = code.line("unrolled");
        label = "warp-synchronous s=" + S + ": d[tid] += d[tid+" + S + "] in all " +
                std::to_string(std::min(32, p.B)) + " lanes of warp 0, no barrier";
        break;
      }
      case Kind::Shuffle:
        line = code.line(st.warp0_only ? "shuffle sums" : "shuffle");
        focus = p.regs_row;
        label = std::string(st.warp0_only ? "warp 0 over the warp sums, " : "") + "shuffle d=" + S +
                ": v += __shfl_down_sync(v, " + S + ") from lane + " + S;
        break;
      case Kind::WarpSums:
        line = code.line("warp sums");
        label = "if (lane == 0) warp_sums[warp] = v: " + std::to_string(p.B / 32) + " warp sums a block";
        break;
      case Kind::WarpLoad:
        line = code.line("warp load");
        focus = p.regs_row;
        label = "warp 0: v = lane < " + std::to_string(p.B / 32) + " ? warp_sums[lane] : 0";
        break;
      case Kind::Write:
        line = code.line("write");
        focus = p.out_row;
        label = std::string("if (tid == 0) out[block] = ") + (sc.shuffle() ? "v" : "data[0]") +
                (p.out_row == int(t.rows.size()) - 1 ? ": the sum" : ": " + std::to_string(p.blocks) + " partial sums");
        break;
    }
    const std::int32_t active = p.blocks * active_per_block(sc, st);
    Step& step = plan::add_step(t, pre + label, pre.empty() ? "pass 1" : "pass 2", line, p.blocks, p.B, active, ops, focus);
    step.explain = explain(sc, st);
    step.barrier = st.kind != Kind::Load;  // one kernel a pass: its levels are __syncthreads() apart
  }
  return {};
}

// Runs the planned schedule warp by warp, the way the CUDA stepper's kernels run it.
void cpu_reduce(int v, const std::vector<std::uint32_t>& input, Trace& t) {
  const Schedule sc = make_schedule(v, t.n, t.block);
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  run.snapshot_initial();
  for (std::size_t k = 0; k < sc.steps.size(); ++k) {
    const RStep& st = sc.steps[k];
    const Pass& p = sc.pass[st.pass];
    run.begin(k + 1);
    Counters& c = run.count();
    const std::uint32_t* in = run.row(p.in_row);
    std::uint32_t* out = run.row(p.out_row);
    std::uint32_t* sh = p.shared_row >= 0 ? run.row(p.shared_row) : nullptr;
    std::uint32_t* rg = p.regs_row >= 0 ? run.row(p.regs_row) : nullptr;
    const int s = st.s;
    for (std::int32_t b = 0; b < p.blocks; ++b) {
      const std::int32_t base = b * p.E;
      const std::int64_t t0 = std::int64_t(b) * p.B;
      for (std::int32_t first = 0; first < p.B; first += 32) {
        const int lanes = std::min<std::int32_t>(32, p.B - first);
        int paths[32];
        std::int32_t pa[32], pb[32];
        std::uint32_t nv[32];
        switch (st.kind) {
          case Kind::Load: {
            const int dst_row = sc.shuffle() ? p.regs_row : p.shared_row;
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l, i = base + tid;
              std::uint32_t x = 0;
              if (i < p.in_len) {
                x = in[i];
                c.global_read_bytes += 4;
                run.op(t0 + tid, 0, OpKind::Move, p.in_row, i, dst_row, base + tid);
              } else {
                run.op(t0 + tid, 0, OpKind::Write, p.in_row, -1, dst_row, base + tid);
              }
              if (sc.epb == 2 && i + p.B < p.in_len) {
                x = cpu::add_words(x, in[i + p.B], t.type);
                c.global_read_bytes += 4;
                c.adds += 1;
                run.op(t0 + tid, 1, OpKind::Add, p.in_row, i + p.B, dst_row, base + tid);
              }
              run.row(dst_row)[base + tid] = x;
              pa[l] = tid;
            }
            if (!sc.shuffle()) run.shared_access(pa, lanes);
            break;
          }
          case Kind::Level: {
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l;
              std::int32_t a = tid;
              bool act = tid < s;
              if (v == kReduce1) act = tid % (2 * s) == 0;
              if (v == kReduce2) {
                a = 2 * s * tid;
                act = a < p.B;
              }
              paths[l] = act;
              pa[l] = act ? a : -1;
              pb[l] = act ? a + s : -1;
            }
            cpu_tree_level(run, c, sh + base, base, p.shared_row, t0 + first, paths, pa, pb, lanes, t.type);
            break;
          }
          case Kind::Unrolled: {
            cpu_unrolled_line(run, c, sh + base, base, p.shared_row, t0, first, s, lanes, t.type);
            break;
          }
          case Kind::Shuffle: {
            if (st.warp0_only) {
              for (int l = 0; l < lanes; ++l) paths[l] = first == 0;
              run.branch(paths, lanes);
              if (first != 0) break;
            }
            const int W = st.warp0_only ? 32 : std::min(32, p.B);
            for (int l = 0; l < lanes; ++l) {
              pb[l] = l + s < W ? l + s : l;
              nv[l] = cpu::add_words(rg[base + first + l], rg[base + first + pb[l]], t.type);
            }
            for (int l = 0; l < lanes; ++l) {
              rg[base + first + l] = nv[l];
              c.adds += 1;
              run.op(t0 + first + l, 0, OpKind::Add, p.regs_row, base + first + pb[l], p.regs_row, base + first + l);
            }
            break;
          }
          case Kind::WarpSums: {
            const std::int32_t warp = first / 32;
            for (int l = 0; l < lanes; ++l) {
              paths[l] = l == 0;
              pa[l] = l == 0 ? warp : -1;
            }
            run.branch(paths, lanes);
            run.shared_access(pa, lanes);
            sh[base + warp] = rg[base + first];
            run.op(t0 + first, 0, OpKind::Move, p.regs_row, base + first, p.shared_row, base + warp);
            break;
          }
          case Kind::WarpLoad: {
            for (int l = 0; l < lanes; ++l) paths[l] = first == 0;
            run.branch(paths, lanes);
            if (first != 0) break;
            const std::int32_t nw = p.B / 32;
            for (int l = 0; l < lanes; ++l) pa[l] = l < nw ? l : -1;
            run.shared_access(pa, lanes);
            for (int l = 0; l < lanes; ++l) {
              if (l < nw) {
                rg[base + l] = sh[base + l];
                run.op(t0 + l, 0, OpKind::Move, p.shared_row, base + l, p.regs_row, base + l);
              } else {
                rg[base + l] = 0;
                run.op(t0 + l, 0, OpKind::Write, p.shared_row, -1, p.regs_row, base + l);
              }
            }
            break;
          }
          case Kind::Write: {
            for (int l = 0; l < lanes; ++l) {
              paths[l] = first + l == 0;
              pa[l] = first + l == 0 ? 0 : -1;
            }
            run.branch(paths, lanes);
            if (!sc.shuffle()) run.shared_access(pa, lanes);
            if (first != 0) break;
            const int src_row = sc.shuffle() ? p.regs_row : p.shared_row;
            out[b] = run.row(src_row)[base];
            c.global_write_bytes += 4;
            run.op(t0, 0, OpKind::Move, src_row, base, p.out_row, b);
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
}  // namespace

Result plan_reduce1(const StepConfig& cfg, Trace& t) { return plan_reduce(kReduce1, cfg, t); }
Result plan_reduce2(const StepConfig& cfg, Trace& t) { return plan_reduce(kReduce2, cfg, t); }
Result plan_reduce3(const StepConfig& cfg, Trace& t) { return plan_reduce(kReduce3, cfg, t); }
Result plan_reduce4(const StepConfig& cfg, Trace& t) { return plan_reduce(kReduce4, cfg, t); }
Result plan_reduce5(const StepConfig& cfg, Trace& t) { return plan_reduce(kReduce5, cfg, t); }
Result plan_reduce_shuffle(const StepConfig& cfg, Trace& t) { return plan_reduce(kShuffle, cfg, t); }
void cpu_reduce1(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_reduce(kReduce1, in, t); }
void cpu_reduce2(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_reduce(kReduce2, in, t); }
void cpu_reduce3(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_reduce(kReduce3, in, t); }
void cpu_reduce4(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_reduce(kReduce4, in, t); }
void cpu_reduce5(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_reduce(kReduce5, in, t); }
void cpu_reduce_shuffle(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) {
  cpu_reduce(kShuffle, in, t);
}

}  // namespace primlab::steppers
