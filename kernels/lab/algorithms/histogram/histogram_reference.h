// What the histograms' plans and CPU references (<algo>.cpp) share: the configs they take, the
// grid their host code launches, the rows every histogram of samples starts with, and the kernels'
// loops as the recording probe sees them: a loop's first test is a warp branch of every lane, each
// later test one of the lanes still looping (the kernels record it at the end of the body), and a
// lane's bin is shown with the number of lanes of its instruction on the same bin (probe.match).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/algorithms/histogram/bins_and_rows.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"

namespace primlab::steppers::histogram {

// bins from 2 to max_bins, int32 or uint32 samples.
Result check_config(const StepConfig& cfg, int max_bins = lab::kMaxLabBins);

// bin = x mod bins of a sample word of type t (lab::ModBinner).
std::int32_t bin_of(std::uint32_t x, ElemType t, std::int32_t bins);

// The grid the host code launches for n samples, and the trips of its grid-stride loop.
struct Grid {
  std::int32_t n = 0, block = 0, blocks = 0, trips = 0;
  std::int64_t threads() const { return std::int64_t(blocks) * block; }
  std::int32_t active() const { return std::int32_t(std::min<std::int64_t>(threads(), n)); }
};
Grid grid(std::int32_t n, std::int32_t block, int max_blocks);

// "i = 0..99, one trip of the grid-stride loop" (or "3 trips").
std::string sample_range(const Grid& g);

// The standard rows with `in`, then the bin each lane computed (named bin_name, `per_sample`
// entries a sample), its lanes on the same bin, and hist: kHistIn to kHist. t.width is at least
// `width` and every row's length.
void sample_rows(Trace& t, const StepConfig& cfg, std::int32_t width, const std::string& bin_name, int per_sample = 1);

// Copies the samples into kHistIn (kPerThreadIn: the same row).
void load_samples(cpu::CpuRun& run, const std::vector<std::uint32_t>& input);

// The loop `for (x = start + lane; x < end; x += stride)` of one warp of `lanes` lanes, as the
// kernels record it (see the top of this file): body(trip, x) for each trip that some lane makes,
// x[l] lane l's x, or -1 where lane l has left the loop.
template <class F>
void strided_loop(cpu::CpuRun& run, std::int64_t start, int lanes, std::int64_t stride, std::int64_t end, F body) {
  std::int64_t x[32];
  int paths[32];
  for (int l = 0; l < lanes; ++l) {
    x[l] = start + l;
    paths[l] = x[l] < end;
  }
  run.branch(paths, lanes);
  for (int trip = 0;; ++trip) {
    std::int64_t in_trip[32];
    bool any = false;
    for (int l = 0; l < lanes; ++l) {
      in_trip[l] = x[l] < end ? x[l] : -1;
      any = any || in_trip[l] >= 0;
    }
    if (!any) return;
    body(trip, static_cast<const std::int64_t*>(in_trip));
    int looping = 0;
    for (int l = 0; l < lanes; ++l) {
      if (in_trip[l] < 0) continue;
      x[l] += stride;
      paths[looping++] = x[l] < end;
    }
    run.branch(paths, looping);
  }
}

// probe.match: same[l] = the number of lanes whose key equals lane l's (keys < 0: none, 0).
void match(const std::int32_t* keys, int lanes, std::int32_t* same);

// One trip of a count loop: each lane's bin (-1: no sample) from its sample i[l] (-1: none), shown
// in kHistBin with its lanes on the same bin in kHistSame; the samples' loads counted.
void read_samples(cpu::CpuRun& run, const std::int64_t* i, int lanes, std::int32_t bins, std::int32_t* bin);

// The merge kernel of the tagged and per-thread histograms, one thread a bin: hist[bin] = the sum of
// `blocks` partial histograms (rows partial_row and hist_row).
void merge_partials(cpu::CpuRun& run, int partial_row, int hist_row, std::int32_t blocks, std::int32_t bins);
// Its plan step.
void plan_merge_partials(Trace& t, const plan::Code& code, std::int32_t blocks, std::int32_t bins, int hist_row);

}  // namespace primlab::steppers::histogram
