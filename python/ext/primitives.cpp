// The library's primitives for Python: each binding reads its arrays (glue.h), makes the outputs
// it is not given as arrays of the input's own library (CuPy and PyTorch here, others through the
// Python layer's kind.empty(like, shape, dtype)), takes workspace (glue.h: kept per stream, or from the
// pool), runs on the call's stream and turns the Status into an exception. Argument checks are the ones the C++ API cannot make: array kinds,
// dtypes, lengths and devices; everything else is the library's.
#include <nanobind/stl/string.h>

#include <string>
#include <utility>

#include "glue.h"
#include "primlab/bitonic_sort.h"
#include "primlab/histogram.h"
#include "primlab/ops.h"
#include "primlab/radix_partition.h"
#include "primlab/radix_sort.h"
#include "primlab/reduce.h"
#include "primlab/scan.h"
#include "primlab/select.h"

namespace primlab::python {
using namespace nb::literals;

cudaError_t fill_indices(std::int64_t* d_out, std::int64_t n, cudaStream_t stream);  // iota.cu

namespace {

// [SECTION] One call: its name, stream and outputs.
class Call {
 public:
  Call(const char* fn, nb::handle stream, nb::handle kind) : fn(fn), kind_(kind) {
    given_ = stream_handle(stream, fn, handle_);
    if (given_) stream_ = reinterpret_cast<cudaStream_t>(handle_);
  }

  // The first input also gives the stream when stream= is not: its library's current one.
  ArrayRef input(nb::handle obj, const char* name, bool ndim_any = false) {
    ArrayRef a = take_array(obj, fn, name, dlpack_stream(handle_), ndim_any);
    if (!given_ && !have_input_) {
      handle_ = current_stream(a);
      stream_ = reinterpret_cast<cudaStream_t>(handle_);
    }
    have_input_ = true;
    return a;
  }

  // An output: `given` (an element of out=), else a new array of like's library on like's
  // device (made current). Without a device, the call says so before any library allocates.
  std::pair<nb::object, ArrayRef> output(nb::handle given, ArrayRef& like, const char* name, DType dtype,
                                         std::int64_t size, bool scalar = false) {
    nb::object obj;
    if (given.is_none()) {
      require_device(fn);
      locate(like, fn);
      if (like.device >= 0) device_.to(like.device, fn);
      obj = make_array(like, kind_, dtype, size, scalar);
    } else {
      obj = nb::borrow(given);
    }
    ArrayRef a = take_array(obj, fn, name, dlpack_stream(handle_), scalar);
    require_output(a, fn, dtype, size);
    return {std::move(obj), std::move(a)};
  }

  cudaStream_t stream() const { return stream_; }

  const char* fn;

