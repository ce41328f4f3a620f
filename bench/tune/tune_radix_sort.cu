// Tuning sweep for RadixSortTuning (kernels/tuning/radix_sort.cuh): times the Onesweep sort with
// each candidate pass shape (threads x keys per thread, blocks per SM) on 2^28 uniformly random
// u32 and u64 keys and key-value pairs, over the full key width and over one 8-bit digit (the
// radix partition's single pass), and checks every result. One line per shape and bit range:
//   u32 keys    512x28 b2  bits 32   5.150 ms   52.1 Gkeys/s   smem  73.1 KB   bad 0
// Digits stay 8 bits wide (the pass ranks with one thread per digit). Built with
// -DPRIMLAB_WITH_TUNERS=ON (target primlab_tune_radix_sort); run on the GPU: primlab_tune_radix_sort [log2 n].
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>

#include "tune_common.cuh"
#include "device/radix_onesweep_dispatch.cuh"
#include "primlab/radix_sort.h"

using namespace primlab;
using namespace primlab::detail;

namespace {

template <class Bits>
__global__ void iota(Bits* p, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    p[i] = static_cast<Bits>(i);
}

// The device buffers of one key-value type pairing, and the workspace of the largest shape.
// `floats`: the bits of floats uniform in [0, 1), as the bench's f32 keys: their top digit holds a
// few values (the exponent), the few-digits case of the ranking. `skewed`: bench-multigpu's skewed
// keys, 70 % share the top byte 0x42 and the rest are uniform: one hot top digit among many.
enum class KeyDist { kUniform, kFloats, kSkewed };
KeyDist g_keys = KeyDist::kUniform;
template <class Bits>
__global__ void reshape_keys(Bits* keys, std::int64_t n, KeyDist dist) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint32_t x = std::uint32_t(keys[i]);
    if (dist == KeyDist::kFloats) keys[i] = Bits(__float_as_uint(float(x >> 8) * (1.0f / 16777216.0f)));
    // 7 in 10 by a hash of the position, apart from x's bits: the rest stay uniform.
    if (dist == KeyDist::kSkewed && std::uint32_t(i * 0x9E3779B1u) % 10 < 7)
      keys[i] = Bits(0x42000000u | (x & 0xFFFFFFu));
  }
}

template <class Bits, class VBits, bool PAIRS>
struct Buffers {
  std::int64_t n;
  Bits *keys_in = nullptr, *keys_out = nullptr;
  VBits *vals_in = nullptr, *vals_out = nullptr;
  void* ws = nullptr;
  std::size_t ws_bytes = 0;
  unsigned long long* d_bad = nullptr;

  Buffers(std::int64_t count, std::size_t workspace) : n(count), ws_bytes(workspace) {
    CK(cudaMalloc(&keys_in, n * sizeof(Bits)));
    CK(cudaMalloc(&keys_out, n * sizeof(Bits)));
    if (PAIRS) {
      CK(cudaMalloc(&vals_in, n * sizeof(VBits)));
      CK(cudaMalloc(&vals_out, n * sizeof(VBits)));
      iota<<<2048, 256>>>(vals_in, n);
    }
    CK(cudaMalloc(&ws, ws_bytes));
    CK(cudaMalloc(&d_bad, sizeof(unsigned long long)));
    tune::fill_random<<<2048, 256>>>(keys_in, n, 12345);
    if (g_keys != KeyDist::kUniform) reshape_keys<<<2048, 256>>>(keys_in, n, g_keys);
    CK(cudaDeviceSynchronize());
  }
  ~Buffers() {
    cudaFree(keys_in);
    cudaFree(keys_out);
    cudaFree(vals_in);
    cudaFree(vals_out);
    cudaFree(ws);
    cudaFree(d_bad);
  }
  unsigned long long unsorted(int end_bit) {
    CK(cudaMemset(d_bad, 0, sizeof(unsigned long long)));
    tune::count_unsorted<Bits, VBits, PAIRS><<<2048, 256>>>(keys_in, keys_out, vals_out, n, end_bit, d_bad);
    unsigned long long b = 0;
    CK(cudaMemcpy(&b, d_bad, sizeof(b), cudaMemcpyDeviceToHost));
    return b;
  }
};

