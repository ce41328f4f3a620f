// Presets from the embedded assets/presets.json.
#include "model/presets.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace primlab {
const char* presets_json();  // generated
}

namespace primlab::ui {
namespace {

// An integer field of type T, or `fallback` when absent. nlohmann's value<T>() would convert
// 2.5 or 1e300 silently (the latter is undefined behaviour), so anything not a whole number in
// T's range is an error.
template <class T>
T integer_field(const nlohmann::json& e, const char* key, T fallback) {
  const auto it = e.find(key);
  if (it == e.end()) return fallback;
  using L = std::numeric_limits<T>;
  bool fits = false;
  if (it->is_number_unsigned())
    fits = it->get<std::uint64_t>() <= std::uint64_t(L::max());
  else if (it->is_number_integer())
    fits = it->get<std::int64_t>() >= std::int64_t(L::min()) && it->get<std::int64_t>() <= std::int64_t(L::max());
  if (!fits) throw std::runtime_error(std::string("'") + key + "' must be a whole number in range");
  return it->is_number_unsigned() ? T(it->get<std::uint64_t>()) : T(it->get<std::int64_t>());
}

}  // namespace

Result parse_presets(const std::string& text, std::vector<Preset>& out) {
  using nlohmann::json;
  std::vector<Preset> v;
  try {
    const json j = json::parse(text);
    if (!j.is_array()) throw std::runtime_error("the presets file is not a JSON array");
    for (const json& e : j) {
      Preset p;
      p.name = e.at("name").get<std::string>();
      p.description = e.value("description", "");
      StepOptions& o = p.options;
      o.algo = e.at("algo").get<std::string>();
      if (e.contains("input")) o.input = e.at("input").get<std::string>();
      o.n = e.value("n", o.n);
      o.dist = e.value("dist", o.dist);
      o.type = e.value("type", o.type);
      o.block = e.value("block", o.block);
      o.seed = integer_field(e, "seed", o.seed);
      o.inclusive = e.value("inclusive", false);
      o.no_offsets = e.value("no_offsets", false);
      o.digit_bits = integer_field(e, "digit_bits", o.digit_bits);
      o.bins = integer_field(e, "bins", o.bins);
      o.bins_given = e.contains("bins");
      o.n_given = e.contains("n");
      o.block_given = e.contains("block");
      o.digit_start = integer_field(e, "digit_start", o.digit_start);
      o.predicate = integer_field(e, "predicate", o.predicate);
      o.threshold = integer_field(e, "threshold", o.threshold);
      o.variant = integer_field(e, "variant", o.variant);
      o.descending = e.value("descending", false);
      o.key_value = e.value("kv", false);
      v.push_back(std::move(p));
    }
  } catch (const std::exception& e) {
    return Result::failure(std::string("presets: ") + e.what());
  }
  out = std::move(v);
  return {};
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = [] {
    std::vector<Preset> v;
    static_cast<void>(parse_presets(presets_json(), v));  // a malformed file fails the CPU tests
    return v;
  }();
  return all;
}

const Preset* find_preset(const std::string& name) {
  for (const Preset& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<PresetGroup> presets_by_family() {
  std::vector<PresetGroup> groups;
  for (const Algorithm& a : algorithms())
    if (std::none_of(groups.begin(), groups.end(), [&](const PresetGroup& g) { return g.family == a.family; }))
      groups.push_back({a.family, {}});
  for (const Preset& p : presets())
    if (const Algorithm* a = find_algorithm(p.options.algo))
      for (PresetGroup& g : groups)
        if (g.family == a->family) g.presets.push_back(&p);
  groups.erase(std::remove_if(groups.begin(), groups.end(), [](const PresetGroup& g) { return g.presets.empty(); }),
               groups.end());
  return groups;
}

}  // namespace primlab::ui