 private:
  nb::handle kind_;  // the Python layer's Kind of the first input's library
  bool given_ = false, have_input_ = false;
  std::intptr_t handle_ = 0;
  cudaStream_t stream_ = nullptr;
  DeviceSwitch device_;  // back to the caller's device when the call returns
};

// out= of a call with several outputs: None, or a tuple of `count` entries (each may be None).
nb::handle out_part(nb::handle out, std::size_t i, std::size_t count, const char* fn) {
  if (out.is_none()) return nb::none();
  if (!PyTuple_Check(out.ptr()) || PyTuple_GET_SIZE(out.ptr()) != Py_ssize_t(count)) {
    raise(PyExc_TypeError, std::string(fn) + ": out= takes a tuple of " + std::to_string(count) + " arrays here");
  }
  return PyTuple_GET_ITEM(out.ptr(), Py_ssize_t(i));
}

template <class T>
T scalar(nb::handle v, const char* fn, const char* name) {
  T out{};
  if (!nb::try_cast<T>(v, out)) {
    raise(PyExc_ValueError, std::string(fn) + ": " + name + "=" + nb::str(v).c_str() + " is not a value of " +
                                dtype_name(dtype_of<T>()));
  }
  return out;
}

SortOrder order_of(bool descending) { return descending ? SortOrder::Descending : SortOrder::Ascending; }

template <class F>
void with_op(const std::string& op, const char* fn, F&& f) {
  if (op == "sum") f(Sum{});
  else if (op == "min") f(Min{});
  else if (op == "max") f(Max{});
  else raise(PyExc_ValueError, std::string(fn) + ": op='" + op + "'; it takes 'sum', 'min' or 'max'");
}

// [SECTION] Sorts.
nb::object sort(nb::handle keys, nb::handle values, nb::handle out, nb::handle kind, bool descending, int begin_bit,
                nb::handle end_bit, nb::handle stream) {
  Call c("primlab.sort", stream, kind);
  ArrayRef k = c.input(keys, "keys");
  nb::object result;
  dispatch(SortTypes{}, k, c.fn, [&](auto key) {
    using K = typename decltype(key)::type;
    const int end = end_bit.is_none() ? int(8 * sizeof(K)) : scalar<int>(end_bit, c.fn, "end_bit");
    const auto detail = [&] {
      return "begin_bit=" + std::to_string(begin_bit) + ", end_bit=" + std::to_string(end) + " of " +
             std::to_string(8 * sizeof(K)) + "-bit keys, n=" + std::to_string(k.size);
    };
    if (values.is_none()) {
      auto [ko_obj, ko] = c.output(out, k, "out", k.dtype, k.size);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&k, &ko});
      PoolBuffer ws(radix_sort_keys_workspace_bytes<K>(k.size), c.stream(), c.fn);
      const Status s = radix_sort_keys(static_cast<const K*>(k.ptr), static_cast<K*>(ko.ptr), k.size,
                                       order_of(descending), begin_bit, end, ws.workspace(), c.stream());
      if (s != Status::Success) check(s, c.fn, detail());
      result = std::move(ko_obj);
      return;
    }
    ArrayRef v = c.input(values, "values");
    require_same_length(k, v, c.fn);
    dispatch(SortTypes{}, v, c.fn, [&](auto value) {
      using V = typename decltype(value)::type;
      auto [ko_obj, ko] = c.output(out_part(out, 0, 2, c.fn), k, "out[0]", k.dtype, k.size);
      auto [vo_obj, vo] = c.output(out_part(out, 1, 2, c.fn), v, "out[1]", v.dtype, v.size);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&k, &v, &ko, &vo});
      PoolBuffer ws(radix_sort_pairs_workspace_bytes<K, V>(k.size), c.stream(), c.fn);
      const Status s = radix_sort_pairs(static_cast<const K*>(k.ptr), static_cast<K*>(ko.ptr),
                                        static_cast<const V*>(v.ptr), static_cast<V*>(vo.ptr), k.size,
                                        order_of(descending), begin_bit, end, ws.workspace(), c.stream());
      if (s != Status::Success) check(s, c.fn, detail());
      result = nb::make_tuple(ko_obj, vo_obj);
    });
  });
  return result;
}

// Sorts (keys, 0..n-1) as pairs into scratch keys and the caller's indices.
nb::object argsort(nb::handle keys, nb::handle out, nb::handle kind, bool descending, int begin_bit, nb::handle end_bit,
                   nb::handle stream) {
  Call c("primlab.argsort", stream, kind);
  ArrayRef k = c.input(keys, "keys");
  nb::object result;
  dispatch(SortTypes{}, k, c.fn, [&](auto key) {
    using K = typename decltype(key)::type;
    const int end = end_bit.is_none() ? int(8 * sizeof(K)) : scalar<int>(end_bit, c.fn, "end_bit");
    auto [io_obj, io] = c.output(out, k, "out", DType::I64, k.size);
    require_device(c.fn);
    DeviceScope scope(c.fn, {&k, &io});
    // One pool buffer: the sorted keys (dropped), the indices 0..n-1, then the sort's workspace.
    const auto aligned = [](std::size_t b) { return (b + 255) / 256 * 256; };
    const std::size_t keys_bytes = aligned(std::size_t(k.size) * sizeof(K));
    const std::size_t index_bytes = aligned(std::size_t(k.size) * sizeof(std::int64_t));
    const std::size_t ws_bytes = radix_sort_pairs_workspace_bytes<K, std::int64_t>(k.size);
    PoolBuffer buf(keys_bytes + index_bytes + ws_bytes, c.stream(), c.fn);
    auto* d_keys = reinterpret_cast<K*>(static_cast<char*>(buf.get()));
    auto* d_index = reinterpret_cast<std::int64_t*>(static_cast<char*>(buf.get()) + keys_bytes);
    check_cuda(fill_indices(d_index, k.size, c.stream()), c.fn, "filling the indices");
    const Status s = radix_sort_pairs(static_cast<const K*>(k.ptr), d_keys, d_index, static_cast<std::int64_t*>(io.ptr),
                                      k.size, order_of(descending), begin_bit, end,
                                      {static_cast<char*>(buf.get()) + keys_bytes + index_bytes, ws_bytes}, c.stream());
    if (s != Status::Success) {
      check(s, c.fn, "begin_bit=" + std::to_string(begin_bit) + ", end_bit=" + std::to_string(end) + " of " +
                         std::to_string(8 * sizeof(K)) + "-bit keys, n=" + std::to_string(k.size));
    }
    result = std::move(io_obj);
  });
  return result;
}