template <int THREADS, int ITEMS, int MIN_BLOCKS, int WINDOW = 0, int FEW_DIGITS = -1>
struct S {
  using Shape = onesweep::Shape<THREADS, ITEMS, MIN_BLOCKS, WINDOW, FEW_DIGITS>;
};

template <class Bits, class VBits, bool PAIRS, class Shape>
std::size_t ws_bytes(std::int64_t n) {
  return onesweep::workspace_bytes<Bits, VBits, PAIRS, Shape>(n);
}

// Times one shape over the full key width and over one 8-bit digit.
template <class Bits, class VBits, bool PAIRS, class Shape>
void time_shape(const char* label, Buffers<Bits, VBits, PAIRS>& b, const DeviceFacts& facts) {
  using C = onesweep::Config<Bits, VBits, PAIRS, Shape>;
  if (C::kSmem > std::size_t(facts.max_smem_optin)) {
    std::printf("%-11s %4dx%-2d b%d  needs %zu bytes of shared memory: skipped\n", label, C::kThreads, C::kItems,
                C::kMinBlocks, C::kSmem);
    return;
  }
  const KeyCodec<Bits> codec{};  // unsigned keys, ascending: no encoding
  for (const int end_bit : {int(sizeof(Bits) * 8), kRadixBits}) {
    Status st = Status::Success;
    const float ms = tune::median_ms([&] {
      st = onesweep::run<Bits, VBits, PAIRS, Shape>(b.keys_in, b.keys_out, b.vals_in, b.vals_out, b.n, 0, end_bit,
                                                   codec, b.ws, nullptr, facts, nullptr);
    });
    CK(cudaDeviceSynchronize());
    if (st != Status::Success) {
      std::printf("%-11s %4dx%-2d b%d  bits %2d  failed: %s\n", label, C::kThreads, C::kItems, C::kMinBlocks, end_bit,
                  status_string(st));
      continue;
    }
    std::printf("%-11s %4dx%-2d b%d w%-2d f%d bits %2d %8.4f ms %7.1f G%s/s   smem %5.1f KB   bad %llu\n", label,
                C::kThreads, C::kItems, C::kMinBlocks, C::kWindow, C::kFewDigits, end_bit, ms, b.n / ms / 1e6,
                PAIRS ? "pairs" : "keys", C::kSmem / 1024.0, b.unsorted(end_bit));
  }
}

// Sweeps the shapes Shapes... for one type pairing; the tuned shape comes first.
template <class Bits, class VBits, bool PAIRS, class... Shapes>
void sweep(const char* label, std::int64_t n, const DeviceFacts& facts) {
  std::size_t ws = 0;
  for (const std::size_t bytes : {ws_bytes<Bits, VBits, PAIRS, typename Shapes::Shape>(n)...}) ws = std::max(ws, bytes);
  Buffers<Bits, VBits, PAIRS> b(n, ws);
  (time_shape<Bits, VBits, PAIRS, typename Shapes::Shape>(label, b, facts), ...);
}

