// Arrays, streams, workspace and errors shared by the bindings (glue.h).
#include "glue.h"

#include "primlab/radix_partition.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>
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
  if (count > 0) return;
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

constexpr DType kTypes[] = {DType::Bool, DType::U8, DType::I32, DType::U32, DType::F32, DType::I64, DType::U64, DType::F64};
constexpr int kTypeCount = 8;
int type_index(DType t) { return t == DType::Other ? -1 : static_cast<int>(t); }

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

// A new reference to obj.name, or a thrown Python error.
nb::object attr(nb::handle obj, PyObject* name) {
  PyObject* v = PyObject_GetAttr(obj.ptr(), name);
  if (!v) throw nb::python_error();
  return nb::steal(v);
}

nb::object call0(nb::handle obj, PyObject* name) {
  PyObject* v = PyObject_CallMethodNoArgs(obj.ptr(), name);
  if (!v) throw nb::python_error();
  return nb::steal(v);
}

std::int64_t as_int(nb::handle v) {
  const long long x = PyLong_AsLongLong(v.ptr());
  if (x == -1 && PyErr_Occurred()) throw nb::python_error();
  return x;
}

void* as_pointer(nb::handle v) {
  const unsigned long long x = PyLong_AsUnsignedLongLong(v.ptr());
  if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw nb::python_error();
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(x));
}

[[noreturn]] void host_array(const ArrayRef& a, const char* fn) {
  raise(PyExc_ValueError, std::string(fn) + ": " + a.name +
                              " is a host (CPU) array; primlab runs on a CUDA device: move it there first "
                              "(cupy.asarray(x), torch.as_tensor(x, device='cuda'))");
}

[[noreturn]] void not_one_dimensional(const ArrayRef& a, const char* fn) {
  raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " must be 1-D, got " + std::to_string(a.ndim) +
                              " dimensions (flatten it first)");
}

[[noreturn]] void not_contiguous(const ArrayRef& a, const char* fn) {
  raise(PyExc_ValueError, std::string(fn) + ": " + a.name +
                              " is not contiguous (a strided view); pass a contiguous copy, e.g. x.copy() or x.contiguous()");
}

// [SECTION] The array libraries' objects, looked up once (the libraries are imported by then:
// their arrays exist). Never released: they live as long as the process.
PyObject* imported(const char* module) {  // a new reference, or null when not imported
  nb::object name = nb::steal(PyUnicode_FromString(module));
  PyObject* m = PyImport_GetModule(name.ptr());
  if (!m) PyErr_Clear();
  return m;
}

struct CuPyObjects {
  bool ready = false;
  PyObject* ndarray = nullptr;             // cupy.ndarray
  PyObject* get_current_stream = nullptr;  // cupy.cuda.get_current_stream(device_id)
  PyObject* dtypes[kTypeCount] = {};       // numpy.dtype(name): CuPy's arrays hold these very objects
};

CuPyObjects& cupy_objects() {
  static CuPyObjects c;
  if (c.ready) return c;
  nb::object cupy = nb::steal(imported("cupy"));
  nb::object numpy = nb::module_::import_("numpy");
  if (!cupy.is_valid()) throw std::runtime_error("primlab: CuPy is not imported");
  c.ndarray = nb::object(cupy.attr("ndarray")).release().ptr();
  c.get_current_stream = nb::object(nb::module_::import_("cupy.cuda.stream").attr("get_current_stream")).release().ptr();
  for (int i = 0; i < kTypeCount; ++i) c.dtypes[i] = numpy.attr("dtype")(dtype_name(kTypes[i])).release().ptr();
  c.ready = true;
  return c;
}

struct TorchObjects {
  bool ready = false;
  PyObject* tensor = nullptr;      // torch.Tensor
  PyObject* raw_stream = nullptr;  // torch._C._cuda_getCurrentRawStream(device): the cudaStream_t
  PyObject* current_stream = nullptr;  // torch.cuda.current_stream, where the above is missing
  PyObject* dtypes[kTypeCount] = {};   // torch.bool ... torch.float64 (null where this torch lacks it)
};

