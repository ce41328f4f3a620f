// A measuring session: the table of this build, the device (if any), the copy bandwidth measured
// once, and the inputs of the last case kept for the next row of the same type and n. `bench`
// runs a whole sweep through it; the Performance tab runs one row at a time on its worker thread.
// Plain C++: in a build without CUDA it runs the CPU rows (and knows no device).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/device.h"
#include "engine/results.h"
#include "engine/table.h"

namespace primlab::bench {

struct SweepOptions {
  std::vector<std::string> primitives;  // empty: every primitive in the table
  std::vector<std::string> impls;       // empty: every implementation
  std::vector<Type> types;              // empty: every type an implementation supports
  std::vector<std::int64_t> sizes;      // element counts
  Settings settings;
  std::int64_t host_max_n = std::int64_t(1) << 28;  // host rows skipped above this
  std::atomic<bool>* cancel = nullptr;  // polled between runs; the sweep stops early when set
  std::function<void(const Row&)> on_row;  // called as each row completes (with its ratio to CUB)
};

class Session {
 public:
  // cpu_threads: the threads of the cpu-par rows, 0: every hardware thread.
  explicit Session(int cpu_threads = 0);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Table& table() const { return table_; }
  bool has_device() const { return bool(device_); }
  // The device's name, or why device rows cannot run here.
  const std::string& device() const { return device_name_; }
  int cpu_threads() const { return threads_; }

  // The results' header: device, versions, date, and the copy bandwidth of the device (the
  // host's memcpy without one), measured on the first call only.
  const Results& header();

  // Times one row: `im` on type t at n. Failures come back as the row's error.
  Row measure(const Impl& im, Type t, std::int64_t n, const Settings& s, const std::atomic<bool>* cancel);

  // For each primitive, type and size, every selected implementation, in table order; rows of
  // a (primitive, type, n) get their ratio to CUB. Fills out's header and appends the rows.
  void sweep(const SweepOptions& o, Results* out);

 private:
  Result host_inputs(Type t, std::int64_t n, std::uint64_t seed);

  Table table_;
  int threads_;
  DevicePtr device_;
  std::string device_name_;
  bool have_header_ = false;
  Results header_;
  // The host rows' case: the input of (type, n, seed) and room for any row's output.
  Type host_type_ = Type::u32;
  std::int64_t host_n_ = -1;
  std::uint64_t host_seed_ = 0;
  std::vector<unsigned char> host_in_, host_out_;
};

}  // namespace primlab::bench
