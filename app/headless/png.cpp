// PNG writing through stb_image_write (Debian's libstb).
#include "headless/png.h"

#include <stb_image_write.h>

namespace primlab::headless {
Result write_png(const std::string& path, int w, int h, const std::vector<unsigned char>& rgba) {
  if (rgba.size() < std::size_t(w) * h * 4) return Result::failure("internal: pixel buffer too small");
  if (!stbi_write_png(path.c_str(), w, h, 4, rgba.data(), w * 4)) return Result::failure("cannot write '" + path + "'");
  return {};
}

std::vector<unsigned char> encode_png(int w, int h, const std::vector<unsigned char>& rgba) {
  std::vector<unsigned char> out;
  if (rgba.size() < std::size_t(w) * h * 4) return out;
  auto append = [](void* context, void* data, int size) {
    auto* bytes = static_cast<unsigned char*>(data);
    static_cast<std::vector<unsigned char>*>(context)->insert(static_cast<std::vector<unsigned char>*>(context)->end(),
                                                              bytes, bytes + size);
  };
  if (!stbi_write_png_to_func(append, &out, w, h, 4, rgba.data(), w * 4)) out.clear();
  return out;
}
}  // namespace primlab::headless
