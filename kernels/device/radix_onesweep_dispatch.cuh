// Host side of Onesweep (radix sort and radix partition): the pass shape, the workspace layout,
// and the launches (the upfront histogram, then one chained pass per digit).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "agent/radix_histogram.cuh"
#include "agent/radix_onesweep.cuh"
#include "thread/radix_key_codec.cuh"
#include "tuning/radix_sort.cuh"
#include "util/chained_launch.cuh"
#include "util/dynamic_smem.cuh"
#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"
#include "primlab/status.h"

namespace primlab::detail::onesweep {

// [SECTION] shapes

// The pass's shape: threads, keys per thread, blocks per SM, look-back window, and the ranking's
// few-digits threshold. The library uses the defaults (RadixSortTuning); other shapes are for
// measuring (bench/tune/tune_radix_sort.cu).
template <int THREADS = 0, int ITEMS = 0, int MIN_BLOCKS = 0, int WINDOW = 0, int FEW_DIGITS = -1>
struct Shape {};

template <class Bits, class VBits, bool PAIRS, class S = Shape<>>
struct Config;
template <class Bits, class VBits, bool PAIRS, int THREADS, int ITEMS, int MIN_BLOCKS, int WINDOW, int FEW_DIGITS>
struct Config<Bits, VBits, PAIRS, Shape<THREADS, ITEMS, MIN_BLOCKS, WINDOW, FEW_DIGITS>> {
  static constexpr RadixSortTuning::PassShape kTuned =
      RadixSortTuning::pass_shape(sizeof(Bits), PAIRS ? sizeof(VBits) : 0);
  static constexpr int kThreads = THREADS > 0 ? THREADS : kTuned.threads;
  static constexpr int kItems = ITEMS > 0 ? ITEMS : kTuned.items;
  static constexpr int kTile = kThreads * kItems;
  static constexpr int kMinBlocks = MIN_BLOCKS > 0 ? MIN_BLOCKS : kTuned.min_blocks;
  static constexpr int kWindow = WINDOW > 0 ? WINDOW : kTuned.window;
  static constexpr int kFewDigits = FEW_DIGITS >= 0 ? FEW_DIGITS : RadixSortTuning::kFewDigits;
  static constexpr std::size_t kSmem = pass_smem_bytes<kThreads, kItems, Bits, VBits, PAIRS>();
  // The passes take 8-bit digits, and the pass kernel has one thread per digit.
  static_assert(kThreads >= kRadix, "a pass block has a thread for each of the 256 digits");
};

// Tiles of a shape with min_blocks blocks per SM that are resident at once.
inline std::int64_t wave_tiles(const DeviceFacts& facts, int min_blocks) {
  return std::int64_t(facts.sm_count) * min_blocks;
}

// [SECTION] workspace

constexpr std::size_t align256(std::size_t b) { return (b + 255) & ~std::size_t(255); }

// The workspace, each part 256-byte aligned: [alt keys][alt values][digit counts: max passes x 256,
// tile counters: 64][look-back words: passes x tiles x 256]. The size query and the run both read
// it from here; a run zeroes the counts and its passes' look-back words.
template <class Bits, class VBits, bool PAIRS>
struct WorkspaceLayout {
  static constexpr int kMaxPasses = sizeof(Bits);
  static constexpr std::size_t kCountBytes = align256(kMaxPasses * kRadix * 4 + 64 * 4);
  std::size_t tiles;
  std::size_t values;  // byte offsets
  std::size_t counts;
  std::size_t status;

