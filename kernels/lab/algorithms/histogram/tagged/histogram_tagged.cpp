// histogram-tagged and histogram-tagged-bytes: the plans (histogram_tagged.cuh's two launches: the
// counting kernel's clear, count and block merge, __syncthreads() apart, then the merge kernel) and
// the CPU reference, which runs the kernels warp by warp. In the write-and-check loop one pending
// lane per bin lands its write each attempt: a group of k lanes on one bin takes k attempts and
// k(k-1)/2 failed writes. Which lane lands first is not determined (the hardware on the GPU,
// StepConfig::seed here), so the tags and which lane failed how often may differ between runs; the
// bins, partial histograms, counts, counters and the multiset of failures per row agree.
#include "lab/algorithms/histogram/histogram_reference.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
using namespace lab;
namespace {

// The bytes histogram counts the samples' bytes into 256 bins.
StepConfig tagged_config(const StepConfig& cfg, bool bytes) {
  StepConfig c = cfg;
  if (bytes) c.bins = kByteBins;
  return c;
}

std::uint32_t mix(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u);
  h = (h ^ (h >> 15)) * 0x85EBCA6Bu + c;
  h = (h ^ (h >> 13)) * 0xC2B2AE35u + d;
  return h ^ (h >> 16);
}

Result plan_tagged(const StepConfig& given, Trace& t, bool bytes) {
  const StepConfig cfg = tagged_config(given, bytes);
  if (Result r = histogram::check_config(cfg); !r.ok()) return r;
  const histogram::Grid g = histogram::grid(cfg.n, cfg.block, tagged_max_blocks(cfg.block, cfg.bins));
  const std::int32_t W = warps_of(g.block), P = cfg.bins, cells = g.blocks * W * P;
  const int per_sample = bytes ? kBytesPerWord : 1;
  const std::string B = std::to_string(P), Ws = std::to_string(W);
  t.title = bytes ? "Histogram of bytes: addWord = four addByte into per-warp sub-histograms (lecture)"
                  : "Histogram: per-warp sub-histograms with the thread tag (lecture)";
  const plan::Code code = plan::code(t, "histogram-tagged");
  histogram::sample_rows(t, cfg, cells, bytes ? "data = byte k of in[i], at 4i + k" : "data = in[i] mod " + B,
                         per_sample);
  plan::add_row(t, bytes ? "failed writes of the byte (retries), at 4i + k" : "failed writes of the sample (retries)",
                RowKind::Values, cfg.n * per_sample, ElemType::I32, !bytes);
  plan::add_row(t, "warp sub-histograms: count (low 27 bits)", RowKind::Values, cells, ElemType::U32, false);
  plan::add_row(t, "warp sub-histograms: tag (lane of the last write)", RowKind::Index, cells, ElemType::U32, false);
  const int words = plan::add_row(t, "s_hist: the warp sub-histograms' words (tag << 27) | count, as t<tag>|<count>",
                                  RowKind::TagCount, cells, ElemType::U32, false);
  t.rows[std::size_t(words)].cells_of = kTaggedCount;  // the count's atomic writes the word
  plan::add_row(t, "partial (block-major)", RowKind::Values, g.blocks * P, ElemType::U32, false);
  // The bar chart of the counters: the counts, or the bytes histogram's whole words.
  const int counters = bytes ? kTaggedWords : kTaggedCount;
  plan::initial_step(t, kHist);
  plan::add_step(t, "clear: s_hist[j] = 0 for the " + (W == 1 ? std::string("warp's sub-histogram") : Ws + " warps' "
                                                          "sub-histograms") +
                        " of " + B + " bins " +
                        (g.blocks == 1 ? std::string("in the one block") : "in each of the " + std::to_string(g.blocks) + " blocks"),
                 "clear", code.line("clear"), g.blocks, g.block, g.blocks * std::min(g.block, W * P),
                 plan::div_up(W * P, g.block), counters)
      .explain = "The counting kernel. Each warp gets its own sub-histogram in shared memory, cleared here: no two "
                 "warps ever write one bin, so no atomics are needed.";
  Step& count = plan::add_step(
      t,
      (bytes ? "count: addWord(warp_hist, in[i], thread_tag), four addByte, " : "count: addByte(warp_hist, data, "
                                                                                "thread_tag), ") +
          histogram::sample_range(g) + ": read, tag | count+1, write, check, try again until it lands",
      "count", code.line("count"), g.blocks, g.block, g.active(), g.trips * per_sample, counters);
  count.barrier = true;
  count.explain = std::string("After __syncthreads(), each warp runs the grid-stride loop whole, so that addByte has "
                              "all its lanes. ") +
                  (bytes ? "Each sample goes in as its four bytes, one addByte each, each byte its own bin of 256. "
                         : "") +
                  "The lanes of a warp that hit one bin all write count+1 with their lane in the 5 high bits (the "
                  "tag); one write lands, each lane reads the word back, and the others try again, one a round.";
  Step& block_merge = plan::add_step(t, "block merge: partial[blockIdx.x * " + B + " + bin] = the sum over w = 0.." +
                                            std::to_string(W - 1) + " of s_hist[w * " + B + " + bin] & 0x07FFFFFF",
                                     "block merge", code.line("block merge"), g.blocks, g.block,
                                     g.blocks * std::min(g.block, P), plan::div_up(P, g.block) * W, kTaggedPartial);
  block_merge.barrier = true;
  block_merge.explain = "After __syncthreads(), each block sums its warps' counts bin by bin (the tags masked off) "
                        "into its partial histogram in global memory.";
  histogram::plan_merge_partials(t, code, g.blocks, P, kHist);
  return {};
}

