// The catalog: one row per algorithm, read by the Step tab, `trace`, `render`, the bench, the
// Performance tab and the tests. A row names the algorithm (its only key), its limits, options and
// description, and its stepped and timed forms; the functions of its folder are declared beside
// it. Adding an algorithm is one folder under algorithms/ and one row here.
#include "lab/catalog.h"

#include <algorithm>

#include "lab/run/steppers.h"

namespace primlab {
namespace {

// [SECTION] The row builder: each setter names one field; unset fields keep Algorithm's defaults
// (n up to 4096, any block from 1 to 1024, deterministic, no timed form).
class Row {
 public:
  Row(const char* name, const char* family) {
    a_.name = name;
    a_.family = family;
  }
  Row& title(const char* t) { a_.title = t; return *this; }
  Row& description(const char* d) { a_.description = d; return *this; }
  Row& options(unsigned o) { a_.options = o; return *this; }
  Row& block_pow2() { a_.block_pow2 = true; return *this; }
  Row& max_n(std::int32_t n) { a_.max_n = n; return *this; }
  Row& blocks(std::int32_t lo, std::int32_t hi) {
    a_.min_block = lo;
    a_.max_block = hi;
    return *this;
  }
  Row& bins(std::int32_t max, bool pow2) {
    a_.max_bins = max;
    a_.bins_pow2 = pow2;
    return *this;
  }
  Row& nondeterministic() { a_.deterministic = false; return *this; }
  Row& variants(const char* names) { a_.variant_names = names; return *this; }
  Row& bins_label(const char* l) { a_.bins_label = l; return *this; }
  Row& stepped(decltype(Algorithm::plan) plan, decltype(Algorithm::run_cpu) cpu, decltype(Algorithm::run_cuda) cuda) {
    a_.plan = plan;
    a_.run_cpu = cpu;
    a_.run_cuda = cuda;
    return *this;
  }
  Row& timed(const char* primitive, std::vector<std::string> types, decltype(TimedForm::workspace_bytes) bytes,
             decltype(TimedForm::run) run) {
    a_.timed.primitive = primitive;
    a_.timed.types = std::move(types);
    a_.timed.workspace_bytes = bytes;
    a_.timed.run = run;
    return *this;
  }
  Row& takes_items() { a_.timed.takes_items = true; return *this; }
  operator Algorithm() const { return a_; }

 private:
  Algorithm a_;
};

// Element types of the timed forms. Functions, not globals: algorithms() may first be called while
// another file's globals are initialised, before this file's.
std::vector<std::string> numeric_types() { return {"i32", "u32", "f32"}; }  // teaching scans, reductions
std::vector<std::string> sample_types() { return {"u8", "u32"}; }           // timed histograms
std::vector<std::string> key_types() { return {"u32"}; }                    // timed sorts

}  // namespace

// [SECTION] Scans: naive Hillis-Steele, work-efficient Blelloch, shared-memory with bank-conflict
// offsets, and the library's single-pass decoupled look-back.
namespace steppers {
PlanFn plan_scan_naive;
CpuFn cpu_scan_naive;
CudaFn cuda_scan_naive;
TimedBytesFn timed_bytes_scan_naive;
TimedFn timed_scan_naive;
}  // namespace steppers
static Algorithm scan_naive() {
  return Row("scan-naive", "scan")
      .title("Naive scan (Hillis-Steele)")
      .description("Every element adds its neighbour at offset 1, 2, 4, ...: O(n log n) adds, log n launches, "
                   "ping-pong buffers.")
      .options(kOptInclusive | kOptFloat)
      .stepped(steppers::plan_scan_naive, steppers::cpu_scan_naive, PRIMLAB_IF_CUDA(steppers::cuda_scan_naive))
      .timed("scan_exclusive", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_scan_naive),
             PRIMLAB_IF_CUDA(steppers::timed_scan_naive));
}

