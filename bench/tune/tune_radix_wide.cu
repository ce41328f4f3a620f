// The lever "fewer passes" of the radix sort, measured: u32 keys sorted in three Onesweep passes
// of 11-bit digits (11 + 11 + 10 bits, 28 B of DRAM traffic per key against 36 for four 8-bit
// passes), timed in the same process as the library's four 8-bit passes, alternated.
//
// The 11-bit pass keeps the library's pass (agent/radix_onesweep.cuh) and changes what 2048
// digits force on it:
//   - the per-warp digit counters are 16 bits, two to a word (2048 x 32-bit counters per warp
//     would take 128 KB of shared memory for 16 warps);
//   - the peer masks stay 256 words per warp, indexed by the digit's low 8 bits; three ballots
//     on digit bits 8..10 keep only the lanes whose whole digit matches;
//   - each thread owns 2048 / THREADS digits: their column sums, scans and look-back walks;
//   - the look-back words are 2048 per tile (8 KB), zeroed before each pass.
// Keys are unsigned, ascending, whole width; no values. Built with -DPRIMLAB_WITH_TUNERS=ON
// (target primlab_tune_radix_wide); run on the GPU: primlab_tune_radix_wide [log2 n]. One line
// per variant and bit range, with the count of out-of-order neighbours (must be 0).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tune_common.cuh"
#include "device/radix_onesweep_dispatch.cuh"

using namespace primlab;
using namespace primlab::detail;

namespace {

constexpr std::uint32_t kInclusive = onesweep::kInclusive;
constexpr int kMaxPasses = 3;

// Digit counts of every pass, one shared atomic per key and pass (as agent/radix_histogram.cuh).
template <int BITS, int THREADS>
__global__ void __launch_bounds__(THREADS) wide_histogram(const std::uint32_t* keys, std::int64_t n, int passes,
                                                          int end_bit, std::uint32_t* hist) {
  constexpr int R = 1 << BITS;
  __shared__ std::uint32_t s_hist[kMaxPasses * R];
  for (int i = threadIdx.x; i < kMaxPasses * R; i += THREADS) s_hist[i] = 0;
  __syncthreads();
  for (std::int64_t i = blockIdx.x * std::int64_t(THREADS) + threadIdx.x; i < n / 4;
       i += std::int64_t(gridDim.x) * THREADS) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(keys) + i);
    const std::uint32_t k[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      for (int p = 0; p < passes; ++p) {
        const int bits = std::min(BITS, end_bit - p * BITS);
        atomicAdd(&s_hist[p * R + ((k[e] >> (p * BITS)) & ((1u << bits) - 1))], 1u);
      }
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < passes * R; i += THREADS)
    if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]);
}

struct WideArgs {
  const std::uint32_t* keys_in;
  std::uint32_t* keys_out;
  std::int64_t n;
  int shift;
  std::uint32_t mask;
  const std::uint32_t* hist;
  std::uint32_t* status;  // tiles x 2^BITS look-back words, zeroed
  std::uint32_t* tile_counter;
};

// Exclusive scan over the block of a (one value per thread, in thread order) and b alike.
template <int THREADS>
__device__ __forceinline__ void block_scan2(std::uint32_t a, std::uint32_t b, std::uint32_t& ea, std::uint32_t& eb,
                                            std::uint32_t* s_tmp) {
  constexpr int kWarps = THREADS / 32;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  std::uint32_t ia = a, ib = b;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const std::uint32_t ta = __shfl_up_sync(0xffffffffu, ia, off), tb = __shfl_up_sync(0xffffffffu, ib, off);
    if (lane >= off) { ia += ta; ib += tb; }
  }
  if (lane == 31) { s_tmp[warp] = ia; s_tmp[kWarps + warp] = ib; }
  __syncthreads();
  std::uint32_t pa = 0, pb = 0;
  for (int w = 0; w < warp; ++w) { pa += s_tmp[w]; pb += s_tmp[kWarps + w]; }
  ea = pa + ia - a;
  eb = pb + ib - b;
}

template <int BITS, int THREADS, int ITEMS>
constexpr std::size_t wide_smem_bytes() {
  return std::size_t(THREADS / 32) * (1 << BITS) * 2 + 64 * 4 + std::size_t(THREADS) * ITEMS * 4;
}