// A whole sort by the library's entry point, launched on the default stream, against the same
// call captured once into a CUDA graph and replayed: what graph launches would save (the lever
// "CUDA graphs for the small-n latency" of the latency targets).
template <bool PAIRS>
void time_graph(const char* label, std::int64_t n) {
  using U = std::uint32_t;
  const std::size_t ws = PAIRS ? radix_sort_pairs_workspace_bytes<U, U>(n) : radix_sort_keys_workspace_bytes<U>(n);
  Buffers<U, U, PAIRS> b(n, ws);
  auto sort = [&](cudaStream_t stream) {
    const Status st = PAIRS ? radix_sort_pairs(b.keys_in, b.keys_out, b.vals_in, b.vals_out, n, SortOrder::Ascending, 0,
                                               32, Workspace{b.ws, ws}, stream)
                            : radix_sort_keys(b.keys_in, b.keys_out, n, SortOrder::Ascending, 0, 32, Workspace{b.ws, ws},
                                              stream);
    if (st != Status::Success) {
      std::printf("%s: %s\n", label, status_string(st));
      std::exit(1);
    }
  };
  cudaStream_t capture;
  CK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
  sort(capture);  // the first call sets the kernels' attributes outside the capture
  CK(cudaStreamSynchronize(capture));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeRelaxed));
  sort(capture);
  CK(cudaStreamEndCapture(capture, &graph));
  CK(cudaGraphInstantiate(&exec, graph, 0));
  for (int round = 0; round < 2; ++round) {  // alternated: the first timings of a process run cold
    const float stream_ms = tune::median_ms([&] { sort(nullptr); }, 51);
    const unsigned long long bad_stream = b.unsorted(32);
    const float graph_ms = tune::median_ms([&] { CK(cudaGraphLaunch(exec, nullptr)); }, 51);
    std::printf("%-10s n = %lld  stream %8.2f us (bad %llu)   graph %8.2f us (bad %llu)\n", label, (long long)n,
                stream_ms * 1e3, bad_stream, graph_ms * 1e3, b.unsorted(32));
  }
  // Host time to queue one call, averaged over 200 calls queued back to back.
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 200; ++i) sort(nullptr);
  const auto t1 = std::chrono::steady_clock::now();
  CK(cudaDeviceSynchronize());
  std::printf("%-10s n = %lld  host time to queue one sort %.2f us\n", label, (long long)n,
              std::chrono::duration<double, std::micro>(t1 - t0).count() / 200);
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  CK(cudaStreamDestroy(capture));
}

__global__ void empty_kernel(int) {}

