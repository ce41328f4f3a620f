// The plot widget: axes, ticks, lines, legend, hover readout and ceiling, on the window's draw list.
#include "ui/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>

#include "lab/catalog.h"
#include "model/perf_model.h"
#include "ui/labels.h"

namespace primlab::perf {
namespace {

constexpr ImU32 kFrameBg = IM_COL32(24, 24, 28, 255);
constexpr ImU32 kBorder = IM_COL32(90, 90, 100, 255);
constexpr ImU32 kGrid = IM_COL32(60, 60, 68, 255);
constexpr ImU32 kText = IM_COL32(215, 215, 220, 255);
constexpr ImU32 kDimText = IM_COL32(165, 165, 178, 255);
constexpr ImU32 kCeiling = IM_COL32(235, 235, 235, 200);
constexpr ImU32 kWarnText = IM_COL32(255, 199, 89, 255);

struct Range {
  double lo = 1, hi = 10;
  bool log = true;
  double t(double v) const {  // 0..1 along the axis
    if (log) return (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
    return (v - lo) / (hi - lo);
  }
};

Range fit(std::vector<double> v, bool log) {
  Range r;
  r.log = log;
  if (log) v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !(x > 0) || !std::isfinite(x); }), v.end());
  if (v.empty()) return r;
  auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  r.lo = *mn;
  r.hi = *mx;
  if (log) {
    if (r.hi <= r.lo * 1.0001) r.lo /= 2, r.hi *= 2;
    const double pad = std::pow(r.hi / r.lo, 0.04);
    r.lo /= pad;
    r.hi *= pad;
  } else {
    if (r.hi <= r.lo) r.hi = r.lo + 1;
    const double pad = (r.hi - r.lo) * 0.05;
    r.lo -= pad;
    r.hi += pad;
  }
  return r;
}

std::string fmt(const char* f, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick, float dash = 7, float gap = 5) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) return;
  for (float s = 0; s < len; s += dash + gap) {
    const float e = std::min(len, s + dash);
    dl->AddLine(ImVec2(a.x + dx * s / len, a.y + dy * s / len), ImVec2(a.x + dx * e / len, a.y + dy * e / len), col, thick);
  }
}

DrawnTexts g_drawn;

// Draws `text` at `pos` and notes it.
void text_at(ImDrawList* dl, ImVec2 pos, ImU32 col, const std::string& text) {
  dl->AddText(pos, col, text.c_str());
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  note_text(pos, ImVec2(pos.x + ts.x, pos.y + ts.y), text);
}

std::string ratio_words(double value, double ref, bool time, const std::string& name) {
  const double faster = time ? ref / value : value / ref;
  if (std::fabs(faster - 1) < 0.005) return "as fast as " + name;
  return faster > 1 ? fmt("%.2fx faster than ", faster) + name : fmt("%.2fx slower than ", 1 / faster) + name;
}

}  // namespace

std::string format_tick(double v, TickFormat f) {
  switch (f) {
    case TickFormat::Pow2: {
      const double k = std::log2(v);
      if (std::fabs(k - std::round(k)) < 1e-6) return "2^" + std::to_string(int(std::round(k)));
      return fmt("%.3g", v);
    }
    case TickFormat::Time: return format_ms(v);
    case TickFormat::Rate: return format_rate(v);
    case TickFormat::Bytes:
      if (v >= 1000) return fmt("%.3g TB/s", v / 1000);
      if (v >= 1) return fmt("%.3g GB/s", v);
      return fmt("%.3g MB/s", v * 1000);
    case TickFormat::Plain: break;
  }
  return fmt("%.4g", v);
}

