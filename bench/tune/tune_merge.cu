// The multi-GPU sort's merge (agent/distributed_kernels.cuh) at 2^28 keys: two sorted halves of
// u32 keys (and u32 values) merged by block shapes around the library's, timed against a device
// copy of the same bytes, and checked against a host merge of the same runs.
//   primlab_tune_merge [log2n]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "agent/distributed_kernels.cuh"
#include "primlab/radix_sort.h"
#include "thread/radix_key_codec.cuh"
#include "tune_common.cuh"

namespace {

using primlab::detail::MergeOrder;

template <bool PAIRS, int kThreads, int kItems>
void sweep(const std::uint32_t* d_keys, const std::uint32_t* d_values, std::int64_t n, std::uint32_t* d_out,
           std::uint32_t* d_out_values, std::int64_t* d_split, const std::vector<std::uint32_t>& want,
           float copy_ms) {
  constexpr int kTile = kThreads * kItems;
  const std::int64_t na = n / 2, nb = n - na;
  const MergeOrder<std::uint32_t> order{0, 0, 0, 0, ~0u};
  const std::int64_t tiles = (n + kTile - 1) / kTile;
  auto merge = [&] {
    primlab::detail::merge_split_kernel<std::uint32_t><<<unsigned((tiles + 256) / 256), 256>>>(
        d_keys, na, d_keys + na, nb, order, tiles, kTile, d_split);
    primlab::detail::merge_kernel<std::uint32_t, std::uint32_t, PAIRS, kThreads, kItems><<<unsigned(tiles), kThreads>>>(
        d_keys, d_values, na, d_keys + na, d_values + na, nb, order, d_split, d_out, d_out_values);
  };
  const float ms = tune::median_ms(merge);
  CK(cudaGetLastError());
  std::vector<std::uint32_t> got(n);
  CK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
  const bool ok = got == want;
  const double bytes = double(n) * (PAIRS ? 16 : 8);
  std::printf("%s %3d threads x %2d items: %.3f ms, %.0f GB/s, %.0f %% of the copy%s\n", PAIRS ? "pairs" : "keys ",
              kThreads, kItems, ms, bytes / ms / 1e6, 100.0 * copy_ms * (PAIRS ? 2 : 1) / ms, ok ? "" : "  WRONG");
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const std::int64_t n = std::int64_t(1) << log2n, na = n / 2;
  std::uint32_t *d_in, *d_keys, *d_values, *d_out, *d_out_values;
  std::int64_t* d_split;
  for (std::uint32_t** p : {&d_in, &d_keys, &d_values, &d_out, &d_out_values}) CK(cudaMalloc(p, n * 4));
  CK(cudaMalloc(&d_split, (n / 256 + 2) * sizeof(std::int64_t)));
  tune::fill_random<<<1024, 256>>>(d_in, n, 7);
  // Two sorted halves.
  std::size_t ws_bytes = primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(n - na);
  void* d_ws;
  CK(cudaMalloc(&d_ws, ws_bytes));
  for (std::int64_t at : {std::int64_t(0), na})
    if (primlab::radix_sort_keys(d_in + at, d_keys + at, at == 0 ? na : n - na, primlab::SortOrder::Ascending, 0, 32,
                                 {d_ws, ws_bytes}, nullptr) != primlab::Status::Success)
      return 1;
  CK(cudaMemcpy(d_values, d_keys, n * 4, cudaMemcpyDeviceToDevice));
  std::vector<std::uint32_t> h(n);
  CK(cudaMemcpy(h.data(), d_keys, n * 4, cudaMemcpyDeviceToHost));
  std::vector<std::uint32_t> want(n);
  std::merge(h.begin(), h.begin() + na, h.begin() + na, h.end(), want.begin());
  const float copy_ms = tune::median_ms([&] { CK(cudaMemcpyAsync(d_out, d_keys, n * 4, cudaMemcpyDeviceToDevice)); });
  std::printf("2^%d u32 keys, two sorted halves; device copy of the keys: %.3f ms (%.0f GB/s)\n", log2n, copy_ms,
              2.0 * n * 4 / copy_ms / 1e6);
  sweep<false, 256, 8>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  sweep<false, 256, 16>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  sweep<false, 128, 16>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  sweep<false, 512, 16>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  sweep<false, 256, 24>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  sweep<true, 256, 8>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  sweep<true, 256, 16>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  sweep<true, 128, 16>(d_keys, d_values, n, d_out, d_out_values, d_split, want, copy_ms);
  return 0;
}
