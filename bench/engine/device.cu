// The device half of a session: the device's description, its copy bandwidth, the case's device
// buffers (inputs made by the engine's generator, kept while the type and n stay) and device
// timing with CUDA events, after warm-up, rotating input sets that fit in L2.
#include <cub/version.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "engine/device.h"
#include "engine/device_rows.h"
#include "engine/inputs.h"
#include "primlab/device_buffer.h"

namespace primlab::bench {
namespace {

template <class T>
__global__ void fill_kernel(T* d, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    d[i] = input_value<T>(input_bits(seed, i));
}

__global__ void fill_flags_kernel(std::uint8_t* d, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    d[i] = input_flag(input_bits(seed, i));
}

// `sets` input sets of n elements: set k is elements [k n, (k + 1) n) of the stream `seed`, so
// that set 0 is the host rows' input.
cudaError_t fill(void* d, Type t, std::int64_t count, std::uint64_t seed, cudaStream_t s) {
  with_type(t, [&](auto x) {
    fill_kernel<<<1024, 256, 0, s>>>(static_cast<decltype(x)*>(d), count, seed);
    return 0;
  });
  return cudaPeekAtLastError();
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / double(1u << 30));
  return buf;
}

std::string version(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

}  // namespace

// The buffers of the current case; inputs are remade only when the type, n or seed change.
struct Device {
  cudaDeviceProp prop{};
  cudaStream_t stream = nullptr;
  double copy_gbps = -1;  // < 0: not measured yet
  Type type = Type::u32;
  std::int64_t n = -1, sets = 1;
  std::uint64_t seed = 0;
  DeviceBuffer<unsigned char> in, in2, flags, out, out2, scalar, ws;
  ~Device() {
    if (stream) cudaStreamDestroy(stream);
  }
};

void DeviceClose::operator()(Device* d) const { delete d; }

DevicePtr open_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return nullptr;
  }
  DevicePtr d(new Device);
  if (cudaSetDevice(0) != cudaSuccess || cudaGetDeviceProperties(&d->prop, 0) != cudaSuccess ||
      cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return d;
}

void describe_device(const Device& d, Results* h) {
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  h->gpu = d.prop.name;
  h->cuda_version = version(rt);
  h->driver = "CUDA driver API " + version(drv);
  h->cub = std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
           std::to_string(CUB_SUBMINOR_VERSION);
#ifdef PRIMLAB_NEWER_CCCL
  h->cub_newer = newer_cub_version();
#endif
}

double device_copy_gbps(Device& d) {
  if (d.copy_gbps >= 0) return d.copy_gbps;
  d.copy_gbps = 0;
  const std::size_t bytes = std::size_t(1) << 30;
  try {
    DeviceBuffer<unsigned char> a(bytes), b(bytes);
    if (fill(a.get(), Type::u8, std::int64_t(bytes), 1, d.stream) != cudaSuccess) return 0;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<float> ms;
    for (int r = 0; r < 13; ++r) {
      cudaEventRecord(e0, d.stream);
      cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, d.stream);
      cudaEventRecord(e1, d.stream);
      cudaEventSynchronize(e1);
      float t = 0;
      cudaEventElapsedTime(&t, e0, e1);
      if (r >= 3) ms.push_back(t);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(ms.begin(), ms.end());
    d.copy_gbps = 2.0 * double(bytes) / (double(ms[ms.size() / 2]) * 1e-3) / 1e9;
  } catch (const DeviceError&) {
    cudaGetLastError();
  }
  return d.copy_gbps;
}

