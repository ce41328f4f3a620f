// The indices 0..n-1 that argsort sorts along with the keys: the library sorts pairs and has no
// argsort of its own.
#include <cstdint>

#include <cuda_runtime_api.h>

namespace primlab::python {
namespace {
__global__ void iota_kernel(std::int64_t* d_out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    d_out[i] = i;
}
}  // namespace

cudaError_t fill_indices(std::int64_t* d_out, std::int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const std::int64_t blocks = (n + 255) / 256;
  iota_kernel<<<unsigned(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(d_out, n);
  return cudaPeekAtLastError();
}
}  // namespace primlab::python
