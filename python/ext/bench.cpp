// The benchmark's C++ side (bench/python/sort_from_python.py): the same sort called from C++ in
// this very process, on the same arrays and stream as the Python rows, so that "Python over C++"
// compares one machine, one process and one moment; the host cost of the workspace's two ways (a
// pool allocation and free per call, or the kept workspace's lookup); and the host cost of each
// other step a call from Python takes besides the library's own (the parts).
#include <nanobind/stl/string.h>
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

// Median over 21 batches of `calls` runs of f (host us per run), with the GIL held (every step
// here is Python work or needs it).
template <class F>
double loop_us(F&& f, int calls) {
  for (int i = 0; i < calls; ++i) f();
  std::vector<double> per_call;
  for (int b = 0; b < 21; ++b) {
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) f();
    per_call.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / calls);
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

// Host us of each step of primlab.sort(keys, out=out) besides the library's call, as the binding
// takes them (primitives.cpp's Call and sort): reading one array, its library's current stream,
// a new output of its library (made and dropped: what sort(keys) adds over out=), making the
// array's device current, the kept workspace taken and given back, and the stream= argument read
// from an int and from stream_object's __cuda_stream__ (unless it is None).
nb::dict parts_us(nb::handle keys, nb::handle out, nb::handle stream_object, int calls) {
  const char* fn = "primlab._primlab.bench";
  require_device(fn);
  ArrayRef k = take_array(keys, fn, "keys", 1);
  ArrayRef o = take_array(out, fn, "out", 1);
  require_output(o, fn, k.dtype, k.size);
  locate(k, fn);
  const std::intptr_t handle = current_stream(k);
  const auto stream = reinterpret_cast<cudaStream_t>(handle);
  const std::size_t bytes = radix_sort_keys_workspace_bytes<std::uint32_t>(k.size);
  nb::object handle_int = nb::int_(handle);
  nb::dict d;
  d["read an array"] = loop_us([&] { ArrayRef a = take_array(keys, fn, "keys", 1); }, calls);
  d["current stream"] = loop_us([&] { (void)current_stream(k); }, calls);
  d["stream= an int"] = loop_us([&] { std::intptr_t h = 0; stream_handle(handle_int, fn, h); }, calls);
  if (!stream_object.is_none())
    d["stream= __cuda_stream__"] = loop_us([&] { std::intptr_t h = 0; stream_handle(stream_object, fn, h); }, calls);
  d["new output array"] = loop_us([&] { nb::object a = make_array(k, nb::none(), k.dtype, k.size, false); }, calls);
  d["device made current"] = loop_us([&] { DeviceSwitch s; s.to(k.device, fn); }, calls);
  d["kept workspace"] = loop_us([&] { PoolBuffer b(bytes, stream, fn); }, calls);
  d["workspace bytes"] = loop_us([&] {
    volatile std::size_t b = radix_sort_keys_workspace_bytes<std::uint32_t>(k.size);
    (void)b;
  }, calls);
  cudaStreamSynchronize(stream);
  return d;
}

// The binding's call alone: sort's arguments in, nothing done (what nanobind's dispatch costs).
nb::object noop(nb::handle keys, nb::handle, nb::handle, nb::handle, bool, int, nb::handle, nb::handle) {
  return nb::borrow(keys);
}

}  // namespace

void bind_bench(nb::module_& m) {
  using namespace nb::literals;
  m.def("_bench_sort_host_us", &sort_host_us, "keys"_a, "out"_a, "stream"_a, "pool"_a, "batches"_a, "per_batch"_a,
        "warmup"_a);
  m.def("_bench_sort_event_ms", &sort_event_ms, "keys"_a, "out"_a, "stream"_a, "reps"_a, "warmup"_a);
  m.def("_bench_workspace_us", &workspace_us, "bytes"_a, "stream"_a, "calls"_a);
  m.def("_bench_parts_us", &parts_us, "keys"_a, "out"_a, nb::arg("stream_object").none(), "calls"_a);
  const auto opt = [](const char* name) { return nb::arg(name).none(); };
  m.def("_bench_noop", &noop, "keys"_a, opt("values"), opt("out"), "kind"_a, "descending"_a, "begin_bit"_a,
        opt("end_bit"), opt("stream"));
}

}  // namespace primlab::python