namespace {

// Makes d's buffers those of (c.type, c.n, seed) with a workspace of at least ws bytes; a
// failure says why not (a case that cannot fit in free device memory is skipped, with the sizes).
Result prepare(Device& d, const Case& c, std::size_t ws, std::uint64_t seed) {
  const std::size_t in_bytes = std::size_t(c.n) * type_size(c.type);
  const bool same = d.n == c.n && d.type == c.type && d.seed == seed;
  if (same && d.ws.size() >= ws) return {};
  // Rotate among input sets when one fits in L2, so every run reads from DRAM.
  const std::size_t l2 = std::size_t(d.prop.l2CacheSize);
  std::int64_t sets = 1;
  if (in_bytes < 2 * l2) sets = std::min<std::int64_t>(1024, std::int64_t((3 * l2) / std::max<std::size_t>(in_bytes, 1)) + 1);
  const std::size_t out_bytes = std::max<std::size_t>(in_bytes, 65536 * 4);
  const double held = same ? double(d.in.size() + d.in2.size() + d.flags.size() + d.out.size() + d.out2.size()) : 0;
  const double need = (same ? 0 : double(in_bytes) * double(sets + 2) + double(c.n) * double(sets) + double(out_bytes)) +
                      double(ws);
  // Free the old case first: two cases at 2^28 may not fit together.
  d.ws = {};
  if (!same) {
    d.n = -1;
    d.in = {};
    d.in2 = {};
    d.flags = {};
    d.out = {};
    d.out2 = {};
  }
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) cudaGetLastError();
  if (free_b > 0 && need > 0.95 * double(free_b))
    return Result::failure("skipped: needs " + gib(need + held) + ", " + gib(double(free_b) + held) +
                           " free on the GPU");
  d.ws = DeviceBuffer<unsigned char>(std::max<std::size_t>(ws, 16));
  if (same) return {};
  d.in = DeviceBuffer<unsigned char>(std::size_t(sets) * in_bytes + 16);
  d.in2 = DeviceBuffer<unsigned char>(in_bytes + 16);
  d.flags = DeviceBuffer<unsigned char>(std::size_t(sets) * std::size_t(c.n) + 16);
  d.out = DeviceBuffer<unsigned char>(out_bytes + 16);
  d.out2 = DeviceBuffer<unsigned char>(in_bytes + 16);
  if (!d.scalar.get()) d.scalar = DeviceBuffer<unsigned char>(64);
  if (fill(d.in.get(), c.type, std::int64_t(sets) * c.n, seed, d.stream) != cudaSuccess ||
      fill(d.in2.get(), c.type, c.n, seed + kSecondInput, d.stream) != cudaSuccess)
    return Result::failure("CUDA error while making the inputs");
  fill_flags_kernel<<<1024, 256, 0, d.stream>>>(d.flags.get(), std::int64_t(sets) * c.n, seed + kFlags);
  if (cudaStreamSynchronize(d.stream) != cudaSuccess) {
    cudaGetLastError();
    return Result::failure("CUDA error while making the inputs");
  }
  d.type = c.type;
  d.n = c.n;
  d.sets = sets;
  d.seed = seed;
  return {};
}

}  // namespace

Result time_device_row(Device& d, const Impl& im, Case& c, const Settings& s, const std::atomic<bool>* cancel,
                       std::vector<double>* ms) {
  auto cancelled = [&] { return cancel && cancel->load(); };
  c.stream = d.stream;
  try {
    c.ws_bytes = im.workspace_bytes ? im.workspace_bytes(c) : 0;
    if (Result r = prepare(d, c, c.ws_bytes, s.seed); !r.ok()) return r;
  } catch (const DeviceError& e) {
    d.n = -1;
    return Result::failure(e.what());
  }
  const std::size_t in_bytes = std::size_t(c.n) * type_size(c.type);
  c.d_in2 = d.in2.get();
  c.d_out = d.out.get();
  c.d_out2 = d.out2.get();
  c.d_scalar = d.scalar.get();
  c.d_ws = d.ws.get();
  auto set_inputs = [&](std::int64_t r) {
    const std::int64_t k = r % d.sets;
    c.d_in = d.in.get() + std::size_t(k) * in_bytes;
    c.d_flags = d.flags.get() + std::size_t(k) * std::size_t(c.n);
  };
  auto fail = [&](Status st) {
    cudaGetLastError();
    ms->clear();
    return Result::failure(status_string(st));
  };
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  // Warm-up; the fastest warm-up sets the number of runs (about 0.3 s of them).
  Status st = Status::Success;
  double first_ms = 0;
  for (int r = 0; r < std::max(1, s.warmup) && st == Status::Success; ++r) {
    set_inputs(r);
    cudaEventRecord(start, d.stream);
    st = im.run(c);
    cudaEventRecord(stop, d.stream);
    if (cudaEventSynchronize(stop) != cudaSuccess) st = Status::CudaError;
    float t = 0;
    cudaEventElapsedTime(&t, start, stop);
    if (r == 0 || t < first_ms) first_ms = t;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (st != Status::Success) return fail(st);
  int runs = s.runs;
  if (runs <= 0) runs = int(std::clamp(300.0 / std::max(first_ms, 1e-3), 5.0, 200.0));
  // Back-to-back runs with an event between each: the GPU queue stays full, so a run's time
  // excludes host launch latency but includes launch gaps.
  std::vector<cudaEvent_t> ev(std::size_t(runs) + 1);
  for (auto& e : ev) cudaEventCreate(&e);
  cudaEventRecord(ev[0], d.stream);
  for (int r = 0; r < runs && st == Status::Success; ++r) {
    set_inputs(r + 1);
    st = im.run(c);
    cudaEventRecord(ev[std::size_t(r) + 1], d.stream);
    if (cancelled()) {
      runs = r + 1;
      break;
    }
  }
  if (cudaStreamSynchronize(d.stream) != cudaSuccess) st = Status::CudaError;
  for (int r = 0; r < runs && st == Status::Success; ++r) {
    float t = 0;
    cudaEventElapsedTime(&t, ev[std::size_t(r)], ev[std::size_t(r) + 1]);
    ms->push_back(t);
  }
  for (auto& e : ev) cudaEventDestroy(e);
  if (st != Status::Success) return fail(st);
  return {};
}

void add_device_rows(Table& table) {
  add_reduce_scan_rows(table);
  add_sort_rows(table);
#ifdef PRIMLAB_NEWER_CCCL
  add_reduce_scan_rows_newer_cccl(table);
  add_sort_rows_newer_cccl(table);
#endif
}

}  // namespace primlab::bench
