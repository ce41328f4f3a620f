// The benchmark harness as a library (primlab_engine): a table of timed implementations,
// a sweep runner (CUDA events, warm-up, median/p10/p90, input rotation when the inputs fit in
// L2, copy bandwidth measured in the same run) and the JSON writer. The `bench` command and
// the app's performance tab (on its own thread and stream, with a cancel flag) both drive it.
//
// Adding a row: push an Impl onto the table from a register_* function; register_sort_benchmarks()
// (bench/engine/rows_sort.cu) adds the sorts and the partition.
#pragma once
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "primlab/status.h"

namespace primlab::bench {

enum class Type { u8, i32, u32, f32, i64, f64, u64 };
const char* type_name(Type t);
bool parse_type(const std::string& s, Type* out);
std::size_t type_size(Type t);

// The buffers of one (primitive, type, n) case, shared by every implementation of it. The
// harness fills the inputs with seeded random data (never zeros) and rotates between input
// sets from run to run when one set fits in L2.
struct Case {
  std::string primitive;
  Type type = Type::u32;
  std::int64_t n = 0;
  const void* d_in = nullptr;           // the current input set: n elements of type
  const void* d_in2 = nullptr;          // a second input (values for key-value sorts), same rotation
  const std::uint8_t* d_flags = nullptr;  // n random 0/1 flags (about half set), same rotation
  void* d_out = nullptr;                // n elements of type (and room for 2^16 counters)
  void* d_out2 = nullptr;               // a second output of n elements (values)
  void* d_scalar = nullptr;             // 64 bytes: a reduction's result, a selected count
  void* d_ws = nullptr;                 // workspace: the largest query of the case's impls
  std::size_t ws_bytes = 0;
  const void* h_in = nullptr;           // host copy of input set 0 (for host implementations)
  const std::uint8_t* h_flags = nullptr;
  void* h_out = nullptr;                // host output, n elements of type
  int block = 0;                        // 0: the implementation's default
  int items = 0;                        // 0: the implementation's default
  cudaStream_t stream = nullptr;
};

// One timed implementation of one primitive.
struct Impl {
  std::string primitive;   // e.g. "scan_exclusive", "reduce_sum", "histogram_even", "sort_keys"
  std::string impl;        // "primlab", "cub", "thrust", "cpu", or a teaching variant's name
  std::vector<Type> types; // element types it supports
  bool takes_block = false;
  bool takes_items = false;
  bool on_host = false;    // timed with a host clock on h_in/h_out (CPU baselines)
  // Minimum bytes per element the primitive must move (for GB/s); the same for every impl.
  std::function<double(Type)> min_bytes_per_elem;
  // Workspace the run needs for this case (0 if none); called before buffers exist.
  std::function<std::size_t(const Case&)> workspace_bytes;
  // Enqueues one run on c.stream (or runs it on the host when on_host).
  std::function<Status(const Case&)> run;
};
using BenchTable = std::vector<Impl>;

// Reduce, scan, select, histogram (primlab, teaching variants, cub, thrust, cpu).
void register_reduce_scan_benchmarks(BenchTable& table);
// Sorts and partition (bench/engine/rows_sort.cu).
void register_sort_benchmarks(BenchTable& table);
// Both of the above.
BenchTable make_default_table();

struct Row {
  std::string primitive, impl;
  Type type = Type::u32;
  std::int64_t n = 0;
  int block = 0, items = 0;
  int runs = 0;
  double median_ms = 0, p10_ms = 0, p90_ms = 0;
  double items_per_s = 0, gbps = 0;
  double ratio_to_cub = 0;  // cub median / this median (> 1: faster than CUB); 0 when no cub row
  std::string error;        // non-empty when the run failed (status string)
};

struct SweepOptions {
  std::vector<std::string> primitives;  // empty: every primitive in the table
  std::vector<std::string> impls;       // empty: every implementation
  std::vector<Type> types;              // empty: every type an implementation supports
  std::vector<std::int64_t> sizes;      // element counts
  int block = 0, items = 0;             // 0: defaults
  int warmup = 3;
  int runs = 0;                         // 0: automatic (more runs for small n)
  int host_runs = 3;                    // runs of host implementations
  std::int64_t host_max_n = std::int64_t(1) << 28;  // host impls skipped above this
  std::uint64_t seed = 20260601;
  cudaStream_t stream = nullptr;
  std::atomic<bool>* cancel = nullptr;  // polled between runs; the sweep stops early when set
  std::function<void(const Row&)> on_row;  // called as each row completes (any thread-safe sink)
};

struct SweepResult {
  std::string gpu, cuda_version, driver, commit, date;
  double copy_gbps = 0;  // device-to-device copy, bytes read + written, in the same run
  std::vector<Row> rows;
};

// Runs the sweep: for each primitive, type and size, prepares inputs once, then times every
// selected implementation of it (events around each run, median of many). Allocation and
// host copies stay outside the timed region. Errors of one implementation go in its row.
Status run_sweep(const BenchTable& table, const SweepOptions& options, SweepResult* result);

// Device-to-device copy bandwidth (GB/s, read + write) of `bytes` bytes, median of runs.
double measure_copy_gbps(std::size_t bytes, cudaStream_t stream);

// Writes {gpu, cuda, driver, commit, date, copy_gbps, results: [...]} to path.
bool write_json(const SweepResult& result, const std::string& path, std::string* error);

// A fixed-width text table of the rows (with the ratio to CUB), and one row of it.
std::string format_table(const SweepResult& result);
std::string format_row(const Row& row);

}  // namespace primlab::bench
