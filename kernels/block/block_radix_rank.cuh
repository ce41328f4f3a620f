// BlockRadixRank: the tile-local position of every key of a block's tile by one 8-bit digit (or
// by a split pass's 511 bins, radix_key_codec.cuh), stable (CUB's BlockRadixRankMatchEarlyCounts
// with its WARP_MATCH_ATOMIC_OR peer matching).
// Keys are warp-striped: item i of lane l of warp w is the tile's key w * 32 * ITEMS + i * 32 + l.
// Its steps take the pass's probe (util/probe.cuh; NoProbe in the library).
#pragma once
#include <cstdint>

#include "thread/radix_key_codec.cuh"
#include "util/probe.cuh"

namespace primlab::detail {

// Used in three steps, each followed by the caller's __syncthreads(), so that the caller can
// publish the tile's digit counts (a decoupled look-back) before the ranks exist:
//   1. count_digits():        each warp counts its keys' digits into its counter row;
//   2. by threads 0..BINS-1, one per digit d: to_warp_starts(d) turns digit d's column into
//      warp-exclusive starts and returns the tile's count of d; add_tile_start(d, start) adds the
//      tile-exclusive start of d;
//   3. rank_keys():           the counter bumps of the ranking return final tile positions.
// Shared memory: two rows of BINS words per warp (256; a split pass's 512), the counters and the peer masks. The mask rows
// may alias storage that the caller uses only after step 3 (the onesweep pass's exchange buffer).
// HOT: the pass has a hot digit, `hot` (a quarter of its keys or more: RadixSortTuning::hot_digit):
// the lanes that hold it are counted and ranked by one ballot an item, not by shared atomics on
// one word, which serialise (the top pass of skewed keys: 1.54 ms against 1.16 for uniform ones,
// 2^28 u32, H200). Its own instance: the ballots cost the plain one 5 % in register spills.
// BINS: the digits (kRadix), or a split pass's bins (kSplitBins), whose `hot` is its hot top digit
// and whose `mask` is 0xffff (a warp has one bin where its keys share those 16 bits).
template <class Bits, int THREADS, int ITEMS, int FEW_DIGITS, bool HOT = false, int BINS = kRadix>
class BlockRadixRank {
 public:
  static constexpr bool kSplit = BINS == kSplitBins;
  static_assert(!(HOT && kSplit), "a split pass spreads its hot top digit over 256 bins");
  static constexpr int kWarps = THREADS / 32;
  static constexpr int kRowWords = kWarps * BINS;  // words of the counter rows, and of the mask rows
  // A warp whose first item holds at most this many distinct digits ranks by __match_any_sync.
  static constexpr int kFewDigits = FEW_DIGITS;

  __device__ __forceinline__ BlockRadixRank(std::uint32_t* s_counts, std::uint32_t* s_masks, int shift,
                                            std::uint32_t mask, std::uint32_t hot = 0)
      : s_counts_(s_counts), s_masks_(s_masks), shift_(shift), mask_(mask), hot_(hot) {}

  // listing: radix-onesweep
  // Zeroes both rows of every warp; the block synchronises before step 1.
  template <class Probe>
  __device__ __forceinline__ void clear(Probe& probe) {
    for (int i = threadIdx.x; i < kRowWords; i += THREADS) {  // step: clear
      s_counts_[i] = 0;                                      // step: clear
      probe.event(OnesweepEvent::kClear, i, false);
    }                                                        // step: clear
    for (int i = threadIdx.x; i < kRowWords; i += THREADS) {  // step: clear
      s_masks_[i] = 0;                                       // step: clear
      probe.event(OnesweepEvent::kClear, i, true);
    }                                                        // step: clear
  }

