// The README's API example: an exclusive prefix sum with the workspace convention
// (size query, caller-owned workspace, stream, status).
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "primlab/device_buffer.h"
#include "primlab/scan.h"

int main() {
  const std::int64_t n = 1 << 20;
  std::vector<std::uint32_t> h_in(n, 1u), h_out(n);

  primlab::DeviceBuffer<std::uint32_t> d_in(n), d_out(n);
  cudaMemcpy(d_in.get(), h_in.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice);

  // 1. Ask how much workspace the scan needs, 2. own it, 3. run on a stream.
  const std::size_t bytes = primlab::scan_workspace_bytes<std::uint32_t>(n);
  primlab::DeviceBuffer<unsigned char> workspace(bytes);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  const primlab::Status s = primlab::exclusive_scan(d_in.get(), d_out.get(), n, 0u, primlab::Sum{},
                                                    {workspace.get(), bytes}, stream);
  if (s != primlab::Status::Success) {
    std::printf("scan failed: %s\n", primlab::status_string(s));
    return 1;
  }
  cudaMemcpyAsync(h_out.data(), d_out.get(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  std::printf("out[n-1] = %u (expected %lld)\n", h_out[n - 1], static_cast<long long>(n - 1));
  return h_out[n - 1] == n - 1 ? 0 : 1;
}