namespace steppers {
PlanFn plan_scan_blelloch;
CpuFn cpu_scan_blelloch;
CudaFn cuda_scan_blelloch;
TimedBytesFn timed_bytes_scan_blelloch;
TimedFn timed_scan_blelloch;
}  // namespace steppers
static Algorithm scan_blelloch() {
  return Row("scan-blelloch", "scan")
      .title("Work-efficient scan (Blelloch)")
      .description("Up-sweep builds a sum tree in place, down-sweep turns it into prefix sums: O(n) adds, 2 log n "
                   "launches.")
      .options(kOptInclusive | kOptFloat)
      .stepped(steppers::plan_scan_blelloch, steppers::cpu_scan_blelloch, PRIMLAB_IF_CUDA(steppers::cuda_scan_blelloch))
      .timed("scan_exclusive", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_scan_blelloch),
             PRIMLAB_IF_CUDA(steppers::timed_scan_blelloch));
}

namespace steppers {
PlanFn plan_scan_shared;
CpuFn cpu_scan_shared;
CudaFn cuda_scan_shared;
TimedBytesFn timed_bytes_scan_shared;
TimedFn timed_scan_shared;
}  // namespace steppers
static Algorithm scan_shared() {
  return Row("scan-shared", "scan")
      .title("Shared-memory scan (bank-conflict offsets)")
      .description("Each block scans 2B elements in shared memory (GPU Gems 3 ch. 39); the block sums are scanned by "
                   "the same code one level down and added back.")
      .options(kOptInclusive | kOptFloat | kOptConflictOffsets | kOptVariant)
      .variants("offset i >> 5, scan the sums\0offset (i >> 5) + (i >> 10), scan the sums\0offset i >> 5, "
                "kernStitch (seed 000)\0offset (i >> 5) + (i >> 10), kernStitch (seed 000)\0")
      .block_pow2()
      // Tiles of at least 4: each level of the recursion keeps its block sums on a row of the trace,
      // and 2-element tiles would need 12 levels for 4096 elements.
      .blocks(2, 1024)
      .stepped(steppers::plan_scan_shared, steppers::cpu_scan_shared, PRIMLAB_IF_CUDA(steppers::cuda_scan_shared))
      .timed("scan_exclusive", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_scan_shared),
             PRIMLAB_IF_CUDA(steppers::timed_scan_shared));
}

namespace steppers {
PlanFn plan_scan_naive_shared;
CpuFn cpu_scan_naive_shared;
CudaFn cuda_scan_naive_shared;
}  // namespace steppers
static Algorithm scan_naive_shared() {
  return Row("scan-naive-shared", "scan")
      .title("Naive scan in shared memory, block sums (seed 001)")
      .description("Each block scans its B elements in a shared ping-pong buffer (offsets 1, 2, 4, ...); block sum = "
                   "last scanned + last input; the host scans the block sums and a second kernel adds them.")
      .options(kOptInclusive | kOptFloat | kOptU32)
      .stepped(steppers::plan_scan_naive_shared, steppers::cpu_scan_naive_shared, PRIMLAB_IF_CUDA(steppers::cuda_scan_naive_shared));
}

// The library's own single-pass scan (agent/scan_kernel.cuh, block/tile_state.cuh), stepped on
// tiles of one item a lane. Integers only: the race decides the order of the adds, and float adds
// would round differently from run to run.
namespace steppers {
PlanFn plan_scan_lookback;
CpuFn cpu_scan_lookback;
CudaFn cuda_scan_lookback;
}  // namespace steppers
static Algorithm scan_lookback() {
  return Row("scan-lookback", "scan")
      .title("Single-pass scan, decoupled look-back (the library's kernel)")
      .description("The library's scan_kernel on tiles of 32 or 64 items: each tile publishes its aggregate, looks "
                   "back over its predecessors' tile-state words to the nearest inclusive prefix, publishes its own. "
                   "The GPU trace shows the tiles' real race.")
      .options(kOptInclusive | kOptU32)
      .blocks(32, 64)
      .block_pow2()
      .nondeterministic()
      .stepped(steppers::plan_scan_lookback, steppers::cpu_scan_lookback, PRIMLAB_IF_CUDA(steppers::cuda_scan_lookback));
}

