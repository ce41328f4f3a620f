// histogram-shared: the plan (the one launch of histogram_shared.cuh's host code, three steps
// __syncthreads() apart: clear, count, merge) and the CPU reference, which runs
// shared_atomic_kernel's loops warp by warp. Atomic order is not determined; the bins, each block's
// s_hist, the counters and the rows of every sample are.
#include "lab/algorithms/histogram/histogram_reference.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
using namespace lab;

Result plan_histogram_shared(const StepConfig& cfg, Trace& t) {
  if (Result r = histogram::check_config(cfg); !r.ok()) return r;
  const histogram::Grid g = histogram::grid(cfg.n, cfg.block, shared_max_blocks(cfg.bins));
  const std::string B = std::to_string(cfg.bins), blocks = std::to_string(g.blocks);
  t.title = "Histogram: per-block shared-memory histograms";
  const plan::Code code = plan::code(t, "histogram-shared");
  histogram::sample_rows(t, cfg, g.blocks * cfg.bins, "b = in[i] mod " + B);
  plan::add_row(t, "s_hist of each block (shared, block-major)", RowKind::Values, g.blocks * cfg.bins, ElemType::U32,
                false);
  plan::initial_step(t, kHist);
  const std::int32_t iters = plan::div_up(cfg.bins, g.block);
  const std::int32_t active = g.blocks * std::min(g.block, cfg.bins);
  plan::add_step(t, "clear: s_hist[i] = 0, i = tid, tid + " + std::to_string(g.block) + ", ... < " + B + ", " +
                        (g.blocks == 1 ? std::string("in the one block") : "in each of the " + blocks + " blocks"),
                 "clear", code.line("clear"), g.blocks, g.block, active, iters, kSharedBlockHist)
      .explain = "One kernel of " + counted(g.blocks, "block") + ". Each block clears its own histogram s_hist in shared memory, "
                 "a bin per thread.";
  Step& count = plan::add_step(t, "count: atomicAdd(&s_hist[b], 1u) in shared memory, b = in[i] mod " + B + ", " +
                                      histogram::sample_range(g),
                               "count", code.line("count"), g.blocks, g.block, g.active(), g.trips, kSharedBlockHist);
  count.barrier = true;
  count.explain = "After __syncthreads(), thread i adds 1 to the bin b of its sample in[i] (then of in[i + T], ... for "
                  "T threads) in its block's s_hist with a shared-memory atomicAdd. Shared atomics are fast, and only "
                  "the lanes of one block collide.";
  Step& merge = plan::add_step(t, "merge: if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]), one global atomic per "
                                  "nonzero bin and block",
                               "merge", code.line("merge"), g.blocks, g.block, active, iters, kHist);
  merge.barrier = true;
  merge.explain = "After __syncthreads(), each block adds its s_hist into the global bins hist: one global atomic per "
                  "bin and block that counted anything, instead of one per sample.";
  return {};
}

void cpu_histogram_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  histogram::load_samples(run, input);
  run.snapshot_initial();
  const histogram::Grid g = histogram::grid(cfg.n, cfg.block, shared_max_blocks(cfg.bins));
  const std::int32_t P = cfg.bins;
  std::uint32_t* hist = run.row(kHist);
  std::uint32_t* s_hist = run.row(kSharedBlockHist);
  // The loop `for (i = tid; i < bins; i += blockDim.x)` of one warp; f(lane, i, iteration).
  auto bin_loop = [&](std::int32_t first, int lanes, auto f) {
    histogram::strided_loop(run, first, lanes, g.block, P, [&](int k, const std::int64_t* i) {
      std::int32_t a[32];
      for (int l = 0; l < lanes; ++l) a[l] = std::int32_t(i[l]);
      run.shared_access(a, lanes);
      f(a, k);
    });
  };
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      const std::int64_t thread0 = std::int64_t(b) * g.block + first;
      std::uint32_t* block_hist = s_hist + b * P;
      if (st.phase == "clear") {
        bin_loop(first, lanes, [&](const std::int32_t* i, int k) {
          for (int l = 0; l < lanes; ++l) {
            if (i[l] < 0) continue;
            block_hist[i[l]] = 0;
            run.op(thread0 + l, k, OpKind::Write, kSharedBlockHist, -1, kSharedBlockHist, b * P + i[l]);
          }
        });
      } else if (st.phase == "count") {
        histogram::strided_loop(run, thread0, lanes, g.threads(), g.n, [&](int trip, const std::int64_t* i) {
          std::int32_t bin[32];
          histogram::read_samples(run, i, lanes, P, bin);
          run.shared_access(bin, lanes);
          for (int l = 0; l < lanes; ++l) {
            if (i[l] < 0) continue;
            block_hist[bin[l]] += 1;
            run.op(thread0 + l, trip, OpKind::Atomic, kHistIn, std::int32_t(i[l]), kSharedBlockHist, b * P + bin[l]);
            run.count().atomics += 1;
          }
        });
      } else {
        bin_loop(first, lanes, [&](const std::int32_t* i, int k) {
          int nonzero[32], live = 0;
          for (int l = 0; l < lanes; ++l)
            if (i[l] >= 0) nonzero[live++] = block_hist[i[l]] != 0;
          run.branch(nonzero, live);
          for (int l = 0; l < lanes; ++l) {
            if (i[l] < 0 || block_hist[i[l]] == 0) continue;
            hist[i[l]] += block_hist[i[l]];
            run.op(thread0 + l, k, OpKind::Atomic, kSharedBlockHist, b * P + i[l], kHist, i[l]);
            run.count().atomics += 1;
          }
        });
      }
    });
    run.end();
  }
}

}  // namespace primlab::steppers