// addByte of one warp: lanes with data[l] < 0 have nothing to add. The write-and-check loop, one
// attempt a round: each bin with pending lanes lets one of them land.
struct AddByte {
  cpu::CpuRun& run;
  const StepConfig& cfg;
  std::int32_t warp_cell, block_cell;  // the warp's and the block's first cells of the counters' rows
  std::uint32_t winner_seed;           // picks the lane that lands

  void operator()(const std::int32_t* data, const std::int32_t* sample, const std::int32_t* element,
                  const std::int64_t* thread, int lanes, int slot) {
    std::int32_t same[32];
    histogram::match(data, lanes, same);
    bool done[32];
    for (int l = 0; l < lanes; ++l) {
      done[l] = data[l] < 0;
      if (done[l]) continue;
      run.row(kHistBin)[element[l]] = std::uint32_t(data[l]);
      run.row(kHistSame)[element[l]] = std::uint32_t(same[l]);
    }
    for (std::uint32_t attempt = 0;; ++attempt) {
      int pending[32];
      std::int32_t word[32];
      bool any = false;
      for (int l = 0; l < lanes; ++l) {
        pending[l] = !done[l];
        word[l] = done[l] ? -1 : warp_cell - block_cell + data[l];
        any = any || !done[l];
      }
      if (!any) return;
      run.branch(pending, lanes);
      for (int m = 0; m < 3; ++m) run.shared_access(word, lanes);  // read, write, check
      for (int l = 0; l < lanes; ++l) {
        if (!pending[l]) continue;
        bool first_of_bin = true;
        for (int m = 0; m < l && first_of_bin; ++m) first_of_bin = !pending[m] || data[m] != data[l];
        if (!first_of_bin) continue;
        int group[32], k = 0;
        for (int m = l; m < lanes; ++m)
          if (pending[m] && data[m] == data[l]) group[k++] = m;
        const int win = group[mix(cfg.seed, winner_seed + std::uint32_t(slot) * 7919u, attempt, std::uint32_t(data[l])) %
                              std::uint32_t(k)];
        const std::int32_t cell = warp_cell + data[l];
        const std::uint32_t count = (run.row(kTaggedCount)[cell] + 1) & kTagCountMask;
        const std::uint32_t tag = std::uint32_t(win);  // thread_tag: the lane (warps start at multiples of 32)
        run.row(kTaggedCount)[cell] = count;
        run.row(kTaggedTag)[cell] = tag;
        run.row(kTaggedWords)[cell] = tag << 27 | count;
        run.row(kTaggedRetries)[element[win]] = attempt;
        run.op(thread[win], slot, OpKind::Atomic, kHistIn, sample[win], kTaggedCount, cell);
        done[win] = true;
      }
    }
  }
};

