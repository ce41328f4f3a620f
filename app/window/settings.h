// What the window keeps between launches (its size and position, the ImGui layout, in
// $XDG_CONFIG_HOME/primlab or ~/.config/primlab), GLFW's error text, and the smoke run's screenshot.
#pragma once
#include <filesystem>
#include <string>

struct GLFWwindow;

namespace primlab::window {

struct Placement {
  int x = -1, y = -1, w = 1440, h = 900;  // x, y < 0: where the window manager puts it
};

struct Settings {
  std::filesystem::path placement_file;
  std::string ini_path;  // ImGui's layout
  Placement placement;   // the saved one, or the default
};

// Finds (and creates) the config folder and reads the saved placement.
Settings load_settings();
void save_placement(const Settings& s, GLFWwindow* win);
// The placement shrunk and moved to lie inside the primary monitor's work area (a saved or
// default size larger than this screen would cut the window off). After glfwInit().
Placement fit_to_screen(Placement p);
// Loads the saved ImGui layout into the current ImGui context.
void load_layout(const Settings& s);

// GLFW's error callback: keeps the last error for the start-up message (glfw_last_error());
// once report_glfw_errors() is called, prints every error as it comes.
void glfw_error_callback(int code, const char* text);
const std::string& glfw_last_error();
void report_glfw_errors();

// Saves the back buffer (w x h) as a PNG. Returns 0, or the exit code of a one-line error.
int save_screenshot(const std::string& path, int w, int h);

}  // namespace primlab::window
