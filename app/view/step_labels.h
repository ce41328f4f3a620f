// The value labels of one step, formatted on the host exactly as `trace` prints them
// (format_cell: "1e+30", "0.001", "-0", "inf", "nan", a tagged counter "t5|2") and packed for the GL label buffer: one
// RGBA32UI texel (16 ASCII bytes, zero-padded) per index of each row. The shaders draw the bytes
// with a pixel font (shaders/labels.*).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/trace.h"

namespace primlab::view {

inline constexpr int kLabelChars = 16;
using LabelTexel = std::array<std::uint32_t, 4>;

// `text` as one texel (longer text is cut to kLabelChars), and back.
LabelTexel pack_label(const std::string& text);
std::string unpack_label(const LabelTexel& texel);
// The characters of a texel's text.
int label_length(const LabelTexel& texel);

// The labels of step `step`: rows x width texels, step_values being its rows x width words.
// Empty where nothing is drawn: the touch and owner rows, padding elements, indices past a row's
// length.
std::vector<LabelTexel> step_labels(const Trace& meta, int step, const std::uint32_t* step_values);

}  // namespace primlab::view
