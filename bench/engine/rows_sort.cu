// Device rows of the sorts and the partition: primlab's radix sort, radix partition and bitonic
// sorts beside CUB and Thrust (the CPU rows are engine/cpu_rows.cpp; the lab's, engine/lab_rows.cpp):
//   sort_keys, sort_pairs (values of the key type)           primlab radix | cub | thrust
//   sort_keys_{allequal,fewdistinct,sorted,zipf} (u32)       skewed inputs derived from the uniform ones
//   radix_partition_keys, radix_partition_pairs (bits [0,8)) primlab partition | cub SortKeys/SortPairs [0,8)
//   bitonic_sort_keys                                        primlab bitonic | cub merge sort
//   segmented_sort_1024 (segments of 1024)                   primlab bitonic segments | cub DeviceSegmentedSort
// Built twice when PRIMLAB_CCCL_INCLUDE names a newer CCCL (bench/CMakeLists.txt): once against the
// toolkit's CUB and Thrust, once against the newer ones, wrapped in their own namespaces so that
// both live in one binary (engine/newer_cccl.h).
#include "engine/newer_cccl.h"
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sort.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/device_rows.h"
#include "primlab/bitonic_sort.h"
#include "primlab/device_buffer.h"
#include "primlab/radix_partition.h"
#include "primlab/radix_sort.h"

namespace primlab::bench {
namespace {

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

void add_sort_keys(Table& t) {
  Impl p = device_row("sort_keys", "primlab", kAllKeys);
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

  Impl cb = device_row("sort_keys", "cub", kAllKeys);
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
  Impl th = device_row("sort_keys", "thrust", {Type::u32, Type::f32, Type::u64});
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

}

void add_sort_pairs(Table& t) {
  const std::vector<Type> types = {Type::u32, Type::f32, Type::u64};
  Impl p = device_row("sort_pairs", "primlab", types);
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

  Impl cb = device_row("sort_pairs", "cub", types);
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

  Impl th = device_row("sort_pairs", "thrust", {Type::u32});
  th.run = [](const Case& c) {
    auto* k = static_cast<std::uint32_t*>(c.d_out);
    auto* v = static_cast<std::uint32_t*>(c.d_out2);
    cudaMemcpyAsync(k, c.d_in, std::size_t(c.n) * 4, cudaMemcpyDeviceToDevice, c.stream);
    cudaMemcpyAsync(v, c.d_in2, std::size_t(c.n) * 4, cudaMemcpyDeviceToDevice, c.stream);
    thrust::sort_by_key(thrust::cuda::par.on(c.stream), k, k + c.n, v);
    return cuda_status(cudaPeekAtLastError());
  };
  t.push_back(th);
}

void add_skewed(Table& t) {
  const std::pair<const char*, Skew> skews[] = {{"sort_keys_allequal", Skew::AllEqual},
                                                {"sort_keys_fewdistinct", Skew::FewDistinct},
                                                {"sort_keys_sorted", Skew::Sorted},
                                                {"sort_keys_zipf", Skew::Zipf}};
  for (const auto& [name, skew] : skews) {
    const Skew s = skew;
    Impl p = device_row(name, "primlab", {Type::u32});
    p.workspace_bytes = [](const Case& c) { return radix_sort_keys_workspace_bytes<std::uint32_t>(c.n); };
    p.run = [s](const Case& c) {
      return radix_sort_keys<std::uint32_t>(skewed(c, s), static_cast<std::uint32_t*>(c.d_out), c.n, SortOrder::Ascending, 0,
                                            32, {c.d_ws, c.ws_bytes}, c.stream);
    };
    t.push_back(p);
    Impl cb = device_row(name, "cub", {Type::u32});
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

void add_partition(Table& t) {
  const std::vector<Type> types = {Type::u32, Type::u64};
  Impl pk = device_row("radix_partition_keys", "primlab", types);
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
  Impl ck = device_row("radix_partition_keys", "cub", types);
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

  Impl pp = device_row("radix_partition_pairs", "primlab", types);
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
  Impl cp = device_row("radix_partition_pairs", "cub", types);
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

void add_bitonic(Table& t) {
  const std::vector<Type> types = {Type::u32, Type::f32, Type::u64};
  Impl p = device_row("bitonic_sort_keys", "primlab", types);
  p.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      return bitonic_sort_keys<K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out), c.n, SortOrder::Ascending, {},
                                  c.stream);
    });
  };
  t.push_back(p);
  Impl cb = device_row("bitonic_sort_keys", "cub", types);  // DeviceMergeSort::SortKeysCopy
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

  // 1024-element segments (n / 1024 of them; a tail shorter than a segment is left out).
  Impl sp = device_row("segmented_sort_1024", "primlab", {Type::u32, Type::u64});
  sp.run = [](const Case& c) {
    return by_type(c.type, [&](auto k) {
      using K = decltype(k);
      return bitonic_sort_segments_keys<K>(static_cast<const K*>(c.d_in), static_cast<K*>(c.d_out), c.n / 1024, 1024,
                                           SortOrder::Ascending, {}, c.stream);
    });
  };
  t.push_back(sp);
  Impl sc = device_row("segmented_sort_1024", "cub", {Type::u32, Type::u64});
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

void PRIMLAB_ROWS_FN(add_sort_rows)(Table& table) {
  Table rows;
  add_sort_keys(rows);
  add_sort_pairs(rows);
  add_skewed(rows);
  add_partition(rows);
  add_bitonic(rows);
  keep_rows(rows, table);
}

}  // namespace primlab::bench
