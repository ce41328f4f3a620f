// What the histograms' plans and CPU references share (histogram_reference.h).
#include "lab/algorithms/histogram/histogram_reference.h"

#include <algorithm>

namespace primlab::steppers::histogram {

Result check_config(const StepConfig& cfg, int max_bins) {
  if (cfg.bins < 2 || cfg.bins > max_bins)
    return Result::failure("histogram bins must be between 2 and " + std::to_string(max_bins) + " (got " +
                           std::to_string(cfg.bins) + ")");
  if (cfg.type == ElemType::F32) return Result::failure("histograms take int32 or uint32 samples");
  return {};
}

std::int32_t bin_of(std::uint32_t x, ElemType t, std::int32_t bins) {
  return t == ElemType::U32 ? lab::ModBinner<std::uint32_t>{bins}(x) : lab::ModBinner<std::int32_t>{bins}(std::int32_t(x));
}

Grid grid(std::int32_t n, std::int32_t block, int max_blocks) {
  Grid g;
  g.n = n;
  g.block = block;
  g.blocks = std::int32_t(lab::grid_of(n, block, max_blocks));
  g.trips = plan::div_up(n, g.threads());
  return g;
}

std::string sample_range(const Grid& g) {
  return "i = 0.." + std::to_string(g.n - 1) + ", " +
         (g.trips == 1 ? std::string("one trip") : std::to_string(g.trips) + " trips") + " of the grid-stride loop";
}

void sample_rows(Trace& t, const StepConfig& cfg, std::int32_t width, const std::string& bin_name, int per_sample) {
  t.width = std::max({cfg.n * per_sample, cfg.bins, width});
  t.elems_per_thread = 1;  // grid-stride: sample i is thread i mod T's (the bands are exact in the first trip)
  plan::standard_rows(t, "in", cfg.n, cfg.type);
  const bool elements = per_sample == 1;
  plan::add_row(t, bin_name, RowKind::Index, cfg.n * per_sample, ElemType::I32, elements);
  plan::add_row(t, "lanes on the same bin (this instruction)", RowKind::Values, cfg.n * per_sample, ElemType::I32,
                elements);
  plan::add_row(t, "hist (the bins)", RowKind::Values, cfg.bins, ElemType::U32, false);
}

void load_samples(cpu::CpuRun& run, const std::vector<std::uint32_t>& input) {
  std::copy(input.begin(), input.end(), run.row(lab::kHistIn));
}

void match(const std::int32_t* keys, int lanes, std::int32_t* same) {
  for (int l = 0; l < lanes; ++l) {
    same[l] = 0;
    if (keys[l] < 0) continue;
    for (int m = 0; m < lanes; ++m) same[l] += keys[m] == keys[l];
  }
}

void read_samples(cpu::CpuRun& run, const std::int64_t* i, int lanes, std::int32_t bins, std::int32_t* bin) {
  const ElemType type = run.trace().type;
  for (int l = 0; l < lanes; ++l) {
    bin[l] = i[l] >= 0 ? bin_of(run.row(lab::kHistIn)[i[l]], type, bins) : -1;
    if (i[l] < 0) continue;
    run.row(lab::kHistBin)[i[l]] = std::uint32_t(bin[l]);
    run.count().global_read_bytes += 4;
  }
  std::int32_t same[32];
  match(bin, lanes, same);
  for (int l = 0; l < lanes; ++l)
    if (i[l] >= 0) run.row(lab::kHistSame)[i[l]] = std::uint32_t(same[l]);
}

void merge_partials(cpu::CpuRun& run, int partial_row, int hist_row, std::int32_t blocks, std::int32_t bins) {
  const std::uint32_t* partial = run.row(partial_row);
  std::uint32_t* hist = run.row(hist_row);
  Counters& c = run.count();
  for (std::int32_t bin = 0; bin < bins; ++bin) {
    std::uint32_t sum = 0;
    for (std::int32_t b = 0; b < blocks; ++b) {
      sum += partial[b * bins + bin];
      run.op(bin, b, OpKind::Add, partial_row, b * bins + bin, hist_row, bin);
    }
    hist[bin] = sum;
    c.adds += blocks;
    c.global_read_bytes += 4 * blocks;
    c.global_write_bytes += 4;
  }
}

void plan_merge_partials(Trace& t, const plan::Code& code, std::int32_t blocks, std::int32_t bins, int hist_row) {
  plan::add_step(t, "merge kernel: hist[bin] = " +
                        (blocks == 1 ? std::string("partial[bin], the one block's")
                                     : "partial[bin] + partial[bins + bin] + ... over the " + counted(blocks, "block")) +
                        ", thread bin = 0.." + std::to_string(bins - 1),
                 "merge", code.line("merge"), 1, bins, bins, blocks, hist_row)
      .explain = "A second kernel, one block of one thread per bin: thread bin sums the " +
                 counted(blocks, "partial histogram's", "partial histograms'") + " counts of its bin into hist[bin]. The counts, with no atomic anywhere.";
}

}  // namespace primlab::steppers::histogram
