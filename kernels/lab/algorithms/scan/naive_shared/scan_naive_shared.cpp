// scan-naive-shared: the plan (one step a launch of scan_naive_shared.cuh's host code and one a
// barrier of its block scan) and the CPU reference, which runs the same kernels warp by warp and
// the host's scan of the block sums between them.
#include <cstring>

#include "lab/algorithms/scan/cpu_scan_steps.h"
#include "lab/algorithms/scan/naive_shared/naive_shared_rows.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab;

// The host code's scan of the block sums, on the words of the trace's element type.
void scan_sums_of_type(std::uint32_t* words, std::int32_t count, ElemType type) {
  auto in_type = [&](auto x) {
    using T = decltype(x);
    std::vector<T> v(static_cast<std::size_t>(count));
    std::memcpy(v.data(), words, v.size() * 4);
    scan_sums_on_host(v.data(), count);
    std::memcpy(words, v.data(), v.size() * 4);
  };
  if (type == ElemType::F32) in_type(float{});
  else if (type == ElemType::U32) in_type(std::uint32_t{});
  else in_type(std::int32_t{});
}
}  // namespace

Result plan_scan_naive_shared(const StepConfig& cfg, Trace& t) {
  const std::int32_t n = cfg.n, B = cfg.block, blocks = plan::div_up(n, B), W = blocks * B;
  t.title = "Naive scan in shared memory, block sums (seed 001)";
  t.width = W;
  t.elems_per_thread = 1;
  const plan::Code code = plan::code(t, "scan-naive-shared");
  plan::standard_rows(t, "d_out", n, cfg.type);
  plan::add_row(t, "d_in", RowKind::Values, n, cfg.type);
  plan::add_row(t, "temp[tid] (shared, first half)", RowKind::Values, W, cfg.type);
  plan::add_row(t, "temp[B + tid] (shared, second half)", RowKind::Values, W, cfg.type);
  plan::add_row(t, "sums (one a block)", RowKind::Values, blocks, cfg.type, false);
  plan::add_row(t, "scanned (the sums, scanned on the host)", RowKind::Values, blocks, cfg.type, false);
  plan::initial_step(t, kNaiveSharedIn);
  plan::add_step(t, "load: temp[tid] = tid > 0 ? in[base + tid - 1] : 0", "load", code.line("load"), blocks, B, W, 1,
                 kNaiveSharedHalf0)
      .explain = "Each block of " + counted(B, "thread") + " loads its elements into the first half of a "
                 "shared buffer, shifted right by one with a 0 in front: the inclusive passes that follow then "
                 "give the exclusive scan of the block.";
  int pout = 0;
  for (std::int32_t offset = 1; offset < B; offset *= 2) {
    pout = 1 - pout;
    const std::string O = std::to_string(offset), to = pout ? "temp[B + tid]" : "temp[tid]",
                      from = pout ? "temp[tid" : "temp[B + tid";
    Step& st = plan::add_step(t, "offset=" + O + ": " + to + " = " + from + "] + " + from + " - " + O + "] for tid >= " +
                                     O + ", else " + from + "]",
                              "sweep", code.line("sweep"), blocks, B, W, 1, kNaiveSharedHalf0 + pout);
    st.barrier = true;
    st.explain = "After a barrier, each thread adds the value offset = " + O + " places to its left (the first " + O +
                 " only copy), reading one half of the shared buffer and writing the other, so no thread reads a "
                 "value another has already overwritten.";
  }
  const bool partial = W > n;  // the last block's last thread has no element, but still writes the block sum
  Step& w = plan::add_step(t, "write: out[base + tid] = temp[pout * B + tid]; tid B - 1: sums[blockIdx.x] = last "
                              "scanned + last input",
                           "write", code.line("write"), blocks, B, n + (partial ? 1 : 0), 3, kNaiveSharedOut);
  w.barrier = true;
  w.explain = "After the last barrier, each block writes its exclusive scan to d_out; its last thread saves the block "
              "sum, the last scanned value plus the last input (the exclusive scan leaves the last element out).";
  if (blocks > 1) {
    Step& add = plan::add_step(t, "add offsets: out[i] += scanned[blockIdx.x], the " + std::to_string(blocks) +
                                      " sums scanned on the host",
                               "add offsets", code.line("add offsets"), blocks, B, n, 1, kNaiveSharedOut);
    add.also_lit.push_back(code.line("add offsets (host)"));
    add.explain = "Between the launches the host copies the " + std::to_string(blocks) +
                  " block sums back, scans them in a loop and copies them over; a second kernel adds each block the "
                  "sum of all blocks before it.";
  }
  if (cfg.inclusive)
    plan::add_step(t, "inclusive: out[i] += in[i] for i < n = " + std::to_string(n), "inclusive",
                   code.line("inclusive"), blocks, B, n, 1, kNaiveSharedOut)
        .explain = "Each element adds its own input to its exclusive sum: the inclusive scan.";
  return {};
}