nb::object bitonic_sort(nb::handle keys, nb::handle values, nb::handle out, nb::handle kind, bool descending,
                        nb::handle segment_size, nb::handle stream) {
  Call c("primlab.bitonic_sort", stream, kind);
  ArrayRef k = c.input(keys, "keys");
  const bool segments = !segment_size.is_none();
  const int seg = segments ? scalar<int>(segment_size, c.fn, "segment_size") : 0;
  if (segments && (seg > 0 ? k.size % seg != 0 : k.size != 0)) {
    raise(PyExc_ValueError, std::string(c.fn) + ": n=" + std::to_string(k.size) + " is not a whole number of segments of " +
                                std::to_string(seg));
  }
  const std::int64_t num_segments = seg > 0 ? k.size / seg : 0;
  const auto detail = [&] {
    return segments ? "segment_size=" + std::to_string(seg) + ", n=" + std::to_string(k.size) : "n=" + std::to_string(k.size);
  };
  nb::object result;
  dispatch(SortTypes{}, k, c.fn, [&](auto key) {
    using K = typename decltype(key)::type;
    if (values.is_none()) {
      auto [ko_obj, ko] = c.output(out, k, "out", k.dtype, k.size);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&k, &ko});
      const auto* in = static_cast<const K*>(k.ptr);
      auto* o = static_cast<K*>(ko.ptr);
      PoolBuffer ws(segments ? bitonic_sort_segments_keys_workspace_bytes<K>(num_segments, seg)
                             : bitonic_sort_keys_workspace_bytes<K>(k.size),
                    c.stream(), c.fn);
      const Status s = segments ? bitonic_sort_segments_keys(in, o, num_segments, seg, order_of(descending), ws.workspace(), c.stream())
                                : bitonic_sort_keys(in, o, k.size, order_of(descending), ws.workspace(), c.stream());
      if (s != Status::Success) check(s, c.fn, detail());
      result = std::move(ko_obj);
      return;
    }
    ArrayRef v = c.input(values, "values");
    require_same_length(k, v, c.fn);
    dispatch(SortTypes{}, v, c.fn, [&](auto value) {
      using V = typename decltype(value)::type;
      auto [ko_obj, ko] = c.output(out_part(out, 0, 2, c.fn), k, "out[0]", k.dtype, k.size);
      auto [vo_obj, vo] = c.output(out_part(out, 1, 2, c.fn), v, "out[1]", v.dtype, v.size);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&k, &v, &ko, &vo});
      const auto* kin = static_cast<const K*>(k.ptr);
      const auto* vin = static_cast<const V*>(v.ptr);
      auto* kout = static_cast<K*>(ko.ptr);
      auto* vout = static_cast<V*>(vo.ptr);
      PoolBuffer ws(segments ? bitonic_sort_segments_pairs_workspace_bytes<K, V>(num_segments, seg)
                             : bitonic_sort_pairs_workspace_bytes<K, V>(k.size),
                    c.stream(), c.fn);
      const Status s =
          segments ? bitonic_sort_segments_pairs(kin, kout, vin, vout, num_segments, seg, order_of(descending),
                                                 ws.workspace(), c.stream())
                   : bitonic_sort_pairs(kin, kout, vin, vout, k.size, order_of(descending), ws.workspace(), c.stream());
      if (s != Status::Success) check(s, c.fn, detail());
      result = nb::make_tuple(ko_obj, vo_obj);
    });
  });
  return result;
}

