// The palette as GLSL constants.
#include "view/palette.h"

#include <cstdio>

namespace primlab::view {
namespace {
std::string vec3(Colour c) {
  char text[64];
  std::snprintf(text, sizeof text, "vec3(%.3f, %.3f, %.3f)", c.r, c.g, c.b);
  return text;
}
}  // namespace

std::string palette_glsl() {
  std::string s;
  const struct {
    const char* glsl;
    const PaletteEntry& entry;
  } named[] = {{"kIdle", kIdle}, {"kRead", kRead}, {"kWritten", kWritten}, {"kPadding", kPadding},
               {"kInf", kInf},   {"kNaN", kNaN},   {"kHovered", kHovered}, {"kNetUp", kNetUp},
               {"kNetDown", kNetDown}};
  for (const auto& e : named) s += std::string("const vec3 ") + e.glsl + " = " + vec3(e.entry.colour) + ";\n";
  const std::string n = std::to_string(sizeof kOpColours / sizeof kOpColours[0]);
  s += "const vec3 kOpColour[" + n + "] = vec3[" + n + "](";
  for (const PaletteEntry& e : kOpColours) s += (&e == kOpColours ? "" : ", ") + vec3(e.colour);
  return s + ");\n";
}

}  // namespace primlab::view
