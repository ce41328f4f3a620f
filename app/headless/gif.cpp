// Animated GIF through giflib with one fixed palette (a 6x6x6 colour cube and 40 greys): the
// view's few flat colours map well, and every frame shares the global colour map.
#include "headless/gif.h"

#include <gif_lib.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

namespace primlab::headless {
namespace {

constexpr int kGreys = 40;

ColorMapObject* make_palette() {
  ColorMapObject* map = GifMakeMapObject(256, nullptr);
  if (!map) return nullptr;
  int k = 0;
  for (int r = 0; r < 6; ++r)
    for (int g = 0; g < 6; ++g)
      for (int b = 0; b < 6; ++b) map->Colors[k++] = GifColorType{GifByteType(r * 51), GifByteType(g * 51), GifByteType(b * 51)};
  for (int i = 0; i < kGreys; ++i) {
    const GifByteType v = GifByteType(i * 255 / (kGreys - 1));
    map->Colors[k++] = GifColorType{v, v, v};
  }
  return map;
}

GifByteType nearest(const unsigned char* p) {
  const int r = p[0], g = p[1], b = p[2];
  const int mx = std::max({r, g, b}), mn = std::min({r, g, b});
  if (mx - mn < 12) return GifByteType(216 + (r + g + b) / 3 * (kGreys - 1) / 255);
  auto q = [](int v) { return (v + 25) / 51; };
  return GifByteType(q(r) * 36 + q(g) * 6 + q(b));
}

}  // namespace

Result write_gif(const std::string& path, int w, int h, const std::vector<std::vector<unsigned char>>& frames,
                 int delay_cs) {
  int err = 0;
  GifFileType* gif = EGifOpenFileName(path.c_str(), false, &err);
  if (!gif) return Result::failure("cannot write '" + path + "': " + GifErrorString(err));
  ColorMapObject* palette = make_palette();
  bool ok = palette && EGifPutScreenDesc(gif, w, h, 8, 0, palette) == GIF_OK;
  // NETSCAPE2.0 application extension: loop forever.
  const unsigned char loop_app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  const unsigned char loop_sub[] = {1, 0, 0};
  ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
       EGifPutExtensionBlock(gif, sizeof loop_app, loop_app) == GIF_OK &&
       EGifPutExtensionBlock(gif, sizeof loop_sub, loop_sub) == GIF_OK && EGifPutExtensionTrailer(gif) == GIF_OK;
  std::vector<GifByteType> line(std::size_t(w), 0);
  for (const auto& f : frames) {
    if (!ok) break;
    const unsigned char gce[4] = {0, static_cast<unsigned char>(delay_cs & 0xff), static_cast<unsigned char>(delay_cs >> 8), 0};
    ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, gce) == GIF_OK &&
         EGifPutImageDesc(gif, 0, 0, w, h, false, nullptr) == GIF_OK;
    for (int y = 0; ok && y < h; ++y) {
      for (int x = 0; x < w; ++x) line[std::size_t(x)] = nearest(f.data() + (std::size_t(y) * w + x) * 4);
      ok = EGifPutLine(gif, line.data(), w) == GIF_OK;
    }
  }
  std::string error;
  if (!ok) error = "writing '" + path + "' failed: " + GifErrorString(gif->Error);
  if (EGifCloseFile(gif, &err) != GIF_OK && ok) {
    error = "closing '" + path + "' failed: " + GifErrorString(err);
    ok = false;
  }
  if (palette) GifFreeMapObject(palette);
  if (!ok) return Result::failure(error);
  const mode_t mask = umask(0);  // giflib creates the file 0600; give it the usual mode
  umask(mask);
  chmod(path.c_str(), 0666 & ~mask);
  return {};
}

}  // namespace primlab::headless
