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
  for (const PaletteEntry& e : {kIdle, kRead, kWritten, kPadding}) {
    std::string name = e.name;
    name[0] = char(name[0] - 'a' + 'A');
    s += "const vec3 k" + name + " = " + vec3(e.colour) + ";\n";
  }
  const std::string n = std::to_string(sizeof kOpColours / sizeof kOpColours[0]);
  s += "const vec3 kOpColour[" + n + "] = vec3[" + n + "](";
  for (const PaletteEntry& e : kOpColours) s += (&e == kOpColours ? "" : ", ") + vec3(e.colour);
  return s + ");\n";
}

}  // namespace primlab::view
