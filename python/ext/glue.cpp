// Arrays, streams, workspace and errors shared by the bindings (glue.h).
#include "glue.h"

#include "primlab/radix_partition.h"

#include <cstdlib>
#include <limits>
#include <vector>

namespace primlab::python {

// [SECTION] Errors.
void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw nb::python_error();
}

void check(Status s, const char* fn, const std::string& detail) {
  if (s == Status::Success) return;
  std::string message = std::string(fn) + ": " + status_string(s);
  if (s == Status::CudaError || s == Status::NoDevice) {
    // The library clears the error it met; a sticky one (a kernel fault) is still there to name.
    if (cudaError_t e = cudaPeekAtLastError(); e != cudaSuccess) message += std::string(" (") + cudaGetErrorString(e) + ")";
  }
  if (!detail.empty()) message += " (" + detail + ")";
  switch (s) {
    case Status::OutOfMemory: raise(PyExc_MemoryError, message);
    case Status::NoDevice:
    case Status::CudaError:
    case Status::CommError: raise(PyExc_RuntimeError, message);
    default: raise(PyExc_ValueError, message);
  }
}

void require_device(const char* fn) {
  static int count = -1;
  static cudaError_t error = cudaSuccess;
  if (count < 0) {
    error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess) {
      count = 0;
      cudaGetLastError();
    }
  }
  if (count > 0) return;
  raise(PyExc_RuntimeError, std::string(fn) + " needs a CUDA device, and this machine has none (" +
                                (error != cudaSuccess ? cudaGetErrorString(error) : "no GPU is visible") + ")");
}

void check_cuda(cudaError_t e, const char* fn, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();
  raise(e == cudaErrorMemoryAllocation ? PyExc_MemoryError : PyExc_RuntimeError,
        std::string(fn) + ": " + what + ": " + cudaGetErrorString(e));
}

// [SECTION] Element types.
const char* dtype_name(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::U8: return "uint8";
    case DType::I32: return "int32";
    case DType::U32: return "uint32";
    case DType::F32: return "float32";
    case DType::I64: return "int64";
    case DType::U64: return "uint64";
    case DType::F64: return "float64";
    case DType::Other: break;
  }
  return "other";
}

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::Bool:
    case DType::U8: return 1;
    case DType::I32:
    case DType::U32:
    case DType::F32: return 4;
    default: return 8;
  }
}

DType dtype_from_name(const std::string& name) {
  for (DType t : {DType::Bool, DType::U8, DType::I32, DType::U32, DType::F32, DType::I64, DType::U64, DType::F64})
    if (name == dtype_name(t)) return t;
  return DType::Other;
}

namespace {

// kind: 'b' bool, 'i' signed, 'u' unsigned, 'f' float (NumPy's letters, which DLPack's codes map to).
DType dtype_of_kind(char kind, int bytes) {
  switch (kind) {
    case 'b': return bytes == 1 ? DType::Bool : DType::Other;
    case 'i': return bytes == 4 ? DType::I32 : bytes == 8 ? DType::I64 : DType::Other;
    case 'u': return bytes == 1 ? DType::U8 : bytes == 4 ? DType::U32 : bytes == 8 ? DType::U64 : DType::Other;
    case 'f': return bytes == 4 ? DType::F32 : bytes == 8 ? DType::F64 : DType::Other;
  }
  return DType::Other;
}

std::string kind_text(char kind, int bytes) {
  const std::string bits = std::to_string(8 * bytes);
  switch (kind) {
    case 'b': return "bool";
    case 'i': return "int" + bits;
    case 'u': return "uint" + bits;
    case 'f': return "float" + bits;
    case 'c': return "complex" + bits;
  }
  return std::string("kind '") + kind + "' of " + std::to_string(bytes) + " bytes";
}

std::string python_type(nb::handle obj) { return nb::inst_name(obj).c_str(); }

PyObject* interned(const char* s) { return PyUnicode_InternFromString(s); }

// True when an array of these extents and strides (in elements) is laid out C-contiguously.
bool c_contiguous(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides) {
  std::int64_t expect = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0) return true;
    if (shape[d] != 1 && strides[d] != expect) return false;
    expect *= shape[d];
  }
  return true;
}

