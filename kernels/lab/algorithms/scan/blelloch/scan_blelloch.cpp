// scan-blelloch: the plan (one step a launch of scan_blelloch.cuh's host code) and the CPU
// reference, which runs the same launches warp by warp. The rows are the code's arrays: buf, the
// input padded with zeros to a power of two m, and in.
#include "lab/algorithms/scan/cpu_scan_steps.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kBuf = kRowMain, kIn = kStdRows };

std::int32_t padded_width(std::int32_t n) { return plan::next_pow2(std::max(n, 2)); }

std::string level_range(std::int32_t count) { return "k = 0.." + std::to_string(count - 1); }
}  // namespace

Result plan_scan_blelloch(const StepConfig& cfg, Trace& t) {
  const std::int32_t n = cfg.n, B = cfg.block, m = padded_width(n);
  const std::string M = std::to_string(m);
  t.title = "Work-efficient scan (Blelloch)";
  t.width = m;
  t.elems_per_thread = 2;
  const plan::Code code = plan::code(t, "scan-blelloch");
  plan::standard_rows(t, "buf (in padded to m = " + M + ")", m, cfg.type);
  plan::add_row(t, "in", RowKind::Values, n, cfg.type);
  plan::initial_step(t, kIn);
  plan::add_step(t, "copy: buf[i] = i < n ? in[i] : 0 for i < m = " + M, "copy", code.line("copy"),
                 plan::div_up(m, B), B, m, 1)
      .explain = "The scan runs in place on a copy of the input padded with zeros (the identity of +) to m = " + M +
                 ", a power of two, so that every level of the tree is complete.";
  for (std::int32_t d = 1; d < m / 2; d *= 2) {
    const std::int32_t count = m / (2 * d);
    const std::string D = std::to_string(d), R = std::to_string(2 * d) + "k + " + std::to_string(2 * d - 1);
    plan::add_step(t, "up-sweep d=" + D + ": buf[right] += buf[right - " + D + "], right = " + R + ", " +
                          level_range(count),
                   "up-sweep", code.line("up-sweep"), plan::div_up(count, B), B, count, 1)
        .explain = "Up-sweep with stride d = " + D + ": " + counted(count, "thread") +
                   " each add the left child buf[right - d] into the right child buf[right]; buf[right] "
                   "now holds the sum of its " + std::to_string(2 * d) + " leaves. Each level halves the threads. "
                   "The root's own level is skipped: the down-sweep clears the root anyway.";
  }
  for (std::int32_t d = m / 2; d >= 1; d /= 2) {
    const std::int32_t count = m / (2 * d);
    const bool root = d == m / 2;
    const std::string D = std::to_string(d), R = std::to_string(2 * d) + "k + " + std::to_string(2 * d - 1);
    Step& st = plan::add_step(t,
                              "down-sweep d=" + D + ": " + (root ? "buf[" + std::to_string(m - 1) + "] = 0, then " : "") +
                                  "left = buf[right - " + D + "]; buf[right - " + D + "] = buf[right]; buf[right] += "
                                  "left, right = " + R + ", " + level_range(count),
                              "down-sweep", code.line("down-sweep"), plan::div_up(count, B), B, count, root ? 3 : 2);
    if (root) st.also_lit.push_back(code.line("root"));
    st.explain = std::string(root ? "Thread 0 first clears the root to 0, the identity. " : "") +
                 "Down-sweep with stride d = " + D + ": " + counted(count, "thread") +
                 " each move buf[right] (the sum of everything left of the subtree) into the left child and "
                 "add the left child's old sum into the right child. Each level doubles the threads.";
  }
  if (cfg.inclusive)
    plan::add_step(t, "inclusive: out[i] += in[i] for i < n = " + std::to_string(n) + ", out = buf", "inclusive",
                   code.line("inclusive"),
                   plan::div_up(n, B), B, n, 1)
        .explain = "Each element adds its own input to its exclusive sum: the inclusive scan.";
  return {};
}

void cpu_scan_blelloch(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  std::uint32_t* buf = run.row(kBuf);
  std::uint32_t* in = run.row(kIn);
  std::copy(input.begin(), input.end(), in);
  run.snapshot_initial();
  const std::int32_t m = t.width;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    const std::int32_t count = st.launch.active;
    if (st.phase == "copy") {
      scan::elementwise(run, st.launch, count, [&](std::int64_t i) {
        buf[i] = i < t.n ? in[i] : 0u;
        run.op(i, 0, i < t.n ? OpKind::Move : OpKind::Write, kIn, i < t.n ? std::int32_t(i) : -1, kBuf, std::int32_t(i));
        c.global_read_bytes += i < t.n ? 4 : 0;
        c.global_write_bytes += 4;
      });
    } else if (st.phase == "inclusive") {
      scan::add_input(run, st.launch, t.n, t.type);
    } else {
      const std::int32_t d = m / (2 * count);
      const bool root_level = st.phase == "down-sweep" && d == m / 2;
      scan::elementwise(run, st.launch, count, [&](std::int64_t k) {
        const std::int32_t right = std::int32_t((k + 1) * 2 * d - 1), left = right - d;
        if (st.phase == "up-sweep") {
          buf[right] = cpu::add_words(buf[right], buf[left], t.type);
          run.op(k, 0, OpKind::Add, kBuf, left, kBuf, right);
          c.global_write_bytes += 4;
        } else {
          if (root_level && k == 0) {
            buf[right] = 0;
            run.op(k, 2, OpKind::Write, kBuf, -1, kBuf, right);
            c.global_write_bytes += 4;
          }
          const std::uint32_t old_left = buf[left];
          buf[left] = buf[right];
          buf[right] = cpu::add_words(buf[right], old_left, t.type);
          run.op(k, 0, OpKind::Move, kBuf, right, kBuf, left);
          run.op(k, 1, OpKind::Add, kBuf, left, kBuf, right);
          c.global_write_bytes += 8;
        }
        c.global_read_bytes += 8;
        c.adds += 1;
      });
      if (st.phase == "down-sweep")
        scan::live_branch(run, st.launch, count, [&](std::int64_t k) { return root_level && k == 0; });
    }
    run.end();
  }
}

}  // namespace primlab::steppers
