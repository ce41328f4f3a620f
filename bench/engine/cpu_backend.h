// primlab's CPU baselines for the performance tab, with no CUDA: single-thread ("cpu": the C++
// standard algorithms) and multi-thread ("cpu-par": std::thread, one chunk per hardware thread)
// versions of scan, reduce, select, histogram and sort, on the bench harness's seeded inputs
// (the same splitmix64 stream), timed with a host clock, polling the cancel flag per chunk.
#pragma once
#include <cstdint>
#include <vector>

#include "model/perf_model.h"

namespace primlab::perf {

class CpuBackend : public Backend {
 public:
  // threads: 0 = std::thread::hardware_concurrency().
  explicit CpuBackend(int threads = 0);
  std::vector<Entry> entries() const override;
  bool has_gpu() const override { return false; }
  std::string device() const override;
  void begin(Results& header) override;
  Row run(const Job& job, const std::atomic<bool>& cancel) override;
  int threads() const { return threads_; }

 private:
  int threads_;
  // The last input (type, n): consecutive jobs at one n share it.
  std::string in_type_;
  std::int64_t in_n_ = -1;
  std::vector<unsigned char> in_, out_;
};

// The bench's minimum bytes per element of a primitive (for GB/s), 0 when unknown.
double min_bytes_per_elem(const std::string& primitive, const std::string& type);
std::size_t type_bytes(const std::string& type);

// Runs one CPU baseline once on `in` (n elements of `type`) into `out` (room for n elements
// and 256 counters); false when cancelled or unsupported. For the tests and the backend.
bool run_cpu_primitive(const std::string& primitive, const std::string& type, bool parallel, int threads,
                       const void* in, void* out, std::int64_t n, const std::atomic<bool>& cancel,
                       std::int64_t* out_count = nullptr);
// Fills `out` with n elements of `type` from the bench's seeded stream.
void fill_inputs(const std::string& type, void* out, std::int64_t n, std::uint64_t seed, int threads);

}  // namespace primlab::perf
