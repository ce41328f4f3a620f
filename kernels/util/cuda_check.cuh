// Checked CUDA calls for library code: every call and launch is checked with file and line.
// Define PRIMLAB_DEBUG_SYNC to synchronise after each launch (like CUB_DEBUG_SYNC).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>

#include "primlab/status.h"

namespace primlab::detail {

inline Status to_status(cudaError_t e, const char* file, int line, const char* what) {
  if (e == cudaSuccess) return Status::Success;
  cudaGetLastError();  // clear a non-sticky error so the caller's next call starts clean
#ifdef PRIMLAB_DEBUG_SYNC
  std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
#else
  (void)file; (void)line; (void)what;
#endif
  if (e == cudaErrorMemoryAllocation) return Status::OutOfMemory;
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) return Status::NoDevice;
  return Status::CudaError;
}

inline cudaError_t launch_error() {
#ifdef PRIMLAB_DEBUG_SYNC
  cudaError_t e = cudaPeekAtLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
#else
  return cudaPeekAtLastError();
#endif
}

}  // namespace primlab::detail

// Returns a primlab::Status from the enclosing function when a CUDA call fails.
#define PRIMLAB_CUDA_TRY(expr)                                                                   \
  do {                                                                                           \
    ::primlab::Status _pl_s = ::primlab::detail::to_status((expr), __FILE__, __LINE__, #expr);   \
    if (_pl_s != ::primlab::Status::Success) return _pl_s;                                       \
  } while (0)

// Returns from the enclosing function when a call that gives a primlab::Status fails.
#define PRIMLAB_TRY(expr)                                                                        \
  do {                                                                                           \
    const ::primlab::Status _pl_s = (expr);                                                      \
    if (_pl_s != ::primlab::Status::Success) return _pl_s;                                       \
  } while (0)

// Checks the launch just made (cudaPeekAtLastError; synchronises under PRIMLAB_DEBUG_SYNC).
#define PRIMLAB_LAUNCH_TRY() PRIMLAB_CUDA_TRY(::primlab::detail::launch_error())
