// The performance tab's model: scheduling, the engine backend, the worker thread, the results
// store, CSV and the baseline diff.
#include "model/perf_model.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "engine/session.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace primlab::perf {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool is_pow2(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

int log2_of(std::int64_t n) {
  int k = 0;
  while ((std::int64_t(1) << (k + 1)) <= n) ++k;
  return k;
}

const char* kTypeOrder[] = {"u8", "i32", "u32", "f32", "i64", "f64", "u64"};

}  // namespace

// [SECTION] Rows
std::string row_key(const Row& r) {
  return r.primitive + "|" + r.impl + "|" + r.type + "|" + std::to_string(r.n) + "|" + std::to_string(r.block) +
         "|" + std::to_string(r.items);
}

void merge_rows(Results& into, const std::vector<Row>& rows) {
  for (const Row& x : rows) {
    const std::string k = row_key(x);
    auto it = std::find_if(into.rows.begin(), into.rows.end(), [&](const Row& y) { return row_key(y) == k; });
    if (it != into.rows.end()) *it = x;
    else into.rows.push_back(x);
  }
}

// [SECTION] Scheduling
std::vector<int> block_sizes() { return {32, 64, 128, 256, 512, 1024}; }

std::vector<std::int64_t> plan_sizes(const Plan& p) {
  if (!p.sizes.empty()) return p.sizes;
  std::vector<std::int64_t> out;
  const int lo = std::clamp(p.log2_min, 0, 34), hi = std::clamp(p.log2_max, lo, 34);
  const int step = std::max(1, p.log2_step);
  for (int k = lo; k <= hi; k += step) out.push_back(std::int64_t(1) << k);
  if (out.empty() || out.back() != (std::int64_t(1) << hi)) out.push_back(std::int64_t(1) << hi);
  return out;
}

namespace {
const char* kDistributions[] = {"allequal", "fewdistinct", "sorted", "zipf"};
}  // namespace

std::string distribution_of(const std::string& p) {
  for (const char* d : kDistributions) {
    const std::string suffix = std::string("_") + d;
    if (p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0) return d;
  }
  return "uniform";
}

std::string base_primitive(const std::string& p) {
  const std::string d = distribution_of(p);
  return d == "uniform" ? p : p.substr(0, p.size() - d.size() - 1);
}

std::string with_distribution(const std::string& base, const std::string& d) {
  return d == "uniform" ? base : base + "_" + d;
}

std::vector<std::string> distributions_of(const std::vector<Entry>& entries, const std::string& base) {
  std::vector<std::string> out;
  for (const Entry& e : entries)
    if (base_primitive(e.primitive) == base) {
      const std::string d = distribution_of(e.primitive);
      if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
    }
  std::stable_partition(out.begin(), out.end(), [](const std::string& d) { return d == "uniform"; });
  return out;
}

const Entry* find_entry(const std::vector<Entry>& entries, const std::string& primitive, const std::string& impl) {
  for (const Entry& e : entries)
    if (e.primitive == primitive && e.impl == impl) return &e;
  return nullptr;
}

std::vector<Job> schedule(const Plan& p, const std::vector<Entry>& entries, bool has_gpu,
                          std::vector<std::string>* skipped) {
  std::vector<const Entry*> chosen;
  std::string need_gpu;  // one line for every chosen entry that needs a device
  for (const Entry& e : entries) {
    if (e.primitive != p.primitive) continue;
    if (std::find(p.impls.begin(), p.impls.end(), e.impl) == p.impls.end()) continue;
    if (e.gpu && !has_gpu) {
      need_gpu += (need_gpu.empty() ? "" : ", ") + e.impl;
      continue;
    }
    if (std::find(e.types.begin(), e.types.end(), p.type) == e.types.end()) {
      if (skipped) skipped->push_back(e.impl + ": no " + p.type + " version");
      continue;
    }
    chosen.push_back(&e);
  }
  if (skipped && !need_gpu.empty()) skipped->push_back(need_gpu + ": GPU rows need a CUDA device");
  if (skipped)
    for (const std::string& name : p.impls)
      if (!find_entry(entries, p.primitive, name)) skipped->push_back(name + ": not in the table");

  std::vector<Job> jobs;
  auto job = [&](const Entry& e, std::int64_t n, int block, int items) {
    Job j;
    j.primitive = e.primitive;
    j.impl = e.impl;
    j.type = p.type;
    j.n = n;
    j.block = e.takes_block ? block : 0;
    j.items = e.takes_items ? items : 0;
    j.runs = p.runs;
    j.gpu = e.gpu;
    if (!e.gpu && n > p.host_max_n) {
      if (skipped) skipped->push_back(e.impl + " at n = " + format_n(n) + ": above the CPU limit " + format_n(p.host_max_n));
      return;
    }
    jobs.push_back(j);
  };
  if (p.mode == SweepMode::Sizes) {
    for (std::int64_t n : plan_sizes(p))
      for (const Entry* e : chosen) job(*e, n, p.block, p.items);
  } else {
    const std::int64_t n = std::int64_t(1) << std::clamp(p.block_sweep_log2_n, 0, 34);
    for (const Entry* e : chosen)
      if (!e->takes_block) job(*e, n, 0, 0);
    auto accepts = [](const Entry& e, int b) {
      return b >= e.min_block && b <= e.max_block && (!e.block_pow2 || (b & (b - 1)) == 0);
    };
    for (int b : block_sizes())
      for (const Entry* e : chosen)
        if (e->takes_block && accepts(*e, b)) job(*e, n, b, p.items);
  }
  return jobs;
}

