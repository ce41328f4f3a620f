// CUDA backend probe: the device name and compute capability, or why there is no device.
#include <cuda_runtime.h>

#include <string>

#include "lab/run/backend.h"

namespace primlab {

const BackendInfo& backend() {
  static const BackendInfo info = [] {
    BackendInfo b;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      cudaGetLastError();
      b.name = "CPU reference - no CUDA device";
      b.reason = e == cudaSuccess ? std::string("no CUDA device found")
                                  : std::string("no usable CUDA device or driver (") + cudaGetErrorString(e) + ")";
      return b;
    }
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, 0);
    b.cuda = true;
    b.name = std::string(p.name) + " (sm_" + std::to_string(p.major * 10 + p.minor) + ")";
    return b;
  }();
  return info;
}

}  // namespace primlab