TorchObjects& torch_objects() {
  static TorchObjects t;
  if (t.ready) return t;
  nb::object torch = nb::steal(imported("torch"));
  if (!torch.is_valid()) throw std::runtime_error("primlab: PyTorch is not imported");
  t.tensor = nb::object(torch.attr("Tensor")).release().ptr();
  nb::object c = torch.attr("_C");
  if (PyObject* f = PyObject_GetAttrString(c.ptr(), "_cuda_getCurrentRawStream")) t.raw_stream = f;
  else PyErr_Clear();
  t.current_stream = nb::object(nb::module_::import_("torch.cuda").attr("current_stream")).release().ptr();
  for (int i = 0; i < kTypeCount; ++i) {
    if (PyObject* d = PyObject_GetAttrString(torch.ptr(), dtype_name(kTypes[i]))) t.dtypes[i] = d;
    else PyErr_Clear();
  }
  t.ready = true;
  return t;
}

DType lookup(PyObject* const (&table)[kTypeCount], PyObject* dtype) {
  for (int i = 0; i < kTypeCount; ++i)
    if (table[i] && table[i] == dtype) return kTypes[i];
  return DType::Other;
}

// The library of a type, found once per type (the types are kept alive so that their address is
// not taken by another).
Source classify(PyTypeObject* type) {
  auto subclass_of = [&](const char* module, const char* name) {
    nb::object m = nb::steal(imported(module));
    if (!m.is_valid()) return false;
    PyObject* base = PyObject_GetAttrString(m.ptr(), name);
    if (!base) {
      PyErr_Clear();
      return false;
    }
    const int r = PyObject_IsSubclass(reinterpret_cast<PyObject*>(type), base);
    Py_DECREF(base);
    if (r < 0) PyErr_Clear();
    return r == 1;
  };
  if (subclass_of("torch", "Tensor")) return Source::Torch;
  if (subclass_of("cupy", "ndarray")) return Source::CuPy;
  if (PyObject* module = PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__module__")) {
    nb::object m = nb::steal(module);
    if (PyUnicode_Check(module)) {
      const std::string_view name = PyUnicode_AsUTF8(module);
      const std::string_view root = name.substr(0, name.find('.'));
      if (root == "jax" || root == "jaxlib") return Source::Jax;
    }
  } else {
    PyErr_Clear();
  }
  return Source::Generic;
}

std::vector<std::pair<PyTypeObject*, Source>>& known_types() {
  static std::vector<std::pair<PyTypeObject*, Source>> v;
  return v;
}

Source source_of(nb::handle obj) {
  PyTypeObject* type = Py_TYPE(obj.ptr());
  auto& known = known_types();
  for (const auto& [t, s] : known)
    if (t == type) return s;
  const Source s = classify(type);
  if (known.size() < 64) {
    Py_INCREF(type);
    known.emplace_back(type, s);
  }
  return s;
}

// A library's reader found an attribute missing (a version that moved it): its arrays are read
// through the interfaces from now on.
void demote(nb::handle obj) {
  for (auto& [t, s] : known_types())
    if (t == Py_TYPE(obj.ptr())) s = Source::Generic;
}

