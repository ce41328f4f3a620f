// Part-1 rows of the benchmark table: reduce, scan, select, histogram; primlab's fast path,
// the teaching variants, CUB, Thrust and a single-thread CPU baseline, on the same inputs.
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
#include <numeric>

#include "engine/bench.h"
#include "primlab/histogram.h"
#include "primlab/reduce.h"
#include "primlab/scan.h"
#include "primlab/select.h"
#include "lab/timed.h"

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
Status on_teaching(Type t, F&& f) {
  switch (t) {
    case Type::i32: return f(std::int32_t{});
    case Type::u32: return f(std::uint32_t{});
    case Type::f32: return f(float{});
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

Status cuda_status(cudaError_t e) {
  if (e == cudaSuccess) return Status::Success;
  cudaGetLastError();
  return e == cudaErrorMemoryAllocation ? Status::OutOfMemory : Status::CudaError;
}

const std::vector<Type> kNumeric = {Type::i32, Type::u32, Type::f32, Type::i64, Type::f64};
const std::vector<Type> kTeaching = {Type::i32, Type::u32, Type::f32};
const std::vector<Type> kHist = {Type::u8, Type::i32, Type::u32, Type::f32};

// The "keep 50 %" threshold of the seeded inputs (uniform integers; floats in [0, 1)).
template <class T>
T half_threshold() {
  if constexpr (std::is_floating_point_v<T>) return T(0.5);
  else if constexpr (std::is_signed_v<T>) return T(0);
  else return T(std::numeric_limits<T>::max() / 2 + 1);
}

// The benchmark's histogram: 256 even bins over the samples' full range ([0, 1) for floats).
template <class T>
struct HistLevels {
  using L = histogram_level_t<T>;
  static L lower() {
    if constexpr (std::is_floating_point_v<T>) return L(0);
    else return L(std::numeric_limits<T>::min());
  }
  static L upper() {
    if constexpr (std::is_floating_point_v<T>) return L(1);
    else return L(std::numeric_limits<T>::max()) + 1;
  }
};
constexpr int kBins = 256;

template <class T>
int cpu_bin(T x) {
  if constexpr (std::is_same_v<T, std::uint8_t>) return x;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return int(x >> 24);
  else if constexpr (std::is_same_v<T, std::int32_t>) return int((std::uint32_t(x) ^ 0x80000000u) >> 24);
  else {
    if (!(x >= T(0) && x < T(1))) return -1;
    const int b = int(x * T(kBins));
    return b < kBins - 1 ? b : kBins - 1;
  }
}

Workspace ws_of(const Case& c) { return Workspace{c.d_ws, c.ws_bytes}; }
int block_or(const Case& c, int d) { return c.block > 0 ? c.block : d; }
int items_or(const Case& c, int d) { return c.items > 0 ? c.items : d; }

Impl make(const std::string& prim, const std::string& impl, std::vector<Type> types,
          std::function<double(Type)> bytes) {
  Impl im;
  im.primitive = prim;
  im.impl = impl;
  im.types = std::move(types);
  im.min_bytes_per_elem = std::move(bytes);
  im.workspace_bytes = [](const Case&) { return std::size_t(0); };
  return im;
}

double read1(Type t) { return double(type_size(t)); }
double read_write(Type t) { return 2.0 * double(type_size(t)); }
double select_half(Type t) { return 1.5 * double(type_size(t)); }
double select_flags_half(Type t) { return 1.5 * double(type_size(t)) + 1.0; }

// [SECTION] reduce_sum
void add_reduce(BenchTable& t) {
  Impl p = make("reduce_sum", "primlab", kNumeric, read1);
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

  Impl cub = make("reduce_sum", "cub", kNumeric, read1);
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

  Impl th = make("reduce_sum", "thrust", kNumeric, read1);
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

  Impl cpu = make("reduce_sum", "cpu", kNumeric, read1);
  cpu.on_host = true;
  cpu.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      const T* p = static_cast<const T*>(c.h_in);
      *static_cast<T*>(c.h_out) = std::accumulate(p, p + c.n, T(0));
      return Status::Success;
    });
  };
  t.push_back(cpu);

  const char* names[] = {"reduce1", "reduce2", "reduce3", "reduce4", "reduce5", "reduce-shuffle"};
  for (int v = 1; v <= teaching::kReduceLectureVariants; ++v) {
    Impl r = make("reduce_sum", names[v - 1], kTeaching, read1);
    r.takes_block = true;
    r.takes_items = v == 6;
    r.workspace_bytes = [](const Case& c) {
      std::size_t b = 0;
      on_teaching(c.type, [&](auto x) {
        b = teaching::reduce_lecture_workspace_bytes<decltype(x)>(c.n, 64);
        return Status::Success;
      });
      return b;
    };
    r.run = [v](const Case& c) {
      return on_teaching(c.type, [&](auto x) {
        using T = decltype(x);
        return teaching::reduce_lecture(v, static_cast<const T*>(c.d_in), static_cast<T*>(c.d_scalar),
                                        c.n, block_or(c, 256), items_or(c, 8), ws_of(c), c.stream);
      });
    };
    t.push_back(r);
  }
}

