// The window's saved placement and layout, GLFW's errors and the screenshot.
#include "window/settings.h"

#include "view/gl.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "headless/png.h"
#include "tools/command_line.h"
#include "view/trace_view.h"

namespace primlab::window {
namespace {

std::filesystem::path config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path p = xdg && *xdg ? std::filesystem::path(xdg) : std::filesystem::path(home ? home : ".") / ".config";
  p /= "primlab";
  std::error_code ec;
  std::filesystem::create_directories(p, ec);
  return p;
}

std::string last_error;
bool report_errors = false;

}  // namespace

Settings load_settings() {
  const auto dir = config_dir();
  Settings s{dir / "window.txt", (dir / "imgui.ini").string(), {}};
  std::ifstream in(s.placement_file);
  Placement r;
  if (in >> r.x >> r.y >> r.w >> r.h && r.w >= 320 && r.h >= 240 && r.w <= 16384 && r.h <= 16384) s.placement = r;
  return s;
}

Placement fit_to_screen(Placement p) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  int x = 0, y = 0, w = 0, h = 0;
  if (monitor) glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
  if (w <= 0 || h <= 0) return p;  // no monitor information: keep what was asked
  p.w = std::min(p.w, w);
  p.h = std::min(p.h, h);
  if (p.x >= 0 && p.y >= 0) {
    p.x = std::clamp(p.x, x, x + w - p.w);
    p.y = std::clamp(p.y, y, y + h - p.h);
  }
  return p;
}

void save_placement(const Settings& s, GLFWwindow* win) {
  Placement p;
  glfwGetWindowPos(win, &p.x, &p.y);
  glfwGetWindowSize(win, &p.w, &p.h);
  std::ofstream(s.placement_file) << p.x << ' ' << p.y << ' ' << p.w << ' ' << p.h << '\n';
}

// Debian's ImGui 1.86 reads past the end of an empty imgui.ini when it loads the file itself, so
// the text is read here (a missing file is an empty layout).
void load_layout(const Settings& s) {
  std::ifstream in(s.ini_path, std::ios::binary);
  std::stringstream text;
  if (in) text << in.rdbuf();
  const std::string t = text.str();
  ImGui::LoadIniSettingsFromMemory(t.c_str(), t.size());
}

void glfw_error_callback(int code, const char* text) {
  last_error = "GLFW error " + std::to_string(code) + ": " + text;
  if (report_errors) std::fprintf(stderr, "primlab: %s\n", last_error.c_str());
}

const std::string& glfw_last_error() { return last_error; }

void report_glfw_errors() { report_errors = true; }

int save_screenshot(const std::string& path, int w, int h) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  if (Result wrote = headless::write_png(path, w, h, view::read_rgba(w, h)); !wrote.ok())
    return ui::fail("primlab", wrote.message(), 1);
  return 0;
}

}  // namespace primlab::window
