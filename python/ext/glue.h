// What every binding of the library shares: arrays taken from Python without a copy, the stream a
// call runs on, device workspace, and a Status turned into a Python exception with the library's
// message.
//
// Arrays are read the cheapest way their library allows, chosen once per Python type: CuPy arrays
// and PyTorch tensors through their own attributes and methods (each library's
// __cuda_array_interface__ builds a dict per call, and PyTorch's is Python code: 2 us), JAX arrays
// through __dlpack__(stream=...) (their __cuda_array_interface__ does not wait for the array to be
// written: the DLPack export makes the consumer's stream wait for it), anything else through
// __cuda_array_interface__, else __dlpack__.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "primlab/status.h"

namespace primlab::python {
namespace nb = nanobind;

// [SECTION] Errors: raise(PyExc_ValueError, ...) throws a Python exception from C++.
[[noreturn]] void raise(PyObject* type, const std::string& message);
// Success returns; otherwise ValueError (bad arguments, sizes the library does not take),
// MemoryError (out of device memory) or RuntimeError (no device, CUDA or transport failures),
// with "fn: " and the library's message, and `detail` (the arguments) where given.
void check(Status s, const char* fn, const std::string& detail = "");
// Raises RuntimeError when this machine has no usable CUDA device (checked before any CUDA call).
void require_device(const char* fn);
// cudaSuccess returns; otherwise RuntimeError (MemoryError for out of memory) with CUDA's message.
void check_cuda(cudaError_t e, const char* fn, const char* what);

// [SECTION] Element types: the ones the library takes.
enum class DType { Bool, U8, I32, U32, F32, I64, U64, F64, Other };
const char* dtype_name(DType t);
std::size_t dtype_size(DType t);
DType dtype_from_name(const std::string& name);  // "uint32" -> U32; Other when unknown

// [SECTION] Arrays.
// The library an array comes from, which decides how it is read, where its outputs are made and
// which stream is its current one.
enum class Source : std::uint8_t { Generic, CuPy, Torch, Jax };

// One array argument of a call, borrowed for the call: a CUDA device pointer and its length.
struct ArrayRef {
  void* ptr = nullptr;
  std::int64_t size = 0;       // elements, the product of the shape
  int ndim = 1;
  DType dtype = DType::Other;
  int device = -1;             // CUDA ordinal; -1 until locate() (arrays read by interface only)
  bool readonly = false;
  bool has_stream = false;     // the producer named a stream (CUDA Array Interface v3)
  std::intptr_t stream = 0;
  Source source = Source::Generic;
  nb::handle obj;              // the array itself (the caller holds it for the call)
  nb::object keep;             // a DLPack capsule, alive for the call
  // What the producer calls an element type primlab does not take, for the message: its dtype
  // object (CuPy, PyTorch), or the interface's kind letter and size.
  nb::object dtype_obj;
  char kind = 0;
  int bytes = 0;
  bool big_endian = false;
  const char* name = "";       // the argument's name, for messages
  std::string dtype_text() const;
};

// Reads `obj` as a CUDA array (see the top of this file); a DLPack producer is asked to make
// `consumer_stream` (DLPack's numbering: 1 is the legacy default stream) wait for the data.
// Raises TypeError for an object that is no CUDA array, ValueError for a host (CPU) array, a
// non-contiguous one, one that needs gradients or one that is not 1-D (ndim_any: any shape, read
// flat).
ArrayRef take_array(nb::handle obj, const char* fn, const char* name, std::intptr_t consumer_stream,
                    bool ndim_any = false);
// Finds the device of an array read through the CUDA Array Interface (the other ways name it
// already) and raises ValueError when the memory is not device memory. Needs a device.
void locate(ArrayRef& a, const char* fn);
// The stream the array's library calls current on the array's device: PyTorch's and CuPy's
// current stream, else the stream the array names (CUDA Array Interface v3), else the legacy
// default stream (0).
std::intptr_t current_stream(const ArrayRef& a);
// A new uninitialised array of `size` elements (shape () when scalar) of `dtype`, of a's library
// on the current device: made here for CuPy and PyTorch, else by kind.empty(like, shape, dtype
// name) (the Python layer's Kind of the array's library, which makes CuPy arrays).
nb::object make_array(const ArrayRef& like, nb::handle kind, DType dtype, std::int64_t size, bool scalar);

// TypeError unless a's dtype is in `types` (a list such as {DType::U32, DType::I32}).
void require_dtype(const ArrayRef& a, const char* fn, std::initializer_list<DType> types);
// TypeError / ValueError unless `out` has a's dtype (or `dtype`) and `size` elements.
void require_output(const ArrayRef& out, const char* fn, DType dtype, std::int64_t size);
void require_same_length(const ArrayRef& a, const ArrayRef& b, const char* fn);
// Makes `device` current until the scope ends (nothing when it is current already).
class DeviceSwitch {
 public:
  DeviceSwitch() = default;
  ~DeviceSwitch();
  DeviceSwitch(const DeviceSwitch&) = delete;
  DeviceSwitch& operator=(const DeviceSwitch&) = delete;
  void to(int device, const char* fn);

