// The Performance tab: immediate-mode UI over perf::PerfState (controls, progress, the plots of
// time and throughput against n and of time against block size, the table with ratios to CUB and
// to a baseline, export and import). The window's tab bar and the headless `perf` command call it.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "model/perf_model.h"
#include "ui/plot.h"

namespace primlab::perf {

enum View { kTimeVsN = 0, kThroughputVsN = 1, kTimeVsBlock = 2, kTable = 3 };

// The whole tab's body; call between BeginTabItem("Performance") and EndTabItem() (or inside
// any window). Polls the worker first, so finished rows show on the frame they arrive.
void draw_perf_tab(PerfState& s);

// The plot of one view (kTimeVsN, kThroughputVsN or kTimeVsBlock) in a box of `size`.
void draw_view_plot(const PerfState& s, int view, ImVec2 size);

// The series and axes a plot view shows (the current plan's primitive and type; baseline rows
// dashed). For tests and the PNG export.
std::vector<Series> view_series(const PerfState& s, int view);
PlotSpec view_spec(const PerfState& s, int view);

// The answer line: every implementation's best time at n = 2^plan.block_sweep_log2_n (over the
// block sizes it ran at), fastest first, with the block size and the ratio to CUB: "fastest at
// n = 2^20: cub 10 us; primlab 11 us (1.10x slower than CUB); shared b=256 20 us (2.00x slower
// than CUB)".
std::string verdict(const PerfState& s);

// Which machine drew the solid lines and which the dashed ones (GPU name or "CPU only", host and
// CPU threads, date), a line each: the plots' footer, so that an exported PNG says it.
std::vector<std::string> machines_footer(const PerfState& s);
// A warning for the series whose p10..p90 spread is over 3x somewhere (their plots shade the
// spread); "" when none is.
std::string noise_warning(const std::vector<Series>& series);
// The baseline comparison in words: "this run is 1.73x faster than the baseline (median of 12
// matching rows ...)".
std::string baseline_summary(const PerfState& s);

// Writes <dir>/perf-<primitive>-<type>.{json,csv} (and .png through the renderer when
// `png` is set and a GL context is current); false with s.message on failure.
bool export_results(PerfState& s, const std::string& dir, bool png);
// Loads a saved JSON as the baseline; false with s.message on failure.
bool load_baseline(PerfState& s, const std::string& path);

}  // namespace primlab::perf
