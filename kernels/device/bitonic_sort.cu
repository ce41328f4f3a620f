// Bitonic sort of one array (tile sorts, fused global passes, tile merges) and of a batch of
// segments (one tile per block, entirely on chip). See primlab/bitonic_sort.h.
#include <algorithm>
#include <limits>

#include "agent/bitonic_sort_kernels.cuh"
#include "util/chained_launch.cuh"
#include "util/dynamic_smem.cuh"
#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"
#include "thread/radix_key_codec.cuh"
#include "tuning/bitonic_sort.cuh"
#include "primlab/bitonic_sort.h"

namespace primlab {
namespace detail {
namespace {

using Tuning = BitonicSortTuning;
constexpr int ES = Tuning::kSegmentItems;  // batched segments

using bitonic::array_tile_kernel;
using bitonic::global_kernel;
using bitonic::Masks;
using bitonic::segment_tile_kernel;
using bitonic::TileMap;

template <class Bits, class VBits, bool PAIRS, int E>
Status launch_segment_tile(const Bits* kin, Bits* kout, const VBits* vin, VBits* vout, const TileMap& map,
                           const Masks<Bits>& m, std::int64_t blocks, cudaStream_t stream) {
  const std::size_t smem = std::size_t(map.tile) * (sizeof(Bits) + (PAIRS ? sizeof(VBits) : 0));
  static_assert(std::size_t(kBitonicMaxSegment) * (sizeof(Bits) + sizeof(VBits)) <= kPortableSmem,
                "the largest segment fits every GPU's shared memory");
  auto kernel = segment_tile_kernel<Bits, VBits, PAIRS, E>;
  PRIMLAB_TRY(allow_dynamic_smem(kernel, std::size_t(kBitonicMaxSegment) * (sizeof(Bits) + (PAIRS ? sizeof(VBits) : 0))));
  if (blocks > std::numeric_limits<int>::max()) return Status::Unsupported;
  kernel<<<unsigned(blocks), map.tile / E, smem, stream>>>(kin, kout, vin, vout, map, m);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

template <class Bits, class VBits, bool PAIRS, int LT>
Status launch_array_tile(const Bits* kin, Bits* kout, const VBits* vin, VBits* vout, std::int64_t n, int log_p,
                         const Masks<Bits>& m, bool merge_only, bool chained, cudaStream_t stream) {
  constexpr int log_tile = bitonic::rt::log_tile<LT>();
  constexpr std::size_t smem = (std::size_t(1) << log_tile) * (sizeof(Bits) + (PAIRS ? sizeof(VBits) : 0));
  static_assert(smem <= kPortableSmem, "the tile fits every GPU's shared memory");
  auto kernel = array_tile_kernel<Bits, VBits, PAIRS, LT>;
  PRIMLAB_TRY(allow_dynamic_smem(kernel, smem));
  const std::int64_t blocks = (n + (std::int64_t(1) << log_tile) - 1) >> log_tile;
  PRIMLAB_TRY(chained_launch(chained, kernel, unsigned(blocks), 1u << LT, smem, stream, kin, kout, vin, vout, n,
                                   log_p, m, merge_only));
  return Status::Success;
}

template <class Bits, class VBits, bool PAIRS, int F>
Status launch_global(Bits* keys, VBits* vals, unsigned n, unsigned N, unsigned size, int hi, bool flip, bool chained,
                     cudaStream_t stream) {
  const std::uint64_t threads = std::uint64_t(N) >> F;
  const unsigned blocks = unsigned((threads + Tuning::kGlobalThreads - 1) / Tuning::kGlobalThreads);
  PRIMLAB_TRY(chained_launch(chained, global_kernel<Bits, VBits, PAIRS, F>, blocks, Tuning::kGlobalThreads, 0,
                                   stream, keys, vals, n, size, hi, flip));
  return Status::Success;
}

template <class K, class V, bool PAIRS>
Status sort_array(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t n,
                  SortOrder order, Workspace ws, cudaStream_t stream) {
  using Bits = typename RadixKey<K>::Bits;
  using VB = typename ValueBits<V>::type;
  (void)ws;
  if (n < 0 || (order != SortOrder::Ascending && order != SortOrder::Descending)) return Status::InvalidArgument;
  if (n > std::numeric_limits<std::int32_t>::max()) return Status::Unsupported;
  if (n == 0) return Status::Success;
  if (!d_keys_in || !d_keys_out || (PAIRS && (!d_values_in || !d_values_out))) return Status::InvalidArgument;
  const KeyCodec<Bits> codec = make_codec<K>(order == SortOrder::Descending);
  constexpr int LT = Tuning::array_log_threads(sizeof(Bits), PAIRS ? sizeof(VB) : 0);
  constexpr int kLogTile = bitonic::rt::log_tile<LT>();
  int log_n = 0;
  while ((std::int64_t(1) << log_n) < n) ++log_n;
  const unsigned N = 1u << log_n;  // n <= 2^31 - 1, so N <= 2^31
  Bits* keys = reinterpret_cast<Bits*>(d_keys_out);
  VB* vals = reinterpret_cast<VB*>(d_values_out);
  // The tile sort encodes; the last kernel decodes.
  const bool one_tile = log_n <= kLogTile;
  const Masks<Bits> first{codec.enc0, codec.enc1, one_tile ? codec.dec0 : Bits(0), one_tile ? codec.dec1 : Bits(0)};
  // The kernels after the first are chained: each waits for its predecessor (where PDL exists).
  Status st = launch_array_tile<Bits, VB, PAIRS, LT>(reinterpret_cast<const Bits*>(d_keys_in), keys,
                                          reinterpret_cast<const VB*>(d_values_in), vals, n, std::min(log_n, kLogTile),
                                          first, false, false, stream);
  // Stages larger than the tile: fused global passes for strides size/2 .. tile, then a tile merge.
  for (int log_size = kLogTile + 1; st == Status::Success && log_size <= log_n; ++log_size) {
    const unsigned size = 1u << log_size;
    int hi = log_size - 1;          // stride 2^hi
    int steps = hi - kLogTile + 1;  // strides size/2 .. tile
    bool flip = true;
    while (st == Status::Success && steps > 0) {
      const int f = std::min(steps, Tuning::kGlobalFuse);
      if (f == 4) st = launch_global<Bits, VB, PAIRS, 4>(keys, vals, unsigned(n), N, size, hi, flip, true, stream);
      if (f == 3) st = launch_global<Bits, VB, PAIRS, 3>(keys, vals, unsigned(n), N, size, hi, flip, true, stream);
      if (f == 2) st = launch_global<Bits, VB, PAIRS, 2>(keys, vals, unsigned(n), N, size, hi, flip, true, stream);
      if (f == 1) st = launch_global<Bits, VB, PAIRS, 1>(keys, vals, unsigned(n), N, size, hi, flip, true, stream);
      flip = false;
      hi -= f;
      steps -= f;
    }
    if (st != Status::Success) break;
    const bool last = log_size == log_n;
    const Masks<Bits> m{0, 0, last ? codec.dec0 : Bits(0), last ? codec.dec1 : Bits(0)};
    st = launch_array_tile<Bits, VB, PAIRS, LT>(keys, keys, vals, vals, n, kLogTile, m, true, true, stream);
  }
  return st;
}

template <class K, class V, bool PAIRS>
Status sort_segments(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                     std::int64_t num_segments, int segment_size, SortOrder order, Workspace ws, cudaStream_t stream) {
  using Bits = typename RadixKey<K>::Bits;
  using VB = typename ValueBits<V>::type;
  (void)ws;
  if (num_segments < 0 || segment_size < 0 || segment_size > kBitonicMaxSegment ||
      (order != SortOrder::Ascending && order != SortOrder::Descending))
    return Status::InvalidArgument;
  const std::int64_t n = num_segments * std::int64_t(segment_size);
  if (n == 0) return Status::Success;
  if (!d_keys_in || !d_keys_out || (PAIRS && (!d_values_in || !d_values_out))) return Status::InvalidArgument;
  const KeyCodec<Bits> codec = make_codec<K>(order == SortOrder::Descending);
  unsigned P = 1;
  while (P < unsigned(segment_size)) P <<= 1;
  const unsigned tile = std::max<unsigned>(P, Tuning::kSegmentMinTile);
  const TileMap map{n, segment_size, unsigned(segment_size), P, tile};
  const Masks<Bits> m{codec.enc0, codec.enc1, codec.dec0, codec.dec1};
  const std::int64_t per_block = tile / P;
  const std::int64_t blocks = (num_segments + per_block - 1) / per_block;
  return launch_segment_tile<Bits, VB, PAIRS, ES>(
      reinterpret_cast<const Bits*>(d_keys_in), reinterpret_cast<Bits*>(d_keys_out),
      reinterpret_cast<const VB*>(d_values_in), reinterpret_cast<VB*>(d_values_out), map, m, blocks, stream);
}

}  // namespace
}  // namespace detail

template <class K>
std::size_t bitonic_sort_keys_workspace_bytes(std::int64_t) { return 0; }
template <class K>
Status bitonic_sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t n, SortOrder order, Workspace ws,
                         cudaStream_t stream) {
  return detail::sort_array<K, std::uint32_t, false>(d_keys_in, d_keys_out, nullptr, nullptr, n, order, ws, stream);
}
template <class K, class V>
std::size_t bitonic_sort_pairs_workspace_bytes(std::int64_t) { return 0; }
template <class K, class V>
Status bitonic_sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t n,
                          SortOrder order, Workspace ws, cudaStream_t stream) {
  return detail::sort_array<K, V, true>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, order, ws, stream);
}
template <class K>
std::size_t bitonic_sort_segments_keys_workspace_bytes(std::int64_t, int) { return 0; }
template <class K>
Status bitonic_sort_segments_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_segments, int segment_size,
                                  SortOrder order, Workspace ws, cudaStream_t stream) {
  return detail::sort_segments<K, std::uint32_t, false>(d_keys_in, d_keys_out, nullptr, nullptr, num_segments,
                                                         segment_size, order, ws, stream);
}
template <class K, class V>
std::size_t bitonic_sort_segments_pairs_workspace_bytes(std::int64_t, int) { return 0; }
template <class K, class V>
Status bitonic_sort_segments_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                   std::int64_t num_segments, int segment_size, SortOrder order, Workspace ws,
                                   cudaStream_t stream) {
  return detail::sort_segments<K, V, true>(d_keys_in, d_keys_out, d_values_in, d_values_out, num_segments,
                                            segment_size, order, ws, stream);
}

