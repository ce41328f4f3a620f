// Stream compaction: map to flags, exclusive scan (a scan stepper of the scan family, chosen by
// the variant), scatter (seeds 001, 002).
#include "lab/catalog/families.h"

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(compact)
}  // namespace primlab::steppers

namespace primlab::registry {
void add_compaction(std::vector<Algorithm>& v) {
  v.push_back({"compact", "compact", "Stream compaction (map, scan, scatter)",
               "Flags = keep(x), an exclusive scan of the flags gives each kept element its output index, a "
               "scatter writes it there; count = last index + last flag.",
               kOptFloat | kOptPredicate | kOptVariant | kOptConflictOffsets, 4096, 1, 1024, false, true,
               "Blelloch scan\0naive scan (Hillis-Steele)\0shared-memory scan\0", PRIMLAB_STEPPERS(compact)});
}
}  // namespace primlab::registry