// [SECTION] Reductions: the lecture's reduce1..reduce5 (seed 004), the warp-shuffle reduction and
// Harris's kernels 6 and 7, each launched again over the blocks' partial sums until one block is left.
namespace steppers {
PlanFn plan_reduce1;
CpuFn cpu_reduce1;
CudaFn cuda_reduce1;
TimedBytesFn timed_bytes_reduce1;
TimedFn timed_reduce1;
}  // namespace steppers
static Algorithm reduce1() {
  return Row("reduce1", "reduce")
      .title("reduce1: interleaved addressing")
      .description("Tree sum in shared memory, if (tid % (2*s) == 0): active threads are scattered, so every warp "
                   "diverges at every level.")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce1, steppers::cpu_reduce1, PRIMLAB_IF_CUDA(steppers::cuda_reduce1))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce1),
             PRIMLAB_IF_CUDA(steppers::timed_reduce1));
}

namespace steppers {
PlanFn plan_reduce2;
CpuFn cpu_reduce2;
CudaFn cuda_reduce2;
TimedBytesFn timed_bytes_reduce2;
TimedFn timed_reduce2;
}  // namespace steppers
static Algorithm reduce2() {
  return Row("reduce2", "reduce")
      .title("reduce2: strided index")
      .description("index = 2*s*tid packs the active threads into the first warps (little divergence), but the "
                   "stride-2s addresses conflict in the banks (with blocks of 64 threads or more).")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce2, steppers::cpu_reduce2, PRIMLAB_IF_CUDA(steppers::cuda_reduce2))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce2),
             PRIMLAB_IF_CUDA(steppers::timed_reduce2));
}

namespace steppers {
PlanFn plan_reduce3;
CpuFn cpu_reduce3;
CudaFn cuda_reduce3;
TimedBytesFn timed_bytes_reduce3;
TimedFn timed_reduce3;
}  // namespace steppers
static Algorithm reduce3() {
  return Row("reduce3", "reduce")
      .title("reduce3: sequential addressing")
      .description("s from B/2 down: data[tid] += data[tid+s] on consecutive words, conflict-free; half the "
                   "threads idle from the first level.")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce3, steppers::cpu_reduce3, PRIMLAB_IF_CUDA(steppers::cuda_reduce3))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce3),
             PRIMLAB_IF_CUDA(steppers::timed_reduce3));
}

namespace steppers {
PlanFn plan_reduce4;
CpuFn cpu_reduce4;
CudaFn cuda_reduce4;
TimedBytesFn timed_bytes_reduce4;
TimedFn timed_reduce4;
}  // namespace steppers
static Algorithm reduce4() {
  return Row("reduce4", "reduce")
      .title("reduce4: first add during load")
      .description("Each block sums 2B elements, adding the two halves while loading: half the blocks, no thread "
                   "idle at the first add.")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce4, steppers::cpu_reduce4, PRIMLAB_IF_CUDA(steppers::cuda_reduce4))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce4),
             PRIMLAB_IF_CUDA(steppers::timed_reduce4));
}

namespace steppers {
PlanFn plan_reduce5;
CpuFn cpu_reduce5;
CudaFn cuda_reduce5;
TimedBytesFn timed_bytes_reduce5;
TimedFn timed_reduce5;
}  // namespace steppers
static Algorithm reduce5() {
  return Row("reduce5", "reduce")
      .title("reduce5: last warp unrolled")
      .description("reduce4 with the last six levels unrolled in one warp: no barrier, no branch, volatile shared "
                   "memory, warp-synchronous.")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce5, steppers::cpu_reduce5, PRIMLAB_IF_CUDA(steppers::cuda_reduce5))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce5),
             PRIMLAB_IF_CUDA(steppers::timed_reduce5));
}

namespace steppers {
PlanFn plan_reduce6;
CpuFn cpu_reduce6;
CudaFn cuda_reduce6;
TimedBytesFn timed_bytes_reduce6;
TimedFn timed_reduce6;
}  // namespace steppers
static Algorithm reduce6() {
  return Row("reduce6", "reduce")
      .title("reduce6: completely unrolled")
      .description("reduce5 with every level unrolled by the block size, a template parameter (the host switches "
                   "over the powers of two): the same loads and adds, fewer instructions.")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce6, steppers::cpu_reduce6, PRIMLAB_IF_CUDA(steppers::cuda_reduce6))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce6),
             PRIMLAB_IF_CUDA(steppers::timed_reduce6));
}

