// PNG writing through stb_image_write (Debian's libstb).
#include "headless/png.h"

#include <stb_image_write.h>

namespace primlab::headless {
bool write_png(const std::string& path, int w, int h, const std::vector<unsigned char>& rgba, std::string& error) {
  if (rgba.size() < std::size_t(w) * h * 4) {
    error = "internal: pixel buffer too small";
    return false;
  }
  if (!stbi_write_png(path.c_str(), w, h, 4, rgba.data(), w * 4)) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}
}  // namespace primlab::headless
