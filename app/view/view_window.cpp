// Zoom and pan of the trace view, and the padded axis.
#include "view/view_window.h"

#include <algorithm>

namespace primlab::view {

float Axis::unit_of(float i) const {
  if (i <= float(real) || padding <= 0) return i;
  return float(real) + (std::min(i, float(cells())) - float(real)) * pad_width();
}

float Axis::cell_of(float u) const {
  if (u <= float(real) || padding <= 0) return u;
  return std::min(float(real) + (u - float(real)) / pad_width(), float(cells()));
}

Axis padded_axis(int real, int padding) {
  Axis a;
  a.real = std::max(real, 0);
  a.padding = std::max(padding, 0);
  a.pad_units = std::min(float(a.padding), std::max(float(a.real) / 3.f, 0.5f));
  if (a.real == 0 && a.padding == 0) a.real = 1;
  return a;
}

ViewWindow clamp_window(ViewWindow w, float units) {
  const float n = std::max(units, 1e-3f);
  ViewWindow c;
  c.count = w.count <= 0.f ? n : std::clamp(w.count, std::min(kMinWindow, n), n);
  c.first = std::clamp(w.first, 0.f, n - c.count);
  return c;
}

ViewWindow zoom_window(ViewWindow w, float units, float anchor, float factor) {
  const ViewWindow c = clamp_window(w, units);
  const float n = std::max(units, 1e-3f);
  const float frac = (anchor - c.first) / c.count;  // where the anchor sits, 0..1
  ViewWindow z;
  z.count = std::clamp(c.count * factor, std::min(kMinWindow, n), n);
  z.first = anchor - frac * z.count;
  return clamp_window(z, units);
}

ViewWindow pan_window(ViewWindow w, float units, float delta) {
  ViewWindow c = clamp_window(w, units);
  c.first += delta;
  return clamp_window(c, units);
}

bool whole_row(ViewWindow w, float units) {
  const ViewWindow c = clamp_window(w, units);
  return c.first <= 0.f && c.count >= units - 1e-4f;
}

float element_at(ViewWindow w, float units, float x0, float w_px, float x) {
  const ViewWindow c = clamp_window(w, units);
  return c.first + (x - x0) / std::max(w_px, 1.f) * c.count;
}

}  // namespace primlab::view