  // Step 1: one shared atomic per key, independent of each other (no chain); a warp whose keys all
  // share one digit (all-equal or presorted input) adds them in one go. A warp with few distinct
  // digits (the top digit of floats in [0, 1)) would serialise its lanes' atomics on the same
  // words: it groups equal digits with __match_any_sync, whose cost grows with the number of
  // distinct values, and each group's leader adds the group. In a pass with a hot digit (HOT), the
  // other warps group the hot digit's lanes by a ballot, and its first lane adds them; the other
  // lanes add one each.
  template <class Probe>
  __device__ __forceinline__ void count_digits(const Bits (&k)[ITEMS], Probe& probe) {
    const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;  // step: load (count)
    wh_ = s_counts_ + warp * BINS;  // step: load (count)
    lt_ = lanemask_lt();  // step: load (count)
    wm_ = s_masks_ + warp * BINS;  // step: load (count)
    one_digit_ = warp_has_one_digit(k, d0_);  // step: load (count)
    few_digits_ = !one_digit_ && distinct_digits(digit(k[0])) <= kFewDigits;  // step: load (count)
    if (one_digit_) {  // step: load (count)
      if (lane == 0) atomicAdd(&wh_[d0_], 32u * ITEMS);  // step: load (count)
      probe.event(OnesweepEvent::kCount, 0, lane == 0 ? int(d0_) : -1, 32u * ITEMS, 0u);
    } else if (few_digits_) {  // step: load (count)
#pragma unroll  // step: load (count)
      for (int i = 0; i < ITEMS; ++i) {  // step: load (count)
        const std::uint32_t d = digit(k[i]);  // step: load (count)
        const std::uint32_t peers = __match_any_sync(0xffffffffu, d);  // step: load (count)
        if (lane == __ffs(peers) - 1) atomicAdd(&wh_[d], static_cast<std::uint32_t>(__popc(peers)));  // step: load (count)
        probe.event(OnesweepEvent::kCount, i, lane == __ffs(peers) - 1 ? int(d) : -1,
                    static_cast<std::uint32_t>(__popc(peers)), peers);
      }  // step: load (count)
    } else if (HOT) {  // step: load (count)
#pragma unroll  // step: load (count)
      for (int i = 0; i < ITEMS; ++i) {  // step: load (count)
        const std::uint32_t d = digit(k[i]);  // step: load (count)
        const std::uint32_t hot = __ballot_sync(0xffffffffu, d == hot_);  // step: load (count)
        const bool adds = d != hot_ || lane == __ffs(hot) - 1;  // step: load (count)
        const std::uint32_t amount = d == hot_ ? static_cast<std::uint32_t>(__popc(hot)) : 1u;  // step: load (count)
        if (adds) atomicAdd(&wh_[d], amount);  // step: load (count)
        probe.event(OnesweepEvent::kCount, i, adds ? int(d) : -1, amount, d == hot_ ? hot : 0u);
      }  // step: load (count)
    } else {  // step: load (count)
#pragma unroll  // step: load (count)
      for (int i = 0; i < ITEMS; ++i) {  // step: load (count)
        atomicAdd(&wh_[digit(k[i])], 1u);  // step: load (count)
        probe.event(OnesweepEvent::kCount, i, int(digit(k[i])), 1u, 0u);
      }  // step: load (count)
    }  // step: load (count)
  }

  // Step 2, thread d < BINS only.
  template <class Probe>
  __device__ __forceinline__ std::uint32_t to_warp_starts(int d, Probe& probe) {
    std::uint32_t total = 0;                              // step: publish (warp starts)
#pragma unroll  // step: publish (warp starts)
    for (int w = 0; w < kWarps; ++w) {                    // step: publish (warp starts)
      const std::uint32_t c = s_counts_[w * BINS + d];  // step: publish (warp starts)
      s_counts_[w * BINS + d] = total;                  // step: publish (warp starts)
      probe.event(OnesweepEvent::kColumn, w, d, total, false);
      total += c;                                         // step: publish (warp starts)
    }                                                     // step: publish (warp starts)
    return total;                                         // step: publish (warp starts)
  }
  template <class Probe>
  __device__ __forceinline__ void add_tile_start(int d, std::uint32_t start, Probe& probe) {
#pragma unroll  // step: starts (tile starts)
    for (int w = 0; w < kWarps; ++w) {      // step: starts (tile starts)
      s_counts_[w * BINS + d] += start;   // step: starts (tile starts)
      probe.event(OnesweepEvent::kColumn, w, d, start, true);
    }                                       // step: starts (tile starts)
  }

