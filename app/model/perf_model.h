// The performance tab's logic without a window: the rows and entries it shows, the sweep plan and
// its scheduling into jobs, a worker thread that runs the jobs through a Backend with a cancel flag
// (the measuring engine's session, or a test's fake), the results store, CSV export and the
// baseline diff. Nothing here includes ImGui, GL or CUDA: the tab, the headless `perf` command and
// the CPU tests drive the same PerfState.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/results.h"

namespace primlab::perf {

// [SECTION] Rows and results: the measuring engine's (types as it spells them: "u32")
using Row = bench::Row;
using Results = bench::Results;

// [SECTION] Entries: one timed implementation as the tab lists it
struct Entry {
  std::string primitive, impl;
  std::vector<std::string> types;
  bool takes_block = false, takes_items = false;
  bool gpu = true;        // needs a CUDA device
  std::string note;       // one line for the tooltip: where it comes from
  int min_block = 1, max_block = 1024;  // the block sizes it accepts (takes_block)
  bool block_pow2 = false;
};

// [SECTION] Plans and jobs
enum class SweepMode { Sizes, BlockSizes };

struct Plan {
  std::string primitive = "scan_exclusive";
  std::vector<std::string> impls;  // the chosen entries of `primitive`, by impl name
  std::string type = "u32";
  int log2_min = 10, log2_max = 28;
  int log2_step = 1;               // 1: n x2 per step, 2: n x4
  std::vector<std::int64_t> sizes;  // sizes as typed (perf --n 1000,2^20); empty: the range above
  SweepMode mode = SweepMode::Sizes;
  int block = 0, items = 0;        // 0: defaults; only for entries that take them
  int block_sweep_log2_n = 20;     // the n of the block-size sweep
  int runs = 0;                    // GPU runs per row, 0: automatic (about 0.3 s per row)
  std::int64_t host_max_n = std::int64_t(1) << 28;  // CPU rows above this are skipped
};

// One timed row to produce: an implementation at one n, block and items.
struct Job {
  std::string primitive, impl, type;
  std::int64_t n = 0;
  int block = 0, items = 0;
  int runs = 0;
  bool gpu = true;
};

// The block sizes of the block-size sweep and of the slider: 32, 64, ..., 1024.
std::vector<int> block_sizes();
// The sizes of a plan: its typed sizes, else 2^log2_min ... 2^log2_max by x2 or x4 (the largest
// always included).
std::vector<std::int64_t> plan_sizes(const Plan& p);
// Schedules a plan: sizes ascending and, for each, the chosen entries in table order (so every
// series grows together while it runs). In block mode, entries that take a block run at each
// block size it accepts and the others once (their line is flat). Entries that need a GPU are left out
// when `has_gpu` is false, with a line in *skipped; unknown or unsupported entries likewise.
std::vector<Job> schedule(const Plan& p, const std::vector<Entry>& entries, bool has_gpu,
                          std::vector<std::string>* skipped = nullptr);
// The types any entry of `primitive` supports, in a fixed order.
std::vector<std::string> types_of(const std::vector<Entry>& entries, const std::string& primitive);
// The primitives in table order, each once.
std::vector<std::string> primitives_of(const std::vector<Entry>& entries);
// Input distributions: the bench names a skewed input as its own primitive ("sort_keys_zipf");
// the tab shows the base primitive ("sort_keys") and a distribution ("zipf"; "uniform" for none).
std::string base_primitive(const std::string& primitive);
std::string distribution_of(const std::string& primitive);
std::string with_distribution(const std::string& base, const std::string& distribution);
// The distributions of a base primitive present in the entries ("uniform" first).
std::vector<std::string> distributions_of(const std::vector<Entry>& entries, const std::string& base);
const Entry* find_entry(const std::vector<Entry>& entries, const std::string& primitive, const std::string& impl);

// [SECTION] Backends: who runs a job
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::vector<Entry> entries() const = 0;
  virtual bool has_gpu() const = 0;
  // "NVIDIA H200 (CUDA 12.8)" or "no CUDA device: GPU rows need a CUDA device".
  virtual std::string device() const = 0;
  // Called once on the worker thread before the first job (device setup, copy bandwidth).
  virtual void begin(Results& header) { (void)header; }
  virtual void end() {}
  // Runs one job and returns its row (the error says why when it failed or was skipped).
  // Polls *cancel often enough to return within a second of it being set.
  virtual Row run(const Job& job, const std::atomic<bool>& cancel) = 0;
};

