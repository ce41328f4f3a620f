// The radix-ordered unsigned image of a key (and back), and its digits: sort and partition work
// on key bits whose unsigned order is the key order (ascending) or its reverse (descending).
#pragma once
#include <cstdint>
#include <type_traits>

#include "primlab/radix_sort.h"

namespace primlab::detail {

enum class KeyKind { Unsigned, Signed, Float };

template <class K> struct RadixKey;
template <> struct RadixKey<std::uint32_t> { using Bits = std::uint32_t; static constexpr KeyKind kind = KeyKind::Unsigned; };
template <> struct RadixKey<std::int32_t> { using Bits = std::uint32_t; static constexpr KeyKind kind = KeyKind::Signed; };
template <> struct RadixKey<float> { using Bits = std::uint32_t; static constexpr KeyKind kind = KeyKind::Float; };
template <> struct RadixKey<std::uint64_t> { using Bits = std::uint64_t; static constexpr KeyKind kind = KeyKind::Unsigned; };
template <> struct RadixKey<std::int64_t> { using Bits = std::uint64_t; static constexpr KeyKind kind = KeyKind::Signed; };
template <> struct RadixKey<double> { using Bits = std::uint64_t; static constexpr KeyKind kind = KeyKind::Float; };

// The same-width unsigned type that carries a value through the sort untouched.
template <class V> struct ValueBits {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values are 4 or 8 bytes");
  using type = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
};

// b -> b ^ (top bit of b ? x1 : x0). Encoding and decoding are both of this form: for every
// key kind and order the two sign classes map to distinct top bits, so the inverse is again
// a pair of masks selected by the (encoded) top bit.
template <class Bits> struct KeyCodec {
  Bits enc0 = 0, enc1 = 0;  // applied to the original key, selected by its top bit
  Bits dec0 = 0, dec1 = 0;  // applied to the encoded key, selected by its top bit
};

template <class Bits>
__host__ __device__ __forceinline__ Bits xor_by_top(Bits b, Bits x0, Bits x1) {
  return b ^ ((b >> (sizeof(Bits) * 8 - 1)) ? x1 : x0);
}

template <class K>
KeyCodec<typename RadixKey<K>::Bits> make_codec(bool descending) {
  using Bits = typename RadixKey<K>::Bits;
  const Bits sign = Bits(1) << (sizeof(Bits) * 8 - 1);
  const Bits all = ~Bits(0);
  Bits e[2] = {0, 0};
  if (RadixKey<K>::kind == KeyKind::Signed) e[0] = e[1] = sign;
  if (RadixKey<K>::kind == KeyKind::Float) { e[0] = sign; e[1] = all; }
  if (descending) { e[0] ^= all; e[1] ^= all; }
  KeyCodec<Bits> c;
  c.enc0 = e[0];
  c.enc1 = e[1];
  for (int s = 0; s < 2; ++s) {
    const bool encoded_top = (s != 0) != ((e[s] & sign) != 0);
    (encoded_top ? c.dec1 : c.dec0) = e[s];
  }
  return c;
}

// Sort and partition passes take 8-bit digits: 256 counters, one thread per digit.
constexpr int kRadixBits = 8;
constexpr int kRadix = 1 << kRadixBits;

template <class Bits>
__host__ __device__ __forceinline__ std::uint32_t digit_of(Bits b, int shift, std::uint32_t mask) {
  return static_cast<std::uint32_t>(b >> shift) & mask;
}

// A split pass (partition-first's stage of skewed keys, kernels/device/distributed.cu) is a pass
// by the top digit of bits [shift + 8, shift + 16) in which the hot top digit's keys go by their
// sub-digit (bits [shift, shift + 8)) too: 511 bins in key order (StageBins), the top digits below
// the hot one, its 256 sub-digits, the top digits above it. All ones (a tile's padding) take the last.
constexpr int kSplitBins = 2 * kRadix;  // the counters of a split pass: 511 bins and one unused
template <class Bits>
__host__ __device__ __forceinline__ std::uint32_t split_bin_of(Bits b, int shift, std::uint32_t hot) {
  const std::uint32_t v = digit_of(b, shift, 0xffffu), top = v >> kRadixBits;
  return top + (top > hot ? kRadix - 1u : 0u) + (top == hot ? v & (kRadix - 1u) : 0u);
}
// The digit (or bin) of a pass's key: a split pass's bin, else the digit at `shift` under `mask`.
template <bool SPLIT, class Bits>
__host__ __device__ __forceinline__ std::uint32_t pass_digit(Bits b, int shift, std::uint32_t mask, std::uint32_t hot) {
  if constexpr (SPLIT) return split_bin_of(b, shift, hot);
  return digit_of(b, shift, mask);
}

}  // namespace primlab::detail
