// primlab: the window. GLFW + glad + Dear ImGui on OpenGL 3.3 core; the frame itself is
// ui::draw_frame (shared with headless `render`). The window keeps its size, position and
// layout between launches (in $XDG_CONFIG_HOME/primlab or ~/.config/primlab).
#include "view/gl.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tools/command_line.h"
#include "model/step_choice.h"
#include "headless/png.h"
#include "ui/app_ui.h"

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

struct WindowPlacement {
  int x = -1, y = -1, w = 1440, h = 900;
};

WindowPlacement load_placement(const std::filesystem::path& file) {
  WindowPlacement p;
  std::ifstream in(file);
  WindowPlacement r;
  if (in >> r.x >> r.y >> r.w >> r.h && r.w >= 320 && r.h >= 240 && r.w <= 16384 && r.h <= 16384) p = r;
  return p;
}

void save_placement(const std::filesystem::path& file, GLFWwindow* win) {
  WindowPlacement p;
  glfwGetWindowPos(win, &p.x, &p.y);
  glfwGetWindowSize(win, &p.w, &p.h);
  std::ofstream(file) << p.x << ' ' << p.y << ' ' << p.w << ' ' << p.h << '\n';
}

// Loads the saved ImGui layout. Debian's ImGui 1.86 reads past the end of an empty imgui.ini when
// it loads the file itself, so the text is read here (a missing file is an empty layout).
void load_layout(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  if (in) text << in.rdbuf();
  const std::string s = text.str();
  ImGui::LoadIniSettingsFromMemory(s.c_str(), s.size());
}

// GLFW's reason for a failed call: kept until the window is open (a failed start is reported as
// one line with it), printed after.
std::string glfw_last_error;
bool glfw_window_open = false;
void glfw_error(int code, const char* text) {
  glfw_last_error = "GLFW error " + std::to_string(code) + ": " + text;
  if (glfw_window_open) std::fprintf(stderr, "primlab: %s\n", glfw_last_error.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace primlab;
  CLI::App app{"primlab: step and measure GPU parallel primitives"};
  ui::StepOptions opt;
  add_step_options(app, opt);
  int smoke_frames = 0, step = 0;
  std::string screenshot;
  std::string tab;
  bool perf_sweep = false;
  app.add_option("--tab", tab, "open this tab first: step, race or perf")
      ->check(CLI::IsMember({"step", "race", "perf"}));
  app.add_flag("--perf-sweep", perf_sweep, "start a Performance sweep at launch (with --smoke-frames: sizes up to 2^16, "
                                           "and the screenshot waits for it)");
  std::string race;
  app.add_option("--race", race, "open the Race tab with two algorithms, e.g. scan-naive,scan-blelloch");
  app.add_option("--step", step, "the step to show first")->check(CLI::NonNegativeNumber);
  auto* smoke = app.add_option("--smoke-frames", smoke_frames, "run this many frames, then exit (tests)")
                    ->check(CLI::NonNegativeNumber);
  app.add_option("--screenshot", screenshot, "with --smoke-frames: save the last frame to this PNG")->needs(smoke);
  if (auto code = ui::parse_command_line(app, "primlab", argc, argv)) return *code;
  ui::AppState state;
  std::string error, race_a, race_b;
  if (!ui::resolve_step_options(opt, state.step.choice, error)) return ui::fail("primlab", error);
  if (!race.empty() && !ui::parse_race(race, race_a, race_b, error)) return ui::fail("primlab", error);
  if (!screenshot.empty() && !ui::check_output_file(screenshot, error))
    return ui::fail("primlab", "--screenshot: " + error);

  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    const std::string why = "cannot open a window (" + glfw_last_error + "). `render` and `trace` work headless.";
    return ui::fail("primlab", why, 1);
  }
  const auto dir = config_dir();
  const auto placement_file = dir / "window.txt";
  static std::string ini_path = (dir / "imgui.ini").string();
  const WindowPlacement place = load_placement(placement_file);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* win = glfwCreateWindow(place.w, place.h, "primlab", nullptr, nullptr);
  if (!win) {
    glfwTerminate();
    return ui::fail("primlab", "cannot create an OpenGL 3.3 core window (" + glfw_last_error + ")", 1);
  }
  glfw_window_open = true;
  if (place.x >= 0 && place.y >= 0) glfwSetWindowPos(win, place.x, place.y);
  glfwMakeContextCurrent(win);
  glfwSwapInterval(1);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)))
    return ui::fail("primlab", "cannot load OpenGL", 1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path.c_str();
  load_layout(ini_path);
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  ui::init_app(state);
  state.step.go(step);
  if (tab == "race") state.request_tab = 1;
  if (tab == "perf") state.request_tab = 2;
  if (perf_sweep) {
    if (smoke_frames > 0) state.perf.plan.log2_max = 16;
    perf::start_sweep(state.perf);
    state.request_tab = 2;
  }
  int code = 0;
  if (!race.empty()) {
    state.race.a.choice = state.step.choice;
    if (!ui::start_race(state, race_a, race_b)) {
      const std::string& why = state.race.a.message.empty() ? state.race.b.message : state.race.a.message;
      code = ui::fail("primlab", "--race needs two algorithms that run on the same input: " + why);
    }
    state.request_tab = 1;
    state.race.transport.step = step;
  }
  double last = glfwGetTime();
  int frame = 0;
  while (code == 0 && !glfwWindowShouldClose(win)) {
    if (smoke_frames > 0) glfwPollEvents();
    else if (state.step.transport.playing) glfwPollEvents();
    else glfwWaitEventsTimeout(0.1);
    const double now = glfwGetTime();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ui::handle_keys(state);
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(win, &fw, &fh);
    ui::draw_frame(state, io.DisplaySize.x, io.DisplaySize.y, now - last);
    last = now;
    ImGui::Render();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fw, fh);
    glClearColor(0.08f, 0.08f, 0.09f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // The screenshot shows the finished sweep. Polled here as well: the Performance tab, which
    // polls it, is not drawn while another tab is shown (--race).
    if (perf_sweep) perf::poll_sweep(state.perf);
    const bool waiting = perf_sweep && state.perf.progress.running;
    if (smoke_frames > 0 && ++frame >= smoke_frames && !waiting) {
      if (!screenshot.empty()) {
        std::vector<unsigned char> px(std::size_t(fw) * fh * 4), flipped(px.size());
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_BACK);
        glReadPixels(0, 0, fw, fh, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        for (int y = 0; y < fh; ++y)
          std::copy(px.begin() + std::ptrdiff_t(y) * fw * 4, px.begin() + std::ptrdiff_t(y + 1) * fw * 4,
                    flipped.begin() + std::ptrdiff_t(fh - 1 - y) * fw * 4);
        if (!headless::write_png(screenshot, fw, fh, flipped, error)) code = ui::fail("primlab", error, 1);
      }
      glfwSetWindowShouldClose(win, 1);
    }
    glfwSwapBuffers(win);
  }
  if (smoke_frames == 0) save_placement(placement_file, win);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(win);
  glfwTerminate();
  return code;
}
