// Naive Hillis–Steele scan: plan, listing and CPU reference. One launch per offset 1, 2, 4, …
// over ping-pong buffers; the exclusive scan first shifts the input right by one.
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kReadBuf = kStdRows, kInput };
}  // namespace

Result plan_scan_naive(const StepConfig& cfg, Trace& t) {
  const std::int32_t n = cfg.n, B = cfg.block, blocks = plan::div_up(n, B);
  t.title = "Naive scan (Hillis-Steele)";
  t.width = n;
  t.elems_per_thread = 1;
  const plan::Code code = plan::code(t, "scan-naive");
  plan::standard_rows(t, "out buffer", n, cfg.type);
  plan::add_row(t, "in buffer", RowKind::Values, n, cfg.type);
  plan::add_row(t, "input", RowKind::Values, n, cfg.type);
  plan::initial_step(t);
  if (!cfg.inclusive)
    plan::add_step(t, "shift right: out[i] = in[i-1], out[0] = 0", "shift", code.line("shift"), blocks, B, n, 1)
        .explain = "Every element moves one place right and element 0 becomes 0: the inclusive passes that follow "
                   "then sum only the elements before each position, which is the exclusive scan.";
  for (std::int32_t off = 1; off < n; off *= 2) {
    const std::string O = std::to_string(off);
    plan::add_step(t, "offset " + O + ": out[i] = in[i] + in[i-" + O + "]", "sweep", code.line("sweep"), blocks, B, n, 1)
        .explain = "Each element adds the value " + O + " places to its left (the first " + O +
                   " only copy), so element i now sums up to " + std::to_string(2 * off) +
                   " values ending at i. The result goes to the other buffer: no thread reads a value another has "
                   "already overwritten. Every element works every pass: O(n log n) adds.";
  }
  return {};
}

void cpu_scan_naive(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const std::int32_t n = t.n;
  for (int r : {int(kRowMain), int(kReadBuf), int(kInput)}) std::copy(input.begin(), input.end(), run.row(r));
  run.snapshot_initial();
  std::uint32_t* out = run.row(kRowMain);
  std::uint32_t* in = run.row(kReadBuf);
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    std::copy(out, out + n, in);  // ping-pong: this step reads what the last one wrote
    const bool shift = t.steps[s].phase == "shift";
    const std::int32_t off = shift ? 0 : 1 << (s - 1 - (cfg.inclusive ? 0 : 1));
    cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      int paths[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t i = b * t.block + first + l;
        paths[l] = i >= n ? 0 : shift ? 1 : (i >= off ? 1 : 2);
        if (i >= n) continue;
        Counters& c = run.count();
        if (shift) {
          if (i > 0) {
            out[i] = in[i - 1];
            run.op(i, 0, OpKind::Move, kReadBuf, i - 1, kRowMain, i);
            c.global_read_bytes += 4;
          } else {
            out[i] = 0;
            run.op(i, 0, OpKind::Write, kReadBuf, -1, kRowMain, i);
          }
        } else if (i >= off) {
          out[i] = cpu::add_words(in[i], in[i - off], t.type);
          run.op(i, 0, OpKind::Add, kReadBuf, i - off, kRowMain, i);
          c.global_read_bytes += 8;
          c.adds += 1;
        } else {
          out[i] = in[i];
          run.op(i, 0, OpKind::Move, kReadBuf, i, kRowMain, i);
          c.global_read_bytes += 4;
        }
        c.global_write_bytes += 4;
      }
      run.branch(paths, lanes);
    });
    run.end();
  }
}

}  // namespace primlab::steppers