  WorkspaceLayout(std::int64_t n, int tile)
      : tiles((std::size_t(n) + tile - 1) / tile),
        values(align256(std::size_t(n) * sizeof(Bits))),
        counts(values + (PAIRS ? align256(std::size_t(n) * sizeof(VBits)) : 0)),
        status(counts + kCountBytes) {}
  std::size_t status_bytes(int passes) const { return std::size_t(passes) * tiles * kRadix * 4; }
  std::size_t bytes() const { return status + status_bytes(kMaxPasses); }
};

template <class Bits, class VBits, bool PAIRS, class S = Shape<>>
std::size_t workspace_bytes(std::int64_t n) {
  if (n <= 0) return 0;
  return WorkspaceLayout<Bits, VBits, PAIRS>(n, Config<Bits, VBits, PAIRS, S>::kTile).bytes();
}

// Where a sort of n keys keeps, in its workspace, the counts of every pass's digits (kRadix per
// pass, the lowest digit's pass first), as its upfront histogram leaves them.
template <class Bits, class VBits, bool PAIRS>
const std::uint32_t* digit_counts(const void* ws, std::int64_t n) {
  return reinterpret_cast<const std::uint32_t*>(static_cast<const unsigned char*>(ws) +
                                                WorkspaceLayout<Bits, VBits, PAIRS>(n, 1).counts);
}

// [SECTION] run

// The digit passes over bits [begin_bit, end_bit): how many, and the last one's digit mask (a
// narrower last digit where the bits are not whole digits).
struct DigitPasses {
  int count;
  std::uint32_t last_mask;
  DigitPasses(int begin_bit, int end_bit)
      : count((end_bit - begin_bit + kRadixBits - 1) / kRadixBits),
        last_mask((1u << (end_bit - begin_bit - kRadixBits * (count - 1))) - 1u) {}
};

// Pass p's digit, and its keys' encoding on load (the first pass) and decoding on store (the
// last); the caller sets the buffers, the counts and the look-back words.
template <class Bits, class VBits>
void set_digit_pass(PassArgs<Bits, VBits>& a, int p, const DigitPasses& passes, int begin_bit,
                    const KeyCodec<Bits>& codec) {
  const bool last = p == passes.count - 1;
  a.shift = begin_bit + kRadixBits * p;
  a.mask = last ? passes.last_mask : 0xffu;
  a.in0 = p == 0 ? codec.enc0 : Bits(0);
  a.in1 = p == 0 ? codec.enc1 : Bits(0);
  a.out0 = last ? codec.dec0 : Bits(0);
  a.out1 = last ? codec.dec1 : Bits(0);
  a.passes = passes.count;
  a.last_mask = passes.last_mask;
}

// Sorts n <= 2^31 - 1 keys (and values) by bits [begin_bit, end_bit) of their encoded image.
// Arguments are checked by the caller; ws is at least workspace_bytes(n). When offsets_out is
// set, the first pass's tile 0 writes the digit offsets (for a one-pass partition).
// given_counts (host memory, kRadix words, or null) is for a one-pass partition whose caller has
// counted the digits: there is no histogram kernel, and digit d's keys start at the sum of the
// given counts of the digits below it, so that a count above the digit's keys leaves a gap after
// them. hot (with given_counts; -1: none) is the pass's hot digit (RadixSortTuning::hot_digit),
// taken where HOT: only the calls that may give one (partition-first's stage passes) compile the
// pass kernel's hot instance.
template <class Bits, class VBits, bool PAIRS, class S = Shape<>, bool HOT = false>
Status run(const Bits* keys_in, Bits* keys_out, const VBits* vals_in, VBits* vals_out, std::int64_t n,
           int begin_bit, int end_bit, const KeyCodec<Bits>& codec, void* ws, std::uint32_t* offsets_out,
           const DeviceFacts& facts, cudaStream_t stream, const std::uint32_t* given_counts = nullptr,
           int hot = -1) {
  using C = Config<Bits, VBits, PAIRS, S>;
  using L = WorkspaceLayout<Bits, VBits, PAIRS>;
  using T = RadixSortTuning;
  const DigitPasses digits(begin_bit, end_bit);
  const int passes = digits.count;
  const std::uint32_t last_mask = digits.last_mask;
  const L layout(n, C::kTile);
  const std::size_t tiles = layout.tiles;
  unsigned char* w = static_cast<unsigned char*>(ws);
  Bits* alt_keys = reinterpret_cast<Bits*>(w);
  VBits* alt_vals = PAIRS ? reinterpret_cast<VBits*>(w + layout.values) : nullptr;
  std::uint32_t* hist = reinterpret_cast<std::uint32_t*>(w + layout.counts);
  std::uint32_t* counters = hist + L::kMaxPasses * kRadix;
  std::uint32_t* status = reinterpret_cast<std::uint32_t*>(w + layout.status);

  auto kernel = pass_kernel<Bits, VBits, PAIRS, C::kThreads, C::kItems, C::kMinBlocks, C::kWindow, C::kFewDigits>;
  PRIMLAB_TRY(allow_dynamic_smem(kernel, C::kSmem));
  // Passes of at most one wave of tiles are chained with programmatic dependent launch: chaining
  // every size cost 7 % at 2^28 (H200, u32: 6.15 ms against 5.72), bench/NOTES-sort.md.
  const bool chained = given_counts == nullptr && std::int64_t(tiles) <= wave_tiles(facts, C::kMinBlocks);
  // Where those tiles fit one cooperative launch and are few (RadixSortTuning), the first pass
  // counts every pass's digits itself and there is no histogram kernel (agent/radix_onesweep.cuh).
  auto first_kernel =
      pass_kernel<Bits, VBits, PAIRS, C::kThreads, C::kItems, C::kMinBlocks, C::kWindow, C::kFewDigits, NoProbe, true>;
  constexpr std::size_t kFirstSmem = C::kSmem + later_counts_bytes<Bits>();
  bool counts_all = false;
  if (chained && facts.cooperative && T::first_pass_counts_all(passes, std::int64_t(tiles))) {
    PRIMLAB_TRY(allow_dynamic_smem(first_kernel, kFirstSmem));
    int resident = 0;
    PRIMLAB_TRY(resident_blocks_per_sm(first_kernel, C::kThreads, resident, kFirstSmem));
    counts_all = std::int64_t(tiles) <= std::int64_t(resident) * facts.sm_count;
  }
  if (given_counts != nullptr) {
    // The counts as given; the tile counter and the look-back words start at zero.
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(hist, 0, L::kCountBytes + layout.status_bytes(passes), stream));
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(hist, given_counts, kRadix * sizeof(std::uint32_t), cudaMemcpyHostToDevice, stream));
  } else if (!counts_all) {
    // The digit counts, the tile counters and the look-back words start at zero: the histogram
    // kernel, launched cooperatively, zeroes them before it counts (a small sort is bound by the
    // host's launches: one memset less is ~4-5 us of ~36 at 2^16, bench/NOTES-sort.md). Where
    // the device has no cooperative launch, a memset does it.
    auto hist_kernel = histogram_kernel<Bits, T::kHistThreads, T::kHistItems>;
    constexpr int kChunk = T::kHistThreads * T::kHistItems;
    const std::int64_t chunks = (n + kChunk - 1) / kChunk;
    int resident = 0;  // blocks per SM of a cooperative launch; 0: none
    if (facts.cooperative) PRIMLAB_TRY(resident_blocks_per_sm(hist_kernel, T::kHistThreads, resident));
    const int per_sm = resident > 0 ? std::min(resident, T::kHistBlocksPerSm) : T::kHistBlocksPerSm;
    const int grid = static_cast<int>(std::min<std::int64_t>(chunks, std::int64_t(facts.sm_count) * per_sm));
    const ZeroFirst zero{hist, (L::kCountBytes + layout.status_bytes(passes)) / 4};
    if (resident > 0) {
      const cudaLaunchAttribute attr = cooperative_attribute();
      PRIMLAB_TRY(launch_with_attribute(&attr, hist_kernel, grid, T::kHistThreads, 0, stream, keys_in, n, begin_bit,
                                        passes, last_mask, codec.enc0, codec.enc1, hist, zero, NoProbe{}));
    } else {
      PRIMLAB_CUDA_TRY(cudaMemsetAsync(zero.words, 0, zero.count * 4, stream));
      hist_kernel<<<grid, T::kHistThreads, 0, stream>>>(keys_in, n, begin_bit, passes, last_mask, codec.enc0,
                                                        codec.enc1, hist, ZeroFirst{}, NoProbe{});
      PRIMLAB_LAUNCH_TRY();
    }
  }

  // Ping-pong so that the last pass lands in keys_out. When the caller sorts in place and the
  // pass count is odd, the passes end in the workspace and one copy brings the result back.
  const bool aliased = (static_cast<const void*>(keys_in) == keys_out) ||
                       (PAIRS && static_cast<const void*>(vals_in) == vals_out);
  const bool copy_back = aliased && (passes % 2 == 1);
  const Bits* src_k = keys_in;
  const VBits* src_v = vals_in;
  for (int p = 0; p < passes; ++p) {
    const bool to_out = copy_back ? (p % 2 == 1) : ((passes - 1 - p) % 2 == 0);
    Bits* dst_k = to_out ? keys_out : alt_keys;
    VBits* dst_v = to_out ? vals_out : alt_vals;
    PassArgs<Bits, VBits> a;
    set_digit_pass(a, p, digits, begin_bit, codec);
    a.keys_in = src_k;
    a.keys_out = dst_k;
    a.vals_in = src_v;
    a.vals_out = dst_v;
    a.n = n;
    a.hist = hist + p * kRadix;
    a.status = status + std::size_t(p) * tiles * kRadix;
    a.tile_counter = chained ? nullptr : counters + p;
    a.offsets_out = p == 0 ? offsets_out : nullptr;
    if (p == 0 && counts_all) {
      const cudaLaunchAttribute attr = cooperative_attribute();
      PRIMLAB_TRY(launch_with_attribute(&attr, first_kernel, static_cast<unsigned>(tiles), C::kThreads, kFirstSmem,
                                        stream, a, NoProbe{}));
    } else if (HOT && hot >= 0 && given_counts != nullptr) {
      if constexpr (HOT) {
        auto hot_kernel = pass_kernel<Bits, VBits, PAIRS, C::kThreads, C::kItems, C::kMinBlocks, C::kWindow,
                                      C::kFewDigits, NoProbe, false, false, true>;
        PRIMLAB_TRY(allow_dynamic_smem(hot_kernel, C::kSmem));
        PRIMLAB_TRY(chained_launch(chained, hot_kernel, static_cast<unsigned>(tiles), C::kThreads, C::kSmem, stream,
                                   with_hot_digit(a, hot), NoProbe{}));
      }
    } else {
      PRIMLAB_TRY(
          chained_launch(chained, kernel, static_cast<unsigned>(tiles), C::kThreads, C::kSmem, stream, a, NoProbe{}));
    }
    src_k = dst_k;
    src_v = dst_v;
  }
  if (copy_back) {
    PRIMLAB_CUDA_TRY(cudaMemcpyAsync(keys_out, alt_keys, std::size_t(n) * sizeof(Bits), cudaMemcpyDeviceToDevice, stream));
    if (PAIRS)
      PRIMLAB_CUDA_TRY(cudaMemcpyAsync(vals_out, alt_vals, std::size_t(n) * sizeof(VBits), cudaMemcpyDeviceToDevice, stream));
  }
  return Status::Success;
}

