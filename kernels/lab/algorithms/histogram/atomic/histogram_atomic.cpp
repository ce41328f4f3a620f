// histogram-atomic: the plan (one step, the one launch of histogram_atomic.cuh's host code) and the
// CPU reference, which runs global_atomic_kernel's grid-stride loop warp by warp. Atomic order is
// not determined; the bins, the counters and the rows of every sample are.
#include "lab/algorithms/histogram/histogram_reference.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
using namespace lab;

Result plan_histogram_atomic(const StepConfig& cfg, Trace& t) {
  if (Result r = histogram::check_config(cfg); !r.ok()) return r;
  const histogram::Grid g = histogram::grid(cfg.n, cfg.block, kTimedMaxBlocks);
  t.title = "Histogram: global atomicAdd";
  const plan::Code code = plan::code(t, "histogram-atomic");
  const std::string B = std::to_string(cfg.bins);
  histogram::sample_rows(t, cfg, cfg.n, "b = in[i] mod " + B);
  plan::initial_step(t, kHist);
  plan::add_step(t, "count: atomicAdd(&hist[b], 1u), b = in[i] mod " + B + ", " + histogram::sample_range(g), "count",
                 code.line("count"), g.blocks, g.block, g.active(), g.trips, kHist)
      .explain = "One kernel of " + counted(g.blocks, "block") + ": thread i adds 1 to hist[b], the bin of its "
                 "sample in[i], with atomicAdd in global memory (then to the bins of in[i + T], in[i + 2T], ... for "
                 "T threads). Atomics on one address serialise: the lanes of a warp whose samples share a bin wait "
                 "for each other (the row 'lanes on the same bin').";
  return {};
}

void cpu_histogram_atomic(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  histogram::load_samples(run, input);
  run.snapshot_initial();
  const histogram::Grid g = histogram::grid(cfg.n, cfg.block, kTimedMaxBlocks);
  std::uint32_t* hist = run.row(kHist);
  run.begin(1);
  cpu::for_each_warp(t.steps[1].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
    const std::int64_t thread0 = std::int64_t(b) * g.block + first;
    histogram::strided_loop(run, thread0, lanes, g.threads(), g.n, [&](int trip, const std::int64_t* i) {
      std::int32_t bin[32];
      histogram::read_samples(run, i, lanes, cfg.bins, bin);
      for (int l = 0; l < lanes; ++l) {
        if (i[l] < 0) continue;
        hist[bin[l]] += 1;
        run.op(thread0 + l, trip, OpKind::Atomic, kHistIn, std::int32_t(i[l]), kHist, bin[l]);
        run.count().atomics += 1;
      }
    });
  });
  run.end();
}

}  // namespace primlab::steppers
