// One digit pass of the library's Onesweep radix sort, as the Step tab steps it: the library's own
// kernels (agent/radix_histogram.cuh's histogram_kernel, agent/radix_onesweep.cuh's pass_kernel
// with block/block_radix_rank.cuh) on small tiles, launched the way the library's dispatch
// (device/radix_onesweep_dispatch.cuh) launches one pass of a sort by bits [shift, shift + log2
// digits): the digit counts of all keys, then the pass. The dispatch zeroes the counts inside a
// cooperative histogram launch and chains the pass to it (programmatic dependent launch) where the
// device has them; this host code zeroes with memsets and launches both plainly, so that every
// device runs the same launches. The pass takes its tile from blockIdx.x, as the library's does
// for a sort of at most one wave of tiles.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "agent/radix_histogram.cuh"
#include "agent/radix_onesweep.cuh"
#include "lab/algorithms/radix/onesweep/radix_onesweep.h"
#include "thread/radix_key_codec.cuh"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"
#include "primlab/status.h"

namespace primlab::lab {

// The look-back words of a pass over n keys in tiles of THREADS x kOsItems: 256 per tile.
template <int THREADS>
std::size_t radix_onesweep_status_words(std::int64_t n) {
  constexpr std::int64_t tile = std::int64_t(THREADS) * kOsItems;
  return n > 0 ? std::size_t((n + tile - 1) / tile) * kOsRadix : 0;
}

// Moves n keys from d_keys_in to d_keys_out, stably ordered by their digit, bits [shift, shift +
// log2 digits) of the key's radix image (descending: of the inverted image). d_hist: THREADS words
// (the digit counts), d_status: radix_onesweep_status_words<THREADS>(n) words (the look-back).
// digits: a power of two from 2 to THREADS (the pass has one thread per digit). hot: the digit a
// quarter of the keys or more hold (onesweep_hot_digit), or -1.
template <class K, int THREADS, class Probe = NoProbe>
Status radix_onesweep_pass(const K* d_keys_in, K* d_keys_out, std::int64_t n, int shift, int digits, bool descending,
                           int hot, std::uint32_t* d_hist, std::uint32_t* d_status, cudaStream_t stream,
                           Probe probe = {}) {
  using Bits = typename detail::RadixKey<K>::Bits;
  static_assert(sizeof(Bits) == 4, "the stepped pass takes 32-bit keys");
  if (n < 0 || n > 0x7fffffff || digits < 2 || digits > THREADS || (digits & (digits - 1)) != 0 || shift < 0)
    return Status::InvalidArgument;
  int bits = 0;
  while ((1 << bits) < digits) ++bits;
  if (shift + bits > 32) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_keys_in || !d_keys_out || !d_hist || !d_status) return Status::InvalidArgument;
  // listing: radix-onesweep
  constexpr int kTile = THREADS * kOsItems;
  const detail::KeyCodec<Bits> codec = detail::make_codec<K>(descending);
  const std::uint32_t mask = std::uint32_t(digits) - 1u;
  const std::int64_t tiles = (n + kTile - 1) / kTile;
  const Bits* keys_in = reinterpret_cast<const Bits*>(d_keys_in);
  // The digit counts of all keys: one pass (passes = 1) whose digit is `mask` wide.
  constexpr int kChunk = kOsHistThreads * kOsHistItems;
  const unsigned hist_blocks = unsigned((n + kChunk - 1) / kChunk);
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_hist, 0, THREADS * sizeof(std::uint32_t), stream));
  probe.launch(stream);
  detail::onesweep::histogram_kernel<Bits, kOsHistThreads, kOsHistItems, Probe>
      <<<hist_blocks, kOsHistThreads, 0, stream>>>(keys_in, n, shift, 1, mask, codec.enc0, codec.enc1, d_hist,
                                                   detail::onesweep::ZeroFirst{}, probe);
  PRIMLAB_LAUNCH_TRY();
  // The pass: flip on load, unflip on store (it is the sort's first and last pass).
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_status, 0, std::size_t(tiles) * detail::kRadix * sizeof(std::uint32_t), stream));
  detail::onesweep::PassArgs<Bits, Bits> a;
  a.keys_in = keys_in;
  a.keys_out = reinterpret_cast<Bits*>(d_keys_out);
  a.vals_in = nullptr;
  a.vals_out = nullptr;
  a.n = n;
  a.shift = shift;
  a.mask = mask;
  a.hist = d_hist;
  a.status = d_status;
  a.tile_counter = nullptr;  // tile = blockIdx.x
  a.in0 = codec.enc0;
  a.in1 = codec.enc1;
  a.out0 = codec.dec0;
  a.out1 = codec.dec1;
  a.offsets_out = nullptr;
  constexpr std::size_t kSmem = detail::onesweep::pass_smem_bytes<THREADS, kOsItems, Bits, Bits, false>();
  probe.launch(stream);
  if (hot >= 0) {  // its hot digit's lanes ranked by ballot
    detail::onesweep::pass_kernel<Bits, Bits, false, THREADS, kOsItems, 1, kOsWindow, kOsFewDigits, Probe, false,
                                  false, true><<<unsigned(tiles), THREADS, kSmem, stream>>>(
        detail::onesweep::with_hot_digit(a, hot), probe);
  } else {
    detail::onesweep::pass_kernel<Bits, Bits, false, THREADS, kOsItems, 1, kOsWindow, kOsFewDigits, Probe>
        <<<unsigned(tiles), THREADS, kSmem, stream>>>(a, probe);
  }
  PRIMLAB_LAUNCH_TRY();
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
