// The engine's results: one header (gpu, host, CUDA version, driver, CUB version, commit, date, copy
// bandwidth) and rows {primitive, impl, type, n, median_ms, p10_ms, p90_ms, items_per_s, gbps, ...},
// with their JSON (bench/results/*.json) and text table. `bench` writes them; the Performance tab
// writes them and reads them back as a baseline. Plain C++.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/result.h"

namespace primlab::bench {

struct Row {
  std::string primitive, impl, type;  // type as the engine spells it: "u32"
  std::int64_t n = 0;
  int block = 0, items = 0;  // 0: the implementation's default (or it takes none)
  int runs = 0;
  double median_ms = 0, p10_ms = 0, p90_ms = 0;
  double items_per_s = 0, gbps = 0;
  double ratio_to_cub = 0;  // the faster CUB's median / this median (> 1: faster than CUB); 0: no cub row
  std::string error;        // non-empty when the run failed or was skipped (the reason)
  bool ok() const { return error.empty() && median_ms > 0; }
};

struct Results {
  std::string gpu, cuda_version, driver, cub, commit, date;  // cub: the toolkit's CUB version ("3.0.1")
  std::string host;       // the machine's host name and CPU threads ("lab-07, 2 CPU threads"); empty in older files
  std::string cub_newer;  // the newer CUB beside it (rows "cub-3.6"), empty when none was built
  double copy_gbps = 0;  // copy bandwidth (read + write) of the device the rows ran on, 0 when unknown
  std::vector<Row> rows;
};

// Sets every row's ratio_to_cub from the fastest CUB row ("cub", or a newer CUB's "cub-X.Y") of the
// same (primitive, type, n).
void compute_ratios(std::vector<Row>& rows);

std::string to_json(const Results& r);
// Parses the format; a failure with a message on malformed input (`out` untouched). Rows of files
// written before the lab's kernels took their catalog names get those names ("naive" of
// scan_exclusive reads as "scan-naive"); other unknown names are kept as they are.
Result parse_json(const std::string& text, Results* out);
Result write_json(const Results& r, const std::string& path);
Result read_json(const std::string& path, Results* out);  // failures name the path
Result write_file(const std::string& path, const std::string& text);

// A fixed-width text table of the rows (with the ratio to CUB), and one row of it.
std::string format_table(const Results& r);
std::string format_row(const Row& row);

}  // namespace primlab::bench