  // Step 3. Peer masks through shared memory: every lane ORs its bit into its digit's word of the
  // warp's mask row and reads the word back; the highest peer bumps the warp's counter for all of
  // them and clears the word; a lane's rank is the counter before the bump plus its lower peers.
  // A few instructions per key against ~30 for 8 ballots (bench/NOTES-sort.md). A one-digit warp
  // takes its run at once: 32 lanes ORing one word would serialise (all-equal keys 7.61 ms
  // against 6.95 ms, H200, 2^28 u32, bench/NOTES-sort.md); in a pass with a hot digit, that
  // digit's lanes take their peers from a ballot, not from its word.
  template <class Probe>
  __device__ __forceinline__ void rank_keys(const Bits (&k)[ITEMS], std::uint32_t (&rank)[ITEMS], Probe& probe) {
    const int lane = static_cast<int>(threadIdx.x) & 31;                         // step: rank
    if (one_digit_) {                                                             // step: rank
      const std::uint32_t before = wh_[d0_];  // one word, read by all lanes     // step: rank
#pragma unroll  // step: rank
      for (int i = 0; i < ITEMS; ++i) rank[i] = before + i * 32 + lane;           // step: rank
      probe.event(OnesweepEvent::kRankRun, rank, d0_);
      return;                                                                     // step: rank
    }                                                                             // step: rank
    if (few_digits_) {                                                            // step: rank
      // Peers by __match_any_sync again, no mask words: keeping count_digits' masks would hold
      // ITEMS more registers per thread across the block's barriers.
#pragma unroll  // step: rank
      for (int i = 0; i < ITEMS; ++i) {                                           // step: rank
        const std::uint32_t d = digit(k[i]);                    // step: rank
        const std::uint32_t peers = __match_any_sync(0xffffffffu, d);             // step: rank
        rank[i] = rank_in_group(d, peers, lane);                                  // step: rank
        probe.event(OnesweepEvent::kRankKey, i, d, peers, rank[i], false);
      }                                                                           // step: rank
      return;                                                                     // step: rank
    }                                                                             // step: rank
    const std::uint32_t bit = 1u << lane;                                         // step: rank
#pragma unroll  // step: rank
    for (int i = 0; i < ITEMS; ++i) {                                             // step: rank
      const std::uint32_t d = digit(k[i]);                      // step: rank
      const std::uint32_t hot = HOT ? __ballot_sync(0xffffffffu, d == hot_) : 0u;  // step: rank
      const bool masks = !HOT || d != hot_;                                       // step: rank
      if (masks) atomicOr(&wm_[d], bit);                                          // step: rank
      __syncwarp();                                                               // step: rank
      const std::uint32_t peers = masks ? wm_[d] : hot;                           // step: rank
      rank[i] = rank_in_group(d, peers, lane);  // its shuffle: every lane has read its mask word  // step: rank
      if (masks && lane == 31 - __clz(peers)) wm_[d] = 0;                         // step: rank
      __syncwarp();                                                               // step: rank
      probe.event(OnesweepEvent::kRankKey, i, d, peers, rank[i], masks);
    }                                                                             // step: rank
  }

 private:
  static __device__ __forceinline__ std::uint32_t lanemask_lt() {
    std::uint32_t m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
  }

  // The final position of this lane's key among its peers (the lanes whose key has digit d): the
  // highest peer bumps the warp's counter of d for the whole group, the others add their place.
  __device__ __forceinline__ std::uint32_t rank_in_group(std::uint32_t d, std::uint32_t peers, int lane) const {
    const int leader = 31 - __clz(peers);                                                          // step: rank (group)
    std::uint32_t before = 0;                                                                      // step: rank (group)
    if (lane == leader) before = atomicAdd(&wh_[d], static_cast<std::uint32_t>(__popc(peers)));    // step: rank (group)
    before = __shfl_sync(0xffffffffu, before, leader);                                             // step: rank (group)
    return before + __popc(peers & lt_);                                                           // step: rank (group)
  }

  __device__ __forceinline__ std::uint32_t digit(Bits k) const { return pass_digit<kSplit>(k, shift_, mask_, hot_); }

  // The number of distinct digits among the warp's lanes (every lane passes its digit).
  static __device__ __forceinline__ int distinct_digits(std::uint32_t d) {
    const std::uint32_t peers = __match_any_sync(0xffffffffu, d);              // step: load (match)
    const int lane = static_cast<int>(threadIdx.x) & 31;                       // step: load (match)
    return __popc(__ballot_sync(0xffffffffu, lane == __ffs(peers) - 1));       // step: load (match)
  }

  // True when every key of the warp has one digit, d0. Every lane runs the collectives before any
  // test: a short-circuit that left lanes out of the shuffle hung warps with mixed digits.
  __device__ __forceinline__ bool warp_has_one_digit(const Bits (&k)[ITEMS], std::uint32_t& d0) const {
    Bits diff = 0;                                                                            // step: load (match)
#pragma unroll  // step: load (match)
    for (int i = 1; i < ITEMS; ++i) diff |= k[i] ^ k[0];                                      // step: load (match)
    d0 = digit(k[0]);                                                                         // step: load (match)
    const std::uint32_t lane0_d0 = __shfl_sync(0xffffffffu, d0, 0);                           // step: load (match)
    return __all_sync(0xffffffffu, (digit_of(diff, shift_, mask_) == 0) & (d0 == lane0_d0));  // step: load (match)
  }
  // listing: end

  std::uint32_t* s_counts_;  // [warp][digit]
  std::uint32_t* s_masks_;   // [warp][digit]
  int shift_;
  std::uint32_t mask_;
  std::uint32_t* wh_ = nullptr;  // this warp's rows, set by count_digits()
  std::uint32_t* wm_ = nullptr;
  std::uint32_t lt_ = 0;         // the lanes below this one
  std::uint32_t hot_;  // the pass's hot digit (HOT), or a split pass's hot top digit
  std::uint32_t d0_ = 0;
  bool one_digit_ = false;
  bool few_digits_ = false;  // the warp ranks by __match_any_sync
};

}  // namespace primlab::detail
