// Backend probe for builds without CUDA: always the CPU reference.
#ifndef PRIMLAB_HAVE_CUDA
#include "lab/run/backend.h"

namespace primlab {
const BackendInfo& backend() {
  static const BackendInfo info{false, "CPU reference - no CUDA device", "built without CUDA"};
  return info;
}
}  // namespace primlab
#endif