// [SECTION] the library's entry: the tuned shape or the small one

// The tuned shape; the small-sort shape when the tuned tiles would not fill one wave
// (RadixSortTuning::small_pass_shape) or need more shared memory than the device gives a block;
// the tiny and micro ones for the smallest sorts (tiny_pass_shape, micro_pass_shape). The small,
// tiny and micro shapes fit every GPU; the workspace fits any of the four.
template <class Bits, class VBits, bool PAIRS>
struct Tuned {
  static constexpr RadixSortTuning::PassShape kSmall =
      RadixSortTuning::small_pass_shape(sizeof(Bits), PAIRS ? sizeof(VBits) : 0);
  static constexpr RadixSortTuning::PassShape kTiny =
      RadixSortTuning::tiny_pass_shape(sizeof(Bits), PAIRS ? sizeof(VBits) : 0);
  static constexpr RadixSortTuning::PassShape kMicro =
      RadixSortTuning::micro_pass_shape(sizeof(Bits), PAIRS ? sizeof(VBits) : 0);
  using Small = Shape<kSmall.threads, kSmall.items, kSmall.min_blocks, kSmall.window>;
  using Tiny = Shape<kTiny.threads, kTiny.items, kTiny.min_blocks, kTiny.window>;
  using Micro = Shape<kMicro.threads, kMicro.items, kMicro.min_blocks, kMicro.window>;
  using Big = Config<Bits, VBits, PAIRS, Shape<>>;
  static constexpr bool kTwoShapes = !(kSmall == Big::kTuned);
  static constexpr bool kTinyShape = !(kTiny == kSmall);
  static constexpr bool kMicroShape = !(kMicro == kTiny);
  static_assert(Config<Bits, VBits, PAIRS, Small>::kSmem <= kPortableSmem, "the small shape runs on every GPU");
  static_assert(Config<Bits, VBits, PAIRS, Tiny>::kSmem <= kPortableSmem, "the tiny shape runs on every GPU");
  static_assert(Config<Bits, VBits, PAIRS, Micro>::kSmem <= kPortableSmem, "the micro shape runs on every GPU");
};