nb::object radix_partition(nb::handle keys, nb::handle values, nb::handle out, nb::handle kind, int begin_bit,
                           int num_bits, nb::handle stream) {
  Call c("primlab.radix_partition", stream, kind);
  ArrayRef k = c.input(keys, "keys");
  const std::int64_t partitions = partition_offsets(num_bits);
  const std::size_t parts = values.is_none() ? 2 : 3;
  const auto detail = [&] {
    return "begin_bit=" + std::to_string(begin_bit) + ", num_bits=" + std::to_string(num_bits) + " of " +
           std::to_string(8 * dtype_size(k.dtype)) + "-bit keys, n=" + std::to_string(k.size);
  };
  nb::object result;
  dispatch(SortTypes{}, k, c.fn, [&](auto key) {
    using K = typename decltype(key)::type;
    if (values.is_none()) {
      auto [ko_obj, ko] = c.output(out_part(out, 0, parts, c.fn), k, "out[0]", k.dtype, k.size);
      auto [off_obj, off] = c.output(out_part(out, 1, parts, c.fn), k, "out[1]", DType::U32, partitions);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&k, &ko, &off});
      PoolBuffer ws(radix_partition_keys_workspace_bytes<K>(k.size, num_bits), c.stream(), c.fn);
      const Status s = radix_partition_keys(static_cast<const K*>(k.ptr), static_cast<K*>(ko.ptr),
                                            static_cast<std::uint32_t*>(off.ptr), k.size, begin_bit, num_bits,
                                            ws.workspace(), c.stream());
      if (s != Status::Success) check(s, c.fn, detail());
      result = nb::make_tuple(ko_obj, off_obj);
      return;
    }
    ArrayRef v = c.input(values, "values");
    require_same_length(k, v, c.fn);
    dispatch(SortTypes{}, v, c.fn, [&](auto value) {
      using V = typename decltype(value)::type;
      auto [ko_obj, ko] = c.output(out_part(out, 0, parts, c.fn), k, "out[0]", k.dtype, k.size);
      auto [vo_obj, vo] = c.output(out_part(out, 1, parts, c.fn), v, "out[1]", v.dtype, v.size);
      auto [off_obj, off] = c.output(out_part(out, 2, parts, c.fn), k, "out[2]", DType::U32, partitions);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&k, &v, &ko, &vo, &off});
      PoolBuffer ws(radix_partition_pairs_workspace_bytes<K, V>(k.size, num_bits), c.stream(), c.fn);
      const Status s = radix_partition_pairs(static_cast<const K*>(k.ptr), static_cast<K*>(ko.ptr),
                                             static_cast<const V*>(v.ptr), static_cast<V*>(vo.ptr),
                                             static_cast<std::uint32_t*>(off.ptr), k.size, begin_bit, num_bits,
                                             ws.workspace(), c.stream());
      if (s != Status::Success) check(s, c.fn, detail());
      result = nb::make_tuple(ko_obj, vo_obj, off_obj);
    });
  });
  return result;
}

