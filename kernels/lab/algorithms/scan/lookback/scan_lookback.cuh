// scan-lookback on the GPU: the library's own single-pass scan (device/scan_dispatch.cuh,
// agent/scan_kernel.cuh, block/tile_state.cuh) with a tuning of small tiles, and the recording
// probe that turns the events the library's kernel reports (util/probe.cuh's ScanEvent) into
// this row's ops, rows and counters (scan_lookback.h).
#pragma once
#include <cstdint>

#include "block/tile_state.cuh"
#include "lab/algorithms/scan/lookback/scan_lookback.h"
#include "lab/run/recording_probe.cuh"
#include "tuning/scan.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// The library's scan tuning on tiles of one item a lane and THREADS lanes (32 or 64), so that
// n = 64..4096 spans 1 to 128 tiles. One tile-state word per 8 bytes (no stride: a trace row holds
// one word per tile) and no cluster path: the Step tab steps scan_kernel, whose tile states are
// global memory. The look-back's window, back-off and delay are the library's.
template <class T, int THREADS>
struct LookbackStepTuning : detail::ScanTuning<T> {
  static constexpr int kThreads = THREADS;
  static constexpr int kVectors = 1;
  static constexpr int kVec = 1;
  static constexpr int kWarps = THREADS / 32;
  static constexpr int kWarpItems = 32;
  static constexpr int kTileItems = THREADS;
  static constexpr int kStatusStrideBytes = 8;
  static constexpr int kClusterMaxTiles = 0;
};

// The recording probe of scan-lookback. The kernel's steps are its phases: the load (ends at a warp
// barrier), the warp scans (ends at __syncthreads), warp 0 publishing the tile's word (ends at a
// warp barrier of warp 0 alone), the look-back (ends at __syncthreads) and the stores. Counters hold
// what every run does alike (the look-back's polls, which the race decides, are rows: polls, words
// read, the stopping tile and the event numbers of the publications).
struct LookbackProbe : stepped::RecordingProbe {
  unsigned* clock = nullptr;  // the run's publication counter (stepped::publication_number)
  std::int32_t n = 0;
  bool exclusive = true;
  // The thread's own look-back.
  std::int32_t polls = 0, reads = 0, windows = 0;

  enum Phase : int { kLoadPhase, kReducePhase, kPublishPhase, kLookBackPhase, kScanPhase };

  // Warp 0 alone passed the warp barrier between publishing and looking back: at the block's
  // barrier every thread continues at the step warp 0 reached.
  __device__ void barrier() {
    __shared__ std::int32_t s_step;
    if (threadIdx.x == 0) s_step = step;
    __syncthreads();
    step = s_step;
    RecordingProbe::barrier();
  }

  template <class V>
  __device__ void event(ScanEvent e, std::int64_t a, std::int64_t b, V v, int line = __builtin_LINE()) {
    const int lane = threadIdx.x & 31;
    const int warps = int(blockDim.x) / 32;
    const std::int32_t tile = std::int32_t(blockIdx.x);
    const int phase = step - first;
    switch (e) {
      case ScanEvent::kLoad:  // a: the element
        if (a < n) {
          record(0, OpKind::Move, kLbIn, std::int32_t(a), kLbX, std::int32_t(a), false, line);
          value(kLbX, std::int32_t(a), v);
          count(kGlobalRead, sizeof(V));
        }
        break;
      case ScanEvent::kPrefix:  // a: the element; the warp scan's combines of this lane
        count(kAdds, scan_adds(lane));
        if (a < n) {
          record(0, OpKind::Write, kLbRowPrefix, -1, kLbRowPrefix, std::int32_t(a), false, line);
          value(kLbRowPrefix, std::int32_t(a), v);
        }
        break;
      case ScanEvent::kSharedRead:  // warp 0 reads the warp totals (a: the word, or -1) and scans them
        count(kAdds, scan_adds(lane));
        if (a >= 0)
          record(0, OpKind::Read, kLbWarp, tile * warps + std::int32_t(a), kLbWarp, tile * warps + std::int32_t(a),
                 false, line);
        break;
      case ScanEvent::kSharedWrite:  // a warp's total (reduce), or its prefix in the array (look-back)
        record(1, OpKind::Write, kLbWarp, -1, kLbWarp, tile * warps + std::int32_t(a), false, line);
        value(kLbWarp, tile * warps + std::int32_t(a), v);
        if (phase == kLookBackPhase && a > 0 && (tile > 0 || exclusive)) count(kAdds, 1);  // tile_prefix + wexc
        break;
      case ScanEvent::kTilePublish:  // a: the tile, b: the status, stored on the next line
        record(phase == kPublishPhase ? 1 : 0, OpKind::Write, kLbValue, -1, kLbValue, std::int32_t(a), false, line + 1);
        value(kLbStatus, std::int32_t(a), std::uint32_t(b));
        value(kLbValue, std::int32_t(a), v);
        value(b == detail::kTileAggregate ? kLbAggregateAt : kLbInclusiveAt, std::int32_t(a),
              stepped::publication_number(clock));
        count(kGlobalWrite, sizeof(std::uint64_t));
        // An inclusive prefix is tile_prefix + tile_total (tile 0's: init + tile_total where exclusive).
        if (b == detail::kTileInclusive && (phase == kLookBackPhase || exclusive)) count(kAdds, 1);
        break;
      case ScanEvent::kTileRead:
        ++reads;
        break;
      case ScanEvent::kLookBackPoll:
        ++polls;
        break;
      case ScanEvent::kLookBackWindow:  // warp-collective. a: base, b: the stopping lane or -1, v: the prefix so far
        window_done(a, int(b), v, tile, lane, line);
        break;
      case ScanEvent::kStore: {  // a: the element; run = wprefix + row_prefix, and + x where inclusive
        count(kAdds, exclusive ? 1 : 2);
        if (a < n) {
          record(0, OpKind::Add, kLbWarp, tile * warps + int(threadIdx.x) / 32, kLbOut, std::int32_t(a), false, line);
          count(kGlobalWrite, sizeof(V));
        }
        break;
      }
    }
  }

  __device__ static int scan_adds(int lane) { return lane ? 32 - __clz(lane) : 0; }

  // Each lane's op for the predecessor it read in this window: folded into the prefix (lanes up to
  // the stopping one), or read and left (beyond it). After the last window, lane 0 writes the
  // look-back's rows.
  template <class V>
  __device__ void window_done(std::int64_t base, int stop_lane, V prefix, std::int32_t tile, int lane, int line) {
    const std::int64_t pred = base - lane;
    if (pred >= 0) {
      const bool folded = stop_lane < 0 || lane <= stop_lane;
      if (folded)
        record(kLbWindowSlot + windows, OpKind::Add, kLbValue, std::int32_t(pred), kLbTilePrefix, tile, false, line);
      else
        record(kLbWindowSlot + windows, OpKind::Read, kLbValue, std::int32_t(pred), kLbValue, std::int32_t(pred), false,
               line);
    }
    ++windows;
    if (stop_lane < 0) return;
    std::int32_t words = reads;  // the whole warp's: look_back runs on one full warp
    for (int d = 16; d > 0; d >>= 1) words += __shfl_xor_sync(0xffffffffu, words, d);
    if (lane == 0) {
      value(kLbPolls, tile, polls);
      value(kLbWords, tile, words);
      value(kLbStop, tile, std::int32_t(base - stop_lane));
      value(kLbTilePrefix, tile, prefix);
    }
  }
};

}  // namespace primlab::lab
