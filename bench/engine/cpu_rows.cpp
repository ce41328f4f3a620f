// CPU rows: the standard algorithms on one thread, and chunked std::thread versions.
#include "engine/cpu_rows.h"

#include <algorithm>
#include <numeric>
#include <thread>
#include <type_traits>
#include <utility>

#include "engine/inputs.h"
#include "engine/parallel.h"

namespace primlab::bench {
namespace {

constexpr std::int64_t kChunk = std::int64_t(1) << 18;  // elements between cancel polls

bool stop(const std::atomic<bool>& c) { return c.load(std::memory_order_relaxed); }

// a + b with the wrap-around of the GPU's integer adds: random int32/int64 inputs overflow, and
// signed overflow is undefined behaviour in C++.
struct WrapPlus {
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      using U = std::make_unsigned_t<T>;
      return T(U(a) + U(b));
    } else {
      return T(a + b);
    }
  }
};

template <class T>
bool scan(const T* in, T* out, std::int64_t n, bool exclusive, bool par, int threads, const std::atomic<bool>& cancel) {
  auto serial = [&](std::int64_t b, std::int64_t e, T acc) {
    for (std::int64_t c = b; c < e; c += kChunk) {
      if (stop(cancel)) return acc;
      const std::int64_t ce = std::min(e, c + kChunk);
      if (exclusive) {
        std::exclusive_scan(in + c, in + ce, out + c, acc, WrapPlus());
      } else {
        std::inclusive_scan(in + c, in + ce, out + c, WrapPlus(), acc);
      }
      acc = exclusive ? (ce > c ? WrapPlus()(out[ce - 1], in[ce - 1]) : acc) : (ce > c ? out[ce - 1] : acc);
    }
    return acc;
  };
  if (!par) {
    serial(0, n, T(0));
    return !stop(cancel);
  }
  // Two passes: chunk sums, their scan, then each chunk scanned from its offset.
  std::vector<T> sums(std::size_t(std::max(threads, 1)) + 1, T(0));
  std::vector<std::int64_t> lo(sums.size()), hi(sums.size());
  parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int t) {
    lo[std::size_t(t)] = b;
    hi[std::size_t(t)] = e;
    T s = T(0);
    for (std::int64_t c = b; c < e && !stop(cancel); c += kChunk)
      s = std::accumulate(in + c, in + std::min(e, c + kChunk), s, WrapPlus());
    sums[std::size_t(t)] = s;
  });
  std::exclusive_scan(sums.begin(), sums.end(), sums.begin(), T(0), WrapPlus());
  parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int t) { serial(b, e, sums[std::size_t(t)]); });
  return !stop(cancel);
}

template <class T>
bool reduce(const T* in, T* out, std::int64_t n, bool par, int threads, const std::atomic<bool>& cancel) {
  std::vector<T> sums(std::size_t(std::max(threads, 1)), T(0));
  auto body = [&](std::int64_t b, std::int64_t e, int t) {
    T s = T(0);
    for (std::int64_t c = b; c < e && !stop(cancel); c += kChunk)
      s = std::accumulate(in + c, in + std::min(e, c + kChunk), s, WrapPlus());
    sums[std::size_t(t)] = s;
  };
  if (par) parallel_ranges(n, threads, body);
  else body(0, n, 0);
  *out = std::accumulate(sums.begin(), sums.end(), T(0), WrapPlus());
  return !stop(cancel);
}

template <class T>
bool select_half(const T* in, T* out, std::int64_t n, bool par, int threads, const std::atomic<bool>& cancel,
                 std::int64_t* count) {
  const T v = half_threshold<T>();
  auto keep = [v](const T& x) { return x < v; };
  if (!par) {
    T* o = out;
    for (std::int64_t c = 0; c < n && !stop(cancel); c += kChunk) o = std::copy_if(in + c, in + std::min(n, c + kChunk), o, keep);
    if (count) *count = o - out;
    return !stop(cancel);
  }
  std::vector<std::int64_t> counts(std::size_t(std::max(threads, 1)) + 1, 0);
  parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int t) {
    std::int64_t k = 0;
    for (std::int64_t c = b; c < e && !stop(cancel); c += kChunk)
      k += std::count_if(in + c, in + std::min(e, c + kChunk), keep);
    counts[std::size_t(t)] = k;
  });
  std::exclusive_scan(counts.begin(), counts.end(), counts.begin(), std::int64_t(0));
  parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int t) {
    T* o = out + counts[std::size_t(t)];
    for (std::int64_t c = b; c < e && !stop(cancel); c += kChunk) o = std::copy_if(in + c, in + std::min(e, c + kChunk), o, keep);
  });
  if (count) *count = counts.back();
  return !stop(cancel);
}

template <class T>
bool histogram(const T* in, std::uint32_t* bins, std::int64_t n, bool par, int threads, const std::atomic<bool>& cancel) {
  std::vector<std::uint32_t> priv(std::size_t(std::max(threads, 1)) * kBins, 0u);
  auto body = [&](std::int64_t b, std::int64_t e, int t) {
    std::uint32_t* h = priv.data() + std::size_t(t) * kBins;
    for (std::int64_t c = b; c < e && !stop(cancel); c += kChunk)
      for (std::int64_t i = c, ce = std::min(e, c + kChunk); i < ce; ++i) {
        const int k = histogram_bin(in[i]);
        if (k >= 0) ++h[k];
      }
  };
  if (par) parallel_ranges(n, threads, body);
  else body(0, n, 0);
  for (int k = 0; k < kBins; ++k) {
    std::uint32_t s = 0;
    for (std::size_t t = 0; t < priv.size() / kBins; ++t) s += priv[t * kBins + std::size_t(k)];
    bins[k] = s;
  }
  return !stop(cancel);
}

