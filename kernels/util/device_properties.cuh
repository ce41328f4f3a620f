// Cached device facts for sizing grids (internal to the library).
#pragma once
#include <cstddef>

#include "primlab/status.h"

namespace primlab::detail {

// The shared memory every supported GPU can give one block (sm_75, Turing, allows at most 64 KB):
// a kernel that needs more has a smaller shape to fall back on.
constexpr std::size_t kPortableSmem = 64 * 1024;

// The blocks of `threads` that a kernel's __launch_bounds__ may ask an SM to hold on the
// architecture being compiled: `blocks`, or fewer where the SM's thread limit is lower (Turing
// 1024 threads, sm_86/87/89 1536, the others 2048); ptxas ignores a request past the limit.
constexpr int resident_blocks_bound(int threads, int blocks) {
#if defined(__CUDA_ARCH__)
  constexpr int kThreadsPerSm = __CUDA_ARCH__ == 750 ? 1024
                                : __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 ? 1536
                                                                                                       : 2048;
#else
  constexpr int kThreadsPerSm = 2048;
#endif
  return blocks * threads <= kThreadsPerSm ? blocks : kThreadsPerSm / threads;
}

struct DeviceFacts {
  int sm_count = 0;
  int l2_bytes = 0;
  int max_smem_optin = 0;
  int cc_major = 0;  // compute capability (9 = Hopper: programmatic dependent launch)
  bool cooperative = false;  // cooperative launches (grid-wide synchronisation)
};

// Facts of the current device, cached per thread and device.
Status device_facts(DeviceFacts& out);

}  // namespace primlab::detail