void check_shape(ArrayRef& a, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                 const char* fn, bool ndim_any) {
  a.ndim = int(shape.size());
  a.size = 1;
  for (std::int64_t e : shape) a.size *= e;
  if (!ndim_any && a.ndim != 1) {
    raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " must be 1-D, got " + std::to_string(a.ndim) +
                                " dimensions (flatten it first)");
  }
  if (!strides.empty() && !c_contiguous(shape, strides)) {
    raise(PyExc_ValueError, std::string(fn) + ": " + a.name +
                                " is not contiguous (a strided view); pass a contiguous copy, e.g. x.copy() or x.contiguous()");
  }
}

[[noreturn]] void host_array(const ArrayRef& a, const char* fn) {
  raise(PyExc_ValueError, std::string(fn) + ": " + a.name +
                              " is a host (CPU) array; primlab runs on a CUDA device: move it there first "
                              "(cupy.asarray(x), torch.as_tensor(x, device='cuda'))");
}

// __cuda_array_interface__ (version 2 or 3): shape, typestr, data, strides, and the stream in v3.
void read_interface(ArrayRef& a, nb::handle dict, const char* fn, bool ndim_any) {
  if (!PyDict_Check(dict.ptr())) raise(PyExc_TypeError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__ is not a dict");
  nb::dict d = nb::borrow<nb::dict>(dict);
  auto field = [&](const char* key) -> nb::handle {
    PyObject* v = PyDict_GetItemString(d.ptr(), key);
    return v ? nb::handle(v) : nb::handle();
  };
  const nb::handle shape = field("shape"), typestr = field("typestr"), data = field("data");
  if (!shape.is_valid() || !typestr.is_valid() || !data.is_valid()) {
    raise(PyExc_TypeError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__ lacks shape, typestr or data");
  }
  const std::string ts = nb::cast<std::string>(typestr);
  const int bytes = ts.size() > 2 ? std::atoi(ts.c_str() + 2) : 0;
  const bool little = !ts.empty() && ts[0] != '>';
  a.dtype = little && ts.size() > 2 ? dtype_of_kind(ts[1], bytes) : DType::Other;
  a.dtype_text = ts.size() > 2 ? kind_text(ts[1], bytes) + (little ? "" : " (big-endian)") : ts;
  nb::tuple pair = nb::cast<nb::tuple>(data);
  a.ptr = reinterpret_cast<void*>(nb::cast<std::uintptr_t>(pair[0]));
  a.readonly = nb::cast<bool>(pair[1]);
  std::vector<std::int64_t> extents, strides;
  for (nb::handle e : shape) extents.push_back(nb::cast<std::int64_t>(e));
  const nb::handle st = field("strides");
  if (st.is_valid() && !st.is_none()) {
    for (nb::handle e : st) {
      const std::int64_t b = nb::cast<std::int64_t>(e);
      strides.push_back(bytes > 0 && b % bytes == 0 ? b / bytes : -1);
    }
  }
  check_shape(a, extents, strides, fn, ndim_any);
  const nb::handle stream = field("stream");
  if (stream.is_valid() && !stream.is_none()) {
    a.has_stream = true;
    a.stream = nb::cast<std::intptr_t>(stream);
  }
  const nb::handle mask = field("mask");
  if (mask.is_valid() && !mask.is_none()) raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " is a masked array");
}

// The head of DLPack's DLManagedTensor (dlpack.h, v0.8 and later): the tensor comes first.
struct DLTensorHead {
  void* data;
  struct {
    std::int32_t device_type, device_id;
  } device;
  std::int32_t ndim;
  struct {
    std::uint8_t code, bits;
    std::uint16_t lanes;
  } dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};
constexpr int kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13;

void read_dlpack(ArrayRef& a, nb::handle obj, nb::handle dlpack, const char* fn, std::intptr_t consumer_stream,
                 bool ndim_any) {
  static PyObject* const device_name = interned("__dlpack_device__");
  nb::object dev = nb::steal(PyObject_CallMethodNoArgs(obj.ptr(), device_name));
  if (!dev.is_valid()) throw nb::python_error();
  nb::tuple dt = nb::cast<nb::tuple>(dev);
  const int device_type = nb::cast<int>(dt[0]);
  if (device_type == kDLCPU || device_type == kDLCUDAHost) host_array(a, fn);
  if (device_type != kDLCUDA && device_type != kDLCUDAManaged) {
    raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " lives on DLPack device type " +
                                std::to_string(device_type) + ", not on a CUDA device");
  }
  nb::object capsule = dlpack(nb::arg("stream") = consumer_stream);
  auto* t = static_cast<DLTensorHead*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!t) throw nb::python_error();
  a.keep = std::move(capsule);  // its destructor calls the producer's deleter after the call
  a.ptr = static_cast<char*>(t->data) + t->byte_offset;
  a.device = t->device.device_id;
  static const char kinds[] = {'i', 'u', 'f'};
  const char kind = t->dtype.code < 3 ? kinds[t->dtype.code] : t->dtype.code == 6 ? 'b' : '?';
  a.dtype = t->dtype.lanes == 1 ? dtype_of_kind(kind, t->dtype.bits / 8) : DType::Other;
  a.dtype_text = kind == '?' ? "DLPack type code " + std::to_string(t->dtype.code) : kind_text(kind, t->dtype.bits / 8);
  std::vector<std::int64_t> extents(t->shape, t->shape + t->ndim), strides;
  if (t->strides) strides.assign(t->strides, t->strides + t->ndim);
  check_shape(a, extents, strides, fn, ndim_any);
}

}  // namespace

