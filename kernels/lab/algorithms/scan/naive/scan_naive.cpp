// scan-naive: the plan (one step a launch of scan_naive.cuh's host code) and the CPU reference,
// which runs the same launches warp by warp. The rows are the host code's arrays: d_out (the
// result), d_in and the workspace tmp. The launches ping-pong between d_out and tmp, starting with
// the one that makes the last launch write d_out; each step shows the buffer its launch writes,
// and reads the one the launch before wrote (the first reads d_in).
#include "lab/algorithms/scan/cpu_scan_steps.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kDOut = kRowMain, kDIn = kStdRows, kTmp };

const char* name_of(int row) { return row == kDOut ? "d_out" : row == kDIn ? "d_in" : "tmp"; }
}  // namespace

Result plan_scan_naive(const StepConfig& cfg, Trace& t) {
  const std::int32_t n = cfg.n, B = cfg.block, blocks = plan::div_up(n, B);
  t.title = "Naive scan (Hillis-Steele)";
  t.width = n;
  t.elems_per_thread = 1;
  const plan::Code code = plan::code(t, "scan-naive");
  plan::standard_rows(t, "d_out", n, cfg.type);
  plan::add_row(t, "d_in", RowKind::Values, n, cfg.type);
  plan::add_row(t, "tmp (workspace)", RowKind::Values, n, cfg.type);
  plan::initial_step(t, kDIn);
  int launches = cfg.inclusive ? 0 : 1;
  for (std::int32_t offset = 1; offset < n; offset *= 2) ++launches;
  int in = kDIn, out = launches % 2 == 1 ? kDOut : kTmp;
  const std::string ping = std::string(", in = ") + name_of(in) + ", out = " + name_of(out);
  if (!cfg.inclusive) {
    plan::add_step(t, "shift: out[i] = i > 0 ? in[i - 1] : 0" + ping, "shift", code.line("shift"), blocks, B, n, 1,
                   out)
        .explain = std::string("Every element moves one place right into ") + name_of(out) +
                   " and element 0 becomes 0: the inclusive passes that follow then sum only the elements before "
                   "each position, which is the exclusive scan.";
    in = out;
    out = out == kDOut ? kTmp : kDOut;
  }
  for (std::int32_t offset = 1; offset < n; offset *= 2) {
    const std::string O = std::to_string(offset);
    plan::add_step(t, "offset=" + O + ": out[i] = in[i] + in[i - " + O + "] for i >= " + O + ", else in[i]" +
                          ", in = " + name_of(in) + ", out = " + name_of(out),
                   "sweep", code.line("sweep"), blocks, B, n, 1, out)
        .explain = "Each element adds the value offset = " + O + " places to its left (the first " + O +
                   " only copy), so element i now sums up to " + std::to_string(2 * offset) +
                   " values ending at i. The launch reads " + name_of(in) + " and writes " + name_of(out) +
                   ": no thread reads a value another has already overwritten. Every element works every pass: "
                   "O(n log n) adds.";
    in = out;
    out = out == kDOut ? kTmp : kDOut;
  }
  return {};
}

void cpu_scan_naive(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kDIn));
  if (t.steps.size() == 1) std::copy(input.begin(), input.end(), run.row(kDOut));  // the host code's copy
  run.snapshot_initial();
  int read = kDIn;
  std::int32_t offset = 1;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    const int write = st.focus_row;
    const std::uint32_t* in = run.row(read);
    std::uint32_t* out = run.row(write);
    Counters& c = run.count();
    if (st.phase == "shift") {
      scan::elementwise(run, st.launch, t.n, [&](std::int64_t k) {
        const std::int32_t i = std::int32_t(k);
        out[i] = i > 0 ? in[i - 1] : 0u;
        run.op(i, 0, i > 0 ? OpKind::Move : OpKind::Write, read, i > 0 ? i - 1 : -1, write, i);
        c.global_read_bytes += i > 0 ? 4 : 0;
        c.global_write_bytes += 4;
      });
    } else {
      scan::elementwise(run, st.launch, t.n, [&](std::int64_t k) {
        const std::int32_t i = std::int32_t(k);
        out[i] = i >= offset ? cpu::add_words(in[i], in[i - offset], t.type) : in[i];
        run.op(i, 0, i >= offset ? OpKind::Add : OpKind::Move, read, i >= offset ? i - offset : i, write, i);
        c.global_read_bytes += i >= offset ? 8 : 4;
        c.global_write_bytes += 4;
        c.adds += i >= offset ? 1 : 0;
      });
      offset *= 2;
    }
    read = write;
    run.end();
  }
}

}  // namespace primlab::steppers
