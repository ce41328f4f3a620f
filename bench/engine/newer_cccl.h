// The device rows' two builds (engine/rows_*.cu): against the toolkit's CCCL, or, with
// PRIMLAB_ROWS_NEWER_CCCL, against a newer CCCL whose CUB and Thrust are wrapped in the namespaces
// cub_newer:: and thrust_newer:: (CUB_WRAPPED_NAMESPACE, THRUST_WRAPPED_NAMESPACE), so that both
// versions link into one bench. The newer build keeps only the CUB and Thrust rows, renamed with
// their version ("cub-3.6"); the primlab rows come from the toolkit build alone.
#pragma once
#include <string>

#include "engine/table.h"

#ifdef PRIMLAB_ROWS_NEWER_CCCL
namespace cub_newer {}
namespace thrust_newer {}
using namespace cub_newer;     // `cub::` names the wrapped newer CUB in this build
using namespace thrust_newer;  // and `thrust::` the newer Thrust
#define PRIMLAB_ROWS_FN(name) name##_newer_cccl
#else
#define PRIMLAB_ROWS_FN(name) name
#endif

#include <cub/version.cuh>

namespace primlab::bench {

// Moves the rows this build contributes from `rows` into `table`.
inline void keep_rows(Table& rows, Table& table) {
  for (Impl& r : rows) {
#ifdef PRIMLAB_ROWS_NEWER_CCCL
    if (r.impl == "primlab") continue;
    const std::string version = std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION);
    r.note = (r.impl == "cub" ? "CUB " : "Thrust ") + version + " (the newer CCCL of PRIMLAB_CCCL_INCLUDE)";
    r.impl += "-" + version;
#endif
    table.push_back(std::move(r));
  }
}

}  // namespace primlab::bench