ImU32 series_colour(const std::string& name) {
  struct Known {
    const char* name;
    ImU32 col;
  };
  // The engine's own rows.
  static const Known known[] = {
      {"primlab", IM_COL32(60, 200, 110, 255)}, {"cub", IM_COL32(86, 156, 240, 255)},
      {"thrust", IM_COL32(190, 110, 230, 255)}, {"cpu", IM_COL32(210, 150, 135, 255)},
      {"cpu-par", IM_COL32(96, 216, 216, 255)},
  };
  // The lab's kernels by their place in their catalog family: red, orange, yellow first (the
  // lecture's order: reduce1 red, reduce2 orange, ...), then five more, chosen with the five above
  // to differ pairwise by CIEDE2000 >= 19 on the plot's dark background (no two greens).
  static const ImU32 warm[] = {IM_COL32(240, 75, 15, 255),   IM_COL32(255, 165, 30, 255),
                               IM_COL32(240, 225, 90, 255),  IM_COL32(225, 90, 135, 255),
                               IM_COL32(165, 135, 60, 255),  IM_COL32(45, 150, 165, 255),
                               IM_COL32(195, 210, 255, 255), IM_COL32(255, 210, 240, 255)};
  // A baseline or block-suffixed series takes its implementation's colour.
  const std::string base = name.substr(0, name.find(' '));
  for (const Known& k : known)
    if (base == k.name) return k.col;
  // A newer CCCL's rows beside the toolkit's ("cub-3.6", "thrust-3.6"): grey and indigo, apart from
  // the thirteen above.
  if (base.rfind("cub-", 0) == 0) return IM_COL32(150, 150, 150, 255);
  if (base.rfind("thrust-", 0) == 0) return IM_COL32(90, 105, 240, 255);
  if (const Algorithm* a = find_algorithm(base)) {
    std::size_t place = 0;
    for (const Algorithm& b : algorithms()) {
      if (&b == a) break;
      if (std::string(b.family) == a->family) ++place;
    }
    return warm[place % (sizeof warm / sizeof warm[0])];
  }
  // Any other name: a hue from its FNV-1a hash, the same on every platform.
  std::uint32_t h = 2166136261u;
  for (unsigned char ch : base) h = (h ^ ch) * 16777619u;
  const float hue = float(h % 360) / 360.f;
  ImVec4 c;
  ImGui::ColorConvertHSVtoRGB(hue, 0.6f, 0.95f, c.x, c.y, c.z);
  return IM_COL32(int(c.x * 255), int(c.y * 255), int(c.z * 255), 255);
}

DrawnTexts& drawn_texts() { return g_drawn; }

void note_text(ImVec2 min, ImVec2 max, const std::string& text) {
  if (!text.empty()) g_drawn.labels.push_back(TextLabel{min.x, min.y, max.x, max.y, text});
  ui::note_drawn_text(min, max, text);  // and in the app's one list of texts (ui/labels.h)
}

std::string fit_text(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::string cut = text;
  while (!cut.empty() && ImGui::CalcTextSize((cut + "...").c_str()).x > width) cut.pop_back();
  return cut + "...";
}

std::string readout_line(const PlotSpec& spec, const std::vector<Series>& series, const Series& s, std::size_t i) {
  std::string text = s.label + ": " + format_tick(s.y[i], spec.y.format);
  if (spec.ratio_to.empty() || s.label == spec.ratio_to || s.label == spec.ratio_to + " (baseline)") return text;
  // The reference of the series' own kind (this run's, or the baseline's) at this x, else the other's.
  for (const bool own : {true, false}) {
    const bool dashed = own ? s.dashed : !s.dashed;
    for (const Series& r : series) {
      if (r.dashed != dashed || (r.label != spec.ratio_to && r.label != spec.ratio_to + " (baseline)")) continue;
      for (std::size_t k = 0; k < r.x.size() && k < r.y.size(); ++k)
        if (r.x[k] == s.x[i] && r.y[k] > 0)
          return text + ", " + ratio_words(s.y[i], r.y[k], spec.y_is_time,
                                           spec.ratio_name + (dashed ? " (baseline)" : ""));
    }
  }
  return text;
}