// Timed with items per thread: the grid is ceil(n / (block * items)) blocks.
namespace steppers {
PlanFn plan_reduce7;
CpuFn cpu_reduce7;
CudaFn cuda_reduce7;
TimedBytesFn timed_bytes_reduce7;
TimedFn timed_reduce7;
}  // namespace steppers
static Algorithm reduce7() {
  return Row("reduce7", "reduce")
      .title("reduce7: many elements per thread")
      .description("A small grid: each thread sums about log2(n) elements in a grid-stride loop (Brent's theorem: "
                   "n / log n threads, O(log n) steps), then reduce6's unrolled tree.")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce7, steppers::cpu_reduce7, PRIMLAB_IF_CUDA(steppers::cuda_reduce7))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce7),
             PRIMLAB_IF_CUDA(steppers::timed_reduce7))
      .takes_items();
}

namespace steppers {
PlanFn plan_reduce_shuffle;
CpuFn cpu_reduce_shuffle;
CudaFn cuda_reduce_shuffle;
TimedBytesFn timed_bytes_reduce_shuffle;
TimedFn timed_reduce_shuffle;
}  // namespace steppers
static Algorithm reduce_shuffle() {
  return Row("reduce-shuffle", "reduce")
      .title("Warp-shuffle reduction")
      .description("First add during load, then __shfl_down_sync in registers (no shared memory), one warp sum per "
                   "warp combined by warp 0.")
      .options(kOptFloat | kOptU32)
      .block_pow2()
      .stepped(steppers::plan_reduce_shuffle, steppers::cpu_reduce_shuffle, PRIMLAB_IF_CUDA(steppers::cuda_reduce_shuffle))
      .timed("reduce_sum", numeric_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_reduce_shuffle),
             PRIMLAB_IF_CUDA(steppers::timed_reduce_shuffle))
      .takes_items();
}

// [SECTION] Stream compaction: map to flags, exclusive scan (a scan stepper of the scan family,
// chosen by the variant), scatter (seeds 001, 002).
namespace steppers {
PlanFn plan_compact;
CpuFn cpu_compact;
CudaFn cuda_compact;
}  // namespace steppers
static Algorithm compact() {
  return Row("compact", "compact")
      .title("Stream compaction (map, scan, scatter)")
      .description("Flags = keep(x), an exclusive scan of the flags gives each kept element its output index, a "
                   "scatter writes it there; count = last index + last flag.")
      .options(kOptFloat | kOptPredicate | kOptVariant | kOptConflictOffsets)
      .variants("Blelloch scan\0naive scan (Hillis-Steele)\0shared-memory scan\0")
      .stepped(steppers::plan_compact, steppers::cpu_compact, PRIMLAB_IF_CUDA(steppers::cuda_compact));
}

// [SECTION] Histograms (the lecture, seed 004): global atomicAdd, per-block shared-memory
// histograms, and the lecture's per-warp sub-histograms with the 5-bit thread tag. bin = x mod bins
// (int32: the non-negative remainder), 2 to 256 bins. Atomic order is not deterministic: the CPU
// and CUDA traces agree on every bin, partial histogram and counter, not on the tag bits or on
// which sample failed how often. Folders: algorithms/histogram/{atomic,shared,tagged,per_thread}/.
namespace steppers {
PlanFn plan_histogram_atomic;
CpuFn cpu_histogram_atomic;
CudaFn cuda_histogram_atomic;
TimedBytesFn timed_bytes_histogram_atomic;
TimedFn timed_histogram_atomic;
}  // namespace steppers
static Algorithm histogram_atomic() {
  return Row("histogram-atomic", "histogram")
      .title("Histogram: global atomicAdd")
      .description("Every sample does atomicAdd(&bins[x mod bins], 1) in global memory; lanes of a warp on one bin "
                   "collide and serialise.")
      .options(kOptBins | kOptU32)
      .bins(256, false)
      .nondeterministic()
      .stepped(steppers::plan_histogram_atomic, steppers::cpu_histogram_atomic, PRIMLAB_IF_CUDA(steppers::cuda_histogram_atomic))
      .timed("histogram_even", sample_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_histogram_atomic),
             PRIMLAB_IF_CUDA(steppers::timed_histogram_atomic));
}