// [SECTION] Scans and reductions.
nb::object scan(nb::handle x, nb::handle out, nb::handle kind, bool inclusive, const std::string& op, nb::handle init,
                nb::handle stream) {
  Call c(inclusive ? "primlab.inclusive_scan" : "primlab.exclusive_scan", stream, kind);
  ArrayRef in = c.input(x, "x");
  nb::object result;
  dispatch(ScanTypes{}, in, c.fn, [&](auto type) {
    using T = typename decltype(type)::type;
    with_op(op, c.fn, [&](auto functor) {
      using Op = decltype(functor);
      const T first = init.is_none() ? Op::template identity<T>() : scalar<T>(init, c.fn, "init");
      auto [o_obj, o] = c.output(out, in, "out", in.dtype, in.size);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&in, &o});
      PoolBuffer ws(scan_workspace_bytes<T>(in.size), c.stream(), c.fn);
      const auto* d_in = static_cast<const T*>(in.ptr);
      auto* d_out = static_cast<T*>(o.ptr);
      const Status s = inclusive ? inclusive_scan(d_in, d_out, in.size, functor, ws.workspace(), c.stream())
                                 : exclusive_scan(d_in, d_out, in.size, first, functor, ws.workspace(), c.stream());
      check(s, c.fn);
      result = std::move(o_obj);
    });
  });
  return result;
}

nb::object reduce(nb::handle x, nb::handle out, nb::handle kind, const std::string& op, nb::handle stream) {
  Call c("primlab.reduce", stream, kind);
  ArrayRef in = c.input(x, "x");
  nb::object result;
  dispatch(ScanTypes{}, in, c.fn, [&](auto type) {
    using T = typename decltype(type)::type;
    with_op(op, c.fn, [&](auto functor) {
      auto [o_obj, o] = c.output(out, in, "out", in.dtype, 1, true);
      require_device(c.fn);
      DeviceScope scope(c.fn, {&in, &o});
      PoolBuffer ws(reduce_workspace_bytes<T>(in.size), c.stream(), c.fn);
      check(primlab::reduce(static_cast<const T*>(in.ptr), static_cast<T*>(o.ptr), in.size, functor, ws.workspace(),
                            c.stream()),
            c.fn);
      result = std::move(o_obj);
    });
  });
  return result;
}

// [SECTION] Selection and histograms.
// Returns (out, count): out holds the kept elements first; reading the count back waits for the
// stream.
nb::tuple select(nb::handle x, nb::handle mask, nb::handle out, nb::handle kind, const std::string& predicate,
                 nb::handle value, nb::handle stream) {
  Call c("primlab.select", stream, kind);
  ArrayRef in = c.input(x, "x");
  ArrayRef flags;
  if (!mask.is_none()) {
    flags = c.input(mask, "mask");
    require_dtype(flags, c.fn, {DType::Bool, DType::U8});
    require_same_length(in, flags, c.fn);
  }
  nb::object kept;
  std::int64_t count = 0;
  dispatch(ScanTypes{}, in, c.fn, [&](auto type) {
    using T = typename decltype(type)::type;
    const T operand = mask.is_none() ? scalar<T>(value, c.fn, predicate.c_str()) : T{};
    auto [o_obj, o] = c.output(out, in, "out", in.dtype, in.size);
    require_device(c.fn);
    DeviceScope scope(c.fn, {&in, &o, mask.is_none() ? nullptr : &flags});
    const std::size_t ws_bytes = select_workspace_bytes<T>(in.size);
    constexpr std::size_t kCountBytes = 256;  // the count first, the workspace aligned after it
    PoolBuffer buf(kCountBytes + ws_bytes, c.stream(), c.fn);
    auto* d_count = static_cast<std::int64_t*>(buf.get());
    const Workspace ws{static_cast<char*>(buf.get()) + kCountBytes, ws_bytes};
    const auto* d_in = static_cast<const T*>(in.ptr);
    auto* d_out = static_cast<T*>(o.ptr);
    Status s = Status::Success;
    if (!mask.is_none()) s = select_flagged(d_in, static_cast<const std::uint8_t*>(flags.ptr), d_out, d_count, in.size, ws, c.stream());
    else if (predicate == "less_than") s = select_if(d_in, d_out, d_count, in.size, LessThan<T>{operand}, ws, c.stream());
    else if (predicate == "greater_equal") s = select_if(d_in, d_out, d_count, in.size, GreaterEqual<T>{operand}, ws, c.stream());
    else if (predicate == "not_equal") s = select_if(d_in, d_out, d_count, in.size, NotEqual<T>{operand}, ws, c.stream());
    else raise(PyExc_ValueError, std::string(c.fn) + ": unknown predicate '" + predicate + "'");
    check(s, c.fn);
    check_cuda(cudaMemcpyAsync(&count, d_count, sizeof count, cudaMemcpyDeviceToHost, c.stream()), c.fn, "reading the count");
    cudaError_t waited = cudaSuccess;
    {
      nb::gil_scoped_release unlocked;  // an error is raised once the GIL is back
      waited = cudaStreamSynchronize(c.stream());
    }
    check_cuda(waited, c.fn, "waiting for the count");
    kept = std::move(o_obj);
  });
  return nb::make_tuple(kept, count);
}

