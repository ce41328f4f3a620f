// What every binding of the library shares: arrays taken from Python without a copy
// (__cuda_array_interface__ or __dlpack__), the stream a call runs on, device workspace from a
// stream-ordered pool, and a Status turned into a Python exception with the library's message.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
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
// One array argument of a call, borrowed for the call: a CUDA device pointer and its length.
struct ArrayRef {
  void* ptr = nullptr;
  std::int64_t size = 0;       // elements, the product of the shape
  int ndim = 1;
  DType dtype = DType::Other;
  std::string dtype_text;      // the producer's own name of the dtype, for messages
  int device = -1;             // CUDA ordinal; -1 until locate()
  bool readonly = false;
  bool has_stream = false;     // the producer named a stream (CUDA Array Interface v3)
  std::intptr_t stream = 0;
  nb::object keep;             // the interface dict or DLPack capsule, alive for the call
  const char* name = "";       // the argument's name, for messages
};

// Reads `obj` as a CUDA array: __cuda_array_interface__ first, else __dlpack__(stream=consumer).
// Raises TypeError for an object that is neither (or an unsupported dtype), ValueError for a host
// (CPU) array, a non-contiguous one or one that is not 1-D (ndim_any: any shape, read flat).
ArrayRef take_array(nb::handle obj, const char* fn, const char* name, std::intptr_t consumer_stream,
                    bool ndim_any = false);
// Finds the device of an array read through the CUDA Array Interface (DLPack names it already)
// and raises ValueError when the memory is not device memory. Needs a device (require_device).
void locate(ArrayRef& a, const char* fn);

// TypeError unless a's dtype is in `types` (a list such as {DType::U32, DType::I32}).
void require_dtype(const ArrayRef& a, const char* fn, std::initializer_list<DType> types);
// TypeError / ValueError unless `out` has a's dtype (or `dtype`) and `size` elements.
void require_output(const ArrayRef& out, const char* fn, DType dtype, std::int64_t size);
void require_same_length(const ArrayRef& a, const ArrayRef& b, const char* fn);
// ValueError unless every array lies on the device of the first; then makes it current.
class DeviceScope {
 public:
  DeviceScope(const char* fn, std::initializer_list<ArrayRef*> arrays);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
};

// The offsets of a radix partition by num_bits bits (2^num_bits + 1); 0 outside the library's
// range, which its InvalidArgument then names.
std::int64_t partition_offsets(int num_bits);

// [SECTION] Streams.
// stream=: None, an int handle, or an object with __cuda_stream__() -> (version, handle).
// Returns false for None.
bool stream_handle(nb::handle stream, const char* fn, std::intptr_t& out);
// The stream a call runs on: stream= when given, else the producer's CUDA Array Interface stream,
// else the legacy default stream.
cudaStream_t call_stream(bool given, std::intptr_t handle, const ArrayRef& primary);
// The consumer stream to name in __dlpack__(stream=...) for a handle (the spec spells the legacy
// default stream 1, since 0 is ambiguous).
std::intptr_t dlpack_stream(std::intptr_t handle);

// [SECTION] Workspace from the current device's stream-ordered pool, given back in stream order
// when the call returns.
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
};

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
