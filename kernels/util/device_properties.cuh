// Cached device facts for sizing grids (internal to the library).
#pragma once
#include <cstddef>

#include "primlab/status.h"

namespace primlab::detail {

// The shared memory every supported GPU can give one block (sm_75, Turing, allows at most 64 KB):
// a kernel that needs more has a smaller shape to fall back on.
constexpr std::size_t kPortableSmem = 64 * 1024;

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
