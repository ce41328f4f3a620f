// A headless OpenGL 3.3 core context through EGL: an NVIDIA device when one is present
// (EGL_EXT_platform_device), else Mesa's surfaceless platform (llvmpipe), with no display.
#pragma once
#include <string>

#include "lab/model/result.h"

namespace primlab::headless {

class EglContext {
 public:
  ~EglContext();
  // Creates the context, makes it current and loads GL through glad; a failure says what failed.
  Result create();
  const std::string& description() const { return description_; }

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
  void* surface_ = nullptr;
  std::string description_;
};

}  // namespace primlab::headless
