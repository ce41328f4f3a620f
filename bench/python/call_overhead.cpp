// call_overhead: the host time of one primlab::radix_sort_keys call on 2^10 u32 keys from C++, with
// the workspace allocated once (the library's convention), on a non-blocking stream. The baseline
// that bench/python/sort_from_python.py compares the same call from Python with.
// Prints one JSON object: {"n", "host_us" (median over batches of the host time per call, the
// queue never full), "calls"}.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "primlab/device_buffer.h"
#include "primlab/radix_sort.h"

int main() try {
  constexpr std::int64_t n = 1 << 10;
  constexpr int kWarmup = 2000, kBatches = 200, kPerBatch = 100;  // 100 calls stay well inside the launch queue
  std::vector<std::uint32_t> h_keys(n);
  std::mt19937 rng(1);
  for (auto& k : h_keys) k = rng();
  primlab::DeviceBuffer<std::uint32_t> d_in(n), d_out(n);
  cudaMemcpy(d_in.get(), h_keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice);
  const std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(n);
  primlab::DeviceBuffer<unsigned char> ws(bytes);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  auto sort = [&] {
    return primlab::radix_sort_keys(d_in.get(), d_out.get(), n, primlab::SortOrder::Ascending, 0, 32,
                                    {ws.get(), bytes}, stream);
  };
  for (int i = 0; i < kWarmup; ++i)
    if (sort() != primlab::Status::Success) return std::printf("{\"error\": \"sort failed\"}\n"), 1;
  cudaStreamSynchronize(stream);
  std::vector<double> per_call;
  for (int b = 0; b < kBatches; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kPerBatch; ++i) sort();
    const auto t1 = std::chrono::steady_clock::now();
    cudaStreamSynchronize(stream);
    per_call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kPerBatch);
  }
  std::sort(per_call.begin(), per_call.end());
  std::printf("{\"n\": %lld, \"host_us\": %.3f, \"calls\": %d}\n", static_cast<long long>(n), per_call[kBatches / 2],
              kBatches * kPerBatch);
  cudaStreamDestroy(stream);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
} catch (const primlab::DeviceError& e) {  // no device, or no memory: one line, as the other tools
  std::printf("{\"error\": \"%s\"}\n", e.what());
  return 1;
}
