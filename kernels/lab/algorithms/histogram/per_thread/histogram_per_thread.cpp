// The lecture's histogram without atomics (seed 004, "fewer than 64 groups"): each of a block's 64
// threads counts into its own 64 byte counters in shared memory, so no two threads ever write one
// counter. Plan, listing and CPU reference.
//
// The counters are laid out tid*64+data (a thread's counters side by side: which banks a warp hits
// depends on the data) or tid+64*data (the threads' counters of one bin side by side: the bank
// follows the thread), and the thread index may be permuted, tid = (x >> 4) | ((x & 0x0F) << 2),
// so that the 4 byte counters of one 32-bit word belong to threads 16 lanes apart. Banks are 32
// words of 4 bytes: lanes on one word do not conflict, lanes on different words of one bank do.
// With tid+64*data a warp hits at most 4 words of a bank unpermuted, 2 permuted (the lecture's 16
// banks, served by half-warps, saw none).
//
// Steps: clear the counters, one step per round of the grid-stride loop (s_hist[pos]++), the block
// merge (thread `bin` sums the 64 threads' counters of its bin into the block's partial histogram)
// and a merge kernel over the blocks' partial histograms.
#include <algorithm>

#include "lab/algorithms/histogram/per_thread/per_thread_shape.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
using namespace per_thread;

Result plan_histogram_per_thread(const StepConfig& cfg, Trace& t) {
  if (cfg.block != kThreads) return Result::failure("the per-thread histogram runs blocks of exactly 64 threads");
  if (cfg.bins < 2 || cfg.bins > kMaxBins)
    return Result::failure("the per-thread histogram takes 2 to 64 bins (got " + std::to_string(cfg.bins) + ")");
  if (cfg.type == ElemType::F32) return Result::failure("histograms take int32 or uint32 samples");
  if (cfg.variant < 0 || cfg.variant > 3)
    return Result::failure("the per-thread histogram's variant must be 0 to 3 (layout, thread permutation)");
  const Shape g = shape(cfg);
  const Variant v = variant_of(cfg.variant);
  t.title = std::string("Histogram without atomics: per-thread counters, ") + layout_name(v);
  const plan::Code code = plan::code(t, "histogram-per-thread");
  t.width = std::max(cfg.n, g.blocks * kCells);
  t.elems_per_thread = 1;
  plan::standard_rows(t, "x (input)", cfg.n, cfg.type);
  plan::add_row(t, "data = x mod " + std::to_string(g.bins), RowKind::Index, cfg.n, ElemType::I32);
  plan::add_row(t, std::string("per-thread counters (shared bytes, ") + (v.spread ? "tid+64*data" : "tid*64+data") +
                       ", block-major)",
                RowKind::Values, g.blocks * kCells, ElemType::U32, false);
  plan::add_row(t, "partial histograms (block-major)", RowKind::Values, g.blocks * g.bins, ElemType::U32, false);
  plan::add_row(t, "bins", RowKind::Values, g.bins, ElemType::U32, false);
  plan::initial_step(t, kBins);
  plan::add_step(t, "clear: s_hist[j] = 0 for the 64 x 64 counters of every block", "clear", code.line("clear"),
                 g.blocks, kThreads, g.blocks * kThreads, kCells / kThreads, kCounters)
      .explain = "Each block clears its 4096 byte counters in shared memory: 64 per thread, one per possible bin.";
  const std::string tid = v.permute ? "tid = (x >> 4) | ((x & 0x0F) << 2), " : "tid = x, ";
  for (std::int32_t r = 0; r < g.rounds; ++r) {
    const std::int64_t lo = std::int64_t(r) * g.threads(), hi = std::min<std::int64_t>(lo + g.threads(), g.n);
    Step& st = plan::add_step(t, "round " + std::to_string(r) + " (x[" + std::to_string(lo) + ".." +
                                     std::to_string(hi - 1) + "]): " + tid + "s_hist[" +
                                     (v.spread ? "tid+64*data" : "tid*64+data") + "]++",
                              "count", code.line("count"), g.blocks, kThreads, std::int32_t(hi - lo), 1, kCounters);
    st.barrier = true;
    st.explain = "Round " + std::to_string(r) + " of the grid-stride loop covers " + std::to_string(hi - lo) +
                 " samples: each thread adds 1 to its own counter of the sample's bin. No other thread writes that "
                 "counter, so no atomic is needed; " +
                 (v.spread ? "the bin's counters of neighbouring threads sit side by side, so the bank follows the "
                             "thread, not the data."
                           : "a thread's 64 counters sit side by side, so which bank a lane hits depends on its data.");
  }
  Step& bm = plan::add_step(t, "block merge: partial[block][bin] = sum of the 64 threads' counters of bin", "block merge",
                            code.line("block merge"), g.blocks, kThreads, g.blocks * g.bins, kThreads, kPartial);
  bm.barrier = true;
  bm.explain = "After a barrier, thread `bin` of each block adds the 64 counters of its bin, one per thread, into "
               "the block's partial histogram in global memory.";
  plan::add_step(t, "merge kernel: bins[bin] = sum of the " + std::to_string(g.blocks) + " partial histograms", "merge",
                 code.line("merge"), 1, g.bins, g.bins, g.blocks, kBins)
      .explain = "A second kernel sums the blocks' partial histograms, one thread per bin: the counts, with no "
                 "atomic anywhere.";
  return {};
}