// Keys K and values V (any of the library's types), moved as their radix bits.
template <class K, class V, bool PAIRS>
std::size_t tuned_workspace_bytes(std::int64_t n) {
  using Bits = typename RadixKey<K>::Bits;
  using VBits = typename ValueBits<V>::type;
  using T = Tuned<Bits, VBits, PAIRS>;
  return std::max({workspace_bytes<Bits, VBits, PAIRS, Shape<>>(n),
                   workspace_bytes<Bits, VBits, PAIRS, typename T::Small>(n),
                   workspace_bytes<Bits, VBits, PAIRS, typename T::Tiny>(n),
                   workspace_bytes<Bits, VBits, PAIRS, typename T::Micro>(n)});
}

template <class K, class V, bool PAIRS, bool HOT = false>
Status run_tuned(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out, std::int64_t n, int begin_bit,
                 int end_bit, const KeyCodec<typename RadixKey<K>::Bits>& codec, void* ws,
                 std::uint32_t* offsets_out, cudaStream_t stream, const std::uint32_t* given_counts = nullptr,
                 int hot = -1) {
  using Bits = typename RadixKey<K>::Bits;
  using VBits = typename ValueBits<V>::type;
  using T = Tuned<Bits, VBits, PAIRS>;
  const Bits* bk_in = reinterpret_cast<const Bits*>(keys_in);
  Bits* bk_out = reinterpret_cast<Bits*>(keys_out);
  const VBits* bv_in = reinterpret_cast<const VBits*>(vals_in);
  VBits* bv_out = reinterpret_cast<VBits*>(vals_out);
  DeviceFacts facts;
  const Status st = device_facts(facts);
  if (st != Status::Success) return st;
  // The sort on a pass shape.
  auto sort_with = [&](auto shape) {
    return run<Bits, VBits, PAIRS, decltype(shape), HOT>(bk_in, bk_out, bv_in, bv_out, n, begin_bit, end_bit, codec,
                                                         ws, offsets_out, facts, stream, given_counts, hot);
  };
  if constexpr (T::kMicroShape) {
    if (n <= RadixSortTuning::kMicroMaxKeys) return sort_with(typename T::Micro{});
  }
  if constexpr (T::kTinyShape) {
    if (n <= RadixSortTuning::kTinyMaxKeys) return sort_with(typename T::Tiny{});
  }
  if constexpr (T::kTwoShapes) {
    const std::int64_t big_tiles = (n + T::Big::kTile - 1) / T::Big::kTile;
    if (big_tiles < wave_tiles(facts, T::Big::kMinBlocks) || T::Big::kSmem > std::size_t(facts.max_smem_optin))
      return sort_with(typename T::Small{});
  }
  return sort_with(Shape<>{});
}

