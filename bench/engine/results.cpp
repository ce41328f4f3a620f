// The engine's results: ratios, JSON writing and reading, the text table.
#include "engine/results.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace primlab::bench {
namespace {

// The lab's timed kernels as files written before they took their catalog names call them.
struct Rename {
  const char *primitive, *before, *name;
};
constexpr Rename kRenamed[] = {
    {"scan_exclusive", "naive", "scan-naive"},          {"scan_exclusive", "blelloch", "scan-blelloch"},
    {"scan_exclusive", "shared", "scan-shared"},        {"histogram_even", "global-atomic", "histogram-atomic"},
    {"histogram_even", "shared-atomic", "histogram-shared"}, {"sort_keys", "teaching_split_radix", "radix-split"},
    {"bitonic_sort_keys", "teaching_bitonic_global", "bitonic-sort"},
};

std::string catalog_name(const std::string& primitive, const std::string& impl) {
  for (const Rename& r : kRenamed)
    if (primitive == r.primitive && impl == r.before) return r.name;
  return impl;
}

}  // namespace

void compute_ratios(std::vector<Row>& rows) {
  std::map<std::string, double> cub;
  auto key = [](const Row& x) { return x.primitive + "|" + x.type + "|" + std::to_string(x.n); };
  for (const Row& x : rows) {
    if ((x.impl != "cub" && x.impl.rfind("cub-", 0) != 0) || !x.ok()) continue;
    auto [it, fresh] = cub.emplace(key(x), x.median_ms);
    if (!fresh) it->second = std::min(it->second, x.median_ms);
  }
  for (Row& x : rows) {
    x.ratio_to_cub = 0;
    auto it = cub.find(key(x));
    if (it != cub.end() && x.ok()) x.ratio_to_cub = it->second / x.median_ms;
  }
}

std::string to_json(const Results& r) {
  nlohmann::json j;
  j["gpu"] = r.gpu;
  if (!r.host.empty()) j["host"] = r.host;
  j["cuda"] = r.cuda_version;
  j["cuda_version"] = r.cuda_version;
  j["driver"] = r.driver;
  if (!r.cub.empty()) j["cub"] = r.cub;
  if (!r.cub_newer.empty()) j["cub_newer"] = r.cub_newer;
  j["commit"] = r.commit;
  j["date"] = r.date;
  j["copy_gbps"] = r.copy_gbps;
  nlohmann::json rows = nlohmann::json::array();
  for (const Row& x : r.rows) {
    nlohmann::json o;
    o["primitive"] = x.primitive;
    o["impl"] = x.impl;
    o["type"] = x.type;
    o["n"] = x.n;
    o["median_ms"] = x.median_ms;
    o["p10_ms"] = x.p10_ms;
    o["p90_ms"] = x.p90_ms;
    o["items_per_s"] = x.items_per_s;
    o["gbps"] = x.gbps;
    if (x.ratio_to_cub > 0) o["ratio_to_cub"] = x.ratio_to_cub;
    if (x.block) o["block"] = x.block;
    if (x.items) o["items_per_thread"] = x.items;
    o["runs"] = x.runs;
    if (!x.error.empty()) o["error"] = x.error;
    rows.push_back(o);
  }
  j["results"] = rows;
  return j.dump(1) + "\n";
}