template <int BITS, int THREADS, int ITEMS, int MIN_BLOCKS, int WINDOW>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS) wide_pass(WideArgs a) {
  constexpr int R = 1 << BITS, kWarps = THREADS / 32, kTile = THREADS * ITEMS;
  constexpr int kDpt = R / THREADS;  // digits per thread
  constexpr int kRowWords = R / 2;   // 16-bit counters, two per word
  static_assert(kDpt >= 2 && kDpt % 2 == 0, "whole counter words per thread");
  static_assert(kTile < 65536, "16-bit counters");
  static_assert(kTile >= kWarps * 256, "the mask rows fit in the exchange buffer");
  static_assert(kWarps * kRowWords >= R, "the digit bases fit in the counters");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  std::uint32_t* s_cnt = reinterpret_cast<std::uint32_t*>(smem_raw);  // [warp][digit pair]
  std::uint32_t* s_base = s_cnt;                                     // after the ranking
  std::uint32_t* s_tmp = s_cnt + kWarps * kRowWords;                 // 64 words
  std::uint32_t* s_keys = s_tmp + 64;                                // the tile exchange
  std::uint32_t* s_masks = s_keys;                                   // [warp][256], before it
  __shared__ std::uint32_t s_tile;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (tid == 0) s_tile = atomicAdd(a.tile_counter, 1u);
  for (int i = tid; i < kWarps * kRowWords; i += THREADS) s_cnt[i] = 0;
  for (int i = tid; i < kWarps * 256; i += THREADS) s_masks[i] = 0;
  __syncthreads();
  const std::uint32_t tile = s_tile;
  const std::int64_t tile_begin = std::int64_t(tile) * kTile;
  const int valid = static_cast<int>(std::min<std::int64_t>(kTile, a.n - tile_begin));
  const int warp_first = warp * 32 * ITEMS + lane;

  std::uint32_t k[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int li = warp_first + i * 32;
    k[i] = (valid == kTile || li < valid) ? a.keys_in[tile_begin + li] : ~0u;
  }
  std::uint32_t* wc = s_cnt + warp * kRowWords;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const std::uint32_t d = (k[i] >> a.shift) & a.mask;
    atomicAdd(&wc[d >> 1], 1u << ((d & 1) * 16));
  }
  __syncthreads();

  // This thread's digits d0 .. d0 + kDpt - 1: warp starts down each column, the tile counts.
  const int d0 = tid * kDpt;
  std::uint32_t run[kDpt / 2] = {};
#pragma unroll 4
  for (int w = 0; w < kWarps; ++w) {
#pragma unroll
    for (int j = 0; j < kDpt / 2; ++j) {
      std::uint32_t* p = s_cnt + w * kRowWords + d0 / 2 + j;
      const std::uint32_t c = *p;
      *p = run[j];
      run[j] += c;
    }
  }
  std::uint32_t total[kDpt], gcount[kDpt];
  std::uint32_t* my_status = a.status + std::size_t(tile) * R + d0;
  std::uint32_t tsum = 0, gsum = 0;
#pragma unroll
  for (int j = 0; j < kDpt; ++j) {
    total[j] = (run[j / 2] >> ((j & 1) * 16)) & 0xffffu;
    onesweep::st_relaxed(my_status + j, tile == 0 ? (kInclusive | total[j]) : total[j] + 1);
    gcount[j] = a.hist[d0 + j];
    tsum += total[j];
    gsum += gcount[j];
  }
  std::uint32_t tile_excl[kDpt], glob_excl[kDpt];
  block_scan2<THREADS>(tsum, gsum, tile_excl[0], glob_excl[0], s_tmp);
#pragma unroll
  for (int j = 1; j < kDpt; ++j) {
    tile_excl[j] = tile_excl[j - 1] + total[j - 1];
    glob_excl[j] = glob_excl[j - 1] + gcount[j - 1];
  }
  std::uint32_t add[kDpt / 2];
#pragma unroll
  for (int j = 0; j < kDpt / 2; ++j) add[j] = tile_excl[2 * j] | (tile_excl[2 * j + 1] << 16);
