// The radix sort family's stepped algorithms (registered here; none yet).
#include "registry/families.h"

namespace primlab::registry {
void add_radix_sorts(std::vector<Algorithm>&) {}
}  // namespace primlab::registry
