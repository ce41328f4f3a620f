// The benchmark results format (bench/results/*.json): one header (gpu, CUDA version, driver,
// commit, date, copy bandwidth) and rows {primitive, impl, type, n, median_ms, p10_ms, p90_ms,
// items_per_s, gbps, ...}. Plain C++ (no CUDA), shared by the `bench` command, which writes it,
// and the Performance tab, which writes it and reads it back as a baseline.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace primlab::results {

struct Row {
  std::string primitive, impl, type;
  std::int64_t n = 0;
  int block = 0, items = 0;  // 0: the implementation's default (or it takes none)
  int runs = 0;
  double median_ms = 0, p10_ms = 0, p90_ms = 0;
  double items_per_s = 0, gbps = 0;
  double ratio_to_cub = 0;  // cub median / this median (> 1: faster than CUB); 0 when no cub row
  std::string error;        // non-empty when the run failed or was skipped (the reason)
  bool ok() const { return error.empty() && median_ms > 0; }
};

struct Results {
  std::string gpu, cuda_version, driver, commit, date;
  double copy_gbps = 0;  // device-to-device copy bandwidth (read + write), 0 when unknown
  std::vector<Row> rows;
};

std::string to_json(const Results& r);
// Parses the format; false with a message on malformed input (`out` untouched).
bool parse_json(const std::string& text, Results* out, std::string* error);

}  // namespace primlab::results
