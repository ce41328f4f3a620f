// Sort and partition benchmarks: primlab's radix sort, radix partition
// and bitonic sorts beside CUB, Thrust, the CPU and the teaching variants. Rows:
//   sort_keys, sort_pairs (values of the key type)           primlab radix | cub | thrust | cpu | teaching
//   sort_keys_{allequal,fewdistinct,sorted,zipf} (u32)       skewed inputs derived from the uniform ones
//   radix_partition_keys, radix_partition_pairs (bits [0,8)) primlab partition | cub SortKeys/SortPairs [0,8)
//   bitonic_sort_keys                                        primlab bitonic | cub merge sort | teaching
//   segmented_sort_1024 (segments of 1024)                   primlab bitonic segments | cub DeviceSegmentedSort
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/bench.h"
#include "primlab/bitonic_sort.h"
#include "primlab/device_buffer.h"
#include "primlab/radix_partition.h"
#include "primlab/radix_sort.h"
#include "lab/timed_sort.h"

namespace primlab::bench {
namespace {

Status cuda_status(cudaError_t e) {
  if (e == cudaSuccess) return Status::Success;
  cudaGetLastError();
  return e == cudaErrorMemoryAllocation ? Status::OutOfMemory : Status::CudaError;
}

template <class F>
auto by_type(Type t, F&& f) {
  switch (t) {
    case Type::i32: return f(std::int32_t{});
    case Type::f32: return f(float{});
    case Type::u64: return f(std::uint64_t{});
    case Type::i64: return f(std::int64_t{});
    case Type::f64: return f(double{});
    default: return f(std::uint32_t{});
  }
}

const std::vector<Type> kAllKeys = {Type::u32, Type::i32, Type::f32, Type::u64, Type::i64, Type::f64};
constexpr std::size_t kOffsetsBytes = 4097 * 4 + 252;  // partition offsets, kept 256-aligned

int block_or(const Case& c, int d) { return c.block > 0 ? c.block : d; }
// One Onesweep sort moves 1 histogram read + (read + write) per 8-bit pass of the key, plus
// (read + write) of the value per pass.
double radix_bytes(Type t, bool pairs) {
  const double e = double(type_size(t));
  return e + 2.0 * e * e + (pairs ? 2.0 * e * e : 0.0);
}

// [SECTION] skewed inputs: derived once per input buffer from the harness's uniform keys
// (outside the timed runs: the first warm-up run builds them).

enum class Skew { AllEqual, FewDistinct, Sorted, Zipf };

__global__ void derive_kernel(const std::uint32_t* in, std::uint32_t* out, std::int64_t n, int skew) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint32_t x = in[i];
    std::uint32_t y = x;
    if (skew == int(Skew::AllEqual)) y = 0x5A5A1234u;
    if (skew == int(Skew::FewDistinct)) y = (x & 15u) * 0x9E3779B9u;  // 16 distinct keys
    if (skew == int(Skew::Zipf)) {
      // rank r = floor(2^(20 u)), P(r) ~ 1/r over about 10^6 ranks; scrambled so every digit varies.
      const float u = float(x >> 8) * (1.0f / 16777216.0f);
      const std::uint32_t r = std::uint32_t(exp2f(20.0f * u));
      y = r * 0x9E3779B1u;
    }
    out[i] = y;
  }
}

const std::uint32_t* skewed(const Case& c, Skew skew) {
  using Key = std::tuple<const void*, std::int64_t, int>;
  static std::map<Key, std::unique_ptr<DeviceBuffer<std::uint32_t>>> cache;
  static std::int64_t cached_n = -1;
  if (c.n != cached_n) {
    cache.clear();
    cached_n = c.n;
  }
  auto& slot = cache[Key{c.d_in, c.n, int(skew)}];
  if (!slot) {
    slot = std::make_unique<DeviceBuffer<std::uint32_t>>(std::size_t(std::max<std::int64_t>(c.n, 1)));
    const auto* in = static_cast<const std::uint32_t*>(c.d_in);
    derive_kernel<<<1024, 256, 0, c.stream>>>(in, slot->get(), c.n, skew == Skew::Sorted ? -1 : int(skew));
    if (skew == Skew::Sorted) {
      std::size_t bytes = 0;
      cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, slot->get(), int(c.n), 0, 32, c.stream);
      DeviceBuffer<unsigned char> tmp(std::max<std::size_t>(bytes, 1));
      cub::DeviceRadixSort::SortKeys(tmp.get(), bytes, in, slot->get(), int(c.n), 0, 32, c.stream);
    }
    cudaStreamSynchronize(c.stream);
  }
  return slot->get();
}

// [SECTION] rows