void cpu_tagged(const StepConfig& given, const std::vector<std::uint32_t>& input, Trace& t, bool bytes) {
  const StepConfig cfg = tagged_config(given, bytes);
  cpu::CpuRun run(t);
  histogram::load_samples(run, input);
  run.snapshot_initial();
  const histogram::Grid g = histogram::grid(cfg.n, cfg.block, tagged_max_blocks(cfg.block, cfg.bins));
  const std::int32_t W = warps_of(g.block), P = cfg.bins;
  const int per_sample = bytes ? kBytesPerWord : 1;
  std::uint32_t* cnt = run.row(kTaggedCount);
  std::uint32_t* partial = run.row(kTaggedPartial);
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    if (st.phase == "merge") {
      histogram::merge_partials(run, kTaggedPartial, kHist, g.blocks, P);
      run.end();
      continue;
    }
    cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      const std::int64_t thread0 = std::int64_t(b) * g.block + first;
      const std::int32_t block_cell = b * W * P, warp_cell = block_cell + first / 32 * P;
      if (st.phase == "clear") {
        histogram::strided_loop(run, first, lanes, g.block, W * P, [&](int k, const std::int64_t* j) {
          std::int32_t a[32];
          for (int l = 0; l < lanes; ++l) a[l] = std::int32_t(j[l]);
          run.shared_access(a, lanes);
          for (int l = 0; l < lanes; ++l) {
            if (a[l] < 0) continue;
            const std::int32_t cell = block_cell + a[l];
            cnt[cell] = run.row(kTaggedTag)[cell] = run.row(kTaggedWords)[cell] = 0;
            run.op(thread0 + l, k, OpKind::Write, kTaggedCount, -1, kTaggedCount, cell);
          }
        });
      } else if (st.phase == "count") {
        AddByte add_byte{run, cfg, warp_cell, block_cell, std::uint32_t(b * 1024 + first)};
        // The warp runs the grid-stride loop whole: trips while its first sample is < n.
        for (std::int64_t wfirst = thread0, trip = 0; wfirst < g.n; wfirst += g.threads(), ++trip) {
          int has[32];
          std::int32_t sample[32], element[32], data[32];
          std::int64_t thread[32];
          for (int l = 0; l < lanes; ++l) {
            const std::int64_t i = wfirst + l;
            has[l] = i < g.n;
            sample[l] = has[l] ? std::int32_t(i) : -1;
            thread[l] = thread0 + l;
            if (has[l]) run.count().global_read_bytes += 4;
          }
          run.branch(has, lanes);
          for (int k = 0; k < per_sample; ++k) {
            for (int l = 0; l < lanes; ++l) {
              element[l] = has[l] ? sample[l] * per_sample + k : -1;
              const std::uint32_t x = has[l] ? input[std::size_t(sample[l])] : 0u;
              data[l] = !has[l] ? -1 : bytes ? std::int32_t((x >> (8 * k)) & 0xFFu) : histogram::bin_of(x, t.type, P);
            }
            add_byte(data, sample, element, thread, lanes, int(trip) * per_sample + k);
          }
        }
      } else {  // block merge
        histogram::strided_loop(run, first, lanes, g.block, P, [&](int k, const std::int64_t* bin) {
          for (std::int32_t w = 0; w < W; ++w) {
            std::int32_t a[32];
            for (int l = 0; l < lanes; ++l) a[l] = bin[l] >= 0 ? w * P + std::int32_t(bin[l]) : -1;
            run.shared_access(a, lanes);
          }
          for (int l = 0; l < lanes; ++l) {
            if (bin[l] < 0) continue;
            std::uint32_t sum = 0;
            for (std::int32_t w = 0; w < W; ++w) {
              const std::int32_t cell = block_cell + w * P + std::int32_t(bin[l]);
              sum += cnt[cell];
              run.op(thread0 + l, k * W + w, OpKind::Add, kTaggedCount, cell, kTaggedPartial,
                     b * P + std::int32_t(bin[l]));
            }
            partial[b * P + bin[l]] = sum;
            run.count().adds += W;
            run.count().global_write_bytes += 4;
          }
        });
      }
    });
    run.end();
  }
}

}  // namespace

Result plan_histogram_tagged(const StepConfig& cfg, Trace& t) { return plan_tagged(cfg, t, false); }
Result plan_histogram_tagged_bytes(const StepConfig& cfg, Trace& t) { return plan_tagged(cfg, t, true); }

void cpu_histogram_tagged(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu_tagged(cfg, input, t, false);
}
void cpu_histogram_tagged_bytes(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu_tagged(cfg, input, t, true);
}

}  // namespace primlab::steppers
