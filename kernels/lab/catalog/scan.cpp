// Scans: naive Hillis–Steele, work-efficient Blelloch, shared-memory with bank-conflict offsets.
#include "lab/catalog/families.h"

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(scan_naive)
PRIMLAB_DECLARE_STEPPER(scan_blelloch)
PRIMLAB_DECLARE_STEPPER(scan_shared)
}  // namespace primlab::steppers

namespace primlab::registry {
void add_scans(std::vector<Algorithm>& v) {
  v.push_back({"scan-naive", "scan", "Naive scan (Hillis-Steele)",
               "Every element adds its neighbour at offset 1, 2, 4, ...: O(n log n) adds, log n launches, ping-pong "
               "buffers.",
               kOptInclusive | kOptFloat, 4096, 1, 1024, false, true, nullptr, PRIMLAB_STEPPERS(scan_naive),
               TimedForm{"scan_exclusive", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_scan_naive, timed_scan_naive)}});
  v.push_back({"scan-blelloch", "scan", "Work-efficient scan (Blelloch)",
               "Up-sweep builds a sum tree in place, down-sweep turns it into prefix sums: O(n) adds, 2 log n "
               "launches.",
               kOptInclusive | kOptFloat, 4096, 1, 1024, false, true, nullptr, PRIMLAB_STEPPERS(scan_blelloch),
               TimedForm{"scan_exclusive", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_scan_blelloch, timed_scan_blelloch)}});
  v.push_back({"scan-shared", "scan", "Shared-memory scan (bank-conflict offsets)",
               "Each block scans 2B elements in shared memory (GPU Gems 3 ch. 39), then block sums are scanned and "
               "added.",
               kOptInclusive | kOptFloat | kOptConflictOffsets, 4096, 1, 1024, true, true, nullptr,
               PRIMLAB_STEPPERS(scan_shared),
               TimedForm{"scan_exclusive", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_scan_shared, timed_scan_shared)}});
}
}  // namespace primlab::registry