namespace steppers {
PlanFn plan_histogram_shared;
CpuFn cpu_histogram_shared;
CudaFn cuda_histogram_shared;
TimedBytesFn timed_bytes_histogram_shared;
TimedFn timed_histogram_shared;
}  // namespace steppers
static Algorithm histogram_shared() {
  return Row("histogram-shared", "histogram")
      .title("Histogram: per-block shared-memory histograms")
      .description("Each block counts into its own shared-memory histogram with atomicAdd, then adds it to the "
                   "global bins: one global atomic per bin and block.")
      .options(kOptBins | kOptU32)
      .bins(256, false)
      .nondeterministic()
      .stepped(steppers::plan_histogram_shared, steppers::cpu_histogram_shared, PRIMLAB_IF_CUDA(steppers::cuda_histogram_shared))
      .timed("histogram_even", sample_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_histogram_shared),
             PRIMLAB_IF_CUDA(steppers::timed_histogram_shared));
}

namespace steppers {
PlanFn plan_histogram_tagged;
CpuFn cpu_histogram_tagged;
CudaFn cuda_histogram_tagged;
}  // namespace steppers
static Algorithm histogram_tagged() {
  return Row("histogram-tagged", "histogram")
      .title("Histogram: per-warp sub-histograms with the thread tag (lecture)")
      .description("No atomics: each warp counts into its own sub-histogram, the 5 high bits tag the last writer, a "
                   "lane writes, checks and retries; partial histograms per block, then a merge kernel.")
      .options(kOptBins | kOptU32)
      .bins(256, false)
      .nondeterministic()
      .stepped(steppers::plan_histogram_tagged, steppers::cpu_histogram_tagged, PRIMLAB_IF_CUDA(steppers::cuda_histogram_tagged));
}

namespace steppers {
PlanFn plan_histogram_tagged_bytes;
CpuFn cpu_histogram_tagged_bytes;
CudaFn cuda_histogram_tagged_bytes;
}  // namespace steppers
static Algorithm histogram_tagged_bytes() {
  return Row("histogram-tagged-bytes", "histogram")
      .title("Histogram of bytes: addWord, four tagged addByte per word (lecture)")
      .description("The lecture's addWord: each 32-bit word goes in as its four bytes, one addByte each, into "
                   "256-bin per-warp sub-histograms whose words are (tag << 27) | count; then the merges.")
      .options(kOptU32)
      .nondeterministic()
      .stepped(steppers::plan_histogram_tagged_bytes, steppers::cpu_histogram_tagged_bytes, PRIMLAB_IF_CUDA(steppers::cuda_histogram_tagged_bytes));
}

// The lecture's histogram without atomics: 64 threads, fewer than 64 bins, byte counters per thread.
namespace steppers {
PlanFn plan_histogram_per_thread;
CpuFn cpu_histogram_per_thread;
CudaFn cuda_histogram_per_thread;
}  // namespace steppers
static Algorithm histogram_per_thread() {
  return Row("histogram-per-thread", "histogram")
      .title("Histogram without atomics: per-thread counters (lecture)")
      .description("Each of a block's 64 threads counts into its own 64 byte counters in shared memory: no atomics. "
                   "The layout tid*64+data or tid+64*data and the thread permutation decide the bank conflicts; a "
                   "block merge and a merge kernel add the counters up.")
      .options(kOptBins | kOptU32 | kOptVariant)
      .variants("tid*64+data\0tid+64*data\0tid*64+data, permuted threads\0tid+64*data, permuted threads\0")
      .blocks(64, 64)
      .block_pow2()
      .bins(64, false)
      .stepped(steppers::plan_histogram_per_thread, steppers::cpu_histogram_per_thread, PRIMLAB_IF_CUDA(steppers::cuda_histogram_per_thread));
}

