// The recording probe of radix-onesweep: it turns what the library's Onesweep kernels tell their
// probe (util/probe.cuh's OnesweepEvent) into this row's ops, rows and counters, as the CPU
// reference (radix_onesweep.cpp) computes them. Launch 0 is the histogram kernel, launch 1 the pass;
// a pass block's tile is its blockIdx.x (radix_onesweep.cuh passes no tile counter).
//
// What the race decides is recorded as it happened: the look-back's ops (which predecessors' words
// a digit's thread added, which it read past the inclusive one) and the order of the look-back words'
// publications (an event counter of the run). Counters hold only what every run does alike: the
// look-back's loads are not counted.
#pragma once
#include <cstdint>

#include "lab/algorithms/radix/onesweep/radix_onesweep.h"
#include "lab/run/recording_probe.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

struct OnesweepProbe : stepped::RecordingProbe {
  // An event and the line of the library's call: converting the event argument to At takes the
  // line of the call (a default argument is evaluated where the call is).
  struct At {
    OnesweepEvent what;
    int line;
    __device__ At(OnesweepEvent w, int l = __builtin_LINE()) : what(w), line(l) {}
  };

  unsigned* clock = nullptr;  // the run's publication counter (stepped::publication_number)
  OnesweepShape sh;
  std::uint32_t enc0 = 0, enc1 = 0;  // the key codec's flip on load
  int lookback_ops = 0;              // the thread's look-back ops so far

  __device__ static int lane() { return int(threadIdx.x) & 31; }
  __device__ static int warp() { return int(threadIdx.x) >> 5; }
  __device__ static std::int32_t block() { return std::int32_t(blockIdx.x); }
  // Warp events start with the warp together, so that each shared access is one warp access.
  __device__ static void converge() { __syncwarp(); }

  // kSharedCounts: the block's counters become on-chip rows (the histogram's s_hist, or the digits
  // 0..block-1 of each warp's row of the ranking's counters).
  __device__ void event(At, const std::uint32_t* counts) {
    if (launch_index == 0) {
      on_chip(kOsSHist, counts, block() * sh.slots(), sh.slots());
      return;
    }
    for (int w = 0; w < sh.warps; ++w) on_chip(kOsCounts, counts + w * kOsRadix, sh.counter(block(), w, 0), sh.slots());
  }

  // kHistClear (i), kScanTotals (w), kScanRead (w).
  __device__ void event(At at, std::int64_t a) {
    converge();
    if (at.what == OnesweepEvent::kHistClear) {
      shared_access(std::int32_t(a));
      if (a < sh.slots())
        record(int(a / kOsHistThreads), OpKind::Write, kOsSHist, -1, kOsSHist, block() * sh.slots() + std::int32_t(a),
               false, at.line);
    } else if (at.what == OnesweepEvent::kScanTotals) {
      shared_access(a >= 0 ? sh.tmp_word + std::int32_t(a) : -1);
      shared_access(a >= 0 ? sh.tmp_word + 8 + std::int32_t(a) : -1);
    } else if (at.what == OnesweepEvent::kScanRead) {
      for (std::int32_t w = 0; w < a; ++w) {
        shared_access(sh.tmp_word + w);
        shared_access(sh.tmp_word + 8 + w);
      }
    }
  }

  // kHistMerge (i, count), kClear (i, masks), kHistRead (d, count), kBase (d, base).
  __device__ void event(At at, std::int64_t a, std::int64_t b) {
    const std::int32_t t = block(), i = std::int32_t(a);
    switch (at.what) {
      case OnesweepEvent::kHistMerge:
        converge();
        shared_access(i);
        if (b != 0) {
          record(0, OpKind::Atomic, kOsSHist, t * sh.slots() + i, kOsHist, i, false, at.line);
          count(kAtomics, 1);
        }
        break;
      case OnesweepEvent::kClear: {
        converge();
        shared_access((b ? sh.keys_word : 0) + i);
        const int row = i / kOsRadix, d = i % kOsRadix;
        if (!b && d < sh.slots())
          record(row, OpKind::Write, kOsCounts, -1, kOsCounts, sh.counter(t, row, d), false, at.line);
        if (b && i < sh.tile)
          record(sh.warps + i / sh.block, OpKind::Write, kOsExchange, -1, kOsExchange, t * sh.tile + i, false, at.line);
        break;
      }
      case OnesweepEvent::kHistRead:
        if (i >= 0) {
          record(sh.warps + kOsItems, OpKind::Read, kOsHist, i, kOsHist, i, false, at.line);
          count(kGlobalRead, 4);
        }
        break;
      case OnesweepEvent::kBase:
        converge();
        shared_access(sh.base_word + i);
        record(kOsItems + sh.tiles, OpKind::Write, kOsBase, -1, kOsBase, sh.slot(t, i), false, at.line);
        value(kOsBase, sh.slot(t, i), std::uint32_t(b));
        break;
      default:
        break;
    }
  }

