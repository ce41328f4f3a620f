// The tools' error convention: one line "tool: message" on stderr. Control characters in the
// message are escaped, so that what the user typed (a newline, an escape sequence) stays on it.
#pragma once
#include <cstdio>
#include <string>

namespace primlab {

// Prints the line and returns `code` (2 for bad arguments, 1 for a failure at run time).
inline int print_error_line(const char* tool, const std::string& message, int code) {
  std::string line = std::string(tool) + ": ";
  for (const char ch : message) {
    const auto u = static_cast<unsigned char>(ch);
    if (u >= 0x20 && u != 0x7f) {
      line += ch;
    } else {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", u);
      line += esc;
    }
  }
  std::fprintf(stderr, "%s\n", line.c_str());
  return code;
}

}  // namespace primlab