#pragma unroll 4
  for (int w = 0; w < kWarps; ++w) {
#pragma unroll
    for (int j = 0; j < kDpt / 2; ++j) s_cnt[w * kRowWords + d0 / 2 + j] += add[j];
  }
  __syncthreads();

  // Rank: peers by the low 8 bits through the mask row, then by ballots on the high bits.
  std::uint32_t rank[ITEMS];
  {
    std::uint32_t* wm = s_masks + warp * 256;
    const std::uint32_t bit = 1u << lane, lt = bit - 1;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const std::uint32_t d = (k[i] >> a.shift) & a.mask, h = d & 255u;
      atomicOr(&wm[h], bit);
      __syncwarp();
      const std::uint32_t hashed = wm[h];
      std::uint32_t peers = hashed;
#pragma unroll
      for (int b = 8; b < BITS; ++b) {
        const std::uint32_t set = __ballot_sync(0xffffffffu, (d >> b) & 1u);
        peers &= ((d >> b) & 1u) ? set : ~set;
      }
      const int leader = 31 - __clz(peers);
      std::uint32_t before = 0;
      if (lane == leader) {
        const int sh = (d & 1) * 16;
        before = (atomicAdd(&wc[d >> 1], std::uint32_t(__popc(peers)) << sh) >> sh) & 0xffffu;
      }
      rank[i] = __shfl_sync(0xffffffffu, before, leader) + __popc(peers & lt);
      if (lane == 31 - __clz(hashed)) wm[h] = 0;
      __syncwarp();
    }
  }
  __syncthreads();  // the mask rows alias the exchange buffer; the counters, the digit bases
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) s_keys[rank[i]] = k[i];

  // Look-back for this thread's digits, WINDOW predecessors per round trip, the digits together.
  std::uint32_t excl[kDpt] = {};
  if (tile > 0) {
    std::uint32_t left[kDpt];
    bool done[kDpt];
#pragma unroll
    for (int j = 0; j < kDpt; ++j) { left[j] = tile; done[j] = false; }
    for (;;) {
      std::uint32_t v[kDpt][WINDOW];
#pragma unroll
      for (int j = 0; j < kDpt; ++j)
#pragma unroll
        for (int w = 0; w < WINDOW; ++w)
          v[j][w] = !done[j] && w < int(left[j])
                        ? onesweep::ld_relaxed(my_status + j - std::size_t(tile - left[j] + 1 + w) * R)
                        : 0u;
      bool all = true;
#pragma unroll
      for (int j = 0; j < kDpt; ++j) {
        if (done[j]) continue;
        int folded = 0;
#pragma unroll
        for (int w = 0; w < WINDOW; ++w) {
          if (folded == w && !done[j] && v[j][w] != 0) {
            done[j] = (v[j][w] & kInclusive) != 0;
            excl[j] += done[j] ? v[j][w] & ~kInclusive : v[j][w] - 1;
            folded = w + 1;
          }
        }
        left[j] -= folded;
        all = all && done[j];
      }
      if (all) break;
    }
#pragma unroll
    for (int j = 0; j < kDpt; ++j) onesweep::st_relaxed(my_status + j, kInclusive | (excl[j] + total[j]));
  }
#pragma unroll
  for (int j = 0; j < kDpt; ++j) s_base[d0 + j] = glob_excl[j] + excl[j] - tile_excl[j];
  __syncthreads();
#pragma unroll
  for (int s = 0; s < ITEMS; ++s) {
    const int j = s * THREADS + tid;
    const std::uint32_t key = s_keys[j];
    if (valid == kTile || j < valid) a.keys_out[s_base[(key >> a.shift) & a.mask] + j] = key;
  }
}

template <int BITS, int THREADS, int ITEMS, int MIN_BLOCKS, int WINDOW>
struct Wide {
  static constexpr int kTile = THREADS * ITEMS;
  static constexpr std::size_t kSmem = wide_smem_bytes<BITS, THREADS, ITEMS>();
  static std::size_t tiles(std::int64_t n) { return (std::size_t(n) + kTile - 1) / kTile; }
  // [alt keys][hist: 3 x 2^BITS][tile counters: 64][look-back words: 3 x tiles x 2^BITS]
  static std::size_t ws_bytes(std::int64_t n) {
    return std::size_t(n) * 4 + (kMaxPasses * (1 << BITS) + 64) * 4 + kMaxPasses * tiles(n) * (1 << BITS) * 4;
  }
  // Sorts by bits [0, end_bit), end_bit <= 3 x BITS.
  static void run(const std::uint32_t* in, std::uint32_t* out, std::int64_t n, int end_bit, void* ws, int sms) {
    constexpr int R = 1 << BITS;
    const int passes = (end_bit + BITS - 1) / BITS;
    std::uint32_t* alt = static_cast<std::uint32_t*>(ws);
    std::uint32_t* hist = alt + n;
    std::uint32_t* counters = hist + kMaxPasses * R;
    std::uint32_t* status = counters + 64;
    const std::size_t t = tiles(n);
    CK(cudaMemsetAsync(hist, 0, ((kMaxPasses * R + 64) + passes * t * R) * 4));
    wide_histogram<BITS, 512><<<sms * 3, 512>>>(in, n, passes, end_bit, hist);
    auto kernel = wide_pass<BITS, THREADS, ITEMS, MIN_BLOCKS, WINDOW>;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)));
    const std::uint32_t* src = in;
    for (int p = 0; p < passes; ++p) {
      std::uint32_t* dst = (passes - 1 - p) % 2 == 0 ? out : alt;
      const int bits = std::min(BITS, end_bit - p * BITS);
      WideArgs a{src, dst, n, p * BITS, (1u << bits) - 1u, hist + p * R, status + p * t * R, counters + p};
      kernel<<<unsigned(t), THREADS, kSmem>>>(a);
      CK(cudaGetLastError());
      src = dst;
    }
  }
};

}  // namespace