  // kHistKeys (first, count, group), kPublish (tile, d, word), kScatter (j, key, g).
  __device__ void event(At at, std::int64_t a, std::int64_t b, std::int64_t c) {
    const std::int32_t t = block();
    if (at.what == OnesweepEvent::kHistKeys) {
      converge();
      const int group = int(c);
      for (int e = 0; e < int(b); ++e) {
        std::int32_t d = -1;
        std::uint32_t key = 0;
        if (a >= 0 && current(row_of(kOsIn), std::int32_t(a) + e, key))
          d = std::int32_t(sh.digit(os_flip(key, enc0, enc1)));
        shared_access(d);
        if (d < 0) continue;
        const int slot =
            group < kOsHistItems ? group * kOsHistVec + e : kOsHistItems * kOsHistVec + (group - kOsHistItems);
        record(slot, OpKind::Atomic, kOsIn, std::int32_t(a) + e, kOsSHist, t * sh.slots() + d, false, at.line);
        count(kAtomics, 1);
        count(kGlobalRead, 4);
      }
    } else if (at.what == OnesweepEvent::kPublish) {
      const std::int32_t tile = std::int32_t(a), i = sh.slot(tile, std::int32_t(b));
      const std::uint32_t word = std::uint32_t(c);
      const bool inclusive = (word & kOsInclusive) != 0;
      value(kOsFlag, i, inclusive ? 2 : 1);
      value(kOsValue, i, inclusive ? word & ~kOsInclusive : word - 1u);
      value(kOsEvent, i, stepped::publication_number(clock));
      record(inclusive && tile > 0 ? kOsItems + sh.tiles - 1 : sh.warps, OpKind::Write, kOsValue, -1, kOsValue, i,
             false, at.line + 1);  // the store is on the line after the call
      count(kGlobalWrite, 4);
    } else if (at.what == OnesweepEvent::kScatter) {
      converge();
      const std::int32_t j = std::int32_t(a);
      shared_access(sh.keys_word + j);
      shared_access(sh.base_word + std::int32_t(sh.digit(std::uint32_t(b))));
      if (j < sh.valid(t)) {
        record(j / sh.block, OpKind::Move, kOsExchange, t * sh.tile + j, kOsOut, std::int32_t(c), false, at.line);
        count(kGlobalWrite, 4);
      }
    }
  }

  // kCount (i, d, amount, peers), kColumn (w, d, value, add).
  __device__ void event(At at, std::int64_t a, std::int64_t b, std::int64_t, std::int64_t e) {
    converge();
    const std::int32_t t = block();
    if (at.what == OnesweepEvent::kCount) {
      const int i = int(a);
      const std::int32_t d = std::int32_t(b), idx = sh.key_index(t, warp(), i, lane());
      shared_access(d >= 0 ? warp() * kOsRadix + d : -1);
      if (d >= 0) {
        record(kOsItems + i, OpKind::Atomic, kOsKey, idx, kOsCounts, sh.counter(t, warp(), d), false, at.line);
        count(kAtomics, 1);
      }
      if (e != 0) value(kOsPeers, idx, std::uint32_t(e));
    } else if (at.what == OnesweepEvent::kColumn) {
      const int w = int(a);
      const std::int32_t d = std::int32_t(b);
      shared_access(w * kOsRadix + d);  // the read
      shared_access(w * kOsRadix + d);  // the write
      record(w, e ? OpKind::Add : OpKind::Write, kOsCounts, -1, kOsCounts, sh.counter(t, w, d), false, at.line);
    }
  }

