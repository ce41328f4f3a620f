// CPU baselines: the standard algorithms on one thread, and chunked std::thread versions.
#include "engine/cpu_backend.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <limits>
#include <numeric>
#include <thread>
#include <type_traits>

namespace primlab::perf {
namespace {

constexpr std::int64_t kChunk = std::int64_t(1) << 18;  // elements between cancel polls
constexpr int kBins = 256;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Calls f(T{}) for the element type named `type`; false when the type is not in the list.
template <class F>
bool on_type(const std::string& type, F&& f) {
  if (type == "u8") return f(std::uint8_t{});
  if (type == "i32") return f(std::int32_t{});
  if (type == "u32") return f(std::uint32_t{});
  if (type == "f32") return f(float{});
  if (type == "i64") return f(std::int64_t{});
  if (type == "f64") return f(double{});
  if (type == "u64") return f(std::uint64_t{});
  return false;
}

// Runs f(begin, end, thread) over `threads` contiguous ranges of [0, n) in parallel.
template <class F>
void parallel_ranges(std::int64_t n, int threads, F&& f) {
  const int t = int(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, (n + 4095) / 4096)));
  std::vector<std::thread> pool;
  for (int i = 1; i < t; ++i) pool.emplace_back([&, i] { f(n * i / t, n * (i + 1) / t, i); });
  f(0, n / t, 0);
  for (auto& th : pool) th.join();
}

template <class T>
T half_threshold() {
  if constexpr (std::is_floating_point_v<T>) return T(0.5);
  else if constexpr (std::is_signed_v<T>) return T(0);
  else return T(std::numeric_limits<T>::max() / 2 + 1);
}

// The bench's histogram: 256 even bins over the full range ([0, 1) for floats).
template <class T>
int cpu_bin(T x) {
  if constexpr (std::is_same_v<T, std::uint8_t>) return x;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return int(x >> 24);
  else if constexpr (std::is_same_v<T, std::int32_t>) return int((std::uint32_t(x) ^ 0x80000000u) >> 24);
  else if constexpr (std::is_floating_point_v<T>) {
    if (!(x >= T(0) && x < T(1))) return -1;
    const int b = int(x * T(kBins));
    return b < kBins - 1 ? b : kBins - 1;
  } else return -1;
}

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
        const int k = cpu_bin(in[i]);
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
  const int t = int(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, (n + 4095) / 4096)));
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

const char* kCpuPrimitives[] = {"reduce_sum", "scan_exclusive", "scan_inclusive", "select_if", "histogram_even", "sort_keys"};

std::vector<std::string> types_for(const std::string& prim) {
  if (prim == "histogram_even") return {"u8", "i32", "u32", "f32"};
  if (prim == "sort_keys") return {"i32", "u32", "f32", "i64", "f64", "u64"};
  return {"i32", "u32", "f32", "i64", "f64"};
}

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

}  // namespace

std::size_t type_bytes(const std::string& type) {
  if (type == "u8") return 1;
  if (type == "i32" || type == "u32" || type == "f32") return 4;
  return 8;
}

double min_bytes_per_elem(const std::string& prim, const std::string& type) {
  const double e = double(type_bytes(type));
  if (prim == "reduce_sum" || prim == "histogram_even") return e;
  if (prim == "scan_exclusive" || prim == "scan_inclusive") return 2 * e;
  if (prim == "select_if") return 1.5 * e;
  if (prim == "select_flagged") return 1.5 * e + 1;
  if (prim == "sort_keys") return e + 2 * e * e;  // the bench's radix_bytes(keys)
  return 0;
}

void fill_inputs(const std::string& type, void* out, std::int64_t n, std::uint64_t seed, int threads) {
  on_type(type, [&](auto x) {
    using T = decltype(x);
    T* d = static_cast<T*>(out);
    parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int) {
      for (std::int64_t i = b; i < e; ++i) {
        const std::uint64_t h = splitmix64(seed ^ (std::uint64_t(i) * 0xD1B54A32D192ED03ull));
        if constexpr (std::is_same_v<T, std::uint8_t>) d[i] = std::uint8_t(h >> 56);
        else if constexpr (sizeof(T) == 4 && std::is_integral_v<T>) d[i] = T(std::uint32_t(h >> 32));
        else if constexpr (std::is_same_v<T, float>) d[i] = float(h >> 40) * (1.0f / 16777216.0f);
        else if constexpr (std::is_same_v<T, double>) d[i] = double(h >> 11) * (1.0 / 9007199254740992.0);
        else d[i] = T(h);
      }
    });
    return true;
  });
}

