// A library user's program: sorts keys and scans them on the GPU through primlab, checks both
// against the host and prints one line, "consumer: primlab <version>, sort ok, scan ok" (exit 0),
// or what went wrong (exit 1).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "primlab/device_buffer.h"
#include "primlab/radix_sort.h"
#include "primlab/scan.h"
#include "primlab/version.h"

namespace {

bool cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::printf("consumer: %s failed: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

bool primlab_ok(primlab::Status s, const char* what) {
  if (s != primlab::Status::Success) std::printf("consumer: %s failed: %s\n", what, primlab::status_string(s));
  return s == primlab::Status::Success;
}

int run() {
  const std::int64_t n = 1'000'003;  // not a multiple of any tile
  const std::size_t bytes = n * sizeof(std::uint32_t);
  std::vector<std::uint32_t> h_keys(n);
  std::mt19937 rng(42);
  for (auto& k : h_keys) k = static_cast<std::uint32_t>(rng());  // the scan's sums wrap alike on both sides

  primlab::DeviceBuffer<std::uint32_t> d_keys(n), d_sorted(n), d_scanned(n);
  const std::size_t ws_bytes = std::max(primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(n),
                                        primlab::scan_workspace_bytes<std::uint32_t>(n));
  primlab::DeviceBuffer<unsigned char> d_ws(ws_bytes);
  const primlab::Workspace ws{d_ws.get(), ws_bytes};

  if (!cuda_ok(cudaMemcpy(d_keys.get(), h_keys.data(), bytes, cudaMemcpyHostToDevice), "copy to device")) return 1;
  if (!primlab_ok(primlab::radix_sort_keys(d_keys.get(), d_sorted.get(), n, primlab::SortOrder::Ascending, 0, 32,
                                           ws, nullptr),
                  "radix_sort_keys")) {
    return 1;
  }
  if (!primlab_ok(primlab::exclusive_scan(d_keys.get(), d_scanned.get(), n, 0u, primlab::Sum{}, ws, nullptr),
                  "exclusive_scan")) {
    return 1;
  }
  std::vector<std::uint32_t> h_sorted(n), h_scanned(n);
  if (!cuda_ok(cudaMemcpy(h_sorted.data(), d_sorted.get(), bytes, cudaMemcpyDeviceToHost), "copy sorted")) return 1;
  if (!cuda_ok(cudaMemcpy(h_scanned.data(), d_scanned.get(), bytes, cudaMemcpyDeviceToHost), "copy scanned")) return 1;

  std::vector<std::uint32_t> expect_sorted = h_keys, expect_scanned(n);
  std::sort(expect_sorted.begin(), expect_sorted.end());
  std::exclusive_scan(h_keys.begin(), h_keys.end(), expect_scanned.begin(), 0u);
  const bool sort_ok = h_sorted == expect_sorted;
  const bool scan_ok = h_scanned == expect_scanned;
  std::printf("consumer: primlab %s, sort %s, scan %s\n", PRIMLAB_VERSION_STRING, sort_ok ? "ok" : "WRONG",
              scan_ok ? "ok" : "WRONG");
  return sort_ok && scan_ok ? 0 : 1;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const primlab::DeviceError& e) {
    std::printf("consumer: %s\n", e.what());
    return 1;
  }
}
