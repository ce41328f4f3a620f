// primlab._primlab: the nanobind module under the primlab package; the Python layer
// (src/primlab/) names the arguments and picks the array kinds, this module does the rest.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cuda_runtime_api.h>

#include "primlab/version.h"

namespace nb = nanobind;

namespace primlab::python {
void bind_primitives(nb::module_& m);
void bind_distributed(nb::module_& m);
void bind_lab(nb::module_& m);
void bind_bench(nb::module_& m);
}  // namespace primlab::python

NB_MODULE(_primlab, m) {
  using namespace primlab::python;
  bind_primitives(m);
  bind_distributed(m);
  bind_lab(m);
  bind_bench(m);
  // How this module was built (the benchmark's JSON names it; no device needed).
  m.def("build_info", [] {
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    nb::dict d;
    d["version"] = PRIMLAB_VERSION_STRING;
    d["cuda_runtime"] = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
    d["cub"] = PRIMLAB_CUB_VERSION;
    d["architectures"] = PRIMLAB_CUDA_ARCHITECTURES;
    d["nccl"] = bool(PRIMLAB_PYTHON_NCCL);
    d["renderer"] = bool(PRIMLAB_PYTHON_RENDER);
    return d;
  });
  // CUDA devices this process sees (0 where there is no driver or no GPU).
  m.def("device_count", [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      cudaGetLastError();
      count = 0;
    }
    return count;
  });
}