std::vector<std::string> types_of(const std::vector<Entry>& entries, const std::string& primitive) {
  std::vector<std::string> out;
  for (const char* t : kTypeOrder)
    for (const Entry& e : entries)
      if (e.primitive == primitive && std::find(e.types.begin(), e.types.end(), t) != e.types.end()) {
        out.push_back(t);
        break;
      }
  return out;
}

std::vector<std::string> primitives_of(const std::vector<Entry>& entries) {
  std::vector<std::string> out;
  for (const Entry& e : entries)
    if (std::find(out.begin(), out.end(), e.primitive) == out.end()) out.push_back(e.primitive);
  return out;
}

// [SECTION] The engine backend: a session of the measuring engine, one row per job
namespace {

class EngineBackend : public Backend {
 public:
  explicit EngineBackend(int cpu_threads) : session_(cpu_threads) {
    for (const bench::Impl& im : session_.table()) {
      Entry e;
      e.primitive = im.primitive;
      e.impl = im.impl;
      for (bench::Type t : im.types) e.types.push_back(bench::type_name(t));
      e.takes_block = im.takes_block;
      e.takes_items = im.takes_items;
      e.gpu = !im.on_host;
      e.note = im.note;
      e.min_block = im.min_block;
      e.max_block = im.max_block;
      e.block_pow2 = im.block_pow2;
      entries_.push_back(e);
    }
  }
  std::vector<Entry> entries() const override { return entries_; }
  bool has_gpu() const override { return session_.has_device(); }
  std::string device() const override { return session_.device(); }
  void begin(Results& header) override { header = session_.header(); }
  Row run(const Job& job, const std::atomic<bool>& cancel) override {
    const bench::Impl* im = bench::find_impl(session_.table(), job.primitive, job.impl);
    bench::Type type;
    if (!im || !bench::parse_type(job.type, &type)) {
      Row r{job.primitive, job.impl, job.type, job.n, job.block, job.items};
      r.error = "not in the engine's table";
      return r;
    }
    bench::Settings settings;
    settings.block = job.block;
    settings.items = job.items;
    settings.runs = job.runs;
    settings.host_runs = 0;  // as many as 0.2 s allows
    return session_.measure(*im, type, job.n, settings, &cancel);
  }

 private:
  bench::Session session_;
  std::vector<Entry> entries_;
};

}  // namespace

std::unique_ptr<Backend> make_default_backend(int cpu_threads) { return std::make_unique<EngineBackend>(cpu_threads); }

// [SECTION] Worker
Worker::~Worker() {
  cancel();
  join();
}

bool Worker::start(std::vector<Job> jobs) {
  if (running_.load()) return false;
  join();
  cancel_ = false;
  running_ = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    progress_ = Progress{};
    progress_.total = int(jobs.size());
    progress_.running = true;
    t0_ = now_s();
  }
  thread_ = std::thread(&Worker::loop, this, std::move(jobs));
  return true;
}

void Worker::cancel() {
  cancel_ = true;
  std::lock_guard<std::mutex> lock(mutex_);
  if (progress_.running) progress_.cancelling = true;
}

void Worker::join() {
  if (thread_.joinable()) thread_.join();
}