void cpu_histogram_per_thread(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const Shape g = shape(cfg);
  const Variant v = variant_of(cfg.variant);
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  std::uint32_t* data = run.row(kData);
  for (std::int32_t i = 0; i < g.n; ++i) data[i] = std::uint32_t(bin_of(input[i], t.type, g.bins));
  std::uint32_t* cnt = run.row(kCounters);
  std::uint32_t* partial = run.row(kPartial);
  std::uint32_t* bins = run.row(kBins);
  run.snapshot_initial();
  std::int32_t round = 0;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    if (st.phase == "clear") {
      cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        for (std::int32_t k = 0; k < kCells / kThreads; ++k) {
          std::int32_t a[32];
          for (int l = 0; l < lanes; ++l) a[l] = (first + l + k * kThreads) / 4;
          run.shared_access(a, lanes);
          for (int l = 0; l < lanes; ++l) {
            const std::int32_t j = first + l + k * kThreads;
            cnt[b * kCells + j] = 0;
            run.op(std::int64_t(b) * kThreads + first + l, k, OpKind::Write, kCounters, -1, kCounters, b * kCells + j);
          }
        }
      });
    } else if (st.phase == "count") {
      const std::int32_t r = round++;
      cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        int paths[32];
        std::int32_t i[32], a[32];
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t x = first + l;
          const std::int64_t at = std::int64_t(r) * g.threads() + std::int64_t(b) * kThreads + x;
          i[l] = at < g.n ? std::int32_t(at) : -1;
          paths[l] = i[l] >= 0;
          a[l] = i[l] >= 0 ? counter_index(thread_slot(x, v), std::int32_t(data[i[l]]), v) / 4 : -1;
        }
        run.branch(paths, lanes);
        run.shared_access(a, lanes);  // read s_hist[pos]
        run.shared_access(a, lanes);  // write s_hist[pos]
        for (int l = 0; l < lanes; ++l) {
          if (i[l] < 0) continue;
          const std::int32_t cell = b * kCells + counter_index(thread_slot(first + l, v), std::int32_t(data[i[l]]), v);
          cnt[cell] = (cnt[cell] + 1) & 0xffu;
          run.op(std::int64_t(b) * kThreads + first + l, 0, OpKind::Add, kRowMain, i[l], kCounters, cell);
          c.adds += 1;
          c.global_read_bytes += 4;
        }
      });
    } else if (st.phase == "block merge") {
      cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        int paths[32];
        for (int l = 0; l < lanes; ++l) paths[l] = first + l < g.bins;
        run.branch(paths, lanes);
        for (std::int32_t k = 0; k < kThreads; ++k) {
          std::int32_t a[32];
          for (int l = 0; l < lanes; ++l) a[l] = paths[l] ? counter_index(k, first + l, v) / 4 : -1;
          run.shared_access(a, lanes);
        }
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t bin = first + l;
          if (bin >= g.bins) continue;
          std::uint32_t sum = 0;
          for (std::int32_t k = 0; k < kThreads; ++k) {
            const std::int32_t cell = b * kCells + counter_index(k, bin, v);
            sum += cnt[cell];
            run.op(std::int64_t(b) * kThreads + bin, k, OpKind::Add, kCounters, cell, kPartial, b * g.bins + bin);
          }
          partial[b * g.bins + bin] = sum;
          c.adds += kThreads;
          c.global_write_bytes += 4;
        }
      });
    } else {
      for (std::int32_t bin = 0; bin < g.bins; ++bin) {
        std::uint32_t sum = 0;
        for (std::int32_t hb = 0; hb < g.blocks; ++hb) {
          sum += partial[hb * g.bins + bin];
          run.op(bin, hb, OpKind::Add, kPartial, hb * g.bins + bin, kBins, bin);
        }
        bins[bin] = sum;
        c.adds += g.blocks;
        c.global_read_bytes += 4 * g.blocks;
        c.global_write_bytes += 4;
      }
    }
    run.end();
  }
}

}  // namespace primlab::steppers
