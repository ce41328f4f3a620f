// Radix sorts: the 1-bit split (seed 000) and multi-bit digits (histogram, scan, stable scatter).
#include "lab/catalog/families.h"

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(radix_split)
PRIMLAB_DECLARE_STEPPER(radix_digits)
}  // namespace primlab::steppers

namespace primlab::registry {
void add_radix_sorts(std::vector<Algorithm>& v) {
  v.push_back({"radix-split", "radix sort", "Radix sort, 1-bit split",
               "A max reduction finds the bits the keys need; per bit: b, e = !b, f = scan(e), t = i - f + "
               "totalFalses, scatter to b ? t : f. int32: last pass on the flipped sign bit.",
               kOptU32, 4096, 1, 1024, false, true, nullptr, PRIMLAB_STEPPERS(radix_split),
               TimedForm{"sort_keys", {"u32"}, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_radix_split, timed_radix_split)}});
  v.push_back({"radix-digits", "radix sort", "Radix sort, multi-bit digits",
               "Per 2-8 bit digit: per-block histograms, scan of the counts (digit-major), stable scatter. Keys "
               "flipped first (floats: +NaN after +inf, -NaN before -inf); key-value keeps input order of ties.",
               kOptDigitBits | kOptFloat | kOptU32 | kOptDescending | kOptKeyValue, 4096, 1, 1024, true, true, nullptr,
               PRIMLAB_STEPPERS(radix_digits)});
}
}  // namespace primlab::registry
