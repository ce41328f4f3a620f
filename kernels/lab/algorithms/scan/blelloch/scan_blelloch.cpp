// Work-efficient Blelloch scan in global memory: plan, listing and CPU reference. One launch per
// up-sweep level, one to clear the last element, one per down-sweep level; a non-power-of-two n
// is padded with zeros (the identity) up to the next power of two, and the padding is shown.
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kInput = kStdRows };
}  // namespace

Result plan_scan_blelloch(const StepConfig& cfg, Trace& t) {
  const std::int32_t n = cfg.n, B = cfg.block, W = plan::next_pow2(n);
  const int L = plan::log2_floor(W);
  t.title = "Work-efficient scan (Blelloch)";
  t.width = W;
  t.elems_per_thread = 2;
  const plan::Code code = plan::code(t, "scan-blelloch");
  plan::standard_rows(t, "x", W, cfg.type);
  plan::add_row(t, "input", RowKind::Values, W, cfg.type);
  plan::initial_step(t);
  for (int d = 1; d <= L; ++d) {
    const std::int32_t active = W >> d;
    plan::add_step(t,
                   "up-sweep d=" + std::to_string(d) + ": x[k+" + std::to_string((1 << d) - 1) + "] += x[k+" +
                       std::to_string((1 << (d - 1)) - 1) + "]",
                   "up-sweep", code.line("up-sweep"), plan::div_up(active, B), B, active, 1)
        .explain = "Up-sweep level " + std::to_string(d) + ": " + std::to_string(active) +
                   " threads each add a left child into its right sibling, so every node at this level holds the sum "
                   "of its " + std::to_string(1 << d) + " leaves. The tree of partial sums is built in place; half "
                   "as many threads work at each level.";
  }
  plan::add_step(t, "clear last: x[" + std::to_string(W - 1) + "] = 0", "clear", code.line("clear"), 1, 1, 1, 1)
      .explain = "The root, which holds the total, is cleared to 0: the down-sweep pushes this zero and the partial "
                 "sums back down the tree, so each element ends with the sum of everything to its left.";
  for (int d = L; d >= 1; --d) {
    const std::int32_t active = W >> d;
    plan::add_step(t,
                   "down-sweep d=" + std::to_string(d) + ": swap x[k+" + std::to_string((1 << (d - 1)) - 1) +
                       "], x[k+" + std::to_string((1 << d) - 1) + "] and add",
                   "down-sweep", code.line("down-sweep"), plan::div_up(active, B), B, active, 2)
        .explain = "Down-sweep level " + std::to_string(d) + ": " + std::to_string(active) +
                   " threads each swap and add: the left child takes its parent's value (the sum of everything "
                   "left of the subtree) and the right child gets the parent plus the left child's old sum.";
  }
  if (cfg.inclusive)
    plan::add_step(t, "inclusive: x[i] += in[i]", "inclusive", code.line("inclusive"), plan::div_up(n, B), B, n, 1)
        .explain = "Each element adds its own input to its exclusive sum: the inclusive scan.";
  return {};
}

void cpu_scan_blelloch(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  std::uint32_t* x = run.row(kRowMain);
  std::copy(input.begin(), input.end(), x);
  std::copy(input.begin(), input.end(), run.row(kInput));
  run.snapshot_initial();
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    if (st.phase == "clear") {
      x[t.width - 1] = 0;
      run.op(0, 0, OpKind::Write, kRowMain, -1, kRowMain, t.width - 1);
      c.global_write_bytes += 4;
      run.end();
      continue;
    }
    const std::int32_t active = st.launch.active;
    const std::int32_t stride = active > 0 ? t.width / active : 0;
    cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      int paths[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t k = b * t.block + first + l;
        paths[l] = k < active;
        if (k >= active) continue;
        if (st.phase == "inclusive") {
          x[k] = cpu::add_words(x[k], run.row(kInput)[k], t.type);
          run.op(k, 0, OpKind::Add, kInput, k, kRowMain, k);
          c.global_read_bytes += 8;
          c.global_write_bytes += 4;
          c.adds += 1;
          continue;
        }
        const std::int32_t left = k * stride + stride / 2 - 1, right = k * stride + stride - 1;
        if (st.phase == "up-sweep") {
          x[right] = cpu::add_words(x[right], x[left], t.type);
          run.op(k, 0, OpKind::Add, kRowMain, left, kRowMain, right);
          c.global_write_bytes += 4;
        } else {
          const std::uint32_t tmp = x[left];
          x[left] = x[right];
          x[right] = cpu::add_words(x[right], tmp, t.type);
          run.op(k, 0, OpKind::Move, kRowMain, right, kRowMain, left);
          run.op(k, 1, OpKind::Add, kRowMain, left, kRowMain, right);
          c.global_write_bytes += 8;
        }
        c.global_read_bytes += 8;
        c.adds += 1;
      }
      run.branch(paths, lanes);
    });
    run.end();
  }
}

}  // namespace primlab::steppers
