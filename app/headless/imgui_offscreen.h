// One offscreen ImGui frame loop: lays out `frames` frames with `layout` into a w x h
// framebuffer in the current ImGui context (its OpenGL3 backend initialised) and returns RGBA
// pixels, top row first. Shared by `render`, the Performance tab's exports and the tests.
#pragma once
#include <functional>
#include <vector>

namespace primlab::headless {
std::vector<unsigned char> render_imgui(int w, int h, int frames, const std::function<void()>& layout);
}  // namespace primlab::headless
