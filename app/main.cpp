// primlab: the window. GLFW + glad + Dear ImGui on OpenGL 3.3 core, laid out as Dear ImGui's
// example_glfw_opengl3: setup, then a loop of poll, new frame, draw the UI, render, swap, then
// shutdown. The frame itself is ui::draw_frame (shared with headless `render`); the window's own
// parts (command line, saved placement and layout, smoke-test screenshot) are in window/.
#include "view/gl.h"

#include <GLFW/glfw3.h>
#include <cstdio>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "tools/command_line.h"
#include "ui/app_ui.h"
#include "window/options.h"
#include "window/settings.h"

int main(int argc, char** argv) {
  using namespace primlab;
  ui::AppState state;
  window::Options opt;
  if (auto code = window::parse_options(argc, argv, opt, state)) return *code;

  // [SECTION] Setup: the window and its OpenGL context.
  glfwSetErrorCallback(window::glfw_error_callback);
  if (!glfwInit())
    return ui::fail("primlab", "cannot open a window (" + window::glfw_last_error() + "). `render` and `trace` work headless.", 1);
  const window::Settings settings = window::load_settings();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  const window::Placement place = window::fit_to_screen(settings.placement);
  GLFWwindow* win = glfwCreateWindow(place.w, place.h, "primlab", nullptr, nullptr);
  if (!win) {
    glfwTerminate();
    return ui::fail("primlab", "cannot create an OpenGL 3.3 core window (" + window::glfw_last_error() + ")", 1);
  }
  window::report_glfw_errors();
  if (place.x >= 0 && place.y >= 0) glfwSetWindowPos(win, place.x, place.y);
  glfwMakeContextCurrent(win);
  glfwSwapInterval(1);  // vsync
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) return ui::fail("primlab", "cannot load OpenGL", 1);

  // [SECTION] Setup: Dear ImGui and the app's state.
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = settings.ini_path.c_str();
  window::load_layout(settings);
  ImGui::StyleColorsDark();
  // The transport's keys, every press (ImGui's backend chains this callback).
  glfwSetWindowUserPointer(win, &state);
  glfwSetKeyCallback(win, [](GLFWwindow* w, int key, int, int action, int) {
    if (action == GLFW_RELEASE) return;
    auto& keys = static_cast<ui::AppState*>(glfwGetWindowUserPointer(w))->keys;
    switch (key) {
      case GLFW_KEY_SPACE: if (action == GLFW_PRESS) keys.push_back(ui::StepKey::Play); break;
      case GLFW_KEY_RIGHT: keys.push_back(ui::StepKey::Next); break;
      case GLFW_KEY_LEFT: keys.push_back(ui::StepKey::Previous); break;
      case GLFW_KEY_HOME: keys.push_back(ui::StepKey::First); break;
      case GLFW_KEY_END: keys.push_back(ui::StepKey::Last); break;
    }
  });
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  ui::init_app(state);
  int code = window::start(opt, state);

  // [SECTION] Main loop
  double last = glfwGetTime();
  int frames = 0;
  window::FrameTimes frame_times;
  while (code == 0 && !glfwWindowShouldClose(win)) {
    // Sleep until input, or until the next step of whichever tab plays (smoke runs never sleep).
    const double wait = opt.smoke_frames > 0 ? 0.0 : ui::idle_wait_seconds(state);
    if (wait > 0) glfwWaitEventsTimeout(wait);
    else glfwPollEvents();
    const double now = glfwGetTime();

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ui::handle_keys(state);
    ui::draw_frame(state, io.DisplaySize.x, io.DisplaySize.y, now - last);
    if (!opt.state_file.empty()) ui::write_state(state, opt.state_file);
    last = now;

    ImGui::Render();
    const double ui_done = glfwGetTime();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(win, &fw, &fh);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fw, fh);
    glClearColor(0.08f, 0.08f, 0.09f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (window::smoke_run_done(opt, state, ++frames)) {
      if (!opt.screenshot.empty()) code = window::save_screenshot(opt.screenshot, fw, fh);
      glfwSetWindowShouldClose(win, 1);
    }
    glfwSwapBuffers(win);
    if (opt.frame_stats && (!opt.perf_sweep || state.perf.progress.running))
      frame_times.add((ui_done - now) * 1e3, (glfwGetTime() - now) * 1e3);
  }
  if (opt.frame_stats) std::printf("%s\n", frame_times.summary().c_str());

  // [SECTION] Shutdown
  if (opt.smoke_frames == 0) window::save_placement(settings, win);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(win);
  glfwTerminate();
  return code;
}
