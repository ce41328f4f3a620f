// Presets from the embedded assets/presets.json.
#include "cli/presets.h"

#include <nlohmann/json.hpp>

namespace primlab {
const char* presets_json();  // generated
}

namespace primlab::ui {

bool parse_presets(const std::string& text, std::vector<Preset>& out, std::string& error) {
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
      o.input = e.value("input", "");
      o.n = e.value("n", o.n);
      o.dist = e.value("dist", o.dist);
      o.type = e.value("type", o.type);
      o.block = e.value("block", o.block);
      o.seed = e.value("seed", o.seed);
      o.inclusive = e.value("inclusive", false);
      o.no_offsets = e.value("no_offsets", false);
      o.digit_bits = e.value("digit_bits", o.digit_bits);
      o.bins = e.value("bins", o.bins);
      o.digit_start = e.value("digit_start", o.digit_start);
      o.predicate = e.value("predicate", o.predicate);
      o.threshold = e.value("threshold", o.threshold);
      o.variant = e.value("variant", o.variant);
      o.descending = e.value("descending", false);
      o.key_value = e.value("kv", false);
      v.push_back(std::move(p));
    }
  } catch (const std::exception& e) {
    error = std::string("presets: ") + e.what();
    return false;
  }
  out = std::move(v);
  return true;
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = [] {
    std::vector<Preset> v;
    std::string error;
    parse_presets(presets_json(), v, error);
    return v;
  }();
  return all;
}

const Preset* find_preset(const std::string& name) {
  for (const Preset& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace primlab::ui