// [SECTION] a split pass

// A split pass (radix_key_codec.cuh) has a thread for each of its 512 bins and the tuned shape's
// tile: its look-back words (512 a tile) then fit in those of two of the tuned passes, which the
// workspace of a partition of n keys holds. Two blocks an SM, as the tuned 4-byte shapes (its
// shared memory, 66 to 91 KB, allows no more on any GPU). Where the device does not give a block
// that much (Turing: 64 KB), its caller takes two passes instead.
template <class Bits, class VBits, bool PAIRS>
struct SplitConfig {
  using Tuned = Config<Bits, VBits, PAIRS, Shape<>>;
  static constexpr int kThreads = kSplitBins;
  static constexpr int kItems = Tuned::kTile / kThreads;
  static constexpr int kMinBlocks = 2;
  static constexpr std::size_t kSmem = pass_smem_bytes<kThreads, kItems, Bits, VBits, PAIRS, kSplitBins>();
  static_assert(kItems * kThreads == Tuned::kTile, "the tuned tile");
};

template <class K, class V, bool PAIRS>
bool split_pass_runs_on(const DeviceFacts& facts) {
  using C = SplitConfig<typename RadixKey<K>::Bits, typename ValueBits<V>::type, PAIRS>;
  return C::kSmem <= std::size_t(facts.max_smem_optin);
}