// [SECTION] The readers.
// PyTorch: the tensor's own C methods.
bool read_torch(ArrayRef& a, nb::handle obj, const char* fn, bool ndim_any) {
  static PyObject* const is_cuda = interned("is_cuda");
  static PyObject* const requires_grad = interned("requires_grad");
  static PyObject* const dtype = interned("dtype");
  static PyObject* const dim = interned("dim");
  static PyObject* const numel = interned("numel");
  static PyObject* const is_contiguous = interned("is_contiguous");
  static PyObject* const data_ptr = interned("data_ptr");
  static PyObject* const get_device = interned("get_device");
  TorchObjects& t = torch_objects();
  if (attr(obj, is_cuda).ptr() != Py_True) {
    nb::object device = obj.attr("device");
    if (nb::str(device.attr("type")).equal(nb::str("cpu"))) host_array(a, fn);
    raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " lives on device '" + nb::str(device).c_str() +
                                "', not on a CUDA device");
  }
  if (attr(obj, requires_grad).ptr() == Py_True) {
    raise(PyExc_ValueError, std::string(fn) + ": " + a.name +
                                " requires grad, and primlab records no gradients: pass x.detach()");
  }
  a.dtype_obj = attr(obj, dtype);
  a.dtype = lookup(t.dtypes, a.dtype_obj.ptr());
  a.ndim = int(as_int(call0(obj, dim)));
  a.size = as_int(call0(obj, numel));
  if (!ndim_any && a.ndim != 1) not_one_dimensional(a, fn);
  if (call0(obj, is_contiguous).ptr() != Py_True) not_contiguous(a, fn);
  a.ptr = as_pointer(call0(obj, data_ptr));
  a.device = int(as_int(call0(obj, get_device)));
  return true;
}

// CuPy: the array's attributes (its data pointer knows its device).
bool read_cupy(ArrayRef& a, nb::handle obj, const char* fn, bool ndim_any) {
  static PyObject* const data = interned("data");
  static PyObject* const ptr = interned("ptr");
  static PyObject* const device_id = interned("device_id");
  static PyObject* const dtype = interned("dtype");
  static PyObject* const ndim = interned("ndim");
  static PyObject* const size = interned("size");
  static PyObject* const c_contiguous = interned("_c_contiguous");
  static PyObject* const kind = interned("kind");
  static PyObject* const itemsize = interned("itemsize");
  CuPyObjects& c = cupy_objects();
  nb::object contiguous = nb::steal(PyObject_GetAttr(obj.ptr(), c_contiguous));
  if (!contiguous.is_valid()) {  // a CuPy without it: the interface from now on
    PyErr_Clear();
    return false;
  }
  a.dtype_obj = attr(obj, dtype);
  a.dtype = lookup(c.dtypes, a.dtype_obj.ptr());
  if (a.dtype == DType::Other) {  // not one of NumPy's own dtype objects: by kind and size
    const std::string k = nb::cast<std::string>(attr(a.dtype_obj, kind));
    a.dtype = dtype_of_kind(k.empty() ? '?' : k[0], int(as_int(attr(a.dtype_obj, itemsize))));
  }
  a.ndim = int(as_int(attr(obj, ndim)));
  a.size = as_int(attr(obj, size));
  if (!ndim_any && a.ndim != 1) not_one_dimensional(a, fn);
  if (contiguous.ptr() != Py_True) not_contiguous(a, fn);
  nb::object memory = attr(obj, data);
  a.ptr = as_pointer(attr(memory, ptr));
  a.device = int(as_int(attr(memory, device_id)));
  return true;
}

// True when an array of these extents and strides (in elements) is laid out C-contiguously.
bool c_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides) {
  std::int64_t expect = 1;
  for (int d = ndim; d-- > 0;) {
    if (shape[d] == 0) return true;
    if (shape[d] != 1 && strides[d] != expect) return false;
    expect *= shape[d];
  }
  return true;
}

constexpr int kMaxDims = 64;  // NumPy's limit

