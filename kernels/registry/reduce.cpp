// The reduce family's stepped algorithms (registered here; none yet).
#include "registry/families.h"

namespace primlab::registry {
void add_reductions(std::vector<Algorithm>&) {}
}  // namespace primlab::registry