// [SECTION] Bitonic sort: the lecture's shared-memory tile sort followed by global merge passes.
namespace steppers {
PlanFn plan_bitonic_sort;
CpuFn cpu_bitonic_sort;
CudaFn cuda_bitonic_sort;
TimedBytesFn timed_bytes_bitonic_sort;
TimedFn timed_bitonic_sort;
}  // namespace steppers
static Algorithm bitonic_sort() {
  return Row("bitonic-sort", "bitonic")
      .title("Bitonic sort (sorting network)")
      .description("log N (log N + 1) / 2 compare-swap passes: tiles of L = 2B in shared memory, strides >= L as "
                   "global passes; n padded to a power of two N with a key that sorts last; key-value sorts carry "
                   "each key's index (ties keep input order); floats: -NaN first, +NaN last.")
      .options(kOptFloat | kOptU32 | kOptDescending | kOptKeyValue)
      .block_pow2()
      .stepped(steppers::plan_bitonic_sort, steppers::cpu_bitonic_sort, PRIMLAB_IF_CUDA(steppers::cuda_bitonic_sort))
      .timed("bitonic_sort_keys", key_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_bitonic_sort),
             PRIMLAB_IF_CUDA(steppers::timed_bitonic_sort));
}

// [SECTION] Radix sorts: the 1-bit split (seed 000) and multi-bit digits (histogram, scan, stable scatter).
namespace steppers {
PlanFn plan_radix_split;
CpuFn cpu_radix_split;
CudaFn cuda_radix_split;
TimedBytesFn timed_bytes_radix_split;
TimedFn timed_radix_split;
}  // namespace steppers
static Algorithm radix_split() {
  return Row("radix-split", "radix sort")
      .title("Radix sort, 1-bit split")
      .description("A max reduction finds the bits the keys need; per bit k: b = bit k, f = !b, fs = scan(f), t = i - "
                   "fs + total_falses, scatter to b ? t : fs. int32: a last pass on the flipped sign bit.")
      .options(kOptU32)
      // A step a barrier of the scan's trees: 32 passes at n = 1024 make traces of 55 MB (100 MB in 1-thread blocks).
      .max_n(1024)
      .stepped(steppers::plan_radix_split, steppers::cpu_radix_split, PRIMLAB_IF_CUDA(steppers::cuda_radix_split))
      .timed("sort_keys", key_types(), PRIMLAB_IF_CUDA(steppers::timed_bytes_radix_split),
             PRIMLAB_IF_CUDA(steppers::timed_radix_split));
}

namespace steppers {
PlanFn plan_radix_digits;
CpuFn cpu_radix_digits;
CudaFn cuda_radix_digits;
}  // namespace steppers
static Algorithm radix_digits() {
  return Row("radix-digits", "radix sort")
      .title("Radix sort, multi-bit digits")
      .description("Per 2-8 bit digit: per-block histograms, scan of the counts (digit-major), stable scatter. Keys "
                   "compared through their flipped bits (floats: +NaN after +inf, -NaN before -inf); key-value keeps "
                   "the input order of ties.")
      .options(kOptDigitBits | kOptFloat | kOptU32 | kOptDescending | kOptKeyValue)
      .block_pow2()
      // 16 two-bit passes of key-value pairs at n = 2048 make traces of 50-60 MB (115 MB in 1-thread blocks).
      .max_n(2048)
      .stepped(steppers::plan_radix_digits, steppers::cpu_radix_digits, PRIMLAB_IF_CUDA(steppers::cuda_radix_digits));
}

// One digit pass of the library's own Onesweep sort (agent/radix_histogram.cuh,
// agent/radix_onesweep.cuh, block/block_radix_rank.cuh) on tiles of 2 keys a thread: the digit is
// bits [digit_start, digit_start + log2 bins), one thread per digit. The look-back's race decides
// which words each tile reads: the final keys, counts and prefixes agree, the look-back's ops and
// the order of publication may not.
namespace steppers {
PlanFn plan_radix_onesweep;
CpuFn cpu_radix_onesweep;
CudaFn cuda_radix_onesweep;
}  // namespace steppers
static Algorithm radix_onesweep() {
  return Row("radix-onesweep", "radix sort")
      .title("Onesweep digit pass (the library's kernels)")
      .description("The library's upfront histogram and pass kernel on tiles of 2 keys a thread: each tile ranks its "
                   "keys by warp match and shared counters, publishes its digit counts, looks back over its "
                   "predecessors' to the nearest inclusive prefix, and scatters in digit runs. The GPU trace shows "
                   "the tiles' real race.")
      .options(kOptBins | kOptDigitStart | kOptFloat | kOptU32 | kOptDescending)
      .blocks(32, 64)
      .block_pow2()
      .bins(32, true)
      .bins_label("digits")
      .nondeterministic()
      .stepped(steppers::plan_radix_onesweep, steppers::cpu_radix_onesweep, PRIMLAB_IF_CUDA(steppers::cuda_radix_onesweep));
}