// A shape or strides sequence into `out` (at most kMaxDims entries); its length.
int read_extents(nb::handle seq, std::int64_t* out, const ArrayRef& a, const char* fn, const char* what) {
  nb::object fast = nb::steal(PySequence_Fast(seq.ptr(), "a sequence"));
  if (!fast.is_valid()) {
    PyErr_Clear();
    raise(PyExc_TypeError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__'s " + what + " is not a sequence");
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
  if (n > kMaxDims) raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " has more than 64 dimensions");
  PyObject** items = PySequence_Fast_ITEMS(fast.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) out[i] = as_int(items[i]);
  return int(n);
}

void check_layout(ArrayRef& a, const std::int64_t* shape, const std::int64_t* strides, const char* fn, bool ndim_any) {
  a.size = 1;
  for (int d = 0; d < a.ndim; ++d) a.size *= shape[d];
  if (!ndim_any && a.ndim != 1) not_one_dimensional(a, fn);
  if (strides && !c_contiguous(a.ndim, shape, strides)) not_contiguous(a, fn);
}

// __cuda_array_interface__ (version 2 or 3): shape, typestr, data, strides, and the stream in v3.
void read_interface(ArrayRef& a, nb::handle dict, const char* fn, bool ndim_any) {
  static PyObject* const k_shape = interned("shape");
  static PyObject* const k_typestr = interned("typestr");
  static PyObject* const k_data = interned("data");
  static PyObject* const k_strides = interned("strides");
  static PyObject* const k_stream = interned("stream");
  static PyObject* const k_mask = interned("mask");
  if (!PyDict_Check(dict.ptr())) raise(PyExc_TypeError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__ is not a dict");
  auto field = [&](PyObject* key) -> nb::handle {
    PyObject* v = PyDict_GetItemWithError(dict.ptr(), key);
    if (!v && PyErr_Occurred()) throw nb::python_error();
    return v;
  };
  const nb::handle shape = field(k_shape), typestr = field(k_typestr), data = field(k_data);
  if (!shape.is_valid() || !typestr.is_valid() || !data.is_valid()) {
    raise(PyExc_TypeError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__ lacks shape, typestr or data");
  }
  Py_ssize_t len = 0;
  const char* ts = PyUnicode_Check(typestr.ptr()) ? PyUnicode_AsUTF8AndSize(typestr.ptr(), &len) : nullptr;
  if (!ts) {
    PyErr_Clear();
    raise(PyExc_TypeError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__'s typestr is not a string");
  }
  a.bytes = len > 2 ? std::atoi(ts + 2) : 0;
  a.kind = len > 2 ? ts[1] : '?';
  a.big_endian = len > 0 && ts[0] == '>';
  a.dtype = len > 2 && !a.big_endian ? dtype_of_kind(a.kind, a.bytes) : DType::Other;
  if (!PyTuple_Check(data.ptr()) || PyTuple_GET_SIZE(data.ptr()) != 2) {
    raise(PyExc_TypeError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__'s data is not a (pointer, read-only) pair");
  }
  a.ptr = as_pointer(PyTuple_GET_ITEM(data.ptr(), 0));
  const int ro = PyObject_IsTrue(PyTuple_GET_ITEM(data.ptr(), 1));
  if (ro < 0) throw nb::python_error();
  a.readonly = ro == 1;
  std::int64_t extents[kMaxDims], strides[kMaxDims];
  a.ndim = read_extents(shape, extents, a, fn, "shape");
  const nb::handle st = field(k_strides);
  bool strided = false;
  if (st.is_valid() && !st.is_none()) {
    if (read_extents(st, strides, a, fn, "strides") != a.ndim) {
      raise(PyExc_ValueError, std::string(fn) + ": " + a.name + ".__cuda_array_interface__'s shape and strides differ in length");
    }
    for (int d = 0; d < a.ndim; ++d) strides[d] = a.bytes > 0 && strides[d] % a.bytes == 0 ? strides[d] / a.bytes : -1;
    strided = true;
  }
  check_layout(a, extents, strided ? strides : nullptr, fn, ndim_any);
  const nb::handle stream = field(k_stream);
  if (stream.is_valid() && !stream.is_none()) {
    a.has_stream = true;
    a.stream = static_cast<std::intptr_t>(as_int(stream));
  }
  const nb::handle mask = field(k_mask);
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
  nb::object dev = call0(obj, device_name);
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
  a.kind = t->dtype.code < 3 ? kinds[t->dtype.code] : t->dtype.code == 6 ? 'b' : t->dtype.code == 5 ? 'c' : '?';
  a.bytes = t->dtype.bits / 8;
  a.dtype = t->dtype.lanes == 1 ? dtype_of_kind(a.kind, a.bytes) : DType::Other;
  if (t->ndim > kMaxDims) raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " has more than 64 dimensions");
  a.ndim = t->ndim;
  check_layout(a, t->shape, t->strides, fn, ndim_any);
}

// Through __cuda_array_interface__, else __dlpack__; `dlpack_first` turns the order round.
void read_interfaces(ArrayRef& a, nb::handle obj, const char* fn, std::intptr_t consumer_stream, bool ndim_any,
                     bool dlpack_first) {
  static PyObject* const cai_name = interned("__cuda_array_interface__");
  static PyObject* const dlpack_name = interned("__dlpack__");
  if (dlpack_first) {
    if (PyObject* dlpack = PyObject_GetAttr(obj.ptr(), dlpack_name)) {
      read_dlpack(a, obj, nb::steal(dlpack), fn, consumer_stream, ndim_any);
      return;
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw nb::python_error();
    PyErr_Clear();
  }
  if (PyObject* cai = PyObject_GetAttr(obj.ptr(), cai_name)) {
    nb::object dict = nb::steal(cai);
    read_interface(a, dict, fn, ndim_any);
    return;
  }
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw nb::python_error();  // e.g. a tensor that requires grad
  PyErr_Clear();
  if (!dlpack_first) {
    if (PyObject* dlpack = PyObject_GetAttr(obj.ptr(), dlpack_name)) {
      read_dlpack(a, obj, nb::steal(dlpack), fn, consumer_stream, ndim_any);
      return;
    }
    PyErr_Clear();
  }
  raise(PyExc_TypeError, std::string(fn) + ": " + a.name +
                             " must be a CUDA array (CuPy, PyTorch, JAX, Numba: anything with "
                             "__cuda_array_interface__ or __dlpack__), got " + python_type(obj));
}

}  // namespace

std::string ArrayRef::dtype_text() const {
  if (kind) return kind_text(kind, bytes) + (big_endian ? " (big-endian)" : "");
  if (dtype != DType::Other || !dtype_obj.is_valid()) return dtype_name(dtype);
  std::string text = nb::str(dtype_obj).c_str();
  return text.rfind("torch.", 0) == 0 ? text.substr(6) : text;
}

// [SECTION] Arrays.
ArrayRef take_array(nb::handle obj, const char* fn, const char* name, std::intptr_t consumer_stream, bool ndim_any) {
  ArrayRef a;
  a.name = name;
  a.obj = obj;
  a.source = source_of(obj);
  switch (a.source) {
    case Source::Torch:
      if (read_torch(a, obj, fn, ndim_any)) return a;
      break;
    case Source::CuPy:
      if (read_cupy(a, obj, fn, ndim_any)) return a;
      break;
    default: break;
  }
  if (a.source == Source::Torch || a.source == Source::CuPy) {
    demote(obj);
    a = ArrayRef{};
    a.name = name;
    a.obj = obj;
  }
  read_interfaces(a, obj, fn, consumer_stream, ndim_any, a.source == Source::Jax);
  return a;
}

void locate(ArrayRef& a, const char* fn) {
  if (a.device >= 0 || a.ptr == nullptr) return;
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, a.ptr);
  if (e != cudaSuccess) cudaGetLastError();
  if (e != cudaSuccess || (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)) host_array(a, fn);
  a.device = attr.device;
}

std::intptr_t current_stream(const ArrayRef& a) {
  switch (a.source) {
    case Source::Torch: {
      const TorchObjects& t = torch_objects();
      if (!t.raw_stream) return nb::cast<std::intptr_t>(nb::handle(t.current_stream)(a.device).attr("cuda_stream"));
      nb::object device = nb::steal(PyLong_FromLong(a.device));
      PyObject* s = PyObject_CallOneArg(t.raw_stream, device.ptr());
      if (!s) throw nb::python_error();
      return reinterpret_cast<std::intptr_t>(as_pointer(nb::steal(s)));
    }
    case Source::CuPy: {
      static PyObject* const ptr = interned("ptr");
      nb::object device = nb::steal(PyLong_FromLong(a.device));
      PyObject* s = PyObject_CallOneArg(cupy_objects().get_current_stream, device.ptr());
      if (!s) throw nb::python_error();
      return reinterpret_cast<std::intptr_t>(as_pointer(attr(nb::steal(s), ptr)));
    }
    default: return a.has_stream ? a.stream : 0;
  }
}

nb::object make_array(const ArrayRef& like, nb::handle kind, DType dtype, std::int64_t size, bool scalar) {
  nb::object shape = scalar ? nb::object(nb::tuple()) : nb::object(nb::make_tuple(size));
  const int i = type_index(dtype);
  switch (like.source) {
    case Source::CuPy: {
      const CuPyObjects& c = cupy_objects();
      PyObject* args[] = {shape.ptr(), c.dtypes[i]};
      PyObject* r = PyObject_Vectorcall(c.ndarray, args, 2, nullptr);
      if (!r) throw nb::python_error();
      return nb::steal(r);
    }
    case Source::Torch: {
      static PyObject* const new_empty = interned("new_empty");
      static PyObject* const kwnames = Py_BuildValue("(s)", "dtype");
      PyObject* d = torch_objects().dtypes[i];
      if (!d) raise(PyExc_TypeError, std::string("primlab: this PyTorch has no ") + dtype_name(dtype) + " tensors");
      PyObject* args[] = {like.obj.ptr(), shape.ptr(), d};
      PyObject* r = PyObject_VectorcallMethod(new_empty, args, 2, kwnames);
      if (!r) throw nb::python_error();
      return nb::steal(r);
    }
    default: {
      static PyObject* const empty = interned("empty");
      return kind.attr(nb::handle(empty))(like.obj, scalar ? nb::object(nb::tuple()) : nb::object(nb::int_(size)),
                                          dtype_name(dtype));
    }
  }
}

void unsupported_dtype(const ArrayRef& a, const char* fn, const std::string& takes) {
  raise(PyExc_TypeError, std::string(fn) + ": " + a.name + " has dtype " + a.dtype_text() + "; it takes " + takes);
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
    raise(PyExc_TypeError, std::string(fn) + ": " + out.name + " has dtype " + out.dtype_text() + ", expected " +
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

void DeviceSwitch::to(int device, const char* fn) {
  int current = 0;
  check_cuda(cudaGetDevice(&current), fn, "cudaGetDevice");
  if (current == device) return;
  check_cuda(cudaSetDevice(device), fn, "cudaSetDevice");
  if (previous_ < 0) previous_ = current;
}

DeviceSwitch::~DeviceSwitch() {
  if (previous_ >= 0) cudaSetDevice(previous_);
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
  if (first) switch_.to(first->device, fn);
}

std::int64_t partition_offsets(int num_bits) {
  return num_bits >= 1 && num_bits <= kRadixPartitionMaxBits ? (std::int64_t(1) << num_bits) + 1 : 0;
}

// [SECTION] Streams.
bool stream_handle(nb::handle stream, const char* fn, std::intptr_t& out) {
  if (stream.is_none()) return false;
  if (PyLong_Check(stream.ptr())) {
    out = static_cast<std::intptr_t>(as_int(stream));
    return true;
  }
  static PyObject* const protocol = interned("__cuda_stream__");
  if (PyObject* method = PyObject_GetAttr(stream.ptr(), protocol)) {
    // A method by the protocol (cuda.core 0.2 on); early cuda.core made it a property.
    nb::object pair = PyTuple_Check(method) ? nb::borrow(method) : nb::steal(PyObject_CallNoArgs(method));
    Py_DECREF(method);
    if (!pair.is_valid()) throw nb::python_error();
    if (!PyTuple_Check(pair.ptr()) || PyTuple_GET_SIZE(pair.ptr()) != 2) {
      raise(PyExc_TypeError, std::string(fn) + ": stream.__cuda_stream__() must return (version, handle)");
    }
    out = static_cast<std::intptr_t>(as_int(PyTuple_GET_ITEM(pair.ptr(), 1)));
    return true;
  }
  PyErr_Clear();
  raise(PyExc_TypeError, std::string(fn) + ": stream= takes an int handle or an object with __cuda_stream__ "
                                           "(CuPy: stream.ptr), got " + python_type(stream));
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

void* pool_alloc(std::size_t bytes, int device, cudaStream_t stream, const char* fn) {
  void* p = nullptr;
  const cudaError_t e = cudaMallocFromPoolAsync(&p, bytes, device_pool(device, fn), stream);
  if (e != cudaSuccess) check_cuda(e, fn, ("workspace of " + std::to_string(bytes) + " bytes").c_str());
  return p;
}

// One kept workspace: only ever used on its stream, in that stream's order, by one call at a time
// (the GIL is held through every call that takes one).
struct Kept {
  int device = 0;
  unsigned long long stream_id = 0;
  void* ptr = nullptr;
  std::size_t bytes = 0;
  bool lent = false;
};
std::vector<Kept>& kept() {
  static std::vector<Kept> v;
  return v;
}
bool keep_workspaces = true;

// The kept workspace of (device, stream) with room for `bytes`, or -1 (then the pool serves).
int lend_kept(std::size_t bytes, int device, cudaStream_t stream, const char* fn) {
  if (!keep_workspaces || bytes > kCachedWorkspaceBytes) return -1;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone ||
      cudaStreamGetId(stream, &id) != cudaSuccess) {
    cudaGetLastError();
    return -1;  // under capture, an allocation belongs to the graph
  }
  auto& v = kept();
  int at = -1;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].device == device && v[i].stream_id == id) at = int(i);
  if (at < 0) {
    if (int(v.size()) >= kCachedStreams) return -1;
    v.push_back({device, id, nullptr, 0, false});
    at = int(v.size()) - 1;
  }
  Kept& k = v[std::size_t(at)];
  if (k.lent) return -1;  // a second workspace of one call on the same stream
  if (k.bytes < bytes) {
    const std::size_t grain = std::size_t(64) << 10;
    const std::size_t want = (bytes + grain - 1) / grain * grain;
    if (cached_workspace_bytes() - k.bytes + want > kCachedTotalBytes) return -1;
    // Grown in stream order: the old one goes back behind the work queued on this stream.
    if (k.ptr) cudaFreeAsync(k.ptr, stream);
    k.ptr = nullptr;
    k.bytes = 0;
    k.ptr = pool_alloc(want, device, stream, fn);
    k.bytes = want;
  }
  k.lent = true;
  return at;
}

}  // namespace

PoolBuffer::PoolBuffer(std::size_t bytes, cudaStream_t stream, const char* fn) : bytes_(bytes), stream_(stream) {
  if (bytes == 0) return;
  int device = 0;
  check_cuda(cudaGetDevice(&device), fn, "cudaGetDevice");
  cached_ = lend_kept(bytes, device, stream, fn);
  if (cached_ >= 0) {
    ptr_ = kept()[std::size_t(cached_)].ptr;
    return;
  }
  ptr_ = pool_alloc(bytes, device, stream, fn);
}

PoolBuffer::~PoolBuffer() {
  if (cached_ >= 0) kept()[std::size_t(cached_)].lent = false;
  else if (ptr_) cudaFreeAsync(ptr_, stream_);
}

std::size_t cached_workspace_bytes() {
  std::size_t total = 0;
  for (const Kept& k : kept()) total += k.bytes;
  return total;
}

void release_cached_workspaces() {
  int current = 0;
  if (cudaGetDevice(&current) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  auto& v = kept();
  for (Kept& k : v) {
    if (!k.ptr) continue;
    // Its stream may be gone: wait for the whole device, then give it back on the legacy stream.
    cudaSetDevice(k.device);
    cudaDeviceSynchronize();
    cudaFreeAsync(k.ptr, 0);
    cudaStreamSynchronize(0);
  }
  v.clear();
  cudaSetDevice(current);
  cudaGetLastError();
}

void set_workspace_cache(bool on) {
  if (!on) release_cached_workspaces();
  keep_workspaces = on;
}

}  // namespace primlab::python