// The measuring engine's session as a backend: every row of this build's engine (GPU rows need a
// device; the CPU rows run everywhere). cpu_threads: cpu-par's threads, 0: every hardware thread.
std::unique_ptr<Backend> make_default_backend(int cpu_threads = 0);

// The ticks of a plot axis over [lo, hi]: on a log axis powers of two (base2), or powers of ten
// (with 2 and 5 between them when hi/lo is at most 1000, every mantissa when that leaves fewer
// than three) and at least two ticks however narrow the range (then 1-2-5 multiples); on a
// linear axis 1-2-5 multiples.
std::vector<double> axis_ticks(double lo, double hi, bool log, bool base2);

// [SECTION] The worker: runs jobs off the UI thread
struct Progress {
  int done = 0, total = 0;
  std::string current;  // "shared at n = 2^20"
  bool running = false, cancelling = false;
  double elapsed_s = 0;
};

class Worker {
 public:
  explicit Worker(std::shared_ptr<Backend> backend) : backend_(std::move(backend)) {}
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts the jobs on a new thread; false when a sweep is still running.
  bool start(std::vector<Job> jobs);
  // Asks the running sweep to stop; rows already done stay.
  void cancel();
  // Moves the rows finished since the last call into *out and fills the header once known.
  // Returns the progress. Cheap: the UI calls it every frame.
  Progress poll(std::vector<Row>* out, Results* header);
  // Waits for the thread (after the last job or a cancel).
  void join();
  bool running() const { return running_.load(); }
  Backend& backend() { return *backend_; }

 private:
  void loop(std::vector<Job> jobs);
  std::shared_ptr<Backend> backend_;
  std::thread thread_;
  std::atomic<bool> cancel_{false}, running_{false};
  std::mutex mutex_;
  std::vector<Row> pending_;
  Results header_;
  bool header_fresh_ = false, began_ = false;
  Progress progress_;
  double t0_ = 0;
};

// [SECTION] The tab's plain state
struct PerfState {
  Plan plan;
  Results results;           // every row of this session (new rows replace same-key rows)
  Results baseline;          // a loaded JSON to compare against (rows empty: none)
  char baseline_path[512] = "";
  std::vector<std::string> skipped;  // why chosen entries or sizes did not run
  std::string message;       // the last user-facing message (export written, load failed...)
  Progress progress;
  char export_dir[512] = "perf-results";
  int view = 0;              // 0 time vs n, 1 throughput vs n, 2 time vs block, 3 table
  int view_request = -1;     // >= 0: select that view on the next frame (headless, tests)
  bool table_all = false;    // the table shows every row, not only the plan's primitive and type
  bool throughput_gbps = false;  // throughput plot in GB/s (else elements/s)
  std::vector<Entry> entries;
  std::string device;
  bool has_gpu = false;
  std::shared_ptr<Worker> worker;
};

// Takes the backend (make_default_backend() in the app), creates the worker and fills entries,
// device and a default plan (every entry of the plan's primitive that runs here). Not while a
// sweep runs.
void init_perf(PerfState& s, std::shared_ptr<Backend> backend);
// Schedules s.plan and starts the worker; false with s.message when it cannot start. An n sweep
// moves the answer line's n (block_sweep_log2_n) into its range.
bool start_sweep(PerfState& s);
// Re-runs only the chosen entries that take a block or items (the sliders' release).
bool rerun_tunable(PerfState& s);
void cancel_sweep(PerfState& s);
// Moves finished rows into s.results (recomputing ratios) and updates s.progress. Every frame.
void poll_sweep(PerfState& s);
// Selects every entry of `primitive` that can run here.
void select_all(PerfState& s);

// Key of a row for replacing and diffing: primitive, impl, type, n, block, items.
std::string row_key(const Row& r);
// Replaces rows of the same key and appends the others.
void merge_rows(Results& into, const std::vector<Row>& rows);

// [SECTION] Export and import: the engine's JSON, and CSV
using bench::parse_json;
using bench::read_json;
using bench::to_json;
using bench::write_json;
std::string to_csv(const Results& r);
Result write_csv(const Results& r, const std::string& path);

// [SECTION] Baseline diff
struct Diff {
  Row now, base;
  double speedup = 0;  // base median / now median (> 1: faster now)
};
// Pairs rows of `now` with rows of `base` of the same key (both without errors).
std::vector<Diff> diff(const Results& now, const Results& base);

// [SECTION] Formatting
std::string format_n(std::int64_t n);      // "2^20" for powers of two, else "1000000"
std::string format_ms(double ms);          // "12.3 us", "4.56 ms", "1.23 s"
std::string format_rate(double per_s);     // "1.23 G/s"

}  // namespace primlab::perf
