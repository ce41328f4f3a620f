// Tuning sweep for the scan, select and histogram tunings: times variants of the scan, select
// and byte-histogram kernels at 2^28 and checks each against the first variant. Built with
// -DPRIMLAB_WITH_TUNERS=ON (target primlab_tune_reduce_scan); run on the GPU to tune.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tune_common.cuh"
#include "agent/histogram_kernel.cuh"
#include "agent/scan_kernel.cuh"
#include "agent/select_kernel.cuh"
#include "tuning/warp_striped_tile.cuh"
#include "util/launch_features.cuh"

using namespace primlab;
using namespace primlab::detail;

// A scan or select tuning (tuning/scan.cuh) with every knob a parameter; u32 items.
template <int kT, int kK, bool kSL, bool kSS, int kMinB = 1, int kLW = 1, int kSleep = 0, int kInit = 0>
struct Tu : WarpStripedTile<std::uint32_t, kT, kK> {
  static constexpr int kLookbackInitialDelayNs = kInit;
  static constexpr int kMinBlocksPerSm = kMinB, kLookbackWords = kLW;
  static constexpr int kLookbackSleepNs = kSleep;
  static constexpr bool kStreamingLoads = kSL, kStreamingStores = kSS;
};
template <int kT, int kB, int kU, bool kTab = true>
struct HTu {
  static constexpr int kThreads = kT, kBlocksPerSm = kB, kUnroll = kU;
  static constexpr bool kByteTable = kTab;
};

__global__ void count_diff(const std::uint32_t* a, const std::uint32_t* b, std::int64_t n, unsigned long long* c) {
  unsigned long long k = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) k += a[i] != b[i];
  if (k) atomicAdd(c, k);
}

using tune::median_ms;
int g_sms = 0;

unsigned long long diff(const std::uint32_t* a, const std::uint32_t* b, std::int64_t n, unsigned long long* d_c) {
  CK(cudaMemset(d_c, 0, 8));
  count_diff<<<1024, 256>>>(a, b, n, d_c);
  unsigned long long c;
  CK(cudaMemcpy(&c, d_c, 8, cudaMemcpyDeviceToHost));
  return c;
}

// kStride: 8-byte words between tiles' status words.
template <class Tuning, int kStride = 1>
void scan_variant(const char* name, const std::uint32_t* in, std::uint32_t* out, const std::uint32_t* ref, std::int64_t n, void* ws, unsigned long long* d_c) {
  const std::int64_t tiles = (n + Tuning::kTileItems - 1) / Tuning::kTileItems;
  PackedTileState<std::uint32_t, kStride> st{static_cast<std::uint64_t*>(ws)};
  auto run = [&] {
    cudaMemsetAsync(ws, 0, tiles * 8 * kStride);
    scan_kernel<Tuning, std::uint32_t, Sum, true><<<unsigned(tiles), Tuning::kThreads>>>(in, out, n, 0u, Sum{}, NoProbe{}, st, true, false);
  };
  const float ms = median_ms(run);
  CK(cudaGetLastError());
  const unsigned long long bad = ref ? diff(out, ref, n, d_c) : 0;
  std::printf("scan   %-28s %8.4f ms %7.1f GB/s  mismatches %llu\n", name, ms, 8.0 * n / ms / 1e6, bad);
}

template <class Tuning, int kStride = 1>
void select_variant(const char* name, const std::uint32_t* in, std::uint32_t* out, std::int64_t* d_count, const std::uint32_t* ref, std::int64_t n, void* ws, unsigned long long* d_c) {
  const std::int64_t tiles = (n + Tuning::kTileItems - 1) / Tuning::kTileItems;
  auto run = [&] {
    cudaMemsetAsync(ws, 0, tiles * 8 * kStride);
    select_kernel<Tuning, std::uint32_t, LessThan<std::uint32_t>><<<unsigned(tiles), Tuning::kThreads>>>(
        in, nullptr, out, d_count, n, LessThan<std::uint32_t>{0x80000000u}, CountTileStateT<kStride>{static_cast<std::uint64_t*>(ws)}, true, false);
  };
  const float ms = median_ms(run);
  CK(cudaGetLastError());
  std::int64_t cnt;
  CK(cudaMemcpy(&cnt, d_count, 8, cudaMemcpyDeviceToHost));
  const unsigned long long bad = ref ? diff(out, ref, cnt, d_c) : 0;
  std::printf("select %-28s %8.4f ms %7.1f GB/s  kept %lld mismatches %llu\n", name, ms, 6.0 * n / ms / 1e6, (long long)cnt, bad);
}

