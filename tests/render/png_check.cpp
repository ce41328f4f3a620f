// png_check FILE WIDTH HEIGHT MIN_COLOURS: exits 0 when the PNG has that size, at least that many
// distinct colours, and the bar colours of a trace view (a screenshot that shows the app).
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <set>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: png_check FILE WIDTH HEIGHT MIN_COLOURS\n");
    return 2;
  }
  int w = 0, h = 0, c = 0;
  unsigned char* px = stbi_load(argv[1], &w, &h, &c, 3);
  if (!px) {
    std::fprintf(stderr, "png_check: cannot read %s\n", argv[1]);
    return 1;
  }
  std::set<unsigned> colours;
  long idle = 0, written = 0;
  for (long i = 0; i < long(w) * h; ++i) {
    const unsigned char* p = px + 3 * i;
    colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
    idle += std::abs(p[0] - 92) < 6 && std::abs(p[1] - 140) < 6 && std::abs(p[2] - 204) < 6;
    written += std::abs(p[0] - 240) < 6 && std::abs(p[1] - 92) < 6 && std::abs(p[2] - 66) < 6;
  }
  stbi_image_free(px);
  std::printf("png_check: %s %dx%d, %zu colours, %ld idle-bar and %ld written-bar pixels\n", argv[1], w, h,
              colours.size(), idle, written);
  const bool ok = w == std::atoi(argv[2]) && h == std::atoi(argv[3]) && long(colours.size()) >= std::atol(argv[4]) &&
                  idle > 1000 && written > 200;
  return ok ? 0 : 1;
}