void Worker::loop(std::vector<Job> jobs) {
#ifdef __linux__
  // The sweep yields the CPU to the window: this thread and the cpu-par threads it starts (which
  // inherit its nice value) run at a lower priority, so that the UI thread draws its frames on
  // time while every core measures. A measurement loses nothing while the window is idle.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
  if (!began_) {
    Results h;
    backend_->begin(h);
    std::lock_guard<std::mutex> lock(mutex_);
    header_ = h;
    header_fresh_ = true;
    began_ = true;
  }
  for (std::size_t i = 0; i < jobs.size() && !cancel_.load(); ++i) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      progress_.current = jobs[i].impl + " at n = " + format_n(jobs[i].n) +
                          (jobs[i].block ? ", block " + std::to_string(jobs[i].block) : std::string());
    }
    Row r = backend_->run(jobs[i], cancel_);
    std::lock_guard<std::mutex> lock(mutex_);
    // A run cut short by the cancel is not a measurement: drop it.
    if (!(cancel_.load() && !r.ok())) pending_.push_back(std::move(r));
    progress_.done = int(i) + 1;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  progress_.running = false;
  progress_.cancelling = false;
  progress_.current.clear();
  progress_.elapsed_s = now_s() - t0_;
  running_ = false;
}

Progress Worker::poll(std::vector<Row>* out, Results* header) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (out) {
    for (Row& r : pending_) out->push_back(std::move(r));
    pending_.clear();
  }
  if (header && header_fresh_) {
    header->gpu = header_.gpu;
    header->host = header_.host;
    header->cuda_version = header_.cuda_version;
    header->driver = header_.driver;
    header->cub = header_.cub;
    if (header->date.empty()) header->date = header_.date;
    if (header->commit.empty()) header->commit = header_.commit;
    if (header_.copy_gbps > 0) header->copy_gbps = header_.copy_gbps;
    header_fresh_ = false;
  }
  Progress p = progress_;
  if (p.running) p.elapsed_s = now_s() - t0_;
  return p;
}

// [SECTION] The tab's state
void init_perf(PerfState& s, std::shared_ptr<Backend> backend) {
  if (!backend || (s.worker && s.worker->running())) return;
  s.entries = backend->entries();
  s.has_gpu = backend->has_gpu();
  s.device = backend->device();
  s.worker = std::make_shared<Worker>(backend);
  const auto prims = primitives_of(s.entries);
  if (!prims.empty() && std::find(prims.begin(), prims.end(), s.plan.primitive) == prims.end())
    s.plan.primitive = prims.front();
  if (s.plan.impls.empty()) select_all(s);
}

void select_all(PerfState& s) {
  s.plan.impls.clear();
  for (const Entry& e : s.entries)
    if (e.primitive == s.plan.primitive && (s.has_gpu || !e.gpu)) s.plan.impls.push_back(e.impl);
  const auto types = types_of(s.entries, s.plan.primitive);
  if (!types.empty() && std::find(types.begin(), types.end(), s.plan.type) == types.end())
    s.plan.type = types.front();
}

namespace {
bool start_jobs(PerfState& s, const Plan& plan) {
  if (!s.worker) {
    s.message = "internal: the performance tab has no backend (init_perf not called)";
    return false;
  }
  if (s.worker->running()) {
    s.message = "a sweep is running: cancel it first";
    return false;
  }
  s.skipped.clear();
  std::vector<Job> jobs = schedule(plan, s.entries, s.has_gpu, &s.skipped);
  if (jobs.empty()) {
    s.message = "nothing to run: choose at least one implementation that runs here";
    return false;
  }
  s.message.clear();
  if (!s.worker->start(std::move(jobs))) {
    s.message = "a sweep is running: cancel it first";
    return false;
  }
  s.progress = s.worker->poll(nullptr, nullptr);
  return true;
}
}  // namespace

bool start_sweep(PerfState& s) {
  // The answer line's n moves into the swept range (outside it, it could only say "no results").
  if (s.plan.mode == SweepMode::Sizes)
    s.plan.block_sweep_log2_n = std::clamp(s.plan.block_sweep_log2_n, s.plan.log2_min, std::max(s.plan.log2_min, s.plan.log2_max));
  return start_jobs(s, s.plan);
}

bool rerun_tunable(PerfState& s) {
  Plan p = s.plan;
  p.impls.clear();
  for (const std::string& name : s.plan.impls) {
    const Entry* e = find_entry(s.entries, p.primitive, name);
    if (e && (e->takes_block || e->takes_items)) p.impls.push_back(name);
  }
  if (p.impls.empty()) return false;
  return start_jobs(s, p);
}

void cancel_sweep(PerfState& s) {
  if (s.worker) s.worker->cancel();
}

void poll_sweep(PerfState& s) {
  if (!s.worker) return;
  std::vector<Row> rows;
  s.progress = s.worker->poll(&rows, &s.results);
  if (!rows.empty()) {
    merge_rows(s.results, rows);
    bench::compute_ratios(s.results.rows);
  }
}

