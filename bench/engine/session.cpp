// A measuring session: the header, host timing, the case's host inputs and the sweep.
#include "engine/session.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <new>
#include <thread>

#include "engine/inputs.h"

namespace primlab::bench {
namespace {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

// "lab-07, 2 CPU threads": the machine the rows ran on, and the threads the cpu-par rows used.
std::string host_description(int threads) {
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) != 0 || !name[0]) std::snprintf(name, sizeof name, "unknown host");
  return std::string(name) + ", " + std::to_string(threads) + " CPU thread" + (threads == 1 ? "" : "s");
}

// The host's copy bandwidth (read + write of 64 MiB, best of 5): the CPU rows' ceiling.
double host_copy_gbps() {
  const std::size_t bytes = std::size_t(64) << 20;
  std::vector<unsigned char> a(bytes, 1), b(bytes, 0);
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    best = std::min(best, elapsed_ms(t0) * 1e-3);
  }
  return best > 0 ? 2.0 * double(bytes) / best / 1e9 : 0;
}

bool cancelled(const std::atomic<bool>* c) { return c && c->load(); }

template <class T>
bool selected(const std::vector<T>& chosen, const T& x) {
  return chosen.empty() || std::find(chosen.begin(), chosen.end(), x) != chosen.end();
}

// Host runs: one warm-up, then `runs` runs; with runs = 0, until at least 3 runs and 0.2 s (at most
// 50, and a run over a second is the last; a warm-up over a second at n >= 2^24 is the one run).
Status time_host_row(const Impl& im, const Case& c, int runs, std::vector<double>* ms) {
  double total = 0;
  for (int k = 0; k <= (runs > 0 ? runs : 50); ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = im.run(c);
    const double t = elapsed_ms(t0);
    if (s != Status::Success || cancelled(c.cancel)) return s;
    if (k > 0) {
      ms->push_back(t);
      total += t;
    }
    if (runs > 0) continue;
    if (k == 0 && t > 1000 && c.n >= (std::int64_t(1) << 24)) {
      ms->push_back(t);
      break;
    }
    if ((k > 0 && t > 1000) || (k >= 3 && total > 200)) break;
  }
  return Status::Success;
}

}  // namespace

Table make_table() {
  Table t;
  add_device_rows(t);
  add_lab_rows(t);
  add_cpu_rows(t);
  // Each primitive's rows together, primitives in the order they first appear.
  std::vector<std::string> order;
  for (const Impl& im : t)
    if (std::find(order.begin(), order.end(), im.primitive) == order.end()) order.push_back(im.primitive);
  std::stable_sort(t.begin(), t.end(), [&](const Impl& a, const Impl& b) {
    return std::find(order.begin(), order.end(), a.primitive) < std::find(order.begin(), order.end(), b.primitive);
  });
  return t;
}

Result check_block(const Impl& im, int block) {
  if (!im.takes_block || block == 0) return {};
  if (block < im.min_block || block > im.max_block)
    return Result::failure("block " + std::to_string(block) + " outside [" + std::to_string(im.min_block) + ", " +
                           std::to_string(im.max_block) + "]");
  if (im.block_pow2 && (block & (block - 1)) != 0)
    return Result::failure("block " + std::to_string(block) + " is not a power of two");
  return {};
}

const Impl* find_impl(const Table& table, const std::string& primitive, const std::string& impl) {
  for (const Impl& im : table)
    if (im.primitive == primitive && im.impl == impl) return &im;
  return nullptr;
}

Session::Session(int cpu_threads)
    : table_(make_table()),
      threads_(cpu_threads > 0 ? cpu_threads : int(std::max(1u, std::thread::hardware_concurrency()))),
      device_(open_device()) {
  if (device_) {
    Results h;
    describe_device(*device_, &h);
    device_name_ = h.gpu;
  } else {
    device_name_ = "no CUDA device: GPU rows need a CUDA device (CPU rows only, " + std::to_string(threads_) +
                   " threads)";
  }
}

const Results& Session::header() {
  if (have_header_) return header_;
  if (device_) {
    describe_device(*device_, &header_);
    header_.copy_gbps = device_copy_gbps(*device_);
  } else {
    header_.gpu = "none (CPU only)";
    header_.copy_gbps = host_copy_gbps();
  }
  header_.date = today();
  header_.host = host_description(threads_);
  have_header_ = true;
  return header_;
}

