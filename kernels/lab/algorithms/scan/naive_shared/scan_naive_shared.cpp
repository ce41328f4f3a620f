// Seed 001's naive scan in shared memory: plan, listing and CPU reference. Each block of B threads
// scans its B elements exclusively in a shared ping-pong buffer temp[2B] (GPU Gems 3's naive scan:
// the load shifts right by one, then offsets 1, 2, 4, ... < B alternate the halves). Block sum =
// last scanned + last input; the host scans the block sums between the launches (the seed's
// cudaMemcpy, CPU loop, cudaMemcpy) and a second kernel adds each block its offset.
#include "lab/algorithms/scan/naive_shared/naive_shared_rows.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
using namespace naive_shared;

Result plan_scan_naive_shared(const StepConfig& cfg, Trace& t) {
  const std::int32_t B = cfg.block, blocks = plan::div_up(cfg.n, B), W = blocks * B;
  t.title = "Naive scan in shared memory, block sums (seed 001)";
  t.width = W;
  t.elems_per_thread = 1;
  const plan::Code code = plan::code(t, "scan-naive-shared");
  plan::standard_rows(t, "x (global)", W, cfg.type);
  plan::add_row(t, "input", RowKind::Values, W, cfg.type);
  plan::add_row(t, "temp[tid] (shared, first half)", RowKind::Values, W, cfg.type);
  plan::add_row(t, "temp[B + tid] (shared, second half)", RowKind::Values, W, cfg.type);
  plan::add_row(t, "block sums", RowKind::Values, blocks, cfg.type, false);
  plan::add_row(t, "scanned block sums (host)", RowKind::Values, blocks, cfg.type, false);
  plan::initial_step(t);
  plan::add_step(t, "load: temp[tid] = tid > 0 ? in[base + tid - 1] : 0", "load", code.line("load"), blocks, B, W, 1,
                 kHalf0)
      .explain = "Each block of " + std::to_string(B) + " threads loads its elements into the first half of a "
                 "shared buffer, shifted right by one with a 0 in front: the inclusive passes that follow then "
                 "give the exclusive scan of the block.";
  int pout = 0;
  for (std::int32_t off = 1; off < B; off *= 2) {
    pout = 1 - pout;
    const std::string O = std::to_string(off);
    Step& st = plan::add_step(t, "offset " + O + ": temp[" + (pout ? "B + " : "") + "tid] = temp[" +
                                     (pout ? "" : "B + ") + "tid] + temp[" + (pout ? "" : "B + ") + "tid - " + O + "]",
                              "sweep", code.line("sweep"), blocks, B, W, 1, kHalf0 + pout);
    st.barrier = true;
    st.explain = "Offset " + O + ": each thread adds the value " + O + " places to its left (the first " + O +
                 " only copy), reading one half of the shared buffer and writing the other, so no thread reads a "
                 "value another has already overwritten.";
  }
  Step& w = plan::add_step(t, "write: out = temp; block sum = last scanned + last input", "write", code.line("write"),
                           blocks, B, W, 3, kRowMain);
  w.barrier = true;
  w.explain = "Each block writes its exclusive scan back to global memory; its last thread saves the block sum, the "
              "last scanned value plus the last input (the exclusive scan leaves the last element out).";
  if (blocks > 1)
    plan::add_step(t, "add offsets: x[i] += scanned[block] (block sums scanned on the host)", "add offsets",
                   code.line("add offsets"), blocks, B, W, 1, kRowMain)
        .explain = "Between the launches the host copies the " + std::to_string(blocks) +
                   " block sums back, scans them in a loop and copies them over; a second kernel adds each block the "
                   "sum of all blocks before it.";
  if (cfg.inclusive)
    plan::add_step(t, "inclusive: x[i] += in[i]", "inclusive", code.line("inclusive"), blocks, B, W, 1, kRowMain)
        .explain = "Each element adds its own input to its exclusive sum: the inclusive scan.";
  return {};
}

