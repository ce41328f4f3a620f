// Argument checks and type mapping shared by the radix sort entry points (keys and pairs).
#pragma once
#include <cstdint>
#include <limits>

#include "device/radix_onesweep_dispatch.cuh"
#include "primlab/radix_sort.h"

namespace primlab::detail {

template <class K, class V, bool PAIRS>
std::size_t radix_sort_workspace(std::int64_t n) {
  return onesweep::tuned_workspace_bytes<K, V, PAIRS>(n);
}

template <class K, class V, bool PAIRS>
Status radix_sort_dispatch(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                           std::int64_t n, SortOrder order, int begin_bit, int end_bit, Workspace ws,
                           cudaStream_t stream) {
  constexpr int kKeyBits = int(sizeof(K) * 8);
  if (n < 0 || begin_bit < 0 || end_bit > kKeyBits || begin_bit > end_bit) return Status::InvalidArgument;
  if (order != SortOrder::Ascending && order != SortOrder::Descending) return Status::InvalidArgument;
  if (n > std::numeric_limits<std::int32_t>::max()) return Status::Unsupported;
  if (n == 0) return Status::Success;
  if (!d_keys_in || !d_keys_out || (PAIRS && (!d_values_in || !d_values_out))) return Status::InvalidArgument;
  const std::size_t need = radix_sort_workspace<K, V, PAIRS>(n);
  if (ws.bytes < need) return Status::WorkspaceTooSmall;
  if (need > 0 && ws.ptr == nullptr) return Status::InvalidArgument;
  if (begin_bit == end_bit) {  // no bits to sort by: a stable sort is the identity
    if (static_cast<const void*>(d_keys_in) != d_keys_out)
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_keys_out, d_keys_in, std::size_t(n) * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if (PAIRS && static_cast<const void*>(d_values_in) != d_values_out)
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(d_values_out, d_values_in, std::size_t(n) * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    return Status::Success;
  }
  return onesweep::run_tuned<K, V, PAIRS>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit,
                                          make_codec<K>(order == SortOrder::Descending), ws.ptr, nullptr, stream);
}

}  // namespace primlab::detail