// One split pass over n keys (and values) of bits [begin_bit, begin_bit + 16) of their encoded
// image, hot top digit `hot`, whose bin b's keys start at the sum of given_counts[0, b) (host
// memory, kSplitBins words, added modulo 2^32 as run()'s) past keys_out. ws: at least
// tuned_workspace_bytes<K, V, PAIRS>(n).
template <class K, class V, bool PAIRS>
Status run_split(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out, std::int64_t n, int begin_bit, int hot,
                 const KeyCodec<typename RadixKey<K>::Bits>& codec, void* ws, cudaStream_t stream,
                 const std::uint32_t* given_counts) {
  using Bits = typename RadixKey<K>::Bits;
  using VBits = typename ValueBits<V>::type;
  using C = SplitConfig<Bits, VBits, PAIRS>;
  using L = WorkspaceLayout<Bits, VBits, PAIRS>;
  using T = typename C::Tuned;
  if (n == 0) return Status::Success;
  const L layout(n, T::kTile);
  unsigned char* w = static_cast<unsigned char*>(ws);
  std::uint32_t* hist = reinterpret_cast<std::uint32_t*>(w + layout.counts);
  std::uint32_t* status = reinterpret_cast<std::uint32_t*>(w + layout.status);
  auto kernel = pass_kernel<Bits, VBits, PAIRS, C::kThreads, C::kItems, C::kMinBlocks, T::kWindow, T::kFewDigits,
                            NoProbe, false, false, false, true>;
  PRIMLAB_TRY(allow_dynamic_smem(kernel, C::kSmem));
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(hist, 0, L::kCountBytes + layout.status_bytes(2), stream));
  PRIMLAB_CUDA_TRY(cudaMemcpyAsync(hist, given_counts, kSplitBins * sizeof(std::uint32_t), cudaMemcpyHostToDevice, stream));
  HotPassArgs<Bits, VBits> a;
  set_digit_pass(a, 0, DigitPasses(begin_bit, begin_bit + kRadixBits), begin_bit, codec);
  a.mask = 0xffffu;
  a.hot = static_cast<std::uint32_t>(hot);
  a.keys_in = reinterpret_cast<const Bits*>(keys_in);
  a.keys_out = reinterpret_cast<Bits*>(keys_out);
  a.vals_in = reinterpret_cast<const VBits*>(vals_in);
  a.vals_out = reinterpret_cast<VBits*>(vals_out);
  a.n = n;
  a.hist = hist;
  a.status = status;
  a.tile_counter = hist + L::kMaxPasses * kRadix;
  a.offsets_out = nullptr;
  kernel<<<unsigned(layout.tiles), C::kThreads, C::kSmem, stream>>>(a, NoProbe{});
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// [SECTION] a segmented sort