nb::object histogram_even(nb::handle x, nb::handle out, nb::handle kind, int bins, nb::handle lower, nb::handle upper,
                          nb::handle stream) {
  Call c("primlab.histogram_even", stream, kind);
  ArrayRef in = c.input(x, "x");
  nb::object result;
  dispatch(HistogramTypes{}, in, c.fn, [&](auto type) {
    using T = typename decltype(type)::type;
    using L = histogram_level_t<T>;
    const L lo = scalar<L>(lower, c.fn, "lower"), hi = scalar<L>(upper, c.fn, "upper");
    auto [o_obj, o] = c.output(out, in, "out", DType::U32, bins > 0 ? bins : 0);
    require_device(c.fn);
    DeviceScope scope(c.fn, {&in, &o});
    PoolBuffer ws(histogram_even_workspace_bytes<T>(bins, in.size), c.stream(), c.fn);
    const Status s = primlab::histogram_even(static_cast<const T*>(in.ptr), static_cast<std::uint32_t*>(o.ptr), bins,
                                             lo, hi, in.size, ws.workspace(), c.stream());
    if (s != Status::Success) {
      check(s, c.fn, "bins=" + std::to_string(bins) + ", lower=" + nb::str(lower).c_str() + ", upper=" +
                         nb::str(upper).c_str());
    }
    result = std::move(o_obj);
  });
  return result;
}

}  // namespace

void bind_primitives(nb::module_& m) {
  // The Python layer (primlab/__init__.py) calls these positionally; None is allowed where the
  // argument is optional.
  const auto opt = [](const char* name) { return nb::arg(name).none(); };
  // The stream a call on `array` runs on by default (its library's current one), as a handle.
  m.def("current_stream", [](nb::handle array) {
    ArrayRef a = take_array(array, "primlab", "the array", 1, true);
    require_device("primlab");
    return current_stream(a);
  });
  // The workspace primlab keeps per stream (glue.h): its bytes, giving it back, turning it off.
  m.def("cached_workspace_bytes", &cached_workspace_bytes);
  m.def("release_workspace", &release_cached_workspaces);
  m.def("keep_workspace", &set_workspace_cache, "on"_a);
  m.def("sort", &sort, "keys"_a, opt("values"), opt("out"), "kind"_a, "descending"_a, "begin_bit"_a, opt("end_bit"),
        opt("stream"));
  m.def("argsort", &argsort, "keys"_a, opt("out"), "kind"_a, "descending"_a, "begin_bit"_a, opt("end_bit"),
        opt("stream"));
  m.def("bitonic_sort", &bitonic_sort, "keys"_a, opt("values"), opt("out"), "kind"_a, "descending"_a,
        opt("segment_size"), opt("stream"));
  m.def("radix_partition", &radix_partition, "keys"_a, opt("values"), opt("out"), "kind"_a, "begin_bit"_a,
        "num_bits"_a, opt("stream"));
  m.def("scan", &scan, "x"_a, opt("out"), "kind"_a, "inclusive"_a, "op"_a, opt("init"), opt("stream"));
  m.def("reduce", &reduce, "x"_a, opt("out"), "kind"_a, "op"_a, opt("stream"));
  m.def("select", &select, "x"_a, opt("mask"), opt("out"), "kind"_a, "predicate"_a, opt("value"), opt("stream"));
  m.def("histogram_even", &histogram_even, "x"_a, opt("out"), "kind"_a, "bins"_a, "lower"_a, "upper"_a, opt("stream"));
}

}  // namespace primlab::python
