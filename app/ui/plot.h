// A small line-plot widget on ImGui's draw list (ImPlot is not in Debian): log or linear axes with
// labelled ticks, a legend, a hover readout of every series at the nearest x, stable colours per
// series name, dashed series (baselines) and a horizontal ceiling line.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace primlab::perf {

struct Series {
  std::string label;
  std::vector<double> x, y;  // points with y <= 0 are gaps
  ImU32 colour = 0;
  bool dashed = false;
};

enum class TickFormat { Pow2, Time, Rate, Bytes, Plain };

struct Axis {
  std::string label;
  bool log = true;
  TickFormat format = TickFormat::Plain;
};

struct PlotSpec {
  std::string title;
  Axis x, y;
  double ceiling = 0;          // a horizontal line at this y (0: none)
  std::string ceiling_label;
  // The hover readout gives each series' ratio to this series ("x0.50 cub"; empty: none);
  // y_is_time: the ratio is reference / value (time), else value / reference (throughput).
  std::string ratio_to;
  bool y_is_time = true;
};

// What the mouse is over, for the caller (tests and the readout).
struct PlotHover {
  bool active = false;
  double x = 0;
};

// Draws the plot at the cursor in a box of `size` (negative: fill the remaining width/height)
// and advances the cursor. Returns the hover state.
PlotHover draw_plot(const char* id, const PlotSpec& spec, const std::vector<Series>& series, ImVec2 size);

// The colour of a series, stable across runs: fixed for primlab, CUB, Thrust and the CPU; for the
// lab's kernels, a warm colour by their place in their catalog family; a hash of the name else.
ImU32 series_colour(const std::string& name);

// Tick text of a value in a format ("2^20", "1.5 ms", "12 G/s", "3.3 TB/s").
std::string format_tick(double v, TickFormat f);

}  // namespace primlab::perf