// Segmented sorts run the tuned pass shape, whose tile cuts their tables, on devices that give it
// its shared memory.
template <class Bits, class VBits, bool PAIRS>
using SegmentedConfig = Config<Bits, VBits, PAIRS, Shape<>>;
template <class Bits, class VBits, bool PAIRS>
bool segmented_runs_on(const DeviceFacts& facts) {
  return SegmentedConfig<Bits, VBits, PAIRS>::kSmem <= std::size_t(facts.max_smem_optin);
}

// tiles[0, count) cut from spans (and start[seg] of each span where start is set), in launches of
// kSpanBatch spans.
inline Status cut_tiles(const std::vector<TileSpan>& spans, std::uint32_t count, int tile, SegmentTile* tiles,
                        std::uint32_t* start, cudaStream_t stream) {
  constexpr int kThreads = 256;
  for (std::size_t b0 = 0; b0 < spans.size(); b0 += kSpanBatch) {
    SpanBatch b;
    b.n = int(std::min<std::size_t>(kSpanBatch, spans.size() - b0));
    std::copy(spans.begin() + std::ptrdiff_t(b0), spans.begin() + std::ptrdiff_t(b0) + b.n, b.spans);
    b.tile_begin = spans[b0].tile_base;
    b.tile_end = b0 + b.n < spans.size() ? spans[b0 + b.n].tile_base : count;
    const std::uint32_t threads = std::max<std::uint32_t>(b.tile_end - b.tile_begin, std::uint32_t(b.n));
    cut_tiles_kernel<kThreads><<<(threads + kThreads - 1) / kThreads, kThreads, 0, stream>>>(b, std::uint32_t(tile), tiles,
                                                                                          start);
    PRIMLAB_LAUNCH_TRY();
  }
  return Status::Success;
}

// A segmented sort's digit counts: passes x segments x 256 words, which count_segments adds to.
inline std::size_t segmented_counts_bytes(int passes, int segments) {
  return std::size_t(passes) * std::size_t(segments) * kRadix * sizeof(std::uint32_t);
}
// A segmented sort's state: [tile counters: 64 words][look-back words: passes x tiles x 256],
// zeroed by the sort.
inline std::size_t segmented_state_bytes(int passes, std::uint32_t tiles) {
  return (64 + std::size_t(passes) * kRadix * tiles) * sizeof(std::uint32_t);
}

