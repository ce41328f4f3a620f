// Widgets shared by the Step and Race tabs: the transport bar, the counters table, the colour
// legend and the trace view image with its row names and hover readout. Immediate mode: each
// returns its event.
#pragma once
#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "model/transport.h"
#include "ui/step_pane.h"
#include "view/trace_view.h"

namespace primlab::ui {

inline const ImVec4 kError(1.0f, 0.45f, 0.4f, 1.0f);
inline const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);
inline const ImVec4 kHighlight(1.0f, 0.9f, 0.5f, 1.0f);

// The trace view's shader programs, shared by every pane, and why they did not build.
struct ViewPrograms {
  view::TraceView view;
  bool ready = false;
  std::string error;
};

// The tabs' layout: a table `id` of a resizable controls column (300 px at first) beside the view
// column. Draws `controls` in a child window of the first column and leaves the cursor in the
// second; the caller draws the view there and ends with ImGui::EndTable(). False when the table
// is not shown.
bool controls_beside_view(const char* id, const std::function<void()>& controls);

// |< < Play > >| speed and scrub, for a transport whose last step is `last`. True when the step
// changed.
bool transport_bar(Transport& t, int last);

// `text` in `colour` on the current line after the previous item when it fits there whole, else
// from the start of the next line, wrapped at the window's edge: never cut off.
void flow_text(const ImVec4& colour, const std::string& text);

// One trace's counters at a step; `name` heads its columns ("" with one trace, "A", "B" in a race).
struct CountersColumn {
  const char* name;
  const Trace* trace;
  int step;
};
// The counters table: for each trace its "this step" column, then for each its "so far" column,
// each column as wide as its widest text. With two traces and mark_differences, the values of a
// row that differ by more than 10 % (counters_differ) are highlighted.
void counters_table(const char* id, const std::vector<CountersColumn>& columns, bool mark_differences = false);
// The size the counters table takes, so that a layout can give it all of it.
ImVec2 counters_table_size(const std::vector<CountersColumn>& columns);

// The palette's swatches, wrapped to the width: bar colours, then arrow kinds. With a trace:
// padding only when it is padded, inf and NaN only for float rows, and the arrow kinds its ops use
// (all when its ops are on the device).
void legend(const Trace* t = nullptr);

// Draws the pane's current step into its framebuffer and shows it as an image of `size`, with
// the row names and the bars' scale beside it. The mouse wheel zooms, a drag pans, a double-click
// shows the whole row (pane.options.window). Under the mouse: the index, its value, and the
// threads that read or wrote it in this step (their arrows highlighted), "not touched in this
// step", or, on a row no op of the step names, that it is a value the kernel holds.
void trace_image(ViewPrograms& programs, StepPane& pane, ImVec2 size);

}  // namespace primlab::ui