void cpu_scan_naive_shared(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const std::int32_t n = t.n, B = t.block;
  std::uint32_t* out = run.row(kNaiveSharedOut);
  const std::uint32_t* in = run.row(kNaiveSharedIn);
  std::uint32_t* half[2] = {run.row(kNaiveSharedHalf0), run.row(kNaiveSharedHalf1)};
  std::uint32_t* sums = run.row(kNaiveSharedSums);
  std::uint32_t* scanned = run.row(kNaiveSharedScanned);
  std::copy(input.begin(), input.end(), run.row(kNaiveSharedIn));
  run.snapshot_initial();
  int pout = 0;
  std::int32_t offset = 1;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    const std::string& ph = st.phase;
    if (ph == "add offsets") {
      std::copy(sums, sums + st.launch.blocks, scanned);
      scan_sums_of_type(scanned, st.launch.blocks, t.type);
      scan::elementwise(run, st.launch, n, [&](std::int64_t i) {
        const std::int32_t b = std::int32_t(i / B);
        out[i] = cpu::add_words(out[i], scanned[b], t.type);
        run.op(i, 0, OpKind::Add, kNaiveSharedScanned, b, kNaiveSharedOut, std::int32_t(i));
        c.global_read_bytes += 8;
        c.global_write_bytes += 4;
        c.adds += 1;
      });
    } else if (ph == "inclusive") {
      scan::add_input(run, st.launch, n, t.type);
    } else {
      if (ph == "sweep") pout = 1 - pout;
      const int pin = 1 - pout;
      cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        int paths[32];
        std::int32_t a[32], a2[32], a3[32];
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t tid = first + l, i = b * B + tid;
          if (ph == "load") {
            const bool shifted_in = tid > 0 && i - 1 < n;
            a[l] = tid;
            half[0][i] = shifted_in ? in[i - 1] : 0u;
            run.op(i, 0, shifted_in ? OpKind::Move : OpKind::Write, kNaiveSharedIn, shifted_in ? i - 1 : -1,
                   kNaiveSharedHalf0, i);
            c.global_read_bytes += shifted_in ? 4 : 0;
          } else if (ph == "sweep") {
            paths[l] = tid >= offset;
            a[l] = pin * B + tid;
            a2[l] = tid >= offset ? pin * B + tid - offset : -1;
            a3[l] = pout * B + tid;
            if (tid >= offset) {
              half[pout][i] = cpu::add_words(half[pin][i], half[pin][i - offset], t.type);
              run.op(i, 0, OpKind::Add, kNaiveSharedHalf0 + pin, i - offset, kNaiveSharedHalf0 + pout, i);
              c.adds += 1;
            } else {
              half[pout][i] = half[pin][i];
              run.op(i, 0, OpKind::Move, kNaiveSharedHalf0 + pin, i, kNaiveSharedHalf0 + pout, i);
            }
          } else {  // write
            paths[l] = i < n;
            a[l] = i < n ? pout * B + tid : -1;
            a2[l] = tid == B - 1 ? pout * B + tid : -1;
            if (i < n) {
              out[i] = half[pout][i];
              run.op(i, 0, OpKind::Move, kNaiveSharedHalf0 + pout, i, kNaiveSharedOut, i);
              c.global_write_bytes += 4;
            }
            if (tid == B - 1) {
              sums[b] = cpu::add_words(half[pout][i], i < n ? in[i] : 0u, t.type);
              run.op(i, 1, OpKind::Move, kNaiveSharedHalf0 + pout, i, kNaiveSharedSums, b);
              run.op(i, 2, OpKind::Add, kNaiveSharedIn, i < n ? i : -1, kNaiveSharedSums, b);
              c.adds += 1;
              c.global_read_bytes += i < n ? 4 : 0;
              c.global_write_bytes += 4;
            }
          }
        }
        if (ph == "load") {
          run.shared_access(a, lanes);
        } else if (ph == "sweep") {
          run.branch(paths, lanes);
          run.shared_access(a, lanes);
          run.shared_access(a2, lanes);
          run.shared_access(a3, lanes);
        } else {
          run.branch(paths, lanes);
          run.shared_access(a, lanes);
          for (int l = 0; l < lanes; ++l) paths[l] = first + l == B - 1;
          run.branch(paths, lanes);
          run.shared_access(a2, lanes);
        }
      });
      if (ph == "sweep") offset *= 2;
    }
    run.end();
  }
}

}  // namespace primlab::steppers