// [SECTION] Arrays.
ArrayRef take_array(nb::handle obj, const char* fn, const char* name, std::intptr_t consumer_stream, bool ndim_any) {
  static PyObject* const cai_name = interned("__cuda_array_interface__");
  static PyObject* const dlpack_name = interned("__dlpack__");
  ArrayRef a;
  a.name = name;
  if (PyObject* cai = PyObject_GetAttr(obj.ptr(), cai_name)) {
    a.keep = nb::steal(cai);
    read_interface(a, a.keep, fn, ndim_any);
    return a;
  }
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw nb::python_error();  // e.g. a tensor that requires grad
  PyErr_Clear();
  if (PyObject* dlpack = PyObject_GetAttr(obj.ptr(), dlpack_name)) {
    read_dlpack(a, obj, nb::steal(dlpack), fn, consumer_stream, ndim_any);
    return a;
  }
  PyErr_Clear();
  raise(PyExc_TypeError, std::string(fn) + ": " + name +
                             " must be a CUDA array (CuPy, PyTorch, JAX, Numba: anything with "
                             "__cuda_array_interface__ or __dlpack__), got " + python_type(obj));
}

void locate(ArrayRef& a, const char* fn) {
  if (a.device >= 0 || a.ptr == nullptr) return;
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, a.ptr);
  if (e != cudaSuccess) cudaGetLastError();
  if (e != cudaSuccess || (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)) host_array(a, fn);
  a.device = attr.device;
}

void unsupported_dtype(const ArrayRef& a, const char* fn, const std::string& takes) {
  raise(PyExc_TypeError, std::string(fn) + ": " + a.name + " has dtype " + a.dtype_text + "; it takes " + takes);
}

void require_dtype(const ArrayRef& a, const char* fn, std::initializer_list<DType> types) {
  std::string takes;
  for (DType t : types) {
    if (a.dtype == t) return;
    takes += (takes.empty() ? "" : ", ") + std::string(dtype_name(t));
  }
  unsupported_dtype(a, fn, takes);
}

void require_output(const ArrayRef& out, const char* fn, DType dtype, std::int64_t size) {
  if (out.dtype != dtype) {
    raise(PyExc_TypeError, std::string(fn) + ": " + out.name + " has dtype " + out.dtype_text + ", expected " +
                               dtype_name(dtype));
  }
  if (out.size != size) {
    raise(PyExc_ValueError, std::string(fn) + ": " + out.name + " has " + std::to_string(out.size) +
                                " elements, expected " + std::to_string(size));
  }
  if (out.readonly) raise(PyExc_ValueError, std::string(fn) + ": " + out.name + " is read-only");
}

