// A headless OpenGL 3.3 core context through EGL: an NVIDIA device when one is present
// (EGL_EXT_platform_device), else Mesa's surfaceless platform (llvmpipe), with no display.
#pragma once
#include <string>

namespace primlab::headless {

class EglContext {
 public:
  ~EglContext();
  // Creates the context, makes it current and loads GL through glad. False with a message.
  bool create(std::string& error);
  const std::string& description() const { return description_; }

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
  void* surface_ = nullptr;
  std::string description_;
};

}  // namespace primlab::headless
