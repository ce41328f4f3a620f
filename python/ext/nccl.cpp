// primlab._nccl: NCCL groups for primlab.distributed across GPUs. One group per set of devices,
// made once (ncclCommInitAll: this process drives every GPU of the group, one communicator and
// one stream per GPU) and kept for the life of the process: communicators are costly to make,
// and destroying them at exit races CUDA's own teardown. A group reaches _primlab as a capsule
// holding its Exchange, whose kept workspaces (registered with NCCL, so that the runs go straight
// between the GPUs' workspaces) the calls use and release_workspace gives back.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "primlab/exchange_nccl.h"

namespace nb = nanobind;

namespace {

[[noreturn]] void fail(const std::string& what) {
  PyErr_SetString(PyExc_RuntimeError, ("primlab.distributed: " + what).c_str());
  throw nb::python_error();
}

struct Group {
  std::vector<ncclComm_t> comms;
  std::unique_ptr<primlab::NcclExchange> exchange;
};

std::map<std::vector<int>, Group>& groups() {
  static auto* all = new std::map<std::vector<int>, Group>();  // never freed, as said above
  return *all;
}

nb::capsule group(const std::vector<int>& devices) {
  auto it = groups().find(devices);
  if (it == groups().end()) {
    // NVLink SHARP multicast stays off, as the GPU machines primlab is measured on ask
    // (kernels/README-multigpu.md); a value the user set is kept.
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    Group g;
    g.comms.resize(devices.size());
    if (ncclResult_t r = ncclCommInitAll(g.comms.data(), int(devices.size()), devices.data()); r != ncclSuccess)
      fail(std::string("ncclCommInitAll: ") + ncclGetErrorString(r));
    std::vector<primlab::NcclRank> ranks(devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) {
      ranks[i].comm = g.comms[i];
      if (cudaSetDevice(devices[i]) != cudaSuccess ||
          cudaStreamCreateWithFlags(&ranks[i].stream, cudaStreamNonBlocking) != cudaSuccess) {
        fail(std::string("a stream on device ") + std::to_string(devices[i]) + ": " + cudaGetErrorString(cudaGetLastError()));
      }
    }
    std::string error;
    if (primlab::NcclExchange::create(ranks, g.exchange, &error) != primlab::Status::Success) fail("NcclExchange: " + error);
    it = groups().emplace(devices, std::move(g)).first;
  }
  return nb::capsule(static_cast<primlab::Exchange*>(it->second.exchange.get()), "primlab.Exchange");
}

// Gives back the registered workspaces the groups' exchanges keep (primlab.release_workspace).
void release_workspace() {
  for (auto& [devices, g] : groups()) {
    if (const primlab::Status st = g.exchange->release_kept_workspaces(); st != primlab::Status::Success)
      fail(std::string("releasing the workspaces: ") + primlab::status_string(st) + " " + g.exchange->last_error());
  }
}

}  // namespace

NB_MODULE(_nccl, m) {
  m.def("group", &group);
  m.def("release_workspace", &release_workspace);
  m.def("version", [] {
    int v = 0;
    ncclGetVersion(&v);
    return v;
  });
}
