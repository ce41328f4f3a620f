// Every text the app lays out itself goes through these functions: the view's row names, scale and
// hints, the strips, the tab headers, the legends, the counter tables, the bank panel, the code
// panels' visible lines and the Performance tab's plots and tables. Each records where its text
// lies, so that the --state-file can list them ("labels": [x0, y0, x1, y1, text] in window pixels,
// the whole text as laid out; a code line as far as its panel shows it) and the GUI tests can fail
// when two overlap, one leaves the window or an edge cuts one ("clipped": those that their window,
// table column or clip area cuts). Tooltips and the Step and Race tabs' widgets (buttons, sliders)
// are ImGui's and not recorded; the Performance tab notes its widgets too (perf::note_text).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace primlab::ui {

struct TextLabel {
  float x0, y0, x1, y1;  // screen (window) pixels
  std::string text;
};

// [SECTION] Drawing
// Draw-list text with its top left at `pos`, recorded. `clip` (x0, y0, x1, y1 in screen pixels),
// when given, cuts it as well as the draw list's own clip rectangle. Returns the text's size.
ImVec2 draw_text(ImDrawList* dl, ImVec2 pos, ImU32 colour, const std::string& text, const ImVec4* clip = nullptr);
// Text items (ImGui::TextUnformatted), recorded: plain, in a colour, and wrapped at the window's
// right edge.
void text(const std::string& s);
void text(const ImVec4& colour, const std::string& s);
void text_wrapped(const ImVec4& colour, const std::string& s);
// A table's header row (TableHeadersRow), each header recorded in its column.
void table_headers();
// Records the last item as the text `s` whose top left is at `pos` (for text a widget drew by its
// own means).
void note_text(ImVec2 pos, const std::string& s);
// Records the last item, the text `s`, as far as the current clip rectangle shows it: a line of a
// listing that scrolls, whose hidden part is scrolled away rather than cut (the code panels).
void note_visible_text(const std::string& s);
// Records text drawn by other means (the GL view's value labels) over [min, max], seen through the
// current clip rectangle and `clip` when given.
void note_drawn_text(ImVec2 min, ImVec2 max, const std::string& s, const ImVec4* clip = nullptr);

// `text` if it fits in `width` pixels, else the first of `shorter` (in order) that fits, else the
// last of them cut with "..." (so that what is drawn is what is recorded).
std::string fit_text(const std::string& text, float width, const std::vector<std::string>& shorter = {});

// [SECTION] The frame's record
// Clears the record; draw_frame() calls it first.
void begin_labels();
// The texts recorded since begin_labels() that are at least partly visible or laid out past the
// window's edge, and those of them that an edge cuts.
const std::vector<TextLabel>& labels();
const std::vector<TextLabel>& clipped_labels();

}  // namespace primlab::ui
