// Device rows of reduce, scan, select and histogram: primlab's fast path, CUB and Thrust, on the
// case's shared inputs (the CPU rows are engine/cpu_rows.cpp; the lab's, engine/lab_rows.cpp).
// Built twice when PRIMLAB_CCCL_INCLUDE names a newer CCCL (bench/CMakeLists.txt): once against the
// toolkit's CUB and Thrust, once against the newer ones, wrapped in their own namespaces so that
// both live in one binary (engine/newer_cccl.h).
#include "engine/newer_cccl.h"
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <cstdint>
#include <limits>

#include "engine/device_rows.h"
#include "engine/inputs.h"
#include "primlab/histogram.h"
#include "primlab/reduce.h"
#include "primlab/scan.h"
#include "primlab/select.h"

namespace primlab::bench {
namespace {

// [SECTION] Type dispatch (each list is the types the callee is instantiated for)
template <class F>
Status on_numeric(Type t, F&& f) {
  switch (t) {
    case Type::i32: return f(std::int32_t{});
    case Type::u32: return f(std::uint32_t{});
    case Type::f32: return f(float{});
    case Type::i64: return f(std::int64_t{});
    case Type::f64: return f(double{});
    default: return Status::Unsupported;
  }
}
template <class F>
Status on_hist(Type t, F&& f) {
  switch (t) {
    case Type::u8: return f(std::uint8_t{});
    case Type::i32: return f(std::int32_t{});
    case Type::u32: return f(std::uint32_t{});
    case Type::f32: return f(float{});
    default: return Status::Unsupported;
  }
}
template <class F>
std::size_t bytes_numeric(Type t, F&& f) {
  std::size_t b = 0;
  on_numeric(t, [&](auto x) { b = f(x); return Status::Success; });
  return b;
}

const std::vector<Type> kNumeric = {Type::i32, Type::u32, Type::f32, Type::i64, Type::f64};
const std::vector<Type> kHist = {Type::u8, Type::i32, Type::u32, Type::f32};

// The engine's histogram (engine/inputs.h) in the library's level type.
template <class T>
struct HistLevels {
  using L = histogram_level_t<T>;
  static L lower() { return L(histogram_lower<T>()); }
  static L upper() { return L(histogram_upper<T>()); }
};

Workspace ws_of(const Case& c) { return Workspace{c.d_ws, c.ws_bytes}; }
// [SECTION] reduce_sum
void add_reduce(Table& t) {
  Impl p = device_row("reduce_sum", "primlab", kNumeric);
  p.workspace_bytes = [](const Case& c) {
    return bytes_numeric(c.type, [&](auto x) { return reduce_workspace_bytes<decltype(x)>(c.n); });
  };
  p.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      return reduce(static_cast<const T*>(c.d_in), static_cast<T*>(c.d_scalar), c.n, Sum{}, ws_of(c), c.stream);
    });
  };
  t.push_back(p);

  Impl cub = device_row("reduce_sum", "cub", kNumeric);
  cub.workspace_bytes = [](const Case& c) {
    return bytes_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      std::size_t b = 0;
      cub::DeviceReduce::Sum(nullptr, b, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), c.n);
      return b;
    });
  };
  cub.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceReduce::Sum(c.d_ws, b, static_cast<const T*>(c.d_in),
                                                static_cast<T*>(c.d_scalar), c.n, c.stream));
    });
  };
  t.push_back(cub);

  Impl th = device_row("reduce_sum", "thrust", kNumeric);
  th.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      const T* p = static_cast<const T*>(c.d_in);
      volatile T r = thrust::reduce(thrust::cuda::par_nosync.on(c.stream), p, p + c.n, T(0));
      (void)r;
      return cuda_status(cudaPeekAtLastError());
    });
  };
  t.push_back(th);

}

// [SECTION] scans
void add_scans(Table& t) {
  for (int exclusive = 1; exclusive >= 0; --exclusive) {
    const std::string prim = exclusive ? "scan_exclusive" : "scan_inclusive";
    Impl p = device_row(prim, "primlab", kNumeric);
    p.workspace_bytes = [](const Case& c) {
      return bytes_numeric(c.type, [&](auto x) { return scan_workspace_bytes<decltype(x)>(c.n); });
    };
    p.run = [exclusive](const Case& c) {
      return on_numeric(c.type, [&](auto x) {
        using T = decltype(x);
        const T* in = static_cast<const T*>(c.d_in);
        T* out = static_cast<T*>(c.d_out);
        return exclusive ? exclusive_scan(in, out, c.n, T(0), Sum{}, ws_of(c), c.stream)
                         : inclusive_scan(in, out, c.n, Sum{}, ws_of(c), c.stream);
      });
    };
    t.push_back(p);

    Impl cub = device_row(prim, "cub", kNumeric);
    cub.workspace_bytes = [exclusive](const Case& c) {
      return bytes_numeric(c.type, [&](auto x) {
        using T = decltype(x);
        std::size_t b = 0;
        if (exclusive) cub::DeviceScan::ExclusiveSum(nullptr, b, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), c.n);
        else cub::DeviceScan::InclusiveSum(nullptr, b, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), c.n);
        return b;
      });
    };
    cub.run = [exclusive](const Case& c) {
      return on_numeric(c.type, [&](auto x) {
        using T = decltype(x);
        std::size_t b = c.ws_bytes;
        const T* in = static_cast<const T*>(c.d_in);
        T* out = static_cast<T*>(c.d_out);
        return cuda_status(exclusive ? cub::DeviceScan::ExclusiveSum(c.d_ws, b, in, out, c.n, c.stream)
                                     : cub::DeviceScan::InclusiveSum(c.d_ws, b, in, out, c.n, c.stream));
      });
    };
    t.push_back(cub);

    Impl th = device_row(prim, "thrust", kNumeric);
    th.run = [exclusive](const Case& c) {
      return on_numeric(c.type, [&](auto x) {
        using T = decltype(x);
        const T* in = static_cast<const T*>(c.d_in);
        T* out = static_cast<T*>(c.d_out);
        if (exclusive) thrust::exclusive_scan(thrust::cuda::par_nosync.on(c.stream), in, in + c.n, out);
        else thrust::inclusive_scan(thrust::cuda::par_nosync.on(c.stream), in, in + c.n, out);
        return cuda_status(cudaPeekAtLastError());
      });
    };
    t.push_back(th);

  }
}

