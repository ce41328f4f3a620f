// The histograms' bin rules, trace rows and grid caps, shared by their kernels (<algo>.cuh), plans
// and CPU references (<algo>.cpp, histogram_reference.h). Host and device code; no CUDA header.
//
// Each kernel names the trace's rows by the enums below: a kernel's row r is the trace's row r.
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "lab/model/trace.h"

#ifdef __CUDACC__
#define PRIMLAB_HD __host__ __device__
#else
#define PRIMLAB_HD
#endif

namespace primlab::lab {

// [SECTION] Bin rules: operator() gives a sample's bin, or -1 when the sample is not counted.
// The lab's rule: bin = x mod bins (int32: the non-negative remainder, so -1 falls in bins - 1).
template <class T>
struct ModBinner {
  int bins;
  PRIMLAB_HD int operator()(T x) const {
    if constexpr (std::is_signed_v<T>) {
      const int b = int(x % T(bins));
      return b < 0 ? b + bins : b;
    } else {
      return int(x % T(bins));
    }
  }
};

// The timed form's rule, histogram_even's equal-width bins over [lower, lower + range), by a plain
// 64-bit division.
template <class T>
struct DivBinner {
  std::int64_t lower;
  std::uint64_t range;
  int bins;
  PRIMLAB_HD int operator()(T x) const {
    const std::uint64_t diff = std::uint64_t(std::int64_t(x) - lower);
    return diff < range ? int(diff * std::uint64_t(bins) / range) : -1;
  }
};

// [SECTION] Grids. The timed forms cap their grid-stride loops at 65536 blocks. The lab caps the
// histograms that keep a histogram per block (per warp, per thread) so that the trace shows all of
// them; more samples then take more trips of the grid-stride loop.
constexpr int kTimedMaxBlocks = 65536;
constexpr int kMaxPartialCells = 8192;  // per-block (per-warp) histogram cells a lab grid may hold
constexpr int kMaxLabBins = 256;

inline int warps_of(int block) { return (block + 31) / 32; }
inline int shared_max_blocks(int bins) { return std::max(1, kMaxPartialCells / bins); }
inline int tagged_max_blocks(int block, int bins) { return std::max(1, kMaxPartialCells / (warps_of(block) * bins)); }
inline std::int64_t grid_of(std::int64_t n, int block, int max_blocks) {
  return std::min<std::int64_t>((n + block - 1) / block, max_blocks);
}

// [SECTION] Rows. The histograms of samples start alike: the samples, the bin each lane computed
// (a register), how many lanes of the warp's instruction share it, the bins.
enum HistogramRow : int {
  kHistIn = kRowMain,
  kHistBin = kStdRows,  // b (data in the tagged kernels): a register per sample
  kHistSame,            // lanes of the instruction on the same bin (probe.match)
  kHist,                // the bins, in global memory
  kHistOwnRows
};
// histogram-shared: each block's s_hist, block-major.
enum SharedRow : int { kSharedBlockHist = kHistOwnRows };
// histogram-tagged(-bytes): per sample (per byte), its failed writes; the warp sub-histograms
// s_hist as counts, tags (registers of the lane that landed) and the words themselves; the blocks'
// partial histograms in global memory.
enum TaggedRow : int { kTaggedRetries = kHistOwnRows, kTaggedCount, kTaggedTag, kTaggedWords, kTaggedPartial };
constexpr std::uint32_t kTagCountMask = 0x07FFFFFFu;  // the count under the 5-bit tag
constexpr int kBytesPerWord = 4;
constexpr int kByteBins = 256;  // histogram-tagged-bytes: a bin per byte value

// histogram-per-thread: the lecture's histogram without atomics, 64 threads of 64 byte counters.
enum PerThreadRow : int { kPerThreadIn = kRowMain, kPerThreadData = kStdRows, kPerThreadCounters, kPerThreadPartial,
                          kPerThreadHist };
constexpr int kPerThreadThreads = 64;                          // threads per block
constexpr int kPerThreadMaxBins = 64;                          // counters per thread
constexpr int kPerThreadCells = kPerThreadThreads * kPerThreadMaxBins;  // byte counters per block (4 KB)
constexpr int kPerThreadMaxBlocks = 2;                         // the trace holds every block's counters

}  // namespace primlab::lab

#undef PRIMLAB_HD
