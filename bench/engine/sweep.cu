// The benchmark harness: input generation, the timed sweep, copy bandwidth, JSON and text output.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/bench.h"
#include "engine/results_json.h"
#include "primlab/device_buffer.h"

namespace primlab::bench {

// [SECTION] Types
const char* type_name(Type t) {
  switch (t) {
    case Type::u8: return "u8";
    case Type::i32: return "i32";
    case Type::u32: return "u32";
    case Type::f32: return "f32";
    case Type::i64: return "i64";
    case Type::f64: return "f64";
    case Type::u64: return "u64";
  }
  return "?";
}
bool parse_type(const std::string& s, Type* out) {
  for (Type t : {Type::u8, Type::i32, Type::u32, Type::f32, Type::i64, Type::f64, Type::u64})
    if (s == type_name(t)) {
      *out = t;
      return true;
    }
  return false;
}
std::size_t type_size(Type t) {
  switch (t) {
    case Type::u8: return 1;
    case Type::i32: case Type::u32: case Type::f32: return 4;
    default: return 8;
  }
}

BenchTable make_default_table() {
  BenchTable t;
  register_reduce_scan_benchmarks(t);
  register_sort_benchmarks(t);
  return t;
}

// [SECTION] Inputs: seeded random data on the device (never zeros).
namespace {

__device__ __forceinline__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Integers uniform over their range; floats uniform in [0, 1); flags 0/1 with p = 1/2.
__global__ void fill_kernel(void* d, int type, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t h = splitmix64(seed ^ (std::uint64_t(i) * 0xD1B54A32D192ED03ull));
    switch (type) {
      case 0: static_cast<std::uint8_t*>(d)[i] = std::uint8_t(h >> 56); break;
      case 1: case 2: static_cast<std::uint32_t*>(d)[i] = std::uint32_t(h >> 32); break;
      case 3: static_cast<float*>(d)[i] = float(h >> 40) * (1.0f / 16777216.0f); break;
      case 4: case 6: static_cast<std::uint64_t*>(d)[i] = h; break;
      case 5: static_cast<double*>(d)[i] = double(h >> 11) * (1.0 / 9007199254740992.0); break;
      case 7: static_cast<std::uint8_t*>(d)[i] = std::uint8_t((h >> 33) & 1); break;
    }
  }
}

cudaError_t fill(void* d, int type_code, std::int64_t count, std::uint64_t seed, cudaStream_t s) {
  fill_kernel<<<1024, 256, 0, s>>>(d, type_code, count, seed);
  return cudaPeekAtLastError();
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

bool cancelled(const SweepOptions& o) { return o.cancel && o.cancel->load(); }

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

template <class F>
bool contains(const std::vector<F>& v, const F& x) {
  return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

// [SECTION] Copy bandwidth
double measure_copy_gbps(std::size_t bytes, cudaStream_t stream) {
  try {
    DeviceBuffer<unsigned char> a(bytes), b(bytes);
    if (fill(a.get(), 0, std::int64_t(bytes), 1, stream) != cudaSuccess) return 0;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<double> ms;
    for (int r = 0; r < 13; ++r) {
      cudaEventRecord(e0, stream);
      cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream);
      cudaEventRecord(e1, stream);
      cudaEventSynchronize(e1);
      float t = 0;
      cudaEventElapsedTime(&t, e0, e1);
      if (r >= 3) ms.push_back(t);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return 2.0 * double(bytes) / (percentile(ms, 0.5) * 1e-3) / 1e9;
  } catch (const DeviceError&) {
    return 0;
  }
}

// [SECTION] The sweep
Status run_sweep(const BenchTable& table, const SweepOptions& o, SweepResult* result) {
  if (!result) return Status::InvalidArgument;
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    cudaGetLastError();
    return Status::NoDevice;
  }
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  result->gpu = prop.name;
  result->cuda_version = std::to_string(rt / 1000) + "." + std::to_string((rt % 1000) / 10);
  if (result->driver.empty())
    result->driver = "CUDA driver API " + std::to_string(drv / 1000) + "." + std::to_string((drv % 1000) / 10);
  if (result->date.empty()) result->date = today();
  result->copy_gbps = measure_copy_gbps(std::size_t(1) << 30, o.stream);
  const std::size_t l2 = std::size_t(prop.l2CacheSize);

  // Primitives in table order, each once.
  std::vector<std::string> prims;
  for (const Impl& im : table)
    if (contains(o.primitives, im.primitive) &&
        std::find(prims.begin(), prims.end(), im.primitive) == prims.end())
      prims.push_back(im.primitive);

  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (const std::string& prim : prims) {
    for (Type type : {Type::u8, Type::i32, Type::u32, Type::f32, Type::i64, Type::f64, Type::u64}) {
      if (!contains(o.types, type)) continue;
      std::vector<const Impl*> impls;
      for (const Impl& im : table)
        if (im.primitive == prim && contains(o.impls, im.impl) &&
            std::find(im.types.begin(), im.types.end(), type) != im.types.end())
          impls.push_back(&im);
      if (impls.empty()) continue;
      for (std::int64_t n : o.sizes) {
        if (cancelled(o)) break;
        const std::size_t elem = type_size(type);
        const std::size_t in_bytes = std::size_t(n) * elem;
        // Rotate among input sets when one fits in L2, so every run reads from DRAM.
        std::int64_t sets = 1;
        if (in_bytes < 2 * l2) sets = std::min<std::int64_t>(1024, std::int64_t((3 * l2) / std::max<std::size_t>(in_bytes, 1)) + 1);
        std::vector<Row> rows;
        try {
          Case c;
          c.primitive = prim;
          c.type = type;
          c.n = n;
          c.block = o.block;
          c.items = o.items;
          c.stream = o.stream;
          std::size_t ws = 0;
          for (const Impl* im : impls) ws = std::max(ws, im->workspace_bytes ? im->workspace_bytes(c) : 0);
          DeviceBuffer<unsigned char> d_in(std::size_t(sets) * in_bytes + 16), d_in2(in_bytes + 16),
              d_flags(std::size_t(sets) * std::size_t(n) + 16),
              d_out(std::max<std::size_t>(in_bytes, 65536 * 4) + 16), d_out2(in_bytes + 16),
              d_scalar(64), d_ws(std::max<std::size_t>(ws, 16));
          if (fill(d_in.get(), int(type), std::int64_t(sets) * n, o.seed, o.stream) != cudaSuccess ||
              fill(d_in2.get(), int(type), n, o.seed + 1, o.stream) != cudaSuccess ||
              fill(d_flags.get(), 7, std::int64_t(sets) * n, o.seed + 2, o.stream) != cudaSuccess)
            return Status::CudaError;
          std::vector<unsigned char> h_in, h_flags, h_out;
          bool host_ready = false;
          c.d_in2 = d_in2.get();
          c.d_out = d_out.get();
          c.d_out2 = d_out2.get();
          c.d_scalar = d_scalar.get();
          c.d_ws = d_ws.get();
          c.ws_bytes = ws;
          for (const Impl* im : impls) {
            if (cancelled(o)) break;
            Row row;
            row.primitive = prim;
            row.impl = im->impl;
            row.type = type;
            row.n = n;
            row.block = im->takes_block ? o.block : 0;
            row.items = im->takes_items ? o.items : 0;
            std::vector<double> ms;
            if (im->on_host) {
              if (n > o.host_max_n) continue;
              if (!host_ready) {
                h_in.resize(in_bytes + 16);
                h_flags.resize(std::size_t(n) + 16);
                h_out.resize(std::max<std::size_t>(in_bytes, 65536 * 4) + 16);
                cudaMemcpy(h_in.data(), d_in.get(), in_bytes, cudaMemcpyDeviceToHost);
                cudaMemcpy(h_flags.data(), d_flags.get(), std::size_t(n), cudaMemcpyDeviceToHost);
                host_ready = true;
              }
              c.h_in = h_in.data();
              c.h_flags = h_flags.data();
              c.h_out = h_out.data();
              for (int r = 0; r < 1 + o.host_runs; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const Status s = im->run(c);
                const auto t1 = std::chrono::steady_clock::now();
                if (s != Status::Success) {
                  row.error = status_string(s);
                  break;
                }
                if (r > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
              }
            } else {
              auto set_inputs = [&](std::int64_t r) {
                const std::int64_t k = r % sets;
                c.d_in = d_in.get() + std::size_t(k) * in_bytes;
                c.d_flags = d_flags.get() + std::size_t(k) * std::size_t(n);
              };
              // Warm-up; the first warm-up's time sets the number of runs (about 0.3 s each).
              Status s = Status::Success;
              double first_ms = 0;
              for (int r = 0; r < std::max(1, o.warmup) && s == Status::Success; ++r) {
                set_inputs(r);
                cudaEventRecord(start, o.stream);
                s = im->run(c);
                cudaEventRecord(stop, o.stream);
                if (cudaEventSynchronize(stop) != cudaSuccess) s = Status::CudaError;
                float t = 0;
                cudaEventElapsedTime(&t, start, stop);
                if (r == 0 || t < first_ms) first_ms = t;
              }
              if (s != Status::Success) {
                row.error = status_string(s);
                cudaGetLastError();
              } else {
                int runs = o.runs;
                if (runs <= 0) runs = int(std::clamp(300.0 / std::max(first_ms, 1e-3), 5.0, 200.0));
                // Back-to-back runs with an event between each: the GPU queue stays full, so
                // a run's time excludes host launch latency but includes launch gaps.
                std::vector<cudaEvent_t> ev(std::size_t(runs) + 1);
                for (auto& e : ev) cudaEventCreate(&e);
                cudaEventRecord(ev[0], o.stream);
                for (int r = 0; r < runs && s == Status::Success; ++r) {
                  set_inputs(r + 1);
                  s = im->run(c);
                  cudaEventRecord(ev[std::size_t(r) + 1], o.stream);
                  if (cancelled(o)) {
                    runs = r + 1;
                    break;
                  }
                }
                if (cudaStreamSynchronize(o.stream) != cudaSuccess) s = Status::CudaError;
                if (s == Status::Success) {
                  for (int r = 0; r < runs; ++r) {
                    float t = 0;
                    cudaEventElapsedTime(&t, ev[std::size_t(r)], ev[std::size_t(r) + 1]);
                    ms.push_back(t);
                  }
                } else {
                  row.error = status_string(s);
                  cudaGetLastError();
                }
                for (auto& e : ev) cudaEventDestroy(e);
              }
            }
            row.runs = int(ms.size());
            if (!ms.empty()) {
              row.median_ms = percentile(ms, 0.5);
              row.p10_ms = percentile(ms, 0.1);
              row.p90_ms = percentile(ms, 0.9);
              row.items_per_s = double(n) / (row.median_ms * 1e-3);
              row.gbps = im->min_bytes_per_elem(type) * double(n) / (row.median_ms * 1e-3) / 1e9;
            }
            rows.push_back(row);
          }
        } catch (const DeviceError& e) {
          Row row;
          row.primitive = prim;
          row.impl = "(all)";
          row.type = type;
          row.n = n;
          row.error = e.what();
          rows.push_back(row);
        }
        double cub_ms = 0;
        for (const Row& r : rows)
          if (r.impl == "cub" && r.error.empty()) cub_ms = r.median_ms;
        for (Row& r : rows) {
          if (cub_ms > 0 && r.median_ms > 0) r.ratio_to_cub = cub_ms / r.median_ms;
          result->rows.push_back(r);
          if (o.on_row) o.on_row(r);
        }
      }
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return Status::Success;
}

// [SECTION] Output
bool write_json(const SweepResult& r, const std::string& path, std::string* error) {
  results::Results out;
  out.gpu = r.gpu;
  out.cuda_version = r.cuda_version;
  out.driver = r.driver;
  out.commit = r.commit;
  out.date = r.date;
  out.copy_gbps = r.copy_gbps;
  for (const Row& x : r.rows)
    out.rows.push_back({x.primitive, x.impl, type_name(x.type), x.n, x.block, x.items, x.runs, x.median_ms, x.p10_ms,
                        x.p90_ms, x.items_per_s, x.gbps, x.ratio_to_cub, x.error});
  std::ofstream f(path);
  if (!f) {
    if (error) *error = "cannot open " + path;
    return false;
  }
  f << results::to_json(out);
  return bool(f);
}

std::string format_row(const Row& x) {
  char buf[256];
  char ratio[16] = "";
  if (x.ratio_to_cub > 0) std::snprintf(ratio, sizeof ratio, "%.2f", x.ratio_to_cub);
  std::snprintf(buf, sizeof buf, "%-16s %-15s %-4s %11lld %10.4f %10.4f %10.4f %9.2f %8.1f %6s %s",
                x.primitive.c_str(), x.impl.c_str(), type_name(x.type), (long long)x.n, x.median_ms,
                x.p10_ms, x.p90_ms, x.items_per_s / 1e9, x.gbps, ratio, x.error.c_str());
  return buf;
}

std::string format_table(const SweepResult& r) {
  std::ostringstream s;
  char head[256];
  std::snprintf(head, sizeof head, "%-16s %-15s %-4s %11s %10s %10s %10s %9s %8s %6s\n", "primitive",
                "impl", "type", "n", "median_ms", "p10_ms", "p90_ms", "G_items/s", "GB/s", "xCUB");
  s << "gpu " << r.gpu << ", CUDA " << r.cuda_version << ", " << r.driver << ", copy "
    << r.copy_gbps << " GB/s\n" << head;
  for (const Row& x : r.rows) s << format_row(x) << "\n";
  return s.str();
}

}  // namespace primlab::bench