// [SECTION] select (keep 50 %: x < the middle of the input range; flags about half set)
template <class T>
struct CubLess {
  T v;
  __host__ __device__ bool operator()(const T& x) const { return x < v; }
};

void add_select(Table& t) {
  Impl p = device_row("select_if", "primlab", kNumeric);
  p.workspace_bytes = [](const Case& c) {
    return bytes_numeric(c.type, [&](auto x) { return select_workspace_bytes<decltype(x)>(c.n); });
  };
  p.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      return select_if(static_cast<const T*>(c.d_in), static_cast<T*>(c.d_out),
                       static_cast<std::int64_t*>(c.d_scalar), c.n, LessThan<T>{half_threshold<T>()},
                       ws_of(c), c.stream);
    });
  };
  t.push_back(p);

  Impl cub = device_row("select_if", "cub", kNumeric);
  cub.workspace_bytes = [](const Case& c) {
    return bytes_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      std::size_t b = 0;
      cub::DeviceSelect::If(nullptr, b, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                            static_cast<std::int64_t*>(nullptr), c.n, CubLess<T>{half_threshold<T>()});
      return b;
    });
  };
  cub.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceSelect::If(c.d_ws, b, static_cast<const T*>(c.d_in), static_cast<T*>(c.d_out),
                                               static_cast<std::int64_t*>(c.d_scalar), c.n,
                                               CubLess<T>{half_threshold<T>()}, c.stream));
    });
  };
  t.push_back(cub);

  Impl th = device_row("select_if", "thrust", kNumeric);
  th.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      const T* in = static_cast<const T*>(c.d_in);
      thrust::copy_if(thrust::cuda::par_nosync.on(c.stream), in, in + c.n, static_cast<T*>(c.d_out),
                      CubLess<T>{half_threshold<T>()});
      return cuda_status(cudaPeekAtLastError());
    });
  };
  t.push_back(th);


  Impl pf = device_row("select_flagged", "primlab", kNumeric);
  pf.workspace_bytes = p.workspace_bytes;
  pf.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      return select_flagged(static_cast<const T*>(c.d_in), c.d_flags, static_cast<T*>(c.d_out),
                            static_cast<std::int64_t*>(c.d_scalar), c.n, ws_of(c), c.stream);
    });
  };
  t.push_back(pf);

  Impl cf = device_row("select_flagged", "cub", kNumeric);
  cf.workspace_bytes = [](const Case& c) {
    return bytes_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      std::size_t b = 0;
      cub::DeviceSelect::Flagged(nullptr, b, static_cast<const T*>(nullptr), static_cast<const std::uint8_t*>(nullptr),
                                 static_cast<T*>(nullptr), static_cast<std::int64_t*>(nullptr), c.n);
      return b;
    });
  };
  cf.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceSelect::Flagged(c.d_ws, b, static_cast<const T*>(c.d_in), c.d_flags,
                                                    static_cast<T*>(c.d_out),
                                                    static_cast<std::int64_t*>(c.d_scalar), c.n, c.stream));
    });
  };
  t.push_back(cf);
}

// [SECTION] histogram_even (256 bins over the full range; floats over [0, 1))
void add_histogram(Table& t) {
  Impl p = device_row("histogram_even", "primlab", kHist);
  p.run = [](const Case& c) {
    return on_hist(c.type, [&](auto x) {
      using T = decltype(x);
      return histogram_even(static_cast<const T*>(c.d_in), static_cast<std::uint32_t*>(c.d_out), kBins,
                            HistLevels<T>::lower(), HistLevels<T>::upper(), c.n, ws_of(c), c.stream);
    });
  };
  t.push_back(p);

  Impl cub = device_row("histogram_even", "cub", kHist);
  cub.workspace_bytes = [](const Case& c) {
    std::size_t b = 0;
    on_hist(c.type, [&](auto x) {
      using T = decltype(x);
      cub::DeviceHistogram::HistogramEven(nullptr, b, static_cast<const T*>(nullptr),
                                          static_cast<std::uint32_t*>(nullptr), kBins + 1,
                                          HistLevels<T>::lower(), HistLevels<T>::upper(), c.n);
      return Status::Success;
    });
    return b;
  };
  cub.run = [](const Case& c) {
    return on_hist(c.type, [&](auto x) {
      using T = decltype(x);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceHistogram::HistogramEven(
          c.d_ws, b, static_cast<const T*>(c.d_in), static_cast<std::uint32_t*>(c.d_out), kBins + 1,
          HistLevels<T>::lower(), HistLevels<T>::upper(), c.n, c.stream));
    });
  };
  t.push_back(cub);

}

}  // namespace

void PRIMLAB_ROWS_FN(add_reduce_scan_rows)(Table& table) {
  Table rows;
  add_reduce(rows);
  add_scans(rows);
  add_select(rows);
  add_histogram(rows);
  keep_rows(rows, table);
}

#ifdef PRIMLAB_ROWS_NEWER_CCCL
std::string newer_cub_version() {
  return std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
         std::to_string(CUB_SUBMINOR_VERSION);
}
#endif

}  // namespace primlab::bench
