// Error codes returned by every primlab entry point, and the caller-owned workspace they run in.
#pragma once
#include <cstddef>
#include <cstdint>

namespace primlab {

enum class Status : int {
  Success = 0,
  InvalidArgument,    // a null pointer with a non-zero count, a negative count, a bad range or option
  WorkspaceTooSmall,  // the workspace is smaller than the size query asked for
  OutOfMemory,        // a device allocation failed (only outside the fast path)
  NoDevice,           // no CUDA device is present
  CudaError,          // any other CUDA runtime error; cudaGetLastError() has been cleared
  Unsupported,        // a valid request this build or device cannot run
  OutputTooSmall,     // a multi-GPU result does not fit a rank's output capacity; nothing moved
  CommError,          // the transport between GPUs failed (the Exchange's last_error() says why)
};

inline const char* status_string(Status s) {
  switch (s) {
    case Status::Success: return "success";
    case Status::InvalidArgument: return "invalid argument";
    case Status::WorkspaceTooSmall: return "workspace too small";
    case Status::OutOfMemory: return "out of device memory";
    case Status::NoDevice: return "no CUDA device";
    case Status::CudaError: return "CUDA error";
    case Status::Unsupported: return "unsupported";
    case Status::OutputTooSmall: return "output too small";
    case Status::CommError: return "communication error";
  }
  return "unknown status";
}

// Device memory the caller owns and sizes through an entry point's size query.
struct Workspace {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

}  // namespace primlab