Result Session::host_inputs(Type t, std::int64_t n, std::uint64_t seed) {
  if (host_n_ == n && host_type_ == t && host_seed_ == seed) return {};
  host_n_ = -1;
  try {
    const std::size_t bytes = std::size_t(n) * type_size(t);
    host_in_.clear();
    host_out_.clear();
    host_in_.resize(bytes + 16);
    host_out_.resize(std::max<std::size_t>(bytes, kBins * 4) + 16);
  } catch (const std::bad_alloc&) {
    host_in_ = {};
    host_out_ = {};
    return Result::failure("skipped: not enough host memory for n = " + std::to_string(n));
  }
  fill_host(t, host_in_.data(), n, seed, threads_);
  host_type_ = t;
  host_n_ = n;
  host_seed_ = seed;
  return {};
}

Row Session::measure(const Impl& im, Type t, std::int64_t n, const Settings& s, const std::atomic<bool>* cancel) {
  Row row;
  row.primitive = im.primitive;
  row.impl = im.impl;
  row.type = type_name(t);
  row.n = n;
  row.block = im.takes_block ? s.block : 0;
  row.items = im.takes_items ? s.items : 0;
  Case c;
  c.primitive = im.primitive;
  c.type = t;
  c.n = n;
  c.block = row.block;
  c.items = row.items;
  c.threads = threads_;
  c.cancel = cancel;
  if (std::find(im.types.begin(), im.types.end(), t) == im.types.end())
    row.error = std::string("no ") + type_name(t) + " version";
  else
    row.error = check_block(im, row.block).message();  // empty when accepted
  if (!row.error.empty()) return row;
  std::vector<double> ms;
  if (im.on_host) {
    const Result inputs = host_inputs(t, n, s.seed);
    row.error = inputs.message();
    if (inputs.ok()) {
      c.h_in = host_in_.data();
      c.h_out = host_out_.data();
      const Status st = time_host_row(im, c, s.host_runs, &ms);
      if (st != Status::Success) row.error = status_string(st);
    }
  } else if (!device_) {
    row.error = "GPU rows need a CUDA device";
  } else {
    row.error = time_device_row(*device_, im, c, s, cancel, &ms).message();
  }
  if (cancelled(cancel) && row.error.empty()) row.error = "cancelled";
  if (!row.error.empty()) return row;
  row.runs = int(ms.size());
  if (!ms.empty()) {
    row.median_ms = percentile(ms, 0.5);
    row.p10_ms = percentile(ms, 0.1);
    row.p90_ms = percentile(ms, 0.9);
    row.items_per_s = double(n) / (row.median_ms * 1e-3);
    row.gbps = min_bytes_per_elem(im.primitive, t) * double(n) / (row.median_ms * 1e-3) / 1e9;
  }
  return row;
}

void Session::sweep(const SweepOptions& o, Results* out) {
  const Results& h = header();
  out->gpu = h.gpu;
  out->host = h.host;
  out->cuda_version = h.cuda_version;
  out->driver = h.driver;
  out->cub = h.cub;
  out->cub_newer = h.cub_newer;
  out->date = h.date;
  out->copy_gbps = h.copy_gbps;
  std::vector<std::string> prims;
  for (const Impl& im : table_)
    if (selected(o.primitives, im.primitive) && std::find(prims.begin(), prims.end(), im.primitive) == prims.end())
      prims.push_back(im.primitive);
  for (const std::string& prim : prims)
    for (Type t : kTypes) {
      if (!selected(o.types, t)) continue;
      std::vector<const Impl*> impls;
      for (const Impl& im : table_)
        if (im.primitive == prim && selected(o.impls, im.impl) &&
            std::find(im.types.begin(), im.types.end(), t) != im.types.end())
          impls.push_back(&im);
      for (std::int64_t n : o.sizes) {
        std::vector<Row> rows;
        for (const Impl* im : impls) {
          if (cancelled(o.cancel)) break;
          if (im->on_host && n > o.host_max_n) continue;
          rows.push_back(measure(*im, t, n, o.settings, o.cancel));
        }
        compute_ratios(rows);
        for (const Row& r : rows) {
          out->rows.push_back(r);
          if (o.on_row) o.on_row(r);
        }
      }
    }
}

}  // namespace primlab::bench