Impl make(const std::string& prim, const std::string& impl, std::vector<Type> types, double (*bytes)(Type)) {
  Impl im;
  im.primitive = prim;
  im.impl = impl;
  im.types = std::move(types);
  im.min_bytes_per_elem = bytes;
  return im;
}

double bytes_keys(Type t) { return radix_bytes(t, false); }
double bytes_pairs(Type t) { return radix_bytes(t, true); }
double bytes_partition_keys(Type t) { return 3.0 * double(type_size(t)); }
double bytes_partition_pairs(Type t) { return 5.0 * double(type_size(t)); }
double bytes_copy(Type t) { return 2.0 * double(type_size(t)); }

void add_sort_keys(BenchTable& t) {
  Impl p = make("sort_keys", "primlab", kAllKeys, bytes_keys);
  p.workspace_bytes = [](const Case& c) {
    return by_type(c.type, [&](auto k) { return radix_sort_keys_workspace_bytes<decltype(k)>(c.n); });
  };
  p.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      return radix_sort_keys<K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out), c.n, SortOrder::Ascending, 0,
                                int(sizeof(K) * 8), {c.d_ws, c.ws_bytes}, c.stream);
    });
  };
  t.push_back(p);

  Impl cb = make("sort_keys", "cub", kAllKeys, bytes_keys);
  cb.workspace_bytes = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = 0;
      cub::DeviceRadixSort::SortKeys(nullptr, b, static_cast<const K*>(nullptr), static_cast<K*>(nullptr), c.n);
      return b;
    });
  };
  cb.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceRadixSort::SortKeys(c.d_ws, b, static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out),
                                                        c.n, 0, int(sizeof(K) * 8), c.stream));
    });
  };
  t.push_back(cb);

  // Thrust allocates its temporaries per call; the copy of the input into the output is timed.
  Impl th = make("sort_keys", "thrust", {Type::u32, Type::f32, Type::u64}, bytes_keys);
  th.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      K* out = static_cast<K*>(c.d_out);
      cudaMemcpyAsync(out, c.d_in, std::size_t(c.n) * sizeof(K), cudaMemcpyDeviceToDevice, c.stream);
      thrust::sort(thrust::cuda::par.on(c.stream), out, out + c.n);
      return cuda_status(cudaPeekAtLastError());
    });
  };
  t.push_back(th);

  Impl cpu = make("sort_keys", "cpu", kAllKeys, bytes_keys);
  cpu.on_host = true;
  cpu.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      K* out = static_cast<K*>(c.h_out);
      std::memcpy(out, c.h_in, std::size_t(c.n) * sizeof(K));
      std::sort(out, out + c.n);
      return Status::Success;
    });
  };
  t.push_back(cpu);

  Impl split = make("sort_keys", "teaching_split_radix", {Type::u32}, bytes_keys);
  split.takes_block = true;
  split.workspace_bytes = [](const Case& c) { return teaching::split_radix_sort_workspace_bytes(c.n, block_or(c, 256)); };
  split.run = [](const Case& c) {
    return teaching::split_radix_sort(static_cast<const std::uint32_t*>(c.d_in), static_cast<std::uint32_t*>(c.d_out), c.n,
                                      block_or(c, 256), {c.d_ws, c.ws_bytes}, c.stream);
  };
  t.push_back(split);
}