namespace {

__global__ void count_different(const std::uint32_t* a, const std::uint32_t* b, std::int64_t n,
                                unsigned long long* bad) {
  unsigned long long c = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(bad, c);
}

struct Bench {
  std::int64_t n;
  std::uint32_t *in = nullptr, *out = nullptr, *ref = nullptr;  // ref: the library's sorted keys
  void* ws = nullptr;
  unsigned long long* bad = nullptr;
  int sms = 0;
  DeviceFacts facts;

  Bench(std::int64_t count, std::size_t ws_bytes) : n(count) {
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    CK(cudaMalloc(&ws, ws_bytes));
    CK(cudaMalloc(&bad, sizeof(unsigned long long)));
    tune::fill_random<<<2048, 256>>>(in, n, 12345);
    CK(cudaDeviceSynchronize());
    if (device_facts(facts) != Status::Success) std::exit(1);
    sms = facts.sm_count;
  }
  // Positions where out differs from the library's sort by the same bits (with_ref), else where
  // neighbours are out of order.
  unsigned long long unsorted(int end_bit, bool with_ref) {
    CK(cudaMemset(bad, 0, sizeof(unsigned long long)));
    if (with_ref)
      count_different<<<2048, 256>>>(out, ref, n, bad);
    else
      tune::count_unsorted<std::uint32_t, std::uint32_t, false><<<2048, 256>>>(in, out, nullptr, n, end_bit, bad);
    unsigned long long b = 0;
    CK(cudaMemcpy(&b, bad, sizeof(b), cudaMemcpyDeviceToHost));
    return b;
  }
  void report(const char* label, int end_bit, float ms, bool with_ref) {
    std::printf("%-26s bits %2d %8.4f ms %7.1f Gkeys/s   %s %llu\n", label, end_bit, ms, n / ms / 1e6,
                with_ref ? "differ from the library" : "out of order", unsorted(end_bit, with_ref));
  }
};

// The library's four 8-bit passes (its tuned shape), whole width and one pass.
void time_library(Bench& b) {
  for (const int end_bit : {32, 8}) {
    const float ms = tune::median_ms([&] {
      CK(cudaGetLastError());
      if (onesweep::run<std::uint32_t, std::uint32_t, false>(b.in, b.out, nullptr, nullptr, b.n, 0, end_bit,
                                                             KeyCodec<std::uint32_t>{}, b.ws, nullptr, b.facts,
                                                             nullptr) != Status::Success)
        std::exit(1);
    });
    b.report("library 8-bit 512x28 b2", end_bit, ms, false);
    if (end_bit == 32) CK(cudaMemcpy(b.ref, b.out, b.n * 4, cudaMemcpyDeviceToDevice));
  }
}

template <int THREADS, int ITEMS, int MIN_BLOCKS, int WINDOW>
void time_wide(Bench& b) {
  using W = Wide<11, THREADS, ITEMS, MIN_BLOCKS, WINDOW>;
  char label[64];
  std::snprintf(label, sizeof label, "11-bit %dx%d b%d w%d", THREADS, ITEMS, MIN_BLOCKS, WINDOW);
  if (W::kSmem > std::size_t(b.facts.max_smem_optin)) {
    std::printf("%-26s needs %zu bytes of shared memory: skipped\n", label, W::kSmem);
    return;
  }
  for (const int end_bit : {32, 11}) {
    const float ms = tune::median_ms([&] { W::run(b.in, b.out, b.n, end_bit, b.ws, b.sms); });
    CK(cudaDeviceSynchronize());
    b.report(label, end_bit, ms, end_bit == 32);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  if (log2n < 2 || log2n > 30) {
    std::printf("usage: %s [log2 n, 2..30; default 28]\n", argv[0]);
    return 2;
  }
  const std::int64_t n = std::int64_t(1) << log2n;
  const std::size_t ws = std::max({onesweep::workspace_bytes<std::uint32_t, std::uint32_t, false>(n),
                                   Wide<11, 256, 24, 3, 4>::ws_bytes(n)});
  Bench b(n, ws);
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs, n = 2^%d uniform random u32 keys, whole sort (histogram + passes), median of 15\n",
              prop.name, b.sms, log2n);
  for (int round = 0; round < 2; ++round) {  // alternated: the first timings of a process run cold
    time_library(b);
    time_wide<256, 32, 3, 2>(b);
    time_wide<256, 24, 3, 2>(b);
    time_wide<256, 32, 2, 4>(b);
    time_wide<1024, 16, 1, 4>(b);
    time_wide<512, 28, 1, 4>(b);
    time_wide<512, 32, 1, 4>(b);
  }
  return 0;
}