PlotHover draw_plot(const char* id, const PlotSpec& spec, const std::vector<Series>& series, ImVec2 size) {
  PlotHover hover;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = std::max(200.f, avail.x + size.x);
  if (size.y <= 0) size.y = std::max(150.f, avail.y + size.y);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fh = ImGui::GetFontSize(), row = 1.3f * fh;

  dl->AddRectFilled(p0, p1, kFrameBg, 4.f);
  dl->AddRect(p0, p1, kBorder, 4.f);
  // Bands, each text on its own row: above the plot area the title, the warning and the y axis's
  // label; under it the x ticks, the x axis's label and the footer.
  const float top = 0.4f * fh + row * (2 + (spec.warning.empty() ? 0 : 1));
  const float bottom = 0.3f * fh + row * float(2 + spec.footer.size());
  const ImVec2 a0(p0.x + 7.5f * fh, p0.y + top), a1(p1.x - 1.2f * fh, p1.y - bottom);  // plot area
  // Centred over the plot area where it fits there, else over the whole box, cut to fit it.
  auto centred = [&](const std::string& text, float y, ImU32 col) {
    const std::string t = fit_text(text, p1.x - p0.x - fh);
    const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
    const float x = std::clamp((a0.x + a1.x - ts.x) / 2, p0.x + 0.5f * fh, p1.x - 0.5f * fh - ts.x);
    text_at(dl, ImVec2(x, y), col, t);
  };
  if (!spec.title.empty()) centred(spec.title, p0.y + 0.4f * fh, kText);
  if (!spec.warning.empty()) centred(spec.warning, p0.y + 0.4f * fh + row, kWarnText);
  for (std::size_t i = 0; i < spec.footer.size(); ++i)
    centred(spec.footer[i], p1.y - 0.3f * fh - row * float(spec.footer.size() - i), kDimText);

  std::vector<double> xs, ys;
  for (const Series& s : series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (s.y[i] > 0) xs.push_back(s.x[i]), ys.push_back(s.y[i]);
  for (const Series& s : series)
    if (s.band)
      for (std::size_t i = 0; i < s.lo.size() && i < s.hi.size(); ++i)
        if (s.lo[i] > 0 && s.hi[i] > 0) ys.push_back(s.lo[i]), ys.push_back(s.hi[i]);
  if (spec.ceiling > 0) ys.push_back(spec.ceiling);
  if (xs.empty()) {
    const std::string msg = "no results yet: choose implementations and press Run";
    const ImVec2 ts = ImGui::CalcTextSize(msg.c_str());
    text_at(dl, ImVec2((p0.x + p1.x - ts.x) / 2, (p0.y + p1.y - ts.y) / 2), kText, msg);
    return hover;
  }
  const Range rx = fit(xs, spec.x.log), ry = fit(ys, spec.y.log);
  auto sx = [&](double v) { return float(a0.x + (a1.x - a0.x) * rx.t(v)); };
  auto sy = [&](double v) { return float(a1.y - (a1.y - a0.y) * ry.t(v)); };

  // Grid and ticks.
  // Grid lines on whole pixels (AddLine adds the half pixel), so that they are crisp.
  auto crisp = [](float v) { return std::floor(v); };
  for (double t : axis_ticks(rx.lo, rx.hi, rx.log, true)) {
    const float x = crisp(sx(t));
    dl->AddLine(ImVec2(x, a0.y), ImVec2(x, a1.y), kGrid);
    const std::string s = format_tick(t, spec.x.format);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    text_at(dl, ImVec2(x - ts.x / 2, a1.y + 0.3f * fh), kText, s);
  }
  for (double t : axis_ticks(ry.lo, ry.hi, ry.log, false)) {
    const float y = crisp(sy(t));
    dl->AddLine(ImVec2(a0.x, y), ImVec2(a1.x, y), kGrid);
    const std::string s = format_tick(t, spec.y.format);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    // Beside its grid line, but under the y axis's label (the row above the plot area) and over
    // the x ticks, where a tick at an edge would run into them.
    const float ty = std::max(a0.y - row + fh + 1.f, std::min(y - ts.y / 2, a1.y + 0.3f * fh - ts.y - 1.f));
    text_at(dl, ImVec2(a0.x - ts.x - 0.4f * fh, ty), kText, s);
  }
  dl->AddRect(a0, a1, kBorder);
  {
    // Axis labels: x under its ticks, y on its own row above the plot area.
    const ImVec2 ts = ImGui::CalcTextSize(spec.x.label.c_str());
    text_at(dl, ImVec2((a0.x + a1.x - ts.x) / 2, a1.y + 0.3f * fh + row), kText, spec.x.label);
    text_at(dl, ImVec2(p0.x + 0.5f * fh, a0.y - row), kText, spec.y.label);
  }

  // Series, clipped to the plot area: the noisy ones' bands first, under every line.
  dl->PushClipRect(a0, a1, true);
  for (const Series& s : series) {
    if (!s.band) continue;
    const ImU32 col = (s.colour ? s.colour : series_colour(s.label)) & 0x00ffffffu;
    const ImU32 fill = col | (IM_COL32_A_MASK & IM_COL32(0, 0, 0, 70));
    const std::size_t n = std::min({s.x.size(), s.lo.size(), s.hi.size()});
    for (std::size_t i = 0; i < n; ++i) {
      if (!(s.lo[i] > 0 && s.hi[i] > 0)) continue;
      const float x = sx(s.x[i]);
      const bool next = i + 1 < n && s.lo[i + 1] > 0 && s.hi[i + 1] > 0;
      const bool prev = i > 0 && s.lo[i - 1] > 0 && s.hi[i - 1] > 0;
      if (!next && !prev) dl->AddLine(ImVec2(x, sy(s.hi[i])), ImVec2(x, sy(s.lo[i])), fill, 5.f);  // a lone point: a bar
      if (next) {
        const float x2 = sx(s.x[i + 1]);
        dl->AddQuadFilled(ImVec2(x, sy(s.hi[i])), ImVec2(x2, sy(s.hi[i + 1])), ImVec2(x2, sy(s.lo[i + 1])),
                          ImVec2(x, sy(s.lo[i])), fill);
      }
    }
  }
  if (spec.ceiling > 0) {
    const float y = sy(spec.ceiling);
    dashed_line(dl, ImVec2(a0.x, y), ImVec2(a1.x, y), kCeiling, 1.5f, 10, 6);
    const ImVec2 ts = ImGui::CalcTextSize(spec.ceiling_label.c_str());
    // Under the line where the line is near the top (the legend's corner is the other one).
    const float ty = y - ts.y - 2 < a0.y + 0.2f * fh ? y + 3 : y - ts.y - 2;
    text_at(dl, ImVec2(a1.x - ts.x - 0.5f * fh, ty), kCeiling, spec.ceiling_label);
  }
  for (const Series& s : series) {
    const ImU32 col = s.colour ? s.colour : series_colour(s.label);
    std::vector<ImVec2> run;
    auto flush = [&] {
      if (run.size() >= 2) {
        if (s.dashed)
          for (std::size_t i = 0; i + 1 < run.size(); ++i) dashed_line(dl, run[i], run[i + 1], col, 1.5f);
        else
          dl->AddPolyline(run.data(), int(run.size()), col, 0, 2.0f);
      }
      for (const ImVec2& p : run)
        if (s.dashed) dl->AddCircle(p, 3.0f, col);
        else dl->AddCircleFilled(p, 3.0f, col);
      run.clear();
    };
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!(s.y[i] > 0)) {
        flush();
        continue;
      }
      run.emplace_back(sx(s.x[i]), sy(s.y[i]));
    }
    flush();
  }

  // Hover: the nearest x column, its points ringed, and a readout of every series there.
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (hovered && m.x >= a0.x && m.x <= a1.x && m.y >= a0.y && m.y <= a1.y) {
    double best = 0;
    float bd = 1e9f;
    for (double x : xs)
      if (std::fabs(sx(x) - m.x) < bd) bd = std::fabs(sx(x) - m.x), best = x;
    hover.active = true;
    hover.x = best;
    const float x = sx(best);
    dl->AddLine(ImVec2(x, a0.y), ImVec2(x, a1.y), IM_COL32(255, 255, 255, 90));
    struct Line {
      double y;
      std::string text;
      ImU32 col;
    };
    std::vector<Line> lines;
    for (const Series& s : series)
      for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
        if (s.x[i] == best && s.y[i] > 0) {
          const ImU32 col = s.colour ? s.colour : series_colour(s.label);
          dl->AddCircle(ImVec2(x, sy(s.y[i])), 5.f, col, 0, 2.f);
          lines.push_back({s.y[i], readout_line(spec, series, s, i), col});
        }
    dl->PopClipRect();
    std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.y < b.y; });
    ImGui::BeginTooltip();
    const std::string head = spec.x.label + " = " + format_tick(best, spec.x.format);
    ImGui::TextUnformatted(head.c_str());
    g_drawn.readout = {head};
    for (const Line& l : lines) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(l.col), "%s", l.text.c_str());
      g_drawn.readout.push_back(l.text);
    }
    ImGui::EndTooltip();
  } else {
    dl->PopClipRect();
  }

  // Legend: top-left inside the plot area; noisy series say so.
  auto legend_text = [](const Series& s) { return s.band ? s.label + " (noisy)" : s.label; };
  float lw = 0;
  for (const Series& s : series) lw = std::max(lw, ImGui::CalcTextSize(legend_text(s).c_str()).x);
  if (!series.empty()) {
    const float lrow = fh * 1.15f, sw = 1.8f * fh;
    const ImVec2 l0(a0.x + 0.6f * fh, a0.y + 0.5f * fh);
    const ImVec2 l1(l0.x + sw + lw + 1.2f * fh, l0.y + lrow * float(series.size()) + 0.6f * fh);
    dl->AddRectFilled(l0, l1, IM_COL32(16, 16, 20, 215), 3.f);
    dl->AddRect(l0, l1, kBorder, 3.f);
    for (std::size_t i = 0; i < series.size(); ++i) {
      const Series& s = series[i];
      const ImU32 col = s.colour ? s.colour : series_colour(s.label);
      const float y = l0.y + 0.3f * fh + lrow * float(i) + lrow / 2;
      const ImVec2 a(l0.x + 0.4f * fh, y), b(l0.x + sw, y);
      if (s.dashed) dashed_line(dl, a, b, col, 2.f, 4, 3);
      else dl->AddLine(a, b, col, 3.f);
      text_at(dl, ImVec2(b.x + 0.4f * fh, y - fh / 2), kText, legend_text(s));
    }
  }
  return hover;
}

}  // namespace primlab::perf
