// Radix sort of keys: entry points and explicit instantiations (see primlab/radix_sort.h).
#include "device/radix_sort_dispatch.cuh"

namespace primlab {

template <class K>
std::size_t radix_sort_keys_workspace_bytes(std::int64_t n) {
  return detail::radix_sort_workspace<K, std::uint32_t, false>(n);
}

template <class K>
Status radix_sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t n, SortOrder order, int begin_bit,
                       int end_bit, Workspace ws, cudaStream_t stream) {
  return detail::radix_sort_dispatch<K, std::uint32_t, false>(d_keys_in, d_keys_out, nullptr, nullptr, n, order,
                                                               begin_bit, end_bit, ws, stream);
}

#define PRIMLAB_RADIX_KEYS(K)                                                                  \
  template std::size_t radix_sort_keys_workspace_bytes<K>(std::int64_t);                       \
  template Status radix_sort_keys<K>(const K*, K*, std::int64_t, SortOrder, int, int, Workspace, \
                                     cudaStream_t);
PRIMLAB_RADIX_KEYS(std::uint32_t)
PRIMLAB_RADIX_KEYS(std::int32_t)
PRIMLAB_RADIX_KEYS(float)
PRIMLAB_RADIX_KEYS(std::uint64_t)
PRIMLAB_RADIX_KEYS(std::int64_t)
PRIMLAB_RADIX_KEYS(double)
#undef PRIMLAB_RADIX_KEYS

}  // namespace primlab
