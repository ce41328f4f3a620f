// png_check FILE WIDTH HEIGHT MIN_COLOURS [R,G,B ...]: exits 0 when the PNG has that size, at
// least that many distinct colours, and at least 100 pixels of each colour given (by default the
// idle and written bar colours of the trace view: a screenshot that shows the app's Step tab).
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: png_check FILE WIDTH HEIGHT MIN_COLOURS [R,G,B ...]\n");
    return 2;
  }
  std::vector<int> want;  // r, g, b triples
  for (int a = 5; a < argc; ++a) {
    int r, g, b;
    if (std::sscanf(argv[a], "%d,%d,%d", &r, &g, &b) != 3) {
      std::fprintf(stderr, "png_check: bad colour '%s'\n", argv[a]);
      return 2;
    }
    want.insert(want.end(), {r, g, b});
  }
  if (want.empty()) want = {92, 140, 204, 240, 92, 66};
  int w = 0, h = 0, c = 0;
  unsigned char* px = stbi_load(argv[1], &w, &h, &c, 3);
  if (!px) {
    std::fprintf(stderr, "png_check: cannot read %s\n", argv[1]);
    return 1;
  }
  std::set<unsigned> colours;
  std::vector<long> hits(want.size() / 3, 0);
  for (long i = 0; i < long(w) * h; ++i) {
    const unsigned char* p = px + 3 * i;
    colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
    for (std::size_t k = 0; k < hits.size(); ++k)
      hits[k] += std::abs(p[0] - want[3 * k]) < 6 && std::abs(p[1] - want[3 * k + 1]) < 6 &&
                 std::abs(p[2] - want[3 * k + 2]) < 6;
  }
  stbi_image_free(px);
  bool ok = w == std::atoi(argv[2]) && h == std::atoi(argv[3]) && long(colours.size()) >= std::atol(argv[4]);
  std::printf("png_check: %s %dx%d, %zu colours;", argv[1], w, h, colours.size());
  for (std::size_t k = 0; k < hits.size(); ++k) {
    std::printf(" (%d,%d,%d): %ld px", want[3 * k], want[3 * k + 1], want[3 * k + 2], hits[k]);
    ok = ok && hits[k] >= 100;
  }
  std::printf("\n");
  return ok ? 0 : 1;
}