void cpu_scan_naive_shared(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const std::int32_t B = t.block, W = t.rows[kRowMain].length, blocks = W / B;
  std::uint32_t* x = run.row(kRowMain);
  std::uint32_t* in = run.row(kInput);
  std::uint32_t* half[2] = {run.row(kHalf0), run.row(kHalf1)};
  std::uint32_t* sums = run.row(kSums);
  std::uint32_t* scanned = run.row(kScanned);
  std::copy(input.begin(), input.end(), x);
  std::copy(input.begin(), input.end(), in);
  run.snapshot_initial();
  int pout = 0;
  std::int32_t off = 1;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    const std::string& ph = st.phase;
    if (ph == "sweep") pout = 1 - pout;
    if (ph == "add offsets") scan_sums_on_host(sums, scanned, blocks, t.type);
    const int pin = 1 - pout;
    cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      int paths[32];
      std::int32_t a[32], a2[32], a3[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t tid = first + l, i = b * B + tid, thread = i;
        if (ph == "load") {
          paths[l] = tid > 0;
          a[l] = tid;
          if (tid > 0) {
            half[0][i] = x[i - 1];
            run.op(thread, 0, OpKind::Move, kRowMain, i - 1, kHalf0, i);
            c.global_read_bytes += 4;
          } else {
            half[0][i] = 0;
            run.op(thread, 0, OpKind::Write, kHalf0, -1, kHalf0, i);
          }
        } else if (ph == "sweep") {
          paths[l] = tid >= off;
          a[l] = pin * B + tid;
          a2[l] = tid >= off ? pin * B + tid - off : -1;
          a3[l] = pout * B + tid;
          if (tid >= off) {
            half[pout][i] = cpu::add_words(half[pin][i], half[pin][i - off], t.type);
            run.op(thread, 0, OpKind::Add, kHalf0 + pin, i - off, kHalf0 + pout, i);
            c.adds += 1;
          } else {
            half[pout][i] = half[pin][i];
            run.op(thread, 0, OpKind::Move, kHalf0 + pin, i, kHalf0 + pout, i);
          }
        } else if (ph == "write") {
          paths[l] = tid == B - 1;
          a[l] = pout * B + tid;
          x[i] = half[pout][i];
          run.op(thread, 0, OpKind::Move, kHalf0 + pout, i, kRowMain, i);
          c.global_write_bytes += 4;
          if (tid == B - 1) {
            sums[b] = cpu::add_words(half[pout][i], in[i], t.type);
            run.op(thread, 1, OpKind::Move, kHalf0 + pout, i, kSums, b);
            run.op(thread, 2, OpKind::Add, kInput, i, kSums, b);
            c.adds += 1;
            c.global_read_bytes += 4;
            c.global_write_bytes += 4;
          }
        } else {
          paths[l] = 1;
          const bool inc = ph == "inclusive";
          x[i] = cpu::add_words(x[i], inc ? in[i] : scanned[b], t.type);
          run.op(thread, 0, OpKind::Add, inc ? kInput : kScanned, inc ? i : b, kRowMain, i);
          c.adds += 1;
          c.global_read_bytes += 8;
          c.global_write_bytes += 4;
        }
      }
      if (ph != "add offsets" && ph != "inclusive") run.branch(paths, lanes);
      if (ph == "load" || ph == "write") run.shared_access(a, lanes);
      if (ph == "write") {
        std::int32_t last[32];
        for (int l = 0; l < lanes; ++l) last[l] = first + l == B - 1 ? pout * B + B - 1 : -1;
        run.shared_access(last, lanes);
      }
      if (ph == "sweep") {
        run.shared_access(a, lanes);
        run.shared_access(a2, lanes);
        run.shared_access(a3, lanes);
      }
    });
    if (ph == "sweep") off *= 2;
    run.end();
  }
}

}  // namespace primlab::steppers

namespace primlab::steppers::naive_shared {
void scan_sums_on_host(const std::uint32_t* sums, std::uint32_t* scanned, std::int32_t blocks, ElemType type) {
  std::uint32_t acc = 0;
  for (std::int32_t b = 0; b < blocks; ++b) {
    scanned[b] = acc;
    acc = cpu::add_words(acc, sums[b], type);
  }
}
}  // namespace primlab::steppers::naive_shared
