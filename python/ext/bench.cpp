// The benchmark's C++ side (bench/python/sort_from_python.py): the same sort called from C++ in
// this very process, on the same arrays and stream as the Python rows, so that "Python over C++"
// compares one machine, one process and one moment; and the host cost of the workspace's two
// ways (a pool allocation and free per call, or the kept workspace's lookup).
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "glue.h"
#include "primlab/radix_sort.h"

namespace primlab::python {
namespace {

using Clock = std::chrono::steady_clock;

struct Sorted {
  const std::uint32_t* in = nullptr;
  std::uint32_t* out = nullptr;
  std::int64_t n = 0;
};

Sorted arrays(nb::handle keys, nb::handle out) {
  const char* fn = "primlab._primlab.bench";
  ArrayRef k = take_array(keys, fn, "keys", 1), o = take_array(out, fn, "out", 1);
  require_dtype(k, fn, {DType::U32});
  require_output(o, fn, DType::U32, k.size);
  require_device(fn);
  return {static_cast<const std::uint32_t*>(k.ptr), static_cast<std::uint32_t*>(o.ptr), k.size};
}

// One call of radix_sort_keys<uint32>: with the workspace the caller owns (the library's
// convention, as bench/python/call_overhead.cpp), or with one taken from primlab's pool and given
// back per call.
struct Caller {
  Sorted s;
  cudaStream_t stream;
  bool pool;
  void* ws = nullptr;
  std::size_t bytes = 0;
  void operator()() const {
    if (!pool) {
      radix_sort_keys(s.in, s.out, s.n, SortOrder::Ascending, 0, 32, {ws, bytes}, stream);
      return;
    }
    PoolBuffer b(bytes, stream, "bench");
    radix_sort_keys(s.in, s.out, s.n, SortOrder::Ascending, 0, 32, b.workspace(), stream);
  }
};

template <class F>
double host_us(F&& f, cudaStream_t stream, int batches, int per_batch, int warmup) {
  for (int i = 0; i < warmup; ++i) f();
  cudaStreamSynchronize(stream);
  std::vector<double> per_call;
  for (int b = 0; b < batches; ++b) {
    const auto t0 = Clock::now();
    for (int i = 0; i < per_batch; ++i) f();
    const auto t1 = Clock::now();
    cudaStreamSynchronize(stream);
    per_call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / per_batch);
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

// Host us per call of the C++ sort of `keys` into `out` (median over batches, the stream drained
// between batches, as sort_from_python.py's host_us). pool: the workspace from primlab's pool
// per call (PoolBuffer, the kept workspace switched off by the caller or not).
double sort_host_us(nb::handle keys, nb::handle out, std::intptr_t stream, bool pool, int batches, int per_batch,
                    int warmup) {
  Caller c{arrays(keys, out), reinterpret_cast<cudaStream_t>(stream), pool};
  c.bytes = radix_sort_keys_workspace_bytes<std::uint32_t>(c.s.n);
  if (!pool) check_cuda(cudaMalloc(&c.ws, c.bytes), "bench", "cudaMalloc");
  double us = 0;
  {
    nb::gil_scoped_release unlocked;
    us = host_us(c, c.stream, batches, per_batch, warmup);
  }
  if (!pool) cudaFree(c.ws);
  return us;
}

// CUDA-event milliseconds of each of `reps` C++ sorts, one at a time on the stream (events around
// the call, the end awaited), after `warmup` calls: as sort_from_python.py's event_ms.
std::vector<double> sort_event_ms(nb::handle keys, nb::handle out, std::intptr_t stream, int reps, int warmup) {
  Caller c{arrays(keys, out), reinterpret_cast<cudaStream_t>(stream), false};
  c.bytes = radix_sort_keys_workspace_bytes<std::uint32_t>(c.s.n);
  check_cuda(cudaMalloc(&c.ws, c.bytes), "bench", "cudaMalloc");
  cudaEvent_t start, end;
  cudaEventCreate(&start);
  cudaEventCreate(&end);
  std::vector<double> ms;
  {
    nb::gil_scoped_release unlocked;
    for (int i = 0; i < warmup; ++i) c();
    cudaStreamSynchronize(c.stream);
    for (int r = 0; r < reps; ++r) {
      cudaEventRecord(start, c.stream);
      c();
      cudaEventRecord(end, c.stream);
      cudaEventSynchronize(end);
      float t = 0;
      cudaEventElapsedTime(&t, start, end);
      ms.push_back(t);
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(end);
  cudaFree(c.ws);
  check_cuda(cudaGetLastError(), "bench", "the timed sorts");
  return ms;
}

// Host us of one workspace of `bytes` on the stream: taken and given back (PoolBuffer: the kept
// one when keeping is on, else a pool allocation and cudaFreeAsync).
double workspace_us(std::size_t bytes, std::intptr_t stream, int calls) {
  require_device("bench");
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  auto f = [&] { PoolBuffer b(bytes, s, "bench"); };
  nb::gil_scoped_release unlocked;
  return host_us(f, s, 20, calls, calls);
}

}  // namespace

void bind_bench(nb::module_& m) {
  using namespace nb::literals;
  m.def("_bench_sort_host_us", &sort_host_us, "keys"_a, "out"_a, "stream"_a, "pool"_a, "batches"_a, "per_batch"_a,
        "warmup"_a);
  m.def("_bench_sort_event_ms", &sort_event_ms, "keys"_a, "out"_a, "stream"_a, "reps"_a, "warmup"_a);
  m.def("_bench_workspace_us", &workspace_us, "bytes"_a, "stream"_a, "calls"_a);
}

}  // namespace primlab::python
