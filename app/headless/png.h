// PNG writing for screenshots and headless renders.
#pragma once
#include <string>
#include <vector>

#include "lab/model/result.h"

namespace primlab::headless {
// Writes RGBA pixels (top row first). A failure with a message when the file cannot be written.
Result write_png(const std::string& path, int w, int h, const std::vector<unsigned char>& rgba);
// The same image as PNG bytes in memory (for Python's step.png()); empty if encoding fails.
std::vector<unsigned char> encode_png(int w, int h, const std::vector<unsigned char>& rgba);
}  // namespace primlab::headless