template <class T>
bool sort_keys(const T* in, T* out, std::int64_t n, bool par, int threads, const std::atomic<bool>& cancel) {
  std::copy(in, in + n, out);
  if (!par) {
    // std::sort cannot be interrupted: one run of it is the cancel's granularity.
    std::sort(out, out + n);
    return !stop(cancel);
  }
  // Sorted chunks, one per thread, then pairwise merges level by level (in parallel per level).
  std::vector<std::int64_t> cuts;
  parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int) { std::sort(out + b, out + e); });
  const int t = range_count(n, threads);
  for (int i = 0; i <= t; ++i) cuts.push_back(n * i / t);
  while (cuts.size() > 2 && !stop(cancel)) {
    std::vector<std::int64_t> next;
    std::vector<std::thread> pool;
    for (std::size_t i = 0; i + 2 < cuts.size(); i += 2) {
      const std::int64_t a = cuts[i], m = cuts[i + 1], e = cuts[i + 2];
      pool.emplace_back([=] { std::inplace_merge(out + a, out + m, out + e); });
      next.push_back(a);
    }
    if (cuts.size() % 2 == 0) next.push_back(cuts[cuts.size() - 2]);
    next.push_back(cuts.back());
    for (auto& th : pool) th.join();
    cuts = next;
  }
  return !stop(cancel);
}

// The baseline sorts (key, index) pairs with std::stable_sort (the values are the index).
template <class T>
bool sort_pairs(const T* in, T* out, std::int64_t n) {
  std::vector<std::pair<T, std::uint32_t>> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[std::size_t(i)] = {in[i], std::uint32_t(i)};
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::int64_t i = 0; i < n; ++i) out[i] = v[std::size_t(i)].first;
  return true;
}

const std::vector<Type> kNumeric = {Type::i32, Type::u32, Type::f32, Type::i64, Type::f64};
const std::vector<Type> kHistogram = {Type::u8, Type::i32, Type::u32, Type::f32};
const std::vector<Type> kKeys = {Type::u32, Type::i32, Type::f32, Type::u64, Type::i64, Type::f64};
const std::vector<Type> kPairs = {Type::u32, Type::f32, Type::u64};

// The types of a primitive's CPU row (empty: none).
const std::vector<Type>& cpu_types(const std::string& prim, bool par) {
  static const std::vector<Type> none;
  if (prim == "histogram_even") return kHistogram;
  if (prim == "sort_keys") return kKeys;
  if (prim == "sort_pairs") return par ? none : kPairs;
  if (prim == "reduce_sum" || prim == "scan_exclusive" || prim == "scan_inclusive" || prim == "select_if")
    return kNumeric;
  return none;
}

}  // namespace

bool run_cpu_primitive(const std::string& prim, Type type, bool par, int threads, const void* in, void* out,
                       std::int64_t n, const std::atomic<bool>& cancel, std::int64_t* out_count) {
  const auto& types = cpu_types(prim, par);
  if (std::find(types.begin(), types.end(), type) == types.end()) return false;
  return with_type(type, [&](auto x) {
    using T = decltype(x);
    const T* src = static_cast<const T*>(in);
    if (prim == "histogram_even") return histogram(src, static_cast<std::uint32_t*>(out), n, par, threads, cancel);
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      return false;
    } else {
      T* dst = static_cast<T*>(out);
      if (prim == "scan_exclusive") return scan(src, dst, n, true, par, threads, cancel);
      if (prim == "scan_inclusive") return scan(src, dst, n, false, par, threads, cancel);
      if (prim == "reduce_sum") return reduce(src, dst, n, par, threads, cancel);
      if (prim == "select_if") return select_half(src, dst, n, par, threads, cancel, out_count);
      if (prim == "sort_keys") return sort_keys(src, dst, n, par, threads, cancel);
      if (prim == "sort_pairs") return sort_pairs(src, dst, n);
      return false;
    }
  });
}

void add_cpu_rows(Table& table) {
  static const std::atomic<bool> never{false};
  for (const char* prim : {"reduce_sum", "scan_exclusive", "scan_inclusive", "select_if", "histogram_even", "sort_keys",
                           "sort_pairs"})
    for (bool par : {false, true}) {
      if (cpu_types(prim, par).empty()) continue;
      Impl im;
      im.primitive = prim;
      im.impl = par ? "cpu-par" : "cpu";
      im.note = par ? "CPU, every hardware thread (std::thread, one chunk each)"
                    : "CPU, one thread: the C++ standard algorithm";
      im.types = cpu_types(prim, par);
      im.on_host = true;
      im.run = [prim = std::string(prim), par](const Case& c) {
        const std::atomic<bool>& cancel = c.cancel ? *c.cancel : never;
        if (run_cpu_primitive(prim, c.type, par, c.threads, c.h_in, c.h_out, c.n, cancel)) return Status::Success;
        return cancel.load() ? Status::Success : Status::Unsupported;
      };
      table.push_back(std::move(im));
    }
}

}  // namespace primlab::bench
