// PNG writing for screenshots and headless renders.
#pragma once
#include <string>
#include <vector>

namespace primlab::headless {
// Writes RGBA pixels (top row first). False with a message when the file cannot be written.
bool write_png(const std::string& path, int w, int h, const std::vector<unsigned char>& rgba, std::string& error);
}  // namespace primlab::headless