Result parse_json(const std::string& text, Results* out) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return Result::failure("not JSON");
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array())
    return Result::failure("not a bench result (no \"results\" array)");
  Results r;
  auto str = [](const nlohmann::json& o, const char* k) {
    return o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string();
  };
  auto num = [](const nlohmann::json& o, const char* k) {
    return o.contains(k) && o[k].is_number() ? o[k].get<double>() : 0.0;
  };
  // A whole number in [0, max] (0 when absent). Converting a double such as 1e300 to int would
  // be undefined behaviour, and a wrapped-around unsigned would read as a negative count.
  auto count = [](const nlohmann::json& o, const char* k, std::int64_t max, std::int64_t* v) {
    *v = 0;
    if (!o.contains(k)) return true;
    const nlohmann::json& x = o[k];
    if (!x.is_number_integer()) return false;
    if (x.is_number_unsigned()) {
      if (x.get<std::uint64_t>() > std::uint64_t(max)) return false;
      *v = std::int64_t(x.get<std::uint64_t>());
    } else {
      *v = x.get<std::int64_t>();
    }
    return *v >= 0 && *v <= max;
  };
  r.gpu = str(j, "gpu");
  r.host = str(j, "host");
  r.cuda_version = str(j, "cuda_version");
  if (r.cuda_version.empty()) r.cuda_version = str(j, "cuda");
  r.driver = str(j, "driver");
  r.cub = str(j, "cub");
  r.cub_newer = str(j, "cub_newer");
  r.commit = str(j, "commit");
  r.date = str(j, "date");
  r.copy_gbps = num(j, "copy_gbps");
  for (const auto& o : j["results"]) {
    if (!o.is_object()) return Result::failure("a result that is not an object");
    Row x;
    x.primitive = str(o, "primitive");
    x.impl = catalog_name(str(o, "primitive"), str(o, "impl"));
    x.type = str(o, "type");
    if (x.primitive.empty() || x.impl.empty() || !o.contains("n"))
      return Result::failure("a result without primitive, impl or n");
    std::int64_t block = 0, items = 0, runs = 0;
    if (!count(o, "n", INT64_MAX, &x.n) || !count(o, "block", INT_MAX, &block) ||
        !count(o, "items_per_thread", INT_MAX, &items) || !count(o, "runs", INT_MAX, &runs))
      return Result::failure("a result whose n, block, items_per_thread or runs is not a whole number >= 0");
    x.block = int(block);
    x.items = int(items);
    x.runs = int(runs);
    x.median_ms = num(o, "median_ms");
    x.p10_ms = num(o, "p10_ms");
    x.p90_ms = num(o, "p90_ms");
    x.items_per_s = num(o, "items_per_s");
    x.gbps = num(o, "gbps");
    x.ratio_to_cub = num(o, "ratio_to_cub");
    x.error = str(o, "error");
    r.rows.push_back(std::move(x));
  }
  *out = std::move(r);
  return {};
}

Result write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) return Result::failure("cannot open " + path + " for writing");
  f << text;
  if (!f) return Result::failure("cannot write " + path);
  return {};
}

Result write_json(const Results& r, const std::string& path) { return write_file(path, to_json(r)); }

Result read_json(const std::string& path, Results* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Result::failure("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  if (Result r = parse_json(ss.str(), out); !r.ok()) return Result::failure(path + ": " + r.message());
  return {};
}

// [SECTION] Text
std::string format_row(const Row& x) {
  char buf[256];
  char ratio[16] = "";
  if (x.ratio_to_cub > 0) std::snprintf(ratio, sizeof ratio, "%.2f", x.ratio_to_cub);
  std::snprintf(buf, sizeof buf, "%-16s %-16s %-4s %11lld %10.4f %10.4f %10.4f %9.2f %8.1f %6s %s",
                x.primitive.c_str(), x.impl.c_str(), x.type.c_str(), (long long)x.n, x.median_ms, x.p10_ms,
                x.p90_ms, x.items_per_s / 1e9, x.gbps, ratio, x.error.c_str());
  return buf;
}

std::string format_table(const Results& r) {
  std::ostringstream s;
  char head[256];
  std::snprintf(head, sizeof head, "%-16s %-16s %-4s %11s %10s %10s %10s %9s %8s %6s\n", "primitive", "impl", "type",
                "n", "median_ms", "p10_ms", "p90_ms", "G_items/s", "GB/s", "xCUB");
  s << "gpu " << r.gpu;
  if (!r.cuda_version.empty()) s << ", CUDA " << r.cuda_version;
  if (!r.driver.empty()) s << ", " << r.driver;
  if (!r.cub.empty()) s << ", CUB " << r.cub;
  if (!r.cub_newer.empty()) s << " and " << r.cub_newer;
  s << ", copy " << r.copy_gbps << " GB/s\n" << head;
  for (const Row& x : r.rows) s << format_row(x) << "\n";
  return s.str();
}

}  // namespace primlab::bench