// [SECTION] Radix partition (seed 003): a histogram of a bit-field digit, a prefix scan into
// partition offsets, and the reorder, with atomic offsets (the seed: not stable, not deterministic)
// or stable (per-block histograms [digit][block], in-order block writes). Partitions = bins (2 to
// 4096, a power of two), digit = bits [digit_start, digit_start + log2 bins) of the key's bit pattern.
namespace steppers {
PlanFn plan_partition_atomic;
CpuFn cpu_partition_atomic;
CudaFn cuda_partition_atomic;
}  // namespace steppers
static Algorithm partition_atomic() {
  return Row("partition-atomic", "partition")
      .title("Radix partition with atomic offsets (seed 003)")
      .description("Histogram of a bit-field digit (bfe) with shared atomicAdd, prefix scan into offsets, reorder "
                   "with atomicAdd on each partition's cursor: grouped by digit, not stable.")
      .options(kOptBins | kOptU32 | kOptDigitStart)
      .bins(4096, true)
      .nondeterministic()
      .stepped(steppers::plan_partition_atomic, steppers::cpu_partition_atomic, PRIMLAB_IF_CUDA(steppers::cuda_partition_atomic));
}

namespace steppers {
PlanFn plan_partition_stable;
CpuFn cpu_partition_stable;
CudaFn cuda_partition_stable;
}  // namespace steppers
static Algorithm partition_stable() {
  return Row("partition-stable", "partition")
      .title("Stable radix partition")
      .description("Per-block digit histograms stored [digit][block], one scan over them, each block writes its "
                   "keys in order: a stable counting sort by digit.")
      .options(kOptBins | kOptU32 | kOptDigitStart)
      .bins(4096, true)
      .stepped(steppers::plan_partition_stable, steppers::cpu_partition_stable, PRIMLAB_IF_CUDA(steppers::cuda_partition_stable));
}

// [SECTION] Distributed sort: G virtual GPUs on one device (the library's multi-GPU sort in the
// scheme it takes: partition first and sort, or on up to 4 GPUs sort first and merge where the
// first splitter round leaves a cut open; rounds of histograms, all-reduce and splitters, then the pieces' all-to-all beside the sorts or
// merges of the piece before).
namespace steppers {
PlanFn plan_distributed_sort;
CpuFn cpu_distributed_sort;
CudaFn cuda_distributed_sort;
}  // namespace steppers
static Algorithm distributed_sort() {
  return Row("distributed-sort", "distributed")
      .title("Distributed radix sort (G virtual GPUs)")
      .description("The library's scheme: each GPU partitions its shard by class (skewed keys after a second splitter "
                   "round), or on 2-4 GPUs, where the rounds leave a cut open, sorts it first. Rounds of per-GPU digit "
                   "histograms and their all-reduce until the splitters balance the "
                   "GPUs (equal keys split by position); then each GPU's range travels in up to 4 pieces, piece j's "
                   "all-to-all beside the sort or merge of piece j - 1.")
      .options(kOptBins | kOptDigitBits | kOptU32)
      .bins(8, false)
      .bins_label("GPUs")
      .stepped(steppers::plan_distributed_sort, steppers::cpu_distributed_sort, PRIMLAB_IF_CUDA(steppers::cuda_distributed_sort));
}

