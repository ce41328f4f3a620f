// The benchmark results format: JSON writing and reading.
#include "engine/results_json.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdint>

namespace primlab::results {

std::string to_json(const Results& r) {
  nlohmann::json j;
  j["gpu"] = r.gpu;
  j["cuda"] = r.cuda_version;
  j["cuda_version"] = r.cuda_version;
  j["driver"] = r.driver;
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

bool parse_json(const std::string& text, Results* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return fail("not JSON");
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array())
    return fail("not a bench result (no \"results\" array)");
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
  r.cuda_version = str(j, "cuda_version");
  if (r.cuda_version.empty()) r.cuda_version = str(j, "cuda");
  r.driver = str(j, "driver");
  r.commit = str(j, "commit");
  r.date = str(j, "date");
  r.copy_gbps = num(j, "copy_gbps");
  for (const auto& o : j["results"]) {
    if (!o.is_object()) return fail("a result that is not an object");
    Row x;
    x.primitive = str(o, "primitive");
    x.impl = str(o, "impl");
    x.type = str(o, "type");
    if (x.primitive.empty() || x.impl.empty() || !o.contains("n")) return fail("a result without primitive, impl or n");
    std::int64_t block = 0, items = 0, runs = 0;
    if (!count(o, "n", INT64_MAX, &x.n) || !count(o, "block", INT_MAX, &block) ||
        !count(o, "items_per_thread", INT_MAX, &items) || !count(o, "runs", INT_MAX, &runs))
      return fail("a result whose n, block, items_per_thread or runs is not a whole number >= 0");
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
  return true;
}

}  // namespace primlab::results
