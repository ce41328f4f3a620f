// Bitonic sort: the lecture's shared-memory tile sort followed by global merge passes.
#include "lab/catalog/families.h"

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(bitonic_sort)
}  // namespace primlab::steppers

namespace primlab::registry {
void add_bitonic(std::vector<Algorithm>& v) {
  v.push_back({"bitonic-sort", "bitonic", "Bitonic sort (sorting network)",
               "log W (log W + 1) / 2 compare-swap passes: tiles of 2B in shared memory, strides >= 2B as global "
               "passes; n padded with sentinels; key-value ties keep input order; floats: -NaN first, +NaN last.",
               kOptFloat | kOptU32 | kOptDescending | kOptKeyValue, 4096, 1, 1024, true, true, nullptr,
               PRIMLAB_STEPPERS(bitonic_sort),
               TimedForm{"bitonic_sort_keys", {"u32"}, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_bitonic_sort, timed_bitonic_sort)}});
}
}  // namespace primlab::registry