// [SECTION] scans
void add_scans(BenchTable& t) {
  for (int exclusive = 1; exclusive >= 0; --exclusive) {
    const std::string prim = exclusive ? "scan_exclusive" : "scan_inclusive";
    Impl p = make(prim, "primlab", kNumeric, read_write);
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

    Impl cub = make(prim, "cub", kNumeric, read_write);
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

    Impl th = make(prim, "thrust", kNumeric, read_write);
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

    Impl cpu = make(prim, "cpu", kNumeric, read_write);
    cpu.on_host = true;
    cpu.run = [exclusive](const Case& c) {
      return on_numeric(c.type, [&](auto x) {
        using T = decltype(x);
        const T* in = static_cast<const T*>(c.h_in);
        T* out = static_cast<T*>(c.h_out);
        T acc = T(0);
        for (std::int64_t i = 0; i < c.n; ++i) {
          if (exclusive) { out[i] = acc; acc += in[i]; }
          else { acc += in[i]; out[i] = acc; }
        }
        return Status::Success;
      });
    };
    t.push_back(cpu);
  }

  // Teaching scans (exclusive).
  struct V {
    const char* name;
    int which;
  };
  for (V v : {V{"naive", 0}, V{"blelloch", 1}, V{"shared", 2}}) {
    Impl s = make("scan_exclusive", v.name, kTeaching, read_write);
    s.takes_block = true;
    const int which = v.which;
    s.workspace_bytes = [which](const Case& c) {
      std::size_t b = 0;
      on_teaching(c.type, [&](auto x) {
        using T = decltype(x);
        b = which == 0 ? teaching::scan_naive_workspace_bytes<T>(c.n)
            : which == 1 ? teaching::scan_blelloch_workspace_bytes<T>(c.n)
                         : teaching::scan_shared_workspace_bytes<T>(c.n, 32);
        return Status::Success;
      });
      return b;
    };
    s.run = [which](const Case& c) {
      return on_teaching(c.type, [&](auto x) {
        using T = decltype(x);
        const T* in = static_cast<const T*>(c.d_in);
        T* out = static_cast<T*>(c.d_out);
        const int b = block_or(c, 256);
        if (which == 0) return teaching::scan_naive(in, out, c.n, b, ws_of(c), c.stream);
        if (which == 1) return teaching::scan_blelloch(in, out, c.n, b, ws_of(c), c.stream);
        return teaching::scan_shared(in, out, c.n, b, ws_of(c), c.stream);
      });
    };
    t.push_back(s);
  }
}

// [SECTION] select (keep 50 %: x < the middle of the input range; flags about half set)
template <class T>
struct CubLess {
  T v;
  __host__ __device__ bool operator()(const T& x) const { return x < v; }
};

void add_select(BenchTable& t) {
  Impl p = make("select_if", "primlab", kNumeric, select_half);
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

  Impl cub = make("select_if", "cub", kNumeric, select_half);
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

  Impl th = make("select_if", "thrust", kNumeric, select_half);
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

  Impl cpu = make("select_if", "cpu", kNumeric, select_half);
  cpu.on_host = true;
  cpu.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      const T* in = static_cast<const T*>(c.h_in);
      T* out = static_cast<T*>(c.h_out);
      const T v = half_threshold<T>();
      std::int64_t k = 0;
      for (std::int64_t i = 0; i < c.n; ++i)
        if (in[i] < v) out[k++] = in[i];
      return k >= 0 ? Status::Success : Status::CudaError;
    });
  };
  t.push_back(cpu);

  Impl pf = make("select_flagged", "primlab", kNumeric, select_flags_half);
  pf.workspace_bytes = p.workspace_bytes;
  pf.run = [](const Case& c) {
    return on_numeric(c.type, [&](auto x) {
      using T = decltype(x);
      return select_flagged(static_cast<const T*>(c.d_in), c.d_flags, static_cast<T*>(c.d_out),
                            static_cast<std::int64_t*>(c.d_scalar), c.n, ws_of(c), c.stream);
    });
  };
  t.push_back(pf);

  Impl cf = make("select_flagged", "cub", kNumeric, select_flags_half);
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
void add_histogram(BenchTable& t) {
  Impl p = make("histogram_even", "primlab", kHist, read1);
  p.run = [](const Case& c) {
    return on_hist(c.type, [&](auto x) {
      using T = decltype(x);
      return histogram_even(static_cast<const T*>(c.d_in), static_cast<std::uint32_t*>(c.d_out), kBins,
                            HistLevels<T>::lower(), HistLevels<T>::upper(), c.n, ws_of(c), c.stream);
    });
  };
  t.push_back(p);

  Impl cub = make("histogram_even", "cub", kHist, read1);
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

  Impl cpu = make("histogram_even", "cpu", kHist, read1);
  cpu.on_host = true;
  cpu.run = [](const Case& c) {
    return on_hist(c.type, [&](auto x) {
      using T = decltype(x);
      const T* in = static_cast<const T*>(c.h_in);
      std::uint32_t* h = static_cast<std::uint32_t*>(c.h_out);
      std::fill(h, h + kBins, 0u);
      for (std::int64_t i = 0; i < c.n; ++i) {
        const int b = cpu_bin(in[i]);
        if (b >= 0) ++h[b];
      }
      return Status::Success;
    });
  };
  t.push_back(cpu);

  for (int shared = 0; shared < 2; ++shared) {
    Impl a = make("histogram_even", shared ? "shared-atomic" : "global-atomic", {Type::u8, Type::u32}, read1);
    a.takes_block = true;
    a.run = [shared](const Case& c) {
      auto go = [&](auto x) {
        using T = decltype(x);
        auto fn = shared ? teaching::histogram_shared_atomic<T> : teaching::histogram_global_atomic<T>;
        return fn(static_cast<const T*>(c.d_in), static_cast<std::uint32_t*>(c.d_out), kBins,
                  HistLevels<T>::lower(), HistLevels<T>::upper(), c.n, block_or(c, 256), c.stream);
      };
      if (c.type == Type::u8) return go(std::uint8_t{});
      return go(std::uint32_t{});
    };
    t.push_back(a);
  }
}

}  // namespace

void register_reduce_scan_benchmarks(BenchTable& table) {
  add_reduce(table);
  add_scans(table);
  add_select(table);
  add_histogram(table);
}

}  // namespace primlab::bench
