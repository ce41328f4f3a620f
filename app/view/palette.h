// The trace view's colours: one table for the shaders and the legend. The shaders get it as GLSL
// constants (palette_glsl(), prepended to every view shader); the UI's legend reads the same rows.
#pragma once
#include <string>

#include "lab/model/trace.h"

namespace primlab::view {

struct Colour {
  float r, g, b;
};

struct PaletteEntry {
  const char* name;  // the legend's word
  Colour colour;
};

// Bars: what happened to an element in this step (GLSL: kIdle, kRead, ...).
inline constexpr PaletteEntry kIdle{"idle", {0.36f, 0.55f, 0.80f}};
inline constexpr PaletteEntry kRead{"read", {0.98f, 0.76f, 0.22f}};
inline constexpr PaletteEntry kWritten{"written", {0.94f, 0.36f, 0.26f}};
inline constexpr PaletteEntry kPadding{"padding", {0.32f, 0.32f, 0.32f}};
// Float values that have no height: full-height bars striped with the touch colour.
inline constexpr PaletteEntry kInf{"inf / -inf", {0.62f, 0.36f, 0.92f}};
inline constexpr PaletteEntry kNaN{"NaN", {0.30f, 0.80f, 0.55f}};

// Arrows: one colour per OpKind, indexed by its value (GLSL: kOpColour[kind]). Compare-swap is
// cyan, far from the red of "written" bars.
inline constexpr PaletteEntry kOpColours[] = {
    {"none", {0.80f, 0.80f, 0.80f}},
    {"read", {0.80f, 0.80f, 0.80f}},
    {"write", {0.85f, 0.62f, 1.00f}},
    {"add", {0.55f, 0.90f, 0.30f}},
    {"move", {0.35f, 0.62f, 1.00f}},
    {"compare-swap", {0.10f, 0.88f, 0.88f}},
    {"atomic", {1.00f, 0.45f, 0.85f}},
};
// The comparators of a sorting network (Trace::network), by the way the larger key goes
// (GLSL: kNetUp, kNetDown).
inline constexpr PaletteEntry kNetUp{"comparator: larger key to the right", {1.00f, 0.55f, 0.25f}};
inline constexpr PaletteEntry kNetDown{"comparator: larger key to the left", {0.35f, 0.75f, 1.00f}};
// The arrows that touch the element under the mouse: the accesses its tooltip lists (GLSL: kHovered).
inline constexpr PaletteEntry kHovered{"the hovered element's", {1.00f, 1.00f, 1.00f}};
static_assert(sizeof kOpColours / sizeof kOpColours[0] == std::size_t(OpKind::Atomic) + 1,
              "one arrow colour per OpKind");

inline const PaletteEntry& op_colour(OpKind k) { return kOpColours[std::size_t(k)]; }

// The table as GLSL: `const vec3 kIdle = vec3(...);` for each bar colour and kHovered, and
// `const vec3 kOpColour[N] = vec3[N](...);` for the arrows.
std::string palette_glsl();

}  // namespace primlab::view