  // kRankKey (i, d, peers, rank, masks).
  __device__ void event(At at, std::int64_t i, std::int64_t d, std::int64_t peers_word, std::int64_t rank,
                        bool masks) {
    converge();
    const std::int32_t t = block(), idx = sh.key_index(t, warp(), int(i), lane());
    const std::uint32_t peers = std::uint32_t(peers_word);
    const bool leader = lane() == 31 - __clz(peers);
    const std::int32_t counter_word = warp() * kOsRadix + std::int32_t(d);
    const std::int32_t mask_word = sh.keys_word + counter_word;
    // masks: this lane's peers came from the mask word (not from __match_any_sync, nor from the
    // ballot of a warp's hot digit). A warp none of whose lanes did skips the word's accesses.
    const bool any_masks = __any_sync(0xffffffffu, masks);
    if (any_masks) {
      shared_access(masks ? mask_word : -1);  // atomicOr of the lane's bit
      if (masks) count(kAtomics, 1);
      shared_access(masks ? mask_word : -1);  // the word read back
    }
    shared_access(leader ? counter_word : -1);  // the group's atomicAdd
    if (leader) count(kAtomics, 1);
    if (any_masks) shared_access(leader && masks ? mask_word : -1);  // the highest peer clears the word
    const std::int32_t c = sh.counter(t, warp(), std::int32_t(d));
    record(int(i), OpKind::Move, kOsCounts, c, kOsRank, idx, false, at.line);
    if (leader) record(kOsItems + int(i), OpKind::Atomic, kOsKey, idx, kOsCounts, c, false, at.line);
    value(kOsRank, idx, std::uint32_t(rank));
    value(kOsPeers, idx, peers);
  }

  // kLoad (k, first, valid), kLookBack (v, nearest, folded).
  template <int N>
  __device__ void event(At at, const std::uint32_t (&x)[N], std::int64_t a, std::int64_t b) {
    const std::int32_t t = block();
    if (at.what == OnesweepEvent::kLoad) {
      for (int i = 0; i < N; ++i) {
        const std::int32_t li = std::int32_t(a) + i * 32, idx = t * sh.tile + li;
        value(kOsKey, idx, x[i]);
        value(kOsDigit, idx, sh.digit(x[i]));
        const bool real = li < b;
        record(i, real ? OpKind::Move : OpKind::Write, kOsIn, real ? idx : -1, kOsKey, idx, false, at.line);
        if (real) count(kGlobalRead, 4);
      }
    } else if (at.what == OnesweepEvent::kLookBack) {
      const std::int32_t d = std::int32_t(threadIdx.x), nearest = std::int32_t(a), i = sh.slot(t, d);
      const int folded = int(b);
      for (int w = 0; w < folded; ++w)
        record(kOsItems + lookback_ops++, OpKind::Add, kOsValue, sh.slot(nearest - w, d), kOsBase, i, false, at.line);
      if (folded > 0 && (x[folded - 1] & kOsInclusive) != 0)  // the last round: the words read past the prefix
        for (int w = folded; w < N && w <= nearest; ++w)
          record(kOsItems + lookback_ops++, OpKind::Read, kOsValue, sh.slot(nearest - w, d), kOsValue,
                 sh.slot(nearest - w, d), false, at.line);
    }
  }

  // kRankRun (rank, d).
  template <int N>
  __device__ void event(At at, const std::uint32_t (&rank)[N], std::int64_t d) {
    converge();
    const std::int32_t t = block(), c = sh.counter(t, warp(), std::int32_t(d));
    shared_access(warp() * kOsRadix + std::int32_t(d));
    for (int i = 0; i < N; ++i) {
      const std::int32_t idx = sh.key_index(t, warp(), i, lane());
      record(i, OpKind::Move, kOsCounts, c, kOsRank, idx, false, at.line);
      value(kOsRank, idx, rank[i]);
    }
  }

  // kExchange (k, rank).
  template <int N>
  __device__ void event(At at, const std::uint32_t (&k)[N], const std::uint32_t (&rank)[N]) {
    converge();
    const std::int32_t t = block();
    for (int i = 0; i < N; ++i) {
      const std::int32_t idx = sh.key_index(t, warp(), i, lane()), to = t * sh.tile + std::int32_t(rank[i]);
      shared_access(sh.keys_word + std::int32_t(rank[i]));
      record(i, OpKind::Move, kOsKey, idx, kOsExchange, to, false, at.line);
      value(kOsExchange, to, k[i]);
    }
  }
};

}  // namespace primlab::lab
