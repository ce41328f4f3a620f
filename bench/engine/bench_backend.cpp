// The performance tab's backend in a CUDA build: the bench table (primlab, teaching variants, CUB,
// Thrust, its CPU rows) run one job at a time through bench::run_sweep on the worker's own stream,
// plus primlab's CPU baselines where the table lacks a row (cpu-par everywhere; every CPU row when
// no device is present, since the bench harness needs one).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/bench.h"
#include "engine/cpu_backend.h"

namespace primlab::perf {
namespace {

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / double(1u << 30));
  return buf;
}

class BenchBackend : public Backend {
 public:
  BenchBackend() : table_(bench::make_default_table()) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      cudaGetLastError();
      count = 0;
    }
    has_gpu_ = count > 0;
    if (has_gpu_) {
      cudaDeviceProp prop{};
      if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        name_ = prop.name;
        l2_ = std::size_t(prop.l2CacheSize);
      }
    }
    for (const bench::Impl& im : table_) {
      // Without a device the bench's CPU rows cannot run (the harness makes inputs on the GPU).
      if (im.on_host && !has_gpu_) continue;
      Entry e;
      e.primitive = im.primitive;
      e.impl = im.impl;
      for (bench::Type t : im.types) e.types.push_back(bench::type_name(t));
      e.takes_block = im.takes_block;
      e.takes_items = im.takes_items;
      e.gpu = true;
      e.note = im.on_host ? "CPU, one thread, on the bench harness's inputs"
               : im.impl == "cub" ? "CUB (the CUDA toolkit's)"
               : im.impl == "thrust" ? "Thrust (the CUDA toolkit's)"
               : im.impl == "primlab" ? "primlab's fast path (the library)"
                                      : "teaching variant (primlab_teaching)";
      entries_.push_back(e);
    }
  }
  ~BenchBackend() override { end(); }

  std::vector<Entry> entries() const override { return entries_; }
  bool has_gpu() const override { return has_gpu_; }
  std::string device() const override {
    return has_gpu_ ? name_ : "no CUDA device: GPU rows need a CUDA device (CPU baselines only)";
  }

  void begin(Results& h) override {
    if (!has_gpu_ || stream_) return;
    cudaSetDevice(0);
    if (cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) != cudaSuccess) {
      cudaGetLastError();
      stream_ = nullptr;
    }
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    h.gpu = name_;
    h.cuda_version = std::to_string(rt / 1000) + "." + std::to_string((rt % 1000) / 10);
    h.driver = "CUDA driver API " + std::to_string(drv / 1000) + "." + std::to_string((drv % 1000) / 10);
    h.copy_gbps = bench::measure_copy_gbps(std::size_t(1) << 30, stream_);
  }
  void end() override {
    if (stream_) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  Row run(const Job& job, const std::atomic<bool>& cancel) override {
    Row r;
    r.primitive = job.primitive;
    r.impl = job.impl;
    r.type = job.type;
    r.n = job.n;
    r.block = job.block;
    r.items = job.items;
    bench::Type type;
    const bench::Impl* im = nullptr;
    for (const bench::Impl& x : table_)
      if (x.primitive == job.primitive && x.impl == job.impl) im = &x;
    if (!im || !bench::parse_type(job.type, &type)) {
      r.error = "not in the bench table";
      return r;
    }
    if (!has_gpu_) {
      r.error = "GPU rows need a CUDA device";
      return r;
    }
    // Skip sizes whose buffers cannot fit in free device memory (the harness's allocation).
    const double elem = double(bench::type_size(type)), n = double(job.n);
    const double in_bytes = n * elem;
    double sets = 1;
    if (in_bytes < 2.0 * double(l2_))
      sets = std::min(1024.0, std::floor(3.0 * double(l2_) / std::max(in_bytes, 1.0)) + 1);
    bench::Case c;
    c.primitive = job.primitive;
    c.type = type;
    c.n = job.n;
    c.block = job.block;
    c.items = job.items;
    const double ws = im->workspace_bytes ? double(im->workspace_bytes(c)) : 0.0;
    const double need = in_bytes * (sets + 3) + n * sets + ws + 65536.0 * 4;
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) cudaGetLastError();
    if (free_b > 0 && need > 0.95 * double(free_b)) {
      r.error = "skipped: needs " + gib(need) + ", " + gib(double(free_b)) + " free on the GPU";
      return r;
    }
    bench::SweepOptions o;
    o.primitives = {job.primitive};
    o.impls = {job.impl};
    o.types = {type};
    o.sizes = {job.n};
    o.block = job.block;
    o.items = job.items;
    o.runs = job.runs;
    o.host_runs = job.n >= (std::int64_t(1) << 24) ? 1 : 3;
    o.stream = stream_;
    // run_sweep only reads the flag; its pointer type is not const.
    o.cancel = const_cast<std::atomic<bool>*>(&cancel);
    bench::SweepResult res;
    res.driver = "-";
    res.date = "-";
    const Status s = bench::run_sweep(table_, o, &res);
    if (s != Status::Success) {
      r.error = status_string(s);
      cudaGetLastError();
      return r;
    }
    for (const bench::Row& x : res.rows) {
      if (x.impl != job.impl && x.impl != "(all)") continue;
      r.runs = x.runs;
      r.median_ms = x.median_ms;
      r.p10_ms = x.p10_ms;
      r.p90_ms = x.p90_ms;
      r.items_per_s = x.items_per_s;
      r.gbps = x.gbps;
      r.error = x.error;
      return r;
    }
    r.error = cancel.load() ? "cancelled" : "no row (above the host size limit?)";
    return r;
  }

 private:
  bench::BenchTable table_;
  std::vector<Entry> entries_;
  bool has_gpu_ = false;
  std::string name_;
  std::size_t l2_ = 0;
  cudaStream_t stream_ = nullptr;
};

// The bench table first, then the CPU baselines the table lacks.
class CombinedBackend : public Backend {
 public:
  CombinedBackend() {
    for (const Entry& e : bench_.entries()) entries_.push_back(e);
    for (const Entry& e : cpu_.entries())
      if (!find_entry(entries_, e.primitive, e.impl)) entries_.push_back(e);
    // Keep each primitive's rows together, in the bench table's order of primitives.
    std::vector<std::string> prims = primitives_of(entries_);
    std::stable_sort(entries_.begin(), entries_.end(), [&](const Entry& a, const Entry& b) {
      return std::find(prims.begin(), prims.end(), a.primitive) < std::find(prims.begin(), prims.end(), b.primitive);
    });
  }
  std::vector<Entry> entries() const override { return entries_; }
  bool has_gpu() const override { return bench_.has_gpu(); }
  std::string device() const override { return bench_.device(); }
  void begin(Results& h) override {
    if (bench_.has_gpu()) bench_.begin(h);
    else cpu_.begin(h);
  }
  void end() override { bench_.end(); }
  Row run(const Job& job, const std::atomic<bool>& cancel) override {
    if (find_entry(bench_entries_, job.primitive, job.impl)) return bench_.run(job, cancel);
    return cpu_.run(job, cancel);
  }

 private:
  BenchBackend bench_;
  CpuBackend cpu_;
  std::vector<Entry> entries_;
  std::vector<Entry> bench_entries_ = bench_.entries();
};

}  // namespace

std::unique_ptr<Backend> make_default_backend() { return std::make_unique<CombinedBackend>(); }

}  // namespace primlab::perf