template <class Tuning, bool kIdentity>
void hist_variant(const char* name, const std::uint8_t* in, std::uint32_t* hist, const std::uint32_t* ref, std::int64_t n, unsigned long long* d_c) {
  const IntBinner<std::uint8_t> b = make_int_binner<std::uint8_t>(0, 256, 256);
  const int grid = g_sms * Tuning::kBlocksPerSm;
  const int smem = 256 * 32 * 4;
  auto run = [&] {
    cudaMemsetAsync(hist, 0, 1024);
    histogram_kernel<0, Tuning, kIdentity><<<grid, Tuning::kThreads, smem>>>(in, n, hist, 256, b, true);
  };
  const float ms = median_ms(run);
  CK(cudaGetLastError());
  const unsigned long long bad = ref ? diff(hist, ref, 256, d_c) : 0;
  std::printf("hist8  %-28s %8.4f ms %7.1f GB/s  mismatches %llu\n", name, ms, 1.0 * n / ms / 1e6, bad);
}

// The one-cluster scan (no tile states to clear: they live in shared memory) of 2..8 tiles, or
// up to 16 with the non-portable cluster size (Hopper allows 16).
template <class Tuning>
void scan_cluster_variant(const char* name, const std::uint32_t* in, std::uint32_t* out, const std::uint32_t* ref,
                          std::int64_t n, unsigned long long* d_c, int max_tiles = 8) {
  const std::int64_t tiles = (n + Tuning::kTileItems - 1) / Tuning::kTileItems;
  if (tiles < 2 || tiles > max_tiles) {
    std::printf("scan   %-28s (%lld tiles: not one cluster)\n", name, (long long)tiles);
    return;
  }
  if (max_tiles > 8)
    CK(cudaFuncSetAttribute(scan_cluster_kernel<Tuning, std::uint32_t, Sum, true>,
                            cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  const cudaLaunchAttribute attr = cluster_attribute(unsigned(tiles));
  auto run = [&] {
    launch_with_attribute(&attr, scan_cluster_kernel<Tuning, std::uint32_t, Sum, true>, unsigned(tiles),
                          Tuning::kThreads, 0, nullptr, in, out, n, 0u, Sum{}, true);
  };
  const float ms = median_ms(run);
  CK(cudaGetLastError());
  const unsigned long long bad = ref ? diff(out, ref, n, d_c) : 0;
  std::printf("scan   %-28s %8.4f ms %7.1f GB/s  mismatches %llu\n", name, ms, 8.0 * n / ms / 1e6, bad);
}

// One cooperative launch that clears its own tile states (the library's path up to one resident
// wave of tiles, device/scan.cu), for any tile shape.
template <class Tuning, int kStride = 16>
void scan_cooperative_variant(const char* name, const std::uint32_t* in, std::uint32_t* out, const std::uint32_t* ref,
                              std::int64_t n, void* ws, unsigned long long* d_c) {
  const std::int64_t tiles = (n + Tuning::kTileItems - 1) / Tuning::kTileItems;
  auto kernel = scan_kernel<Tuning, std::uint32_t, Sum, true, PackedTileState<std::uint32_t, kStride>>;
  bool fits = false;
  CK(fits_cooperative_launch(kernel, Tuning::kThreads, tiles, fits) == Status::Success ? cudaSuccess : cudaErrorUnknown);
  if (!fits) {
    std::printf("scan   %-28s (%lld tiles: more than one resident wave)\n", name, (long long)tiles);
    return;
  }
  const PackedTileState<std::uint32_t, kStride> st{static_cast<std::uint64_t*>(ws)};
  const cudaLaunchAttribute attr = cooperative_attribute();
  auto run = [&] {
    launch_with_attribute(&attr, kernel, unsigned(tiles), Tuning::kThreads, 0, nullptr, in, out, n, 0u, Sum{}, NoProbe{},
                          st, true, true);
  };
  const float ms = median_ms(run);
  CK(cudaGetLastError());
  const unsigned long long bad = ref ? diff(out, ref, n, d_c) : 0;
  std::printf("scan   %-28s %8.4f ms %7.1f GB/s  mismatches %llu\n", name, ms, 8.0 * n / ms / 1e6, bad);
}

// Small scans (latency): the tuned shape against smaller tiles, more blocks, at 2^log2n items.
void small_scans(int log2n) {
  const std::int64_t n = std::int64_t(1) << log2n;
  std::uint32_t *in, *out, *ref;
  void* ws;
  unsigned long long* d_c;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&ref, n * 4));
  CK(cudaMalloc(&ws, 64 << 20));
  CK(cudaMalloc(&d_c, 8));
  tune::fill_random<<<256, 256>>>(in, n, 12345);
  CK(cudaDeviceSynchronize());
  std::printf("small scans, n = 2^%d u32 (memset of the tile states + the scan kernel, median of 15)\n", log2n);
  scan_variant<Tu<384, 6, true, true, 1, 1, 100, 1200>, 16>("384x24 i1200 stride128B (tuned)", in, ref, nullptr, n, ws, d_c);
  scan_variant<Tu<256, 4, true, true, 2, 1, 100, 0>, 16>("256x16 b2", in, out, ref, n, ws, d_c);
  scan_variant<Tu<256, 2, true, true, 4, 1, 100, 0>, 16>("256x8 b4", in, out, ref, n, ws, d_c);
  scan_variant<Tu<128, 4, true, true, 4, 1, 100, 0>, 16>("128x16 b4", in, out, ref, n, ws, d_c);
  scan_variant<Tu<128, 2, true, true, 8, 1, 100, 0>, 16>("128x8 b8", in, out, ref, n, ws, d_c);
  scan_variant<Tu<512, 2, true, true, 2, 1, 100, 0>, 16>("512x8 b2", in, out, ref, n, ws, d_c);
  scan_variant<Tu<256, 2, false, false, 4, 1, 100, 0>, 16>("256x8 b4 plain loads", in, out, ref, n, ws, d_c);
  // The one-cluster scan against cooperative launches of smaller tiles over more SMs, alternated.
  for (int round = 0; round < 3; ++round) {
    scan_cluster_variant<Tu<384, 6, true, true, 1, 1, 100, 1200>>("384x24 one cluster", in, out, ref, n, d_c);
    scan_cooperative_variant<Tu<384, 6, true, true, 1, 1, 100, 1200>>("384x24 cooperative", in, out, ref, n, ws, d_c);
    scan_cooperative_variant<Tu<256, 4, true, true, 1, 1, 100, 0>>("256x16 cooperative", in, out, ref, n, ws, d_c);
    scan_cooperative_variant<Tu<256, 2, true, true, 1, 1, 100, 0>>("256x8 cooperative", in, out, ref, n, ws, d_c);
    scan_cooperative_variant<Tu<128, 4, true, true, 1, 1, 100, 0>>("128x16 cooperative", in, out, ref, n, ws, d_c);
    scan_cooperative_variant<Tu<128, 2, true, true, 1, 1, 100, 0>>("128x8 cooperative", in, out, ref, n, ws, d_c);
  }
}