 private:
  int previous_ = -1;
};
// ValueError unless every array lies on the device of the first; then makes it current.
class DeviceScope {
 public:
  DeviceScope(const char* fn, std::initializer_list<ArrayRef*> arrays);
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  DeviceSwitch switch_;
};

// The offsets of a radix partition by num_bits bits (2^num_bits + 1); 0 outside the library's
// range, which its InvalidArgument then names.
std::int64_t partition_offsets(int num_bits);

// [SECTION] Streams.
// stream=: None, an int handle, or an object with __cuda_stream__() -> (version, handle).
// Returns false for None.
bool stream_handle(nb::handle stream, const char* fn, std::intptr_t& out);
// The consumer stream to name in __dlpack__(stream=...) for a handle (the spec spells the legacy
// default stream 1, since 0 is ambiguous).
std::intptr_t dlpack_stream(std::intptr_t handle);

// [SECTION] Workspace on the current device, in the call's stream order.
// A workspace of up to kCachedWorkspaceBytes is the one primlab keeps for the (device, stream)
// pair (cudaStreamGetId: ids are never reused), grown in stream order when a call needs more: no
// allocation per call, and it is only ever used in that stream's order, so no call waits for
// another. Larger ones, a second one at once on the same stream, streams past the first
// kCachedStreams (or past kCachedTotalBytes in all), and calls under stream capture come from
// primlab's own stream-ordered pool (cudaMallocFromPoolAsync) and go back to it, in stream order,
// when the call returns.
constexpr std::size_t kCachedWorkspaceBytes = std::size_t(32) << 20;  // one workspace
constexpr std::size_t kCachedTotalBytes = std::size_t(64) << 20;      // all kept ones
constexpr int kCachedStreams = 8;
class PoolBuffer {
 public:
  PoolBuffer(std::size_t bytes, cudaStream_t stream, const char* fn);
  ~PoolBuffer();
  PoolBuffer(const PoolBuffer&) = delete;
  PoolBuffer& operator=(const PoolBuffer&) = delete;
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  Workspace workspace() const { return {ptr_, bytes_}; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  int cached_ = -1;  // the cache entry lent to this call, or -1 (a pool allocation)
};
// The kept workspaces' total bytes, and giving them all back (after the device has finished
// with them: waits for every device that holds one). set_workspace_cache(false) gives them back
// and keeps none from then on (the benchmark compares both ways).
std::size_t cached_workspace_bytes();
void release_cached_workspaces();
void set_workspace_cache(bool on);

// [SECTION] Type dispatch: calls f(Tag<T>{}) for the C++ type of t among Ts, else TypeError.
template <class T>
struct Tag {
  using type = T;
};
template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<std::uint8_t>() { return DType::U8; }
template <> constexpr DType dtype_of<std::int32_t>() { return DType::I32; }
template <> constexpr DType dtype_of<std::uint32_t>() { return DType::U32; }
template <> constexpr DType dtype_of<float>() { return DType::F32; }
template <> constexpr DType dtype_of<std::int64_t>() { return DType::I64; }
template <> constexpr DType dtype_of<std::uint64_t>() { return DType::U64; }
template <> constexpr DType dtype_of<double>() { return DType::F64; }

template <class... Ts>
struct Types {};
// The types the library instantiates.
using SortTypes = Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double>;
using ScanTypes = Types<std::int32_t, std::uint32_t, float, std::int64_t, double>;
using HistogramTypes = Types<std::uint8_t, std::int32_t, std::uint32_t, float, double>;

[[noreturn]] void unsupported_dtype(const ArrayRef& a, const char* fn, const std::string& takes);

template <class... Ts>
std::string type_list(Types<Ts...>) {
  std::string s;
  ((s += (s.empty() ? "" : ", ") + std::string(dtype_name(dtype_of<Ts>()))), ...);
  return s;
}

template <class... Ts, class F>
void dispatch(Types<Ts...> types, const ArrayRef& a, const char* fn, F&& f) {
  const bool found = ((a.dtype == dtype_of<Ts>() ? (f(Tag<Ts>{}), true) : false) || ...);
  if (!found) unsupported_dtype(a, fn, type_list(types));
}

}  // namespace primlab::python
