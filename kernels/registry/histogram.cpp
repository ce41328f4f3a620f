// The histogram family's stepped algorithms (registered here; none yet).
#include "registry/families.h"

namespace primlab::registry {
void add_histograms(std::vector<Algorithm>&) {}
}  // namespace primlab::registry