// Adds to `counts` (segmented_counts_bytes, zeroed before the first call) the digits of the passes
// over bits [begin_bit, end_bit) of the keys of the tiles of `tiles` that start inside keys[from,
// from + span) where `inside`, else outside it: a segmented sort's counts, in one call over every
// tile or in two over complementary ones. The tiles are shared out so that the launch is at least
// four waves of blocks (eight of 256 threads fit an SM), each block counting a few tiles so that it
// adds few counts.
template <class Bits>
Status count_segments(const Bits* keys, const SegmentTile* tiles, std::uint32_t tile_count, std::uint32_t from,
                      std::uint32_t span, bool inside, int segments, int begin_bit, int end_bit, const KeyCodec<Bits>& codec,
                      std::uint32_t* counts, cudaStream_t stream) {
  if (tile_count == 0) return Status::Success;
  constexpr int kHistThreads = 256, kHistItems = 4, kHistBlocksPerSm = 8, kHistWaves = 4;
  const DigitPasses digits(begin_bit, end_bit);
  DeviceFacts facts;
  PRIMLAB_TRY(device_facts(facts));
  const std::uint32_t per_block = std::max<std::uint32_t>(
      1, tile_count / std::uint32_t(std::max(1, facts.sm_count * kHistBlocksPerSm * kHistWaves)));
  segment_histogram_kernel<Bits, kHistThreads, kHistItems><<<(tile_count + per_block - 1) / per_block, kHistThreads, 0, stream>>>(
      keys, tiles, tile_count, per_block, from, span, inside, segments, begin_bit, digits.count, digits.last_mask,
      codec.enc0, codec.enc1, counts);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

// Sorts segments each on its own by bits [begin_bit, end_bit) of their keys' image, whose digits
// count_segments counted into `counts`: one launch a pass. Pass 0 takes its tiles (first_tiles)
// from keys_in, where a segment's keys may lie in several places; the passes after it take theirs
// (later_tiles) from the segments as the pass before left them, segment s from seg_start[s] on.
// Pass p writes keys_out where passes - 1 - p is even, else alt (which may be keys_in where the
// passes are odd, since pass 0 has read it by then). `state`: segmented_state_bytes of device
// memory.
template <class Bits, class VBits, bool PAIRS>
Status run_segmented(const Bits* keys_in, Bits* keys_out, Bits* keys_alt, const VBits* vals_in, VBits* vals_out,
                     VBits* vals_alt, const SegmentTile* first_tiles, std::uint32_t first_count,
                     const SegmentTile* later_tiles, std::uint32_t later_count, int segments,
                     const std::uint32_t* seg_start, int begin_bit, int end_bit, const KeyCodec<Bits>& codec,
                     std::uint32_t* counts, void* state, cudaStream_t stream) {
  using C = SegmentedConfig<Bits, VBits, PAIRS>;
  if (first_count == 0) return Status::Success;
  const DigitPasses digits(begin_bit, end_bit);
  const int passes = digits.count;
  const std::uint32_t tiles = std::max(first_count, later_count);
  std::uint32_t* counters = static_cast<std::uint32_t*>(state);
  std::uint32_t* status = counters + 64;
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(state, 0, segmented_state_bytes(passes, tiles), stream));
  auto kernel = pass_kernel<Bits, VBits, PAIRS, C::kThreads, C::kItems, C::kMinBlocks, C::kWindow, C::kFewDigits,
                            NoProbe, false, true>;
  PRIMLAB_TRY(allow_dynamic_smem(kernel, C::kSmem));
  const Bits* src_k = keys_in;
  const VBits* src_v = vals_in;
  for (int p = 0; p < passes; ++p) {
    const bool to_out = (passes - 1 - p) % 2 == 0;
    SegmentedPassArgs<Bits, VBits> a;
    set_digit_pass(a, p, digits, begin_bit, codec);
    a.keys_in = src_k;
    a.keys_out = to_out ? keys_out : keys_alt;
    a.vals_in = src_v;
    a.vals_out = to_out ? vals_out : vals_alt;
    a.n = 0;
    a.seg_counts = counts + std::size_t(p) * segments * kRadix;
    a.hist = counts;  // read by every pass; a segmented one takes its segment's counts instead
    a.status = status + std::size_t(p) * tiles * kRadix;
    a.tile_counter = counters + p;
    a.offsets_out = nullptr;
    a.seg_tiles = p == 0 ? first_tiles : later_tiles;
    a.seg_start = seg_start;
    PRIMLAB_TRY(chained_launch(false, kernel, p == 0 ? first_count : later_count, C::kThreads, C::kSmem, stream, a,
                               NoProbe{}));
    src_k = a.keys_out;
    src_v = a.vals_out;
  }
  return Status::Success;
}

}  // namespace primlab::detail::onesweep