void require_same_length(const ArrayRef& a, const ArrayRef& b, const char* fn) {
  if (a.size != b.size) {
    raise(PyExc_ValueError, std::string(fn) + ": " + b.name + " has " + std::to_string(b.size) + " elements and " +
                                a.name + " " + std::to_string(a.size) + "; they must match");
  }
}

DeviceScope::DeviceScope(const char* fn, std::initializer_list<ArrayRef*> arrays) {
  const ArrayRef* first = nullptr;
  for (ArrayRef* a : arrays) {
    if (!a) continue;
    locate(*a, fn);
    if (a->device < 0) continue;
    if (!first) first = a;
    else if (a->device != first->device) {
      raise(PyExc_ValueError, std::string(fn) + ": " + a->name + " is on CUDA device " + std::to_string(a->device) +
                                  " and " + first->name + " on device " + std::to_string(first->device));
    }
  }
  if (!first) return;
  int current = 0;
  check_cuda(cudaGetDevice(&current), fn, "cudaGetDevice");
  if (current != first->device) {
    check_cuda(cudaSetDevice(first->device), fn, "cudaSetDevice");
    previous_ = current;
  }
}

DeviceScope::~DeviceScope() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

std::int64_t partition_offsets(int num_bits) {
  return num_bits >= 1 && num_bits <= kRadixPartitionMaxBits ? (std::int64_t(1) << num_bits) + 1 : 0;
}

// [SECTION] Streams.
bool stream_handle(nb::handle stream, const char* fn, std::intptr_t& out) {
  if (stream.is_none()) return false;
  if (PyLong_Check(stream.ptr())) {
    out = nb::cast<std::intptr_t>(stream);
    return true;
  }
  static PyObject* const protocol = interned("__cuda_stream__");
  if (PyObject_HasAttr(stream.ptr(), protocol)) {
    nb::object pair = nb::steal(PyObject_CallMethodNoArgs(stream.ptr(), protocol));
    if (!pair.is_valid()) throw nb::python_error();
    out = nb::cast<std::intptr_t>(nb::cast<nb::tuple>(pair)[1]);
    return true;
  }
  raise(PyExc_TypeError, std::string(fn) + ": stream= takes an int handle or an object with __cuda_stream__ "
                                           "(CuPy: stream.ptr), got " + python_type(stream));
}

cudaStream_t call_stream(bool given, std::intptr_t handle, const ArrayRef& primary) {
  if (given) return reinterpret_cast<cudaStream_t>(handle);
  return reinterpret_cast<cudaStream_t>(primary.has_stream ? primary.stream : 0);
}

std::intptr_t dlpack_stream(std::intptr_t handle) { return handle == 0 ? 1 : handle; }

// [SECTION] Workspace.
namespace {

// primlab's own pool per device, which keeps what it grew to across synchronizations: the
// default pool gives its memory back at every synchronization (release threshold 0), and mapping
// a sort's workspace again costs more than the sort. The device's default pool, which other
// libraries share, is left as it is. Pools live as long as the process.
cudaMemPool_t device_pool(int device, const char* fn) {
  static std::vector<cudaMemPool_t> pools;
  if (device >= int(pools.size())) pools.resize(std::size_t(device) + 1, nullptr);
  if (!pools[std::size_t(device)]) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = nullptr;
    check_cuda(cudaMemPoolCreate(&pool, &props), fn, "cudaMemPoolCreate");
    std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
    check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), fn, "cudaMemPoolSetAttribute");
    pools[std::size_t(device)] = pool;
  }
  return pools[std::size_t(device)];
}

}  // namespace

PoolBuffer::PoolBuffer(std::size_t bytes, cudaStream_t stream, const char* fn) : bytes_(bytes), stream_(stream) {
  if (bytes == 0) return;
  int device = 0;
  check_cuda(cudaGetDevice(&device), fn, "cudaGetDevice");
  const cudaError_t e = cudaMallocFromPoolAsync(&ptr_, bytes, device_pool(device, fn), stream);
  if (e != cudaSuccess) {
    ptr_ = nullptr;
    check_cuda(e, fn, ("workspace of " + std::to_string(bytes) + " bytes").c_str());
  }
}

PoolBuffer::~PoolBuffer() {
  if (ptr_) cudaFreeAsync(ptr_, stream_);
}

}  // namespace primlab::python
