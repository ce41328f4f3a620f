// Zoom and pan of the trace view.
#include "view/view_window.h"

#include <algorithm>

namespace primlab::view {

ViewWindow clamp_window(ViewWindow w, int width) {
  const float n = float(std::max(width, 1));
  ViewWindow c;
  c.count = w.count <= 0.f ? n : std::clamp(w.count, std::min(kMinWindow, n), n);
  c.first = std::clamp(w.first, 0.f, n - c.count);
  return c;
}

ViewWindow zoom_window(ViewWindow w, int width, float anchor, float factor) {
  const ViewWindow c = clamp_window(w, width);
  const float frac = (anchor - c.first) / c.count;  // where the anchor sits, 0..1
  ViewWindow z;
  z.count = std::clamp(c.count * factor, std::min(kMinWindow, float(std::max(width, 1))), float(std::max(width, 1)));
  z.first = anchor - frac * z.count;
  return clamp_window(z, width);
}

ViewWindow pan_window(ViewWindow w, int width, float elements) {
  ViewWindow c = clamp_window(w, width);
  c.first += elements;
  return clamp_window(c, width);
}

bool whole_row(ViewWindow w, int width) {
  const ViewWindow c = clamp_window(w, width);
  return c.first <= 0.f && c.count >= float(width);
}

float element_at(ViewWindow w, int width, float x0, float w_px, float x) {
  const ViewWindow c = clamp_window(w, width);
  return c.first + (x - x0) / std::max(w_px, 1.f) * c.count;
}

}  // namespace primlab::view
