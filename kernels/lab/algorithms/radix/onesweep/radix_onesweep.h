// radix-onesweep's shape and rows, shared by its plan and CPU reference (radix_onesweep.cpp) and its
// stepped CUDA form (radix_onesweep.cu with the probe of radix_onesweep_probe.cuh). One digit pass
// of the library's Onesweep sort (agent/radix_histogram.cuh, agent/radix_onesweep.cuh,
// block/block_radix_rank.cuh) on tiles of 2 keys a thread, blocks of 32 or 64 threads, so that
// n = 64..4096 spans 1 to 64 tiles. The kernel has one thread per digit: a block of B threads owns
// B digit slots, of which the pass's digit (bins = 2..32 values) uses the first ones.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lab/model/trace.h"
#include "tuning/radix_sort.cuh"

// The shape's look-ups run in the recording probe too.
#ifdef __CUDACC__
#define PRIMLAB_ONESWEEP_HD __host__ __device__
#else
#define PRIMLAB_ONESWEEP_HD
#endif

namespace primlab::lab {

// The library's constants that the CPU reference mirrors (the .cu checks them against the library).
constexpr int kOsRadix = 256;                     // detail::kRadix: the pass's digit rows are 256 words
constexpr std::uint32_t kOsInclusive = 0x80000000u;  // detail::onesweep::kInclusive: a look-back word's flag
constexpr int kOsItems = 2;                       // keys a thread (the stepped pass's ITEMS)
constexpr int kOsWindow = 4;                      // look-back words a digit's thread reads per round trip
constexpr int kOsHistThreads = detail::RadixSortTuning::kHistThreads;
constexpr int kOsHistItems = detail::RadixSortTuning::kHistItems;
constexpr int kOsHistVec = 4;                     // u32 keys a 16-byte load carries
constexpr int kOsHistWords = 4 * kOsRadix;        // s_hist: 4 passes of u32 keys x 256 digits
constexpr int kOsFewDigits = detail::RadixSortTuning::kFewDigits;

// The trace's rows, which are also the row numbers the probe names (the identity map).
enum OnesweepRow : int {
  kOsOut = kRowMain,  // keys_out: the pass's output
  kOsIn = kStdRows,   // keys_in
  kOsKey,             // k: each key's radix bits after the flip (registers), tile position order
  kOsDigit,           // the key's digit
  kOsPeers,           // peers: the lanes of the warp whose key has the same digit (a lane mask)
  kOsRank,            // rank: the key's position in its tile after the pass
  kOsExchange,        // s_keys: each tile's keys in digit order (shared memory)
  kOsHist,            // hist: the digit counts of all keys (global)
  kOsSHist,           // s_hist of each histogram block (shared)
  kOsCounts,          // the ranking's [warp][digit] counters of each tile (shared)
  kOsFlag,            // the look-back word's flag: 0 not yet published, 1 aggregate, 2 inclusive prefix
  kOsValue,           // the look-back word's value: the tile's count, or the inclusive prefix
  kOsBase,            // s_base: where each digit of the tile starts in the output, minus its tile start
  kOsEvent,           // when the look-back word was last published: the run's event number
  kOsRows
};

// The stepped pass's flip of a key (detail::make_codec: b ^ (top bit ? x1 : x0)).
struct OsCodec {
  std::uint32_t enc0 = 0, enc1 = 0, dec0 = 0, dec1 = 0;
};
inline OsCodec os_codec(ElemType t, bool descending) {
  const std::uint32_t sign = 0x80000000u, all = 0xffffffffu;
  std::uint32_t e[2] = {0, 0};
  if (t == ElemType::I32) e[0] = e[1] = sign;
  if (t == ElemType::F32) {
    e[0] = sign;
    e[1] = all;
  }
  if (descending) {
    e[0] ^= all;
    e[1] ^= all;
  }
  OsCodec c;
  c.enc0 = e[0];
  c.enc1 = e[1];
  for (int s = 0; s < 2; ++s) {
    const bool encoded_top = (s != 0) != ((e[s] & sign) != 0);
    (encoded_top ? c.dec1 : c.dec0) = e[s];
  }
  return c;
}
PRIMLAB_ONESWEEP_HD inline std::uint32_t os_flip(std::uint32_t b, std::uint32_t x0, std::uint32_t x1) {
  return b ^ ((b >> 31) ? x1 : x0);
}

struct OnesweepShape {
  std::int32_t n = 0, block = 0;  // keys, threads of a pass block (B)
  std::int32_t warps = 0;         // warps of a pass block (W)
  std::int32_t tile = 0;          // keys a tile (T = B x 2)
  std::int32_t tiles = 0;
  std::int32_t digits = 0;        // values of the digit (bins)
  std::int32_t bits = 0, shift = 0;
  std::uint32_t mask = 0;
  std::int32_t hist_blocks = 0;   // the upfront histogram's grid
  // Words of the pass's dynamic shared memory: counters at 0, then s_base, s_tmp, s_keys (the peer
  // masks first).
  std::int32_t base_word = 0, tmp_word = 0, keys_word = 0;

