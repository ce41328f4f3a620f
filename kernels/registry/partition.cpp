// The partition family's stepped algorithms (registered here; none yet).
#include "registry/families.h"

namespace primlab::registry {
void add_partitions(std::vector<Algorithm>&) {}
}  // namespace primlab::registry