// [SECTION] Plot ticks
namespace {

// Multiples of a 1-2-5 step over [lo, hi].
std::vector<double> linear_ticks(double lo, double hi) {
  std::vector<double> out;
  const double span = hi - lo;
  if (!(span > 0)) return out;
  const double mag = std::pow(10.0, std::floor(std::log10(span / 5)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (span / (m * mag) <= 8) {
      step = m * mag;
      break;
    }
  for (double v = std::ceil(lo / step) * step; v <= hi; v += step) out.push_back(v);
  return out;
}

}  // namespace

std::vector<double> axis_ticks(double lo, double hi, bool log, bool base2) {
  std::vector<double> out;
  if (!log) return linear_ticks(lo, hi);
  if (!(lo > 0) || !(hi > lo)) return out;
  if (base2) {
    const int a = int(std::ceil(std::log2(lo) - 1e-9)), b = int(std::floor(std::log2(hi) + 1e-9));
    const int step = std::max(1, (b - a + 1 + 9) / 10);
    for (int k = a; k <= b; ++k)
      if ((k - a) % step == 0) out.push_back(std::ldexp(1.0, k));
    return out;
  }
  // Powers of ten, with 2 and 5 between them over at most three decades, every mantissa when
  // those leave fewer than three ticks; a range too narrow to hold two of those (12.1 us .. 14.3
  // us) gets linear 1-2-5 ticks.
  const int a = int(std::floor(std::log10(lo))), b = int(std::ceil(std::log10(hi)));
  const std::vector<std::vector<double>> choices = {{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  for (std::size_t c = hi / lo <= 1e3 ? 1 : 0; c < choices.size() && out.size() < 3; ++c) {
    const std::vector<double>& mantissas = choices[c];
    out.clear();
    for (int k = a; k <= b; ++k)
      for (double m : mantissas) {
        const double v = m * std::pow(10.0, k);
        if (v >= lo && v <= hi) out.push_back(v);
      }
  }
  if (out.size() < 2) out = linear_ticks(lo, hi);
  return out;
}

// [SECTION] Export and import
std::string to_csv(const Results& r) {
  std::ostringstream o;
  o << "primitive,impl,type,n,block,items_per_thread,runs,median_ms,p10_ms,p90_ms,items_per_s,gbps,ratio_to_cub,error\n";
  char buf[512];
  for (const Row& x : r.rows) {
    std::string err = x.error;
    std::replace(err.begin(), err.end(), '"', '\'');
    std::snprintf(buf, sizeof buf, "%s,%s,%s,%lld,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,\"%s\"\n",
                  x.primitive.c_str(), x.impl.c_str(), x.type.c_str(), (long long)x.n, x.block, x.items, x.runs,
                  x.median_ms, x.p10_ms, x.p90_ms, x.items_per_s, x.gbps, x.ratio_to_cub, err.c_str());
    o << buf;
  }
  return o.str();
}

Result write_csv(const Results& r, const std::string& path) { return bench::write_file(path, to_csv(r)); }

// [SECTION] Baseline diff
std::vector<Diff> diff(const Results& now, const Results& base) {
  std::map<std::string, const Row*> b;
  for (const Row& x : base.rows)
    if (x.ok()) b[row_key(x)] = &x;
  std::vector<Diff> out;
  for (const Row& x : now.rows) {
    if (!x.ok()) continue;
    auto it = b.find(row_key(x));
    if (it == b.end()) continue;
    out.push_back(Diff{x, *it->second, it->second->median_ms / x.median_ms});
  }
  return out;
}

// [SECTION] Formatting
std::string format_n(std::int64_t n) {
  if (is_pow2(n)) return "2^" + std::to_string(log2_of(n));
  return std::to_string(n);
}

std::string format_ms(double ms) {
  char buf[32];
  if (ms <= 0) return "-";
  if (ms < 1e-3) std::snprintf(buf, sizeof buf, "%.0f ns", ms * 1e6);
  else if (ms < 1) std::snprintf(buf, sizeof buf, "%.3g us", ms * 1e3);
  else if (ms < 1000) std::snprintf(buf, sizeof buf, "%.3g ms", ms);
  else std::snprintf(buf, sizeof buf, "%.3g s", ms * 1e-3);
  return buf;
}

std::string format_rate(double v) {
  char buf[32];
  if (v <= 0) return "-";
  if (v >= 1e12) std::snprintf(buf, sizeof buf, "%.3g T/s", v * 1e-12);
  else if (v >= 1e9) std::snprintf(buf, sizeof buf, "%.3g G/s", v * 1e-9);
  else if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.3g M/s", v * 1e-6);
  else if (v >= 1e3) std::snprintf(buf, sizeof buf, "%.3g k/s", v * 1e-3);
  else std::snprintf(buf, sizeof buf, "%.3g /s", v);
  return buf;
}

}  // namespace primlab::perf
