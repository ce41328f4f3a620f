// Radix sort of key-value pairs: entry points and explicit instantiations (primlab/radix_sort.h).
#include "device/radix_sort_dispatch.cuh"

namespace primlab {

template <class K, class V>
std::size_t radix_sort_pairs_workspace_bytes(std::int64_t n) {
  return detail::radix_sort_workspace<K, V, true>(n);
}

template <class K, class V>
Status radix_sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t n,
                        SortOrder order, int begin_bit, int end_bit, Workspace ws, cudaStream_t stream) {
  return detail::radix_sort_dispatch<K, V, true>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, order,
                                                  begin_bit, end_bit, ws, stream);
}

#define PRIMLAB_RADIX_PAIRS(K, V)                                                                   \
  template std::size_t radix_sort_pairs_workspace_bytes<K, V>(std::int64_t);                        \
  template Status radix_sort_pairs<K, V>(const K*, K*, const V*, V*, std::int64_t, SortOrder, int, int, \
                                         Workspace, cudaStream_t);
#define PRIMLAB_RADIX_PAIRS_ALL_V(K)      \
  PRIMLAB_RADIX_PAIRS(K, std::uint32_t)   \
  PRIMLAB_RADIX_PAIRS(K, std::int32_t)    \
  PRIMLAB_RADIX_PAIRS(K, float)           \
  PRIMLAB_RADIX_PAIRS(K, std::uint64_t)   \
  PRIMLAB_RADIX_PAIRS(K, std::int64_t)    \
  PRIMLAB_RADIX_PAIRS(K, double)
PRIMLAB_RADIX_PAIRS_ALL_V(std::uint32_t)
PRIMLAB_RADIX_PAIRS_ALL_V(std::int32_t)
PRIMLAB_RADIX_PAIRS_ALL_V(float)
PRIMLAB_RADIX_PAIRS_ALL_V(std::uint64_t)
PRIMLAB_RADIX_PAIRS_ALL_V(std::int64_t)
PRIMLAB_RADIX_PAIRS_ALL_V(double)
#undef PRIMLAB_RADIX_PAIRS_ALL_V
#undef PRIMLAB_RADIX_PAIRS

}  // namespace primlab