bool run_cpu_primitive(const std::string& prim, const std::string& type, bool par, int threads, const void* in,
                       void* out, std::int64_t n, const std::atomic<bool>& cancel, std::int64_t* out_count) {
  const auto types = types_for(prim);
  if (std::find(types.begin(), types.end(), type) == types.end()) return false;
  return on_type(type, [&](auto x) {
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
      return false;
    }
  });
}

// [SECTION] The backend
CpuBackend::CpuBackend(int threads)
    : threads_(threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()))) {}

std::vector<Entry> CpuBackend::entries() const {
  std::vector<Entry> out;
  for (const char* p : kCpuPrimitives) {
    Entry e;
    e.primitive = p;
    e.types = types_for(p);
    e.gpu = false;
    e.impl = "cpu";
    e.note = "CPU, one thread: the C++ standard algorithm";
    out.push_back(e);
    e.impl = "cpu-par";
    e.note = "CPU, " + std::to_string(threads_) + " threads (std::thread, one chunk each)";
    out.push_back(e);
  }
  return out;
}

std::string CpuBackend::device() const {
  return "no CUDA device: GPU rows need a CUDA device (CPU baselines only, " + std::to_string(threads_) + " threads)";
}

void CpuBackend::begin(Results& h) {
  h.gpu = "none (CPU only)";
  h.date = today();
  // The host's copy bandwidth (read + write of 64 MiB, best of 5) is the CPU rows' ceiling.
  const std::size_t bytes = std::size_t(64) << 20;
  std::vector<unsigned char> a(bytes, 1), b(bytes, 0);
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  h.copy_gbps = best > 0 ? 2.0 * double(bytes) / best / 1e9 : 0;
}

Row CpuBackend::run(const Job& job, const std::atomic<bool>& cancel) {
  Row r;
  r.primitive = job.primitive;
  r.impl = job.impl;
  r.type = job.type;
  r.n = job.n;
  const bool par = job.impl == "cpu-par";
  if (job.impl != "cpu" && !par) {
    r.error = "unknown CPU implementation";
    return r;
  }
  const std::size_t elem = type_bytes(job.type);
  try {
    if (in_type_ != job.type || in_n_ != job.n) {
      in_n_ = -1;
      in_.assign(std::size_t(job.n) * elem + 16, 0);
      out_.assign(std::max<std::size_t>(std::size_t(job.n) * elem, kBins * 4) + 16, 0);
      fill_inputs(job.type, in_.data(), job.n, 20260601, threads_);
      in_type_ = job.type;
      in_n_ = job.n;
    }
  } catch (const std::bad_alloc&) {
    in_.clear();
    out_.clear();
    in_n_ = -1;
    r.error = "skipped: not enough host memory for n = " + format_n(job.n);
    return r;
  }
  // One warm-up, then runs until at least 3 and 0.2 s (at most 50); a run over a second is the last.
  std::vector<double> ms;
  double total = 0;
  for (int k = 0; k < 51; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = run_cpu_primitive(job.primitive, job.type, par, threads_, in_.data(), out_.data(), job.n, cancel);
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!ok) {
      r.error = stop(cancel) ? "cancelled" : "unsupported type " + job.type;
      return r;
    }
    if (k > 0) {
      ms.push_back(t);
      total += t;
    }
    if (t > 1000 && k > 0) break;
    if (k >= 3 && total > 200) break;
    if (t > 1000 && k == 0 && job.n >= (std::int64_t(1) << 24)) {
      // A slow warm-up at a large size counts as the one run.
      ms.push_back(t);
      break;
    }
  }
  std::sort(ms.begin(), ms.end());
  auto pct = [&](double q) {
    const double pos = q * double(ms.size() - 1);
    const std::size_t lo = std::size_t(pos), hi = std::min(lo + 1, ms.size() - 1);
    return ms[lo] + (ms[hi] - ms[lo]) * (pos - double(lo));
  };
  r.runs = int(ms.size());
  r.median_ms = pct(0.5);
  r.p10_ms = pct(0.1);
  r.p90_ms = pct(0.9);
  r.items_per_s = double(job.n) / (r.median_ms * 1e-3);
  r.gbps = min_bytes_per_elem(job.primitive, job.type) * double(job.n) / (r.median_ms * 1e-3) / 1e9;
  return r;
}

}  // namespace primlab::perf