void add_sort_pairs(BenchTable& t) {
  const std::vector<Type> types = {Type::u32, Type::f32, Type::u64};
  Impl p = make("sort_pairs", "primlab", types, bytes_pairs);
  p.workspace_bytes = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      return radix_sort_pairs_workspace_bytes<K, K>(c.n);
    });
  };
  p.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      return radix_sort_pairs<K, K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out), static_cast<const K*>(c.d_in2),
                                    static_cast<K*>(c.d_out2), c.n, SortOrder::Ascending, 0, int(sizeof(K) * 8),
                                    {c.d_ws, c.ws_bytes}, c.stream);
    });
  };
  t.push_back(p);

  Impl cb = make("sort_pairs", "cub", types, bytes_pairs);
  cb.workspace_bytes = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = 0;
      cub::DeviceRadixSort::SortPairs(nullptr, b, static_cast<const K*>(nullptr), static_cast<K*>(nullptr),
                                      static_cast<const K*>(nullptr), static_cast<K*>(nullptr), c.n);
      return b;
    });
  };
  cb.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceRadixSort::SortPairs(c.d_ws, b, static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out),
                                                         static_cast<const K*>(c.d_in2), static_cast<K*>(c.d_out2), c.n, 0,
                                                         int(sizeof(K) * 8), c.stream));
    });
  };
  t.push_back(cb);

  Impl th = make("sort_pairs", "thrust", {Type::u32}, bytes_pairs);
  th.run = [](const Case& c) {
    auto* k = static_cast<std::uint32_t*>(c.d_out);
    auto* v = static_cast<std::uint32_t*>(c.d_out2);
    cudaMemcpyAsync(k, c.d_in, std::size_t(c.n) * 4, cudaMemcpyDeviceToDevice, c.stream);
    cudaMemcpyAsync(v, c.d_in2, std::size_t(c.n) * 4, cudaMemcpyDeviceToDevice, c.stream);
    thrust::sort_by_key(thrust::cuda::par.on(c.stream), k, k + c.n, v);
    return cuda_status(cudaPeekAtLastError());
  };
  t.push_back(th);

  // The CPU baseline sorts (key, index) pairs with std::stable_sort (values are the index).
  Impl cpu = make("sort_pairs", "cpu", types, bytes_pairs);
  cpu.on_host = true;
  cpu.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      const K* in = static_cast<const K*>(c.h_in);
      std::vector<std::pair<K, std::uint32_t>> v(static_cast<std::size_t>(c.n));
      for (std::int64_t i = 0; i < c.n; ++i) v[i] = {in[i], std::uint32_t(i)};
      std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      K* out = static_cast<K*>(c.h_out);
      for (std::int64_t i = 0; i < c.n; ++i) out[i] = v[i].first;
      return Status::Success;
    });
  };
  t.push_back(cpu);
}

void add_skewed(BenchTable& t) {
  const std::pair<const char*, Skew> skews[] = {{"sort_keys_allequal", Skew::AllEqual},
                                                {"sort_keys_fewdistinct", Skew::FewDistinct},
                                                {"sort_keys_sorted", Skew::Sorted},
                                                {"sort_keys_zipf", Skew::Zipf}};
  for (const auto& [name, skew] : skews) {
    const Skew s = skew;
    Impl p = make(name, "primlab", {Type::u32}, bytes_keys);
    p.workspace_bytes = [](const Case& c) { return radix_sort_keys_workspace_bytes<std::uint32_t>(c.n); };
    p.run = [s](const Case& c) {
      return radix_sort_keys<std::uint32_t>(skewed(c, s), static_cast<std::uint32_t*>(c.d_out), c.n, SortOrder::Ascending, 0,
                                            32, {c.d_ws, c.ws_bytes}, c.stream);
    };
    t.push_back(p);
    Impl cb = make(name, "cub", {Type::u32}, bytes_keys);
    cb.workspace_bytes = [](const Case& c) {
      std::size_t b = 0;
      cub::DeviceRadixSort::SortKeys(nullptr, b, static_cast<const std::uint32_t*>(nullptr),
                                     static_cast<std::uint32_t*>(nullptr), c.n);
      return b;
    };
    cb.run = [s](const Case& c) {
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceRadixSort::SortKeys(c.d_ws, b, skewed(c, s), static_cast<std::uint32_t*>(c.d_out), c.n, 0,
                                                        32, c.stream));
    };
    t.push_back(cb);
  }
}

void add_partition(BenchTable& t) {
  const std::vector<Type> types = {Type::u32, Type::u64};
  Impl pk = make("radix_partition_keys", "primlab", types, bytes_partition_keys);
  pk.workspace_bytes = [](const Case& c) {
    return kOffsetsBytes + by_type(c.type, [&](auto k) { return radix_partition_keys_workspace_bytes<decltype(k)>(c.n, 8); });
  };
  pk.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      auto* offsets = static_cast<std::uint32_t*>(c.d_ws);
      return radix_partition_keys<K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out), offsets, c.n, 0, 8,
                                     {static_cast<unsigned char*>(c.d_ws) + kOffsetsBytes, c.ws_bytes - kOffsetsBytes},
                                     c.stream);
    });
  };
  t.push_back(pk);
  Impl ck = make("radix_partition_keys", "cub", types, bytes_partition_keys);
  ck.workspace_bytes = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = 0;
      cub::DeviceRadixSort::SortKeys(nullptr, b, static_cast<const K*>(nullptr), static_cast<K*>(nullptr), c.n, 0, 8);
      return b;
    });
  };
  ck.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceRadixSort::SortKeys(c.d_ws, b, static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out),
                                                        c.n, 0, 8, c.stream));
    });
  };
  t.push_back(ck);

  Impl pp = make("radix_partition_pairs", "primlab", types, bytes_partition_pairs);
  pp.workspace_bytes = [](const Case& c) {
    return kOffsetsBytes + by_type(c.type, [&](auto k) {
             using K = decltype(k);
             return radix_partition_pairs_workspace_bytes<K, K>(c.n, 8);
           });
  };
  pp.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      auto* offsets = static_cast<std::uint32_t*>(c.d_ws);
      return radix_partition_pairs<K, K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out),
                                         static_cast<const K*>(c.d_in2), static_cast<K*>(c.d_out2), offsets, c.n, 0, 8,
                                         {static_cast<unsigned char*>(c.d_ws) + kOffsetsBytes, c.ws_bytes - kOffsetsBytes},
                                         c.stream);
    });
  };
  t.push_back(pp);
  Impl cp = make("radix_partition_pairs", "cub", types, bytes_partition_pairs);
  cp.workspace_bytes = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = 0;
      cub::DeviceRadixSort::SortPairs(nullptr, b, static_cast<const K*>(nullptr), static_cast<K*>(nullptr),
                                      static_cast<const K*>(nullptr), static_cast<K*>(nullptr), c.n, 0, 8);
      return b;
    });
  };
  cp.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceRadixSort::SortPairs(c.d_ws, b, static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out),
                                                         static_cast<const K*>(c.d_in2), static_cast<K*>(c.d_out2), c.n, 0, 8,
                                                         c.stream));
    });
  };
  t.push_back(cp);
}

