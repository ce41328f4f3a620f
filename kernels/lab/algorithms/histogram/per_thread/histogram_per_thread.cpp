// histogram-per-thread: the plan (histogram_per_thread.cuh's two launches: the counting kernel's
// clear, count and block merge, __syncthreads() apart, then the merge kernel) and the CPU reference,
// which runs the kernels warp by warp.
//
// Banks are 32 words of 4 bytes: lanes on one word do not conflict, lanes on different words of one
// bank do. A thread's counters side by side (tid*64+data) put the lanes of one tid parity 16 words
// apart when their data agree: 16-way. The threads' counters of one bin side by side (tid+64*data)
// put four lanes on one word, so a warp hits at most 4 words of a bank, 2 with the permuted tid (the
// lecture's 16 banks, served by half-warps, saw none). Reading back is the other way round.
#include "lab/algorithms/histogram/histogram_reference.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
using namespace lab;
namespace {

// cfg.variant: bit 0 the layout (0: tid*64+data, 1: tid+64*data), bit 1 the permuted tid.
struct Variant {
  bool spread = false;
  bool permute = false;
};
Variant variant_of(std::int32_t v) { return {(v & 1) != 0, (v & 2) != 0}; }
const char* layout_name(Variant v) { return v.spread ? "tid+64*data" : "tid*64+data"; }

// The kernel's tid of thread x, and the counter of tid for bin data.
std::int32_t tid_of(std::int32_t x, Variant v) { return v.permute ? (x >> 4) | ((x & 0x0F) << 2) : x; }
std::int32_t pos_of(std::int32_t tid, std::int32_t data, Variant v) { return v.spread ? tid + 64 * data : tid * 64 + data; }

histogram::Grid per_thread_grid(const StepConfig& cfg) {
  return histogram::grid(cfg.n, kPerThreadThreads, kPerThreadMaxBlocks);
}

}  // namespace

Result plan_histogram_per_thread(const StepConfig& cfg, Trace& t) {
  if (cfg.block != kPerThreadThreads) return Result::failure("the per-thread histogram runs blocks of exactly 64 threads");
  if (cfg.bins < 2 || cfg.bins > kPerThreadMaxBins)
    return Result::failure("the per-thread histogram takes 2 to 64 bins (got " + std::to_string(cfg.bins) + ")");
  if (cfg.type == ElemType::F32) return Result::failure("histograms take int32 or uint32 samples");
  if (cfg.variant < 0 || cfg.variant > 3)
    return Result::failure("the per-thread histogram's variant must be 0 to 3 (layout, thread permutation)");
  const histogram::Grid g = per_thread_grid(cfg);
  const Variant v = variant_of(cfg.variant);
  const std::string B = std::to_string(cfg.bins);
  t.title = std::string("Histogram without atomics: per-thread counters, ") + layout_name(v) +
            (v.permute ? ", permuted threads" : "");
  const plan::Code code = plan::code(t, "histogram-per-thread");
  t.width = std::max(cfg.n, g.blocks * kPerThreadCells);
  t.elems_per_thread = 1;
  plan::standard_rows(t, "in", cfg.n, cfg.type);
  plan::add_row(t, "data = in[i] mod " + B, RowKind::Index, cfg.n, ElemType::I32);
  plan::add_row(t, std::string("s_hist: per-thread byte counters (") + layout_name(v) + ", block-major)",
                RowKind::Values, g.blocks * kPerThreadCells, ElemType::U32, false);
  plan::add_row(t, "partial (block-major)", RowKind::Values, g.blocks * cfg.bins, ElemType::U32, false);
  plan::add_row(t, "hist (the bins)", RowKind::Values, cfg.bins, ElemType::U32, false);
  plan::initial_step(t, kPerThreadHist);
  plan::add_step(t, "clear: s_hist[j] = 0 for the 64 x 64 byte counters of " +
                        (g.blocks == 1 ? std::string("the one block") : "each of the " + std::to_string(g.blocks) + " blocks"),
                 "clear", code.line("clear"), g.blocks, kPerThreadThreads, g.blocks * kPerThreadThreads,
                 kPerThreadCells / kPerThreadThreads, kPerThreadCounters)
      .explain = "The counting kernel. Each block clears its 4096 byte counters in shared memory: 64 per thread, one "
                 "per possible bin.";
  const std::string tid = v.permute ? "tid = (x >> 4) | ((x & 0x0F) << 2) for thread x, " : "tid = threadIdx.x, ";
  Step& count = plan::add_step(t, "count: " + tid + "s_hist[" + layout_name(v) + "]++, data = in[i] mod " + B + ", " +
                                      histogram::sample_range(g),
                               "count", code.line("count"), g.blocks, kPerThreadThreads, g.active(), g.trips,
                               kPerThreadCounters);
  count.barrier = true;
  count.explain = "After __syncthreads(), each thread adds 1 to its own counter of its sample's bin, s_hist[pos]. No "
                  "other thread writes that counter, so no atomic is needed; " +
                  std::string(v.spread ? "the bin's counters of neighbouring threads sit side by side, so the bank "
                                         "follows the thread, not the data."
                                       : "a thread's 64 counters sit side by side, so which bank a lane hits depends "
                                         "on its data.");
  Step& bm = plan::add_step(t, "block merge: partial[blockIdx.x * " + B + " + bin] = the sum of the 64 threads' "
                                   "counters of bin, thread bin < " + B,
                            "block merge", code.line("block merge"), g.blocks, kPerThreadThreads, g.blocks * cfg.bins,
                            kPerThreadThreads, kPerThreadPartial);
  bm.barrier = true;
  bm.explain = "After __syncthreads(), thread `bin` of each block adds the 64 counters of its bin, one per thread, "
               "into the block's partial histogram in global memory.";
  histogram::plan_merge_partials(t, code, g.blocks, cfg.bins, kPerThreadHist);
  return {};
}

