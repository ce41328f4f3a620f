// A small line-plot widget on ImGui's draw list (ImPlot is not in Debian): log or linear axes with
// labelled ticks, a legend, a hover readout of every series at the nearest x with its ratio to a
// reference series, stable colours per series name, dashed series (baselines), shaded spread
// bands (noisy rows), a horizontal ceiling line, a warning line and a footer. Every text it draws
// is noted in drawn_texts() for the --state-file and the tests.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace primlab::perf {

struct Series {
  std::string label;
  std::vector<double> x, y;    // points with y <= 0 are gaps
  std::vector<double> lo, hi;  // the spread at each point (p10..p90), empty when unknown
  ImU32 colour = 0;
  bool dashed = false;
  bool band = false;           // draw lo..hi as a shaded band and say "(noisy)" in the legend
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
  // The hover readout gives each series' ratio to the series labelled `ratio_to` of its own kind
  // (solid or dashed; the other kind's where its own has none), named `ratio_name`: "2.00x slower
  // than CUB" (empty: none). y_is_time: smaller is faster, else larger is faster.
  std::string ratio_to, ratio_name;
  bool y_is_time = true;
  std::string warning;  // a line under the title in the warning colour (empty: none)
  std::vector<std::string> footer;  // lines under the x axis: which machine drew which lines
};

// A text as drawn, in window pixels: [x0, y0, x1, y1, text] in the --state-file.
struct TextLabel {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::string text;
};
// What the Performance tab's widgets and plots drew in the current frame: every text, and the
// lines of the hover readout (empty when the mouse is over no plot).
struct DrawnTexts {
  std::vector<TextLabel> labels;
  std::vector<std::string> readout;
};
DrawnTexts& drawn_texts();
void note_text(ImVec2 min, ImVec2 max, const std::string& text);

// `text`, cut to fit `width` pixels with "..." at the end where it is wider.
std::string fit_text(const std::string& text, float width);

// The readout's line for one series at one x: "cpu-par: 1.52 ms, 2.10x slower than CUB" (with
// "(baseline)" after the reference's name where it is the baseline's).
std::string readout_line(const PlotSpec& spec, const std::vector<Series>& series, const Series& s, std::size_t i);

// What the mouse is over, for the caller (tests and the readout).
struct PlotHover {
  bool active = false;
  double x = 0;
};

// Draws the plot at the cursor in a box of `size` (negative: fill the remaining width/height)
// and advances the cursor. Returns the hover state.
PlotHover draw_plot(const char* id, const PlotSpec& spec, const std::vector<Series>& series, ImVec2 size);

// The colour of a series, stable across runs: fixed for primlab, CUB, Thrust and the CPU; for the
// lab's kernels, one of eight more by their place in their catalog family (the first three red,
// orange, yellow: the lecture's order); grey and indigo for a newer CCCL's "cub-X.Y" and
// "thrust-X.Y"; a hash of the name else. The thirteen differ pairwise by
// CIEDE2000 >= 19 (tests/render/test_perf_render.cpp holds every pair of a plot to 15).
ImU32 series_colour(const std::string& name);

// Tick text of a value in a format ("2^20", "1.5 ms", "12 G/s", "3.3 TB/s").
std::string format_tick(double v, TickFormat f);

}  // namespace primlab::perf
