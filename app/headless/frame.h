// An offscreen frame of the trace view alone, without ImGui, for `render` and the headless tests.
// (Frames with ImGui go through render_imgui(), headless/imgui_offscreen.h.)
#pragma once
#include <vector>

#include "view/trace_buffers.h"
#include "view/trace_view.h"

namespace primlab::headless {

// Draws `step` of the trace into a w x h framebuffer and returns its RGBA pixels, top row first.
// Needs a current GL context.
std::vector<unsigned char> render_view(view::TraceView& view, const Trace& meta, view::TraceBuffers& buf, int step,
                                       const view::ViewOptions& options, int w, int h);

}  // namespace primlab::headless
