// Helpers for the headless rendering tests: an EGL context with ImGui, and pixel statistics.
#pragma once
#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "headless/egl_context.h"
#include "ui/app_ui.h"
#include "view/palette.h"

namespace primlab::testing {

// One EGL context and ImGui context for the whole test program.
inline Result headless_gl() {
  static headless::EglContext* egl = nullptr;
  static Result created;
  if (!egl) {
    egl = new headless::EglContext;
    created = egl->create();
    if (!created.ok()) return created;
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) return Result::failure("ImGui OpenGL3 backend failed");
  }
  return created;
}

// A fresh app state (the last one is freed) with the Step tab on `algo`, n and block, its trace
// built and the view ready.
inline ui::AppState& app_for(const std::string& algo, int n, int block) {
  static ui::AppState* s = nullptr;
  delete s;
  s = new ui::AppState;
  s->step.session.choice.algo = algo;
  s->step.session.choice.cfg.n = n;
  s->step.session.choice.cfg.block = block;
  EXPECT_TRUE(ui::init_app(*s)) << s->view.error;
  EXPECT_TRUE(s->step.session.has_trace()) << s->step.session.message;
  return *s;
}

struct Rgb {
  int r, g, b;
};

inline std::size_t count_near(const std::vector<unsigned char>& px, Rgb c, int tol = 6) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < px.size(); i += 4)
    n += std::abs(px[i] - c.r) <= tol && std::abs(px[i + 1] - c.g) <= tol && std::abs(px[i + 2] - c.b) <= tol;
  return n;
}

// Pixels near `c` inside a rectangle of an image `w` pixels wide.
inline std::size_t count_in(const std::vector<unsigned char>& px, int w, const view::Rect& r, Rgb c, int tol = 6) {
  std::size_t n = 0;
  const int h = int(px.size() / 4 / std::size_t(w));
  for (int y = std::max(0, int(r.y)); y < std::min(h, int(r.y + r.h)); ++y)
    for (int x = std::max(0, int(r.x)); x < std::min(w, int(r.x + r.w)); ++x) {
      const unsigned char* p = &px[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
      n += std::abs(p[0] - c.r) <= tol && std::abs(p[1] - c.g) <= tol && std::abs(p[2] - c.b) <= tol;
    }
  return n;
}

inline std::size_t distinct_colours(const std::vector<unsigned char>& px) {
  std::set<unsigned> s;
  for (std::size_t i = 0; i + 3 < px.size(); i += 4) s.insert(px[i] << 16 | px[i + 1] << 8 | px[i + 2]);
  return s.size();
}

// The bars' colours, from the palette the shaders are built with.
constexpr Rgb to_rgb(const view::PaletteEntry& e) {
  return {int(e.colour.r * 255.f + 0.5f), int(e.colour.g * 255.f + 0.5f), int(e.colour.b * 255.f + 0.5f)};
}
constexpr Rgb kIdle = to_rgb(view::kIdle), kRead = to_rgb(view::kRead), kWritten = to_rgb(view::kWritten),
              kPadding = to_rgb(view::kPadding), kInf = to_rgb(view::kInf), kNaN = to_rgb(view::kNaN);

// Rounding of text positions that the text checks allow (tests/gui/label_check.py's SLACK).
constexpr float kTextSlack = 0.5f;

// Two recorded texts (ui::TextLabel or perf::TextLabel) overlap by more than kTextSlack both ways.
template <class Label>
bool texts_overlap(const Label& a, const Label& b) {
  return std::min(a.x1, b.x1) - std::max(a.x0, b.x0) > kTextSlack &&
         std::min(a.y1, b.y1) - std::max(a.y0, b.y0) > kTextSlack;
}

}  // namespace primlab::testing