int main(int argc, char** argv) {
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
  if (argc > 1) {  // tune_reduce_scan LOG2N (< 28): the small-scan sweep only
    const int log2n = std::atoi(argv[1]);
    if (log2n < 10 || log2n > 27) {
      std::printf("usage: %s [log2 n of a small-scan sweep, 10..27]\n", argv[0]);
      return 2;
    }
    small_scans(log2n);
    return 0;
  }
  const std::int64_t n = std::int64_t(1) << 28;
  std::uint32_t *in, *out, *ref;
  void* ws;
  std::int64_t* d_count;
  unsigned long long* d_c;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&ref, n * 4));
  CK(cudaMalloc(&ws, 64 << 20));
  CK(cudaMalloc(&d_count, 8));
  CK(cudaMalloc(&d_c, 8));
  tune::fill_random<<<2048, 256>>>(in, n, 12345);
  CK(cudaDeviceSynchronize());
  {
    std::uint32_t* tmp;
    CK(cudaMalloc(&tmp, n * 4));
    const float ms = median_ms([&] { cudaMemcpyAsync(tmp, in, n * 4, cudaMemcpyDeviceToDevice); });
    std::printf("copy   %-28s %8.4f ms %7.1f GB/s\n", "memcpy d2d", ms, 8.0 * n / ms / 1e6);
    CK(cudaFree(tmp));
  }
  scan_variant<Tu<256, 4, true, true, 2>>("256x16 ldcs stcs (reference)", in, ref, nullptr, n, ws, d_c);
  {  // the reference itself against the host
    std::vector<std::uint32_t> h_in(n), h_ref(n);
    CK(cudaMemcpy(h_in.data(), in, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_ref.data(), ref, n * 4, cudaMemcpyDeviceToHost));
    std::uint32_t acc = 0;
    long long bad = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      bad += h_ref[i] != acc;
      acc += h_in[i];
    }
    std::printf("scan   reference vs host: %lld mismatches\n", bad);
  }