// Host time of the operations a small sort queues: a memset, a plain launch, a launch with the
// programmatic-serialisation attribute (cudaLaunchKernelEx), 1000 each, back to back.
void time_host_ops() {
  void* p;
  CK(cudaMalloc(&p, 1 << 20));
  auto per_op = [](auto&& op) {
    for (int i = 0; i < 10; ++i) op();
    CK(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) op();
    const auto t1 = std::chrono::steady_clock::now();
    CK(cudaDeviceSynchronize());
    return std::chrono::duration<double, std::micro>(t1 - t0).count() / 1000;
  };
  const double memset_us = per_op([&] { CK(cudaMemsetAsync(p, 0, 64 << 10, nullptr)); });
  const double launch_us = per_op([&] { empty_kernel<<<22, 256>>>(0); });
  const cudaLaunchAttribute attr = programmatic_attribute();
  const double ex_us = per_op([&] { CK(launch_with_attribute(&attr, empty_kernel, 22, 256, 0, nullptr, 0) == Status::Success ? cudaSuccess : cudaErrorUnknown); });
  const double ex_plain_us = per_op([&] { CK(launch_with_attribute(nullptr, empty_kernel, 22, 256, 0, nullptr, 0) == Status::Success ? cudaSuccess : cudaErrorUnknown); });
  std::printf("host us per op: memset %.2f, <<<>>> %.2f, cudaLaunchKernelEx + PDL %.2f, cudaLaunchKernelEx %.2f\n",
              memset_us, launch_us, ex_us, ex_plain_us);
  CK(cudaFree(p));
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const char* mode = argc > 2 ? argv[2] : "";
  g_keys = std::strcmp(mode, "floats") == 0 ? KeyDist::kFloats
           : std::strcmp(mode, "skewed") == 0 ? KeyDist::kSkewed
                                              : KeyDist::kUniform;
  const bool graph = std::strcmp(mode, "graph") == 0;
  if (log2n < 1 || log2n > 30 || (argc > 2 && g_keys == KeyDist::kUniform && !graph)) {
    std::printf("usage: %s [log2 n, 1..30; default 28] [floats: keys are the bits of floats in [0, 1) | skewed: 70 %% "
                "of the keys share the top byte | graph: stream against graph launches of the library's sort]\n",
                argv[0]);
    return 2;
  }
  const std::int64_t n = std::int64_t(1) << log2n;
  DeviceFacts facts;
  if (device_facts(facts) != Status::Success) {
    std::printf("no CUDA device\n");
    return 1;
  }
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs, n = 2^%d, %s keys, whole sort (histogram + passes), median of 15\n", prop.name,
              facts.sm_count, log2n,
              g_keys == KeyDist::kFloats ? "float [0, 1)" : g_keys == KeyDist::kSkewed ? "skewed" : "uniform random");
  if (graph) {
    time_host_ops();
    time_graph<false>("u32 keys", n);
    time_graph<true>("u32 pairs", n);
    return 0;
  }
  if (g_keys == KeyDist::kSkewed) {  // the tuned shapes, and the few-digits path off (f0)
    sweep<std::uint32_t, std::uint32_t, false, S<512, 28, 2, 4>, S<512, 28, 2, 4, 0>, S<512, 28, 2, 4>,
          S<512, 28, 2, 4, 0>>("skew keys", n, facts);
    sweep<std::uint32_t, std::uint32_t, true, S<384, 24, 2, 1>, S<384, 24, 2, 1>>("skew pairs", n, facts);
    return 0;
  }
  if (g_keys == KeyDist::kFloats) {  // the ranking's few-digits path (f): off (0), at most 4 or 8 distinct digits
    sweep<std::uint32_t, std::uint32_t, false, S<512, 28, 2, 4, 0>, S<512, 28, 2, 4, 4>, S<512, 28, 2, 4, 8>,
          S<512, 28, 2, 4, 0>, S<512, 28, 2, 4, 4>, S<512, 28, 2, 4, 8>>("f32 keys", n, facts);
    sweep<std::uint32_t, std::uint32_t, true, S<384, 24, 2, 1, 0>, S<384, 24, 2, 1, 4>, S<384, 24, 2, 1, 0>,
          S<384, 24, 2, 1, 4>>("f32 pairs", n, facts);
    return 0;
  }
  if (log2n >= 22) {  // the few-digits path must cost nothing on uniform keys
    sweep<std::uint32_t, std::uint32_t, false, S<512, 28, 2, 4, 0>, S<512, 28, 2, 4, 4>, S<512, 28, 2, 4, 0>,
          S<512, 28, 2, 4, 4>>("u32 keys", n, facts);
  }
  // The shapes RadixSortTuning chooses between (its comments), the tuned one first per pairing.
  // Below 2^22 keys (one wave of the tuned tiles) the small-sort shapes: smaller tiles, more blocks
  // (at least 8 keys per thread: the ranking's mask rows share the tile's exchange buffer).
  // The look-back window (w), alternated with the walk of one predecessor at a time (w1): the
  // first timings of a process run cold, so each pair is timed twice in turn.
  if (log2n < 22) {
    sweep<std::uint32_t, std::uint32_t, false, S<256, 12, 4, 8>, S<256, 8, 6, 8>, S<256, 8, 4, 8>, S<256, 8, 4, 4>,
          S<256, 24, 3, 8>, S<256, 12, 4, 8>, S<256, 8, 6, 8>, S<256, 8, 4, 8>, S<256, 8, 4, 4>, S<256, 24, 3, 8>>(
        "u32 keys", n, facts);
    sweep<std::uint32_t, std::uint32_t, true, S<256, 12, 4, 8>, S<256, 8, 6, 8>, S<256, 8, 4, 8>, S<256, 12, 4, 8>,
          S<256, 8, 6, 8>, S<256, 8, 4, 8>>("u32 pairs", n, facts);
    return 0;
  }
  sweep<std::uint32_t, std::uint32_t, false, S<512, 28, 2, 4>, S<512, 28, 2, 1>, S<512, 28, 2, 4>, S<512, 28, 2, 1>>(
      "u32 keys", n, facts);
  sweep<std::uint32_t, std::uint32_t, true, S<384, 24, 2, 1>, S<384, 24, 2, 4>, S<384, 24, 2, 1>, S<384, 24, 2, 4>>(
      "u32 pairs", n, facts);
  sweep<std::uint64_t, std::uint32_t, false, S<384, 16, 2, 8>, S<384, 16, 2, 1>, S<384, 16, 2, 8>, S<384, 16, 2, 1>>(
      "u64 keys", n, facts);
  return 0;
}