// [SECTION] The menu order, and the lookups.
const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> rows = {
      scan_naive(),       scan_naive_shared(), scan_blelloch(),    scan_shared(),      scan_lookback(),
      reduce1(),          reduce2(),          reduce3(),          reduce4(),          reduce5(),          reduce6(),
      reduce7(),
      reduce_shuffle(),   compact(),          histogram_atomic(), histogram_shared(), histogram_tagged(), histogram_tagged_bytes(),
      histogram_per_thread(), bitonic_sort(),     radix_split(),      radix_digits(),     radix_onesweep(),   partition_atomic(), partition_stable(),
      distributed_sort(),
  };
  return rows;
}

const Algorithm* find_algorithm(const std::string& name) {
  for (const Algorithm& a : algorithms())
    if (name == a.name) return &a;
  return nullptr;
}

Result validate(const Algorithm& a, const StepConfig& cfg) {
  const std::string name = a.name;
  if (cfg.n < 1 || cfg.n > a.max_n)
    return Result::failure("n must be between 1 and " + std::to_string(a.max_n) + " in step mode (got " +
                           std::to_string(cfg.n) + ")");
  if (cfg.block < a.min_block || cfg.block > a.max_block)
    return Result::failure((a.min_block == a.max_block
                                ? name + " runs blocks of exactly " + std::to_string(a.min_block) + " threads"
                                : "block size must be between " + std::to_string(a.min_block) + " and " +
                                      std::to_string(a.max_block)) +
                           " (got " + std::to_string(cfg.block) + ")");
  if (a.block_pow2 && (cfg.block & (cfg.block - 1)) != 0)
    return Result::failure(name + " needs a power-of-two block size (got " + std::to_string(cfg.block) + ")");
  if ((a.options & kOptBins) && (cfg.bins < 2 || cfg.bins > a.max_bins || (a.bins_pow2 && (cfg.bins & (cfg.bins - 1)))))
    return Result::failure(name + " takes " + (a.bins_pow2 ? "a power of two " : "") + "from 2 to " +
                           std::to_string(a.max_bins) + " " + (a.bins_label ? a.bins_label : "bins") + " (got " +
                           std::to_string(cfg.bins) + ")");
  if (cfg.type == ElemType::F32 && !(a.options & kOptFloat)) return Result::failure(name + " does not take floats");
  if (cfg.type == ElemType::U32 && !(a.options & kOptU32)) return Result::failure(name + " does not take uint32");
  return {};
}

void fit_config(const Algorithm& a, StepConfig& cfg) {
  auto floor_pow2 = [](std::int32_t v) {
    std::int32_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
  };
  cfg.block = std::clamp(cfg.block, a.min_block, a.max_block);
  if (a.block_pow2) cfg.block = floor_pow2(cfg.block);
  if (cfg.type == ElemType::F32 && !(a.options & kOptFloat)) cfg.type = ElemType::I32;
  if (cfg.type == ElemType::U32 && !(a.options & kOptU32)) cfg.type = ElemType::I32;
  if (a.options & kOptBins) {
    cfg.bins = std::clamp(cfg.bins, 2, a.max_bins);
    if (a.bins_pow2) cfg.bins = floor_pow2(cfg.bins);
  }
}

Result plan_trace(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& out) {
  if (Result r = validate(a, cfg); !r.ok()) return r;
  if (input.size() != std::size_t(cfg.n))
    return Result::failure("the input has " + std::to_string(input.size()) + " values, n is " + std::to_string(cfg.n));
  Trace t;
  t.algo = a.name;
  t.type = cfg.type;
  t.n = cfg.n;
  t.block = cfg.block;
  StepConfig with_input = cfg;
  with_input.input = &input;  // some plans size themselves from the data (radix-split's bit count)
  if (Result r = a.plan(with_input, t); !r.ok()) return r;
  t.allocate();
  out = std::move(t);
  return {};
}

Result build_trace_cpu(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                       Trace& out) {
  Trace t;
  if (Result r = plan_trace(a, cfg, input, t); !r.ok()) return r;
  a.run_cpu(cfg, input, t);
  out = std::move(t);
  return {};
}

#ifndef PRIMLAB_HAVE_CUDA
Result build_trace_cuda(const Algorithm&, const StepConfig&, const std::vector<std::uint32_t>&, Trace&) {
  return Result::failure("this build has no CUDA backend");
}
#endif

}  // namespace primlab