struct Less {
  template <class T> __host__ __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};
struct TimesSegment {
  int len;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i * len; }
};

void add_bitonic(BenchTable& t) {
  const std::vector<Type> types = {Type::u32, Type::f32, Type::u64};
  Impl p = make("bitonic_sort_keys", "primlab", types, bytes_copy);
  p.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      return bitonic_sort_keys<K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out), c.n, SortOrder::Ascending, {},
                                  c.stream);
    });
  };
  t.push_back(p);
  Impl cb = make("bitonic_sort_keys", "cub", types, bytes_copy);  // DeviceMergeSort::SortKeysCopy
  cb.workspace_bytes = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = 0;
      cub::DeviceMergeSort::SortKeysCopy(nullptr, b, static_cast<const K*>(nullptr), static_cast<K*>(nullptr), c.n, Less{});
      return b;
    });
  };
  cb.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = c.ws_bytes;
      return cuda_status(cub::DeviceMergeSort::SortKeysCopy(c.d_ws, b, static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out),
                                                            c.n, Less{}, c.stream));
    });
  };
  t.push_back(cb);
  Impl tb = make("bitonic_sort_keys", "teaching_bitonic_global", {Type::u32}, bytes_copy);
  tb.takes_block = true;
  tb.workspace_bytes = [](const Case& c) { return teaching::bitonic_global_sort_workspace_bytes(c.n, block_or(c, 256)); };
  tb.run = [](const Case& c) {
    return teaching::bitonic_global_sort(static_cast<const std::uint32_t*>(c.d_in), static_cast<std::uint32_t*>(c.d_out), c.n,
                                         block_or(c, 256), {c.d_ws, c.ws_bytes}, c.stream);
  };
  t.push_back(tb);

  // 1024-element segments (n / 1024 of them; a tail shorter than a segment is left out).
  Impl sp = make("segmented_sort_1024", "primlab", {Type::u32, Type::u64}, bytes_copy);
  sp.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      return bitonic_sort_segments_keys<K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out), c.n / 1024, 1024,
                                           SortOrder::Ascending, {}, c.stream);
    });
  };
  t.push_back(sp);
  Impl sc = make("segmented_sort_1024", "cub", {Type::u32, Type::u64}, bytes_copy);
  auto begin_it = [] { return thrust::make_transform_iterator(thrust::make_counting_iterator<std::int64_t>(0), TimesSegment{1024}); };
  auto end_it = [] { return thrust::make_transform_iterator(thrust::make_counting_iterator<std::int64_t>(1), TimesSegment{1024}); };
  sc.workspace_bytes = [=](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = 0;
      const std::int64_t segs = c.n / 1024;
      cub::DeviceSegmentedSort::SortKeys(nullptr, b, static_cast<const K*>(nullptr), static_cast<K*>(nullptr), segs * 1024,
                                         segs, begin_it(), end_it());
      return b;
    });
  };
  sc.run = [=](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      std::size_t b = c.ws_bytes;
      const std::int64_t segs = c.n / 1024;
      return cuda_status(cub::DeviceSegmentedSort::SortKeys(c.d_ws, b, static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out),
                                                            segs * 1024, segs, begin_it(), end_it(), c.stream));
    });
  };
  t.push_back(sc);
}

}  // namespace

void register_sort_benchmarks(BenchTable& table) {
  add_sort_keys(table);
  add_sort_pairs(table);
  add_skewed(table);
  add_partition(table);
  add_bitonic(table);
}

}  // namespace primlab::bench
