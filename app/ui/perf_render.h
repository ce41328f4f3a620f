// Offscreen frames of the Performance tab (needs a current OpenGL 3.3 context: the window's, or
// EGL's in `perf` and the render tests) and the plot's PNG export.
#pragma once
#include <string>
#include <vector>

#include "model/perf_model.h"
#include "ui/plot.h"

namespace primlab::perf {

// Draws the tab as the whole window `frames` times (the first frames settle ImGui's layout)
// into an offscreen framebuffer of w x h, in the current ImGui context (its OpenGL3 backend
// initialised), and returns RGBA pixels, top row first.
std::vector<unsigned char> render_perf_tab(PerfState& s, int w, int h, int frames = 3);

// Draws one plot view (kTimeVsN, kThroughputVsN, kTimeVsBlock) alone into w x h pixels in a
// private ImGui context, so that it can run in the middle of the app's frame; restores the
// current ImGui context and the GL framebuffer and viewport.
std::vector<unsigned char> render_plot(const PerfState& s, int view, int w, int h);
Result export_plot_png(const PerfState& s, int view, const std::string& path, int w, int h);
// The texts of the last plot render_plot drew (kept apart from the tab's own, drawn_texts()).
const DrawnTexts& plot_png_texts();

}  // namespace primlab::perf
