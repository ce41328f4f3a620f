// Which backend fills the traces: a CUDA device when one is usable, else the CPU reference.
#pragma once
#include <string>

namespace primlab {

struct BackendInfo {
  bool cuda = false;        // a CUDA device is present and usable
  std::string name;         // "NVIDIA H200 (sm_90)" or "CPU reference - no CUDA device"
  std::string reason;       // why CUDA is not used, when it is not
};

// Probes once (cheap after the first call). Never throws.
const BackendInfo& backend();

}  // namespace primlab