#define SS(ST, IN, NAME) scan_variant<Tu<384, 6, true, true, 1, 1, 100, IN>, ST>(NAME, in, out, ref, n, ws, d_c);
#define ES(ST, IN, NAME) select_variant<Tu<384, 6, true, true, 1, 1, 100, IN>, ST>(NAME, in, out, d_count, sref, n, ws, d_c);
  SS(1, 3000, "384x24 i3000 stride8B")
  SS(4, 3000, "384x24 i3000 stride32B")
  SS(16, 3000, "384x24 i3000 stride128B")
  SS(4, 1200, "384x24 i1200 stride32B")
  SS(16, 1200, "384x24 i1200 stride128B (tuned)")
  SS(16, 0, "384x24 i0 stride128B")
  SS(32, 1200, "384x24 i1200 stride256B")
  // The look-back's front moves one window (32 x kLookbackWords tiles) per L2 round trip; wider
  // windows, with the 128-byte strides, and 2 or 3 blocks per SM for more tiles behind the front.
#define SW(ST, IN, LW, MINB, NAME) scan_variant<Tu<384, 6, true, true, MINB, LW, 100, IN>, ST>(NAME, in, out, ref, n, ws, d_c);
  SW(16, 1200, 2, 1, "384x24 i1200 s128B w2")
  SW(16, 600, 2, 1, "384x24 i600 s128B w2")
  SW(16, 2000, 2, 1, "384x24 i2000 s128B w2")
  SW(16, 1200, 4, 1, "384x24 i1200 s128B w4")
  SW(8, 1200, 2, 1, "384x24 i1200 s64B w2")
  SW(16, 1200, 1, 2, "384x24 i1200 s128B b2")
  SW(16, 1200, 2, 2, "384x24 i1200 s128B w2 b2")
  SW(16, 0, 1, 2, "384x24 i0 s128B b2")
  SW(16, 600, 1, 2, "384x24 i600 s128B b2")
  SW(16, 3000, 1, 2, "384x24 i3000 s128B b2")
  SW(4, 1200, 1, 2, "384x24 i1200 s32B b2")
  scan_variant<Tu<512, 8, true, true, 1, 2, 100, 1200>, 16>("512x32 i1200 s128B w2", in, out, ref, n, ws, d_c);
  scan_variant<Tu<256, 6, true, true, 3, 2, 100, 1200>, 16>("256x24 i1200 s128B w2 b3", in, out, ref, n, ws, d_c);
  std::uint32_t* sref = ref;
  select_variant<Tu<256, 4, true, true, 2>>("256x16 (reference)", in, ref, d_count, nullptr, n, ws, d_c);
  ES(1, 1500, "384x24 i1500 stride8B")
  ES(4, 1500, "384x24 i1500 stride32B")
  ES(16, 1500, "384x24 i1500 stride128B")
  ES(16, 700, "384x24 i700 stride128B (tuned)")
  ES(16, 0, "384x24 i0 stride128B")
  const std::uint8_t* in8 = reinterpret_cast<const std::uint8_t*>(in);
  const std::int64_t n8 = n;  // 2^28 bytes
  hist_variant<HTu<512, 3, 2>, false>("lane 512x3 u2 table (tuned)", in8, ref, nullptr, n8, d_c);
  hist_variant<HTu<1024, 2, 4>, true>("lane 1024x2 u4 identity (tuned)", in8, out, ref, n8, d_c);
  hist_variant<HTu<1024, 2, 8>, true>("lane 1024x2 u8 identity", in8, out, ref, n8, d_c);
  hist_variant<HTu<512, 4, 4>, true>("lane 512x4 u4 identity", in8, out, ref, n8, d_c);
  hist_variant<HTu<512, 4, 8>, true>("lane 512x4 u8 identity", in8, out, ref, n8, d_c);
  hist_variant<HTu<1024, 1, 8>, true>("lane 1024x1 u8 identity", in8, out, ref, n8, d_c);
  return 0;
}