#define PRIMLAB_BITONIC_KEYS(K)                                                                            \
  template std::size_t bitonic_sort_keys_workspace_bytes<K>(std::int64_t);                                 \
  template Status bitonic_sort_keys<K>(const K*, K*, std::int64_t, SortOrder, Workspace, cudaStream_t);     \
  template std::size_t bitonic_sort_segments_keys_workspace_bytes<K>(std::int64_t, int);                   \
  template Status bitonic_sort_segments_keys<K>(const K*, K*, std::int64_t, int, SortOrder, Workspace,      \
                                                cudaStream_t);
#define PRIMLAB_BITONIC_PAIRS(K, V)                                                                          \
  template std::size_t bitonic_sort_pairs_workspace_bytes<K, V>(std::int64_t);                               \
  template Status bitonic_sort_pairs<K, V>(const K*, K*, const V*, V*, std::int64_t, SortOrder, Workspace,    \
                                           cudaStream_t);                                                    \
  template std::size_t bitonic_sort_segments_pairs_workspace_bytes<K, V>(std::int64_t, int);                 \
  template Status bitonic_sort_segments_pairs<K, V>(const K*, K*, const V*, V*, std::int64_t, int, SortOrder, \
                                                    Workspace, cudaStream_t);
#define PRIMLAB_BITONIC_ALL(K)            \
  PRIMLAB_BITONIC_KEYS(K)                 \
  PRIMLAB_BITONIC_PAIRS(K, std::uint32_t) \
  PRIMLAB_BITONIC_PAIRS(K, std::int32_t)  \
  PRIMLAB_BITONIC_PAIRS(K, float)         \
  PRIMLAB_BITONIC_PAIRS(K, std::uint64_t) \
  PRIMLAB_BITONIC_PAIRS(K, std::int64_t)  \
  PRIMLAB_BITONIC_PAIRS(K, double)
PRIMLAB_BITONIC_ALL(std::uint32_t)
PRIMLAB_BITONIC_ALL(std::int32_t)
PRIMLAB_BITONIC_ALL(float)
PRIMLAB_BITONIC_ALL(std::uint64_t)
PRIMLAB_BITONIC_ALL(std::int64_t)
PRIMLAB_BITONIC_ALL(double)
#undef PRIMLAB_BITONIC_ALL
#undef PRIMLAB_BITONIC_PAIRS
#undef PRIMLAB_BITONIC_KEYS

}  // namespace primlab