  PRIMLAB_ONESWEEP_HD std::int32_t width() const { return tiles * tile; }
  PRIMLAB_ONESWEEP_HD std::int32_t slots() const { return block; }  // digit slots a tile: one per thread
  // The key item i of lane l of warp w of tile t takes (warp-striped), as the trace's index.
  PRIMLAB_ONESWEEP_HD std::int32_t key_index(std::int32_t t, int w, int i, int l) const {
    return t * tile + w * 32 * kOsItems + i * 32 + l;
  }
  PRIMLAB_ONESWEEP_HD std::int32_t valid(std::int32_t t) const { return n - t * tile < tile ? n - t * tile : tile; }
  PRIMLAB_ONESWEEP_HD std::uint32_t digit(std::uint32_t k) const { return (k >> shift) & mask; }
  // Trace indices of a tile's digit slot and of a warp's counter of a digit.
  PRIMLAB_ONESWEEP_HD std::int32_t slot(std::int32_t t, std::int32_t d) const { return t * block + d; }
  PRIMLAB_ONESWEEP_HD std::int32_t counter(std::int32_t t, int w, std::int32_t d) const {
    return (t * warps + w) * block + d;
  }
};

inline OnesweepShape onesweep_shape(std::int32_t n, std::int32_t block, std::int32_t digits, std::int32_t shift) {
  OnesweepShape s;
  s.n = n;
  s.block = block;
  s.warps = block / 32;
  s.tile = block * kOsItems;
  s.tiles = (n + s.tile - 1) / s.tile;
  s.digits = digits;
  while ((1 << s.bits) < digits) ++s.bits;
  s.shift = shift;
  s.mask = std::uint32_t(digits) - 1u;
  // As the dispatch sizes it: chunks of kHistThreads x kHistItems keys (at most SMs x 3 blocks,
  // which n <= 4096 never reaches).
  const std::int32_t chunk = kOsHistThreads * kOsHistItems;
  s.hist_blocks = (n + chunk - 1) / chunk;
  s.base_word = s.warps * kOsRadix;
  s.tmp_word = s.base_word + kOsRadix;
  s.keys_word = s.tmp_word + 16;
  return s;
}

// The pass's hot digit, as a caller that knows the digit counts gives it to the library's pass
// (RadixSortTuning::hot_digit: a quarter of the keys or more), or -1. in: the keys as given.
inline int onesweep_hot_digit(const OnesweepShape& sh, const OsCodec& c, const std::vector<std::uint32_t>& in) {
  std::int64_t counts[kOsRadix] = {};
  for (std::int32_t i = 0; i < sh.n; ++i) ++counts[sh.digit(os_flip(in[std::size_t(i)], c.enc0, c.enc1))];
  return detail::RadixSortTuning::hot_digit(counts, sh.n);
}

// The rows that start unset: the event numbers (-1, not yet published). `state`: rows x width.
inline void onesweep_unset_rows(std::uint32_t* state, std::int32_t width) {
  for (std::int32_t i = 0; i < width; ++i) state[std::size_t(kOsEvent) * width + i] = 0xffffffffu;
}

}  // namespace primlab::lab
