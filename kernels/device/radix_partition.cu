// Radix partition by one digit: one Onesweep pass (two above 8 bits) and the partition offsets.
#include <limits>

#include "agent/radix_partition_offsets.cuh"
#include "device/radix_onesweep_dispatch.cuh"
#include "tuning/radix_partition.cuh"
#include "primlab/radix_partition.h"

namespace primlab {
namespace detail {
namespace {

template <class K, class V, bool PAIRS>
Status partition(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::uint32_t* d_offsets,
                 std::int64_t n, int begin_bit, int num_bits, Workspace ws, cudaStream_t stream) {
  using Bits = typename RadixKey<K>::Bits;
  constexpr int kKeyBits = int(sizeof(K) * 8);
  if (n < 0 || num_bits < 1 || num_bits > kRadixPartitionMaxBits || begin_bit < 0 ||
      begin_bit + num_bits > kKeyBits || d_offsets == nullptr)
    return Status::InvalidArgument;
  if (n > std::numeric_limits<std::int32_t>::max()) return Status::Unsupported;
  const std::uint32_t parts = 1u << num_bits;
  if (n == 0) {
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_offsets, 0, (parts + 1) * sizeof(std::uint32_t), stream));
    return Status::Success;
  }
  if (!d_keys_in || !d_keys_out || (PAIRS && (!d_values_in || !d_values_out))) return Status::InvalidArgument;
  if (static_cast<const void*>(d_keys_in) == d_keys_out || (PAIRS && static_cast<const void*>(d_values_in) == d_values_out))
    return Status::InvalidArgument;
  const std::size_t need = onesweep::tuned_workspace_bytes<K, V, PAIRS>(n);
  if (ws.bytes < need) return Status::WorkspaceTooSmall;
  if (ws.ptr == nullptr) return Status::InvalidArgument;
  const KeyCodec<Bits> codec = make_codec<K>(false);
  const bool one_pass = num_bits <= kRadixBits;
  const Status st = onesweep::run_tuned<K, V, PAIRS>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit,
                                                     begin_bit + num_bits, codec, ws.ptr,
                                                     one_pass ? d_offsets : nullptr, stream);
  if (st != Status::Success || one_pass) return st;
  constexpr int kThreads = RadixPartitionTuning::kOffsetThreads;
  partition_offsets_kernel<Bits><<<(parts + 1 + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
      reinterpret_cast<const Bits*>(d_keys_out), n, begin_bit, parts - 1, codec.enc0, codec.enc1, d_offsets);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

}  // namespace
}  // namespace detail

template <class K>
std::size_t radix_partition_keys_workspace_bytes(std::int64_t n, int /*num_bits*/) {
  return detail::onesweep::tuned_workspace_bytes<K, std::uint32_t, false>(n);
}
template <class K>
Status radix_partition_keys(const K* d_keys_in, K* d_keys_out, std::uint32_t* d_offsets, std::int64_t n,
                            int begin_bit, int num_bits, Workspace ws, cudaStream_t stream) {
  return detail::partition<K, std::uint32_t, false>(d_keys_in, d_keys_out, nullptr, nullptr, d_offsets, n, begin_bit,
                                                     num_bits, ws, stream);
}
template <class K, class V>
std::size_t radix_partition_pairs_workspace_bytes(std::int64_t n, int /*num_bits*/) {
  return detail::onesweep::tuned_workspace_bytes<K, V, true>(n);
}
template <class K, class V>
Status radix_partition_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                             std::uint32_t* d_offsets, std::int64_t n, int begin_bit, int num_bits, Workspace ws,
                             cudaStream_t stream) {
  return detail::partition<K, V, true>(d_keys_in, d_keys_out, d_values_in, d_values_out, d_offsets, n, begin_bit,
                                        num_bits, ws, stream);
}

#define PRIMLAB_PARTITION_KEYS(K)                                                                       \
  template std::size_t radix_partition_keys_workspace_bytes<K>(std::int64_t, int);                       \
  template Status radix_partition_keys<K>(const K*, K*, std::uint32_t*, std::int64_t, int, int, Workspace, \
                                          cudaStream_t);
#define PRIMLAB_PARTITION_PAIRS(K, V)                                                                        \
  template std::size_t radix_partition_pairs_workspace_bytes<K, V>(std::int64_t, int);                       \
  template Status radix_partition_pairs<K, V>(const K*, K*, const V*, V*, std::uint32_t*, std::int64_t, int, int, \
                                              Workspace, cudaStream_t);
#define PRIMLAB_PARTITION_ALL(K)            \
  PRIMLAB_PARTITION_KEYS(K)                 \
  PRIMLAB_PARTITION_PAIRS(K, std::uint32_t) \
  PRIMLAB_PARTITION_PAIRS(K, std::int32_t)  \
  PRIMLAB_PARTITION_PAIRS(K, float)         \
  PRIMLAB_PARTITION_PAIRS(K, std::uint64_t) \
  PRIMLAB_PARTITION_PAIRS(K, std::int64_t)  \
  PRIMLAB_PARTITION_PAIRS(K, double)
PRIMLAB_PARTITION_ALL(std::uint32_t)
PRIMLAB_PARTITION_ALL(std::int32_t)
PRIMLAB_PARTITION_ALL(float)
PRIMLAB_PARTITION_ALL(std::uint64_t)
PRIMLAB_PARTITION_ALL(std::int64_t)
PRIMLAB_PARTITION_ALL(double)
#undef PRIMLAB_PARTITION_ALL
#undef PRIMLAB_PARTITION_PAIRS
#undef PRIMLAB_PARTITION_KEYS

}  // namespace primlab