void cpu_histogram_per_thread(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  histogram::load_samples(run, input);
  run.snapshot_initial();
  const histogram::Grid g = per_thread_grid(cfg);
  const Variant v = variant_of(cfg.variant);
  std::uint32_t* data_row = run.row(kPerThreadData);
  std::uint32_t* cnt = run.row(kPerThreadCounters);
  std::uint32_t* partial = run.row(kPerThreadPartial);
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    if (st.phase == "merge") {
      histogram::merge_partials(run, kPerThreadPartial, kPerThreadHist, g.blocks, cfg.bins);
      run.end();
      continue;
    }
    cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      const std::int64_t thread0 = std::int64_t(b) * kPerThreadThreads + first;
      const std::int32_t block_cell = b * kPerThreadCells;
      if (st.phase == "clear") {
        for (std::int32_t k = 0; k < kPerThreadCells / kPerThreadThreads; ++k) {
          std::int32_t a[32];
          for (int l = 0; l < lanes; ++l) a[l] = (first + l + k * kPerThreadThreads) / 4;
          run.shared_access(a, lanes);
          for (int l = 0; l < lanes; ++l) {
            const std::int32_t j = first + l + k * kPerThreadThreads;
            cnt[block_cell + j] = 0;
            run.op(thread0 + l, k, OpKind::Write, kPerThreadCounters, -1, kPerThreadCounters, block_cell + j);
          }
        }
      } else if (st.phase == "count") {
        histogram::strided_loop(run, thread0, lanes, g.threads(), g.n, [&](int trip, const std::int64_t* i) {
          std::int32_t word[32], pos[32];
          for (int l = 0; l < lanes; ++l) {
            if (i[l] < 0) {
              word[l] = pos[l] = -1;
              continue;
            }
            const std::int32_t data = histogram::bin_of(input[std::size_t(i[l])], t.type, cfg.bins);
            data_row[i[l]] = std::uint32_t(data);
            pos[l] = pos_of(tid_of(first + l, v), data, v);
            word[l] = pos[l] / 4;
          }
          run.shared_access(word, lanes);  // read s_hist[pos]
          run.shared_access(word, lanes);  // write s_hist[pos]
          for (int l = 0; l < lanes; ++l) {
            if (i[l] < 0) continue;
            const std::int32_t cell = block_cell + pos[l];
            cnt[cell] = (cnt[cell] + 1) & 0xFFu;  // a byte counter
            run.op(thread0 + l, trip, OpKind::Add, kPerThreadIn, std::int32_t(i[l]), kPerThreadCounters, cell);
            c.adds += 1;
            c.global_read_bytes += 4;
          }
        });
      } else {  // block merge: thread bin < bins
        int paths[32];
        for (int l = 0; l < lanes; ++l) paths[l] = first + l < cfg.bins;
        run.branch(paths, lanes);
        for (std::int32_t k = 0; k < kPerThreadThreads; ++k) {
          std::int32_t a[32];
          for (int l = 0; l < lanes; ++l) a[l] = paths[l] ? pos_of(k, first + l, v) / 4 : -1;
          run.shared_access(a, lanes);
        }
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t bin = first + l;
          if (bin >= cfg.bins) continue;
          std::uint32_t sum = 0;
          for (std::int32_t k = 0; k < kPerThreadThreads; ++k) {
            const std::int32_t cell = block_cell + pos_of(k, bin, v);
            sum += cnt[cell];
            run.op(thread0 + l, k, OpKind::Add, kPerThreadCounters, cell, kPerThreadPartial, b * cfg.bins + bin);
          }
          partial[b * cfg.bins + bin] = sum;
          c.adds += kPerThreadThreads;
          c.global_write_bytes += 4;
        }
      }
    });
    run.end();
  }
}

}  // namespace primlab::steppers
