// The app's command-line checks: frame patterns, the backend, races, the step tools' --list.
#include "tools/command_line.h"

#include <cstring>

#include "lab/catalog.h"
#include "lab/run/backend.h"
#include "model/presets.h"

namespace primlab::ui {

std::vector<cli::ListSection> step_list() {
  cli::ListSection algos{"algorithms (--algo NAME, --race A,B)", {}};
  for (const Algorithm& a : algorithms()) {
    std::string text = std::string(a.title) + ": " + a.description;
    if ((a.options & kOptVariant) && a.variant_names) {
      text += " --variant";
      int k = 0;
      for (const char* v = a.variant_names; *v; v += std::strlen(v) + 1, ++k)
        text += (k ? "; " : " ") + std::to_string(k) + ": " + v;
    }
    algos.rows.push_back({a.name, "[" + std::string(a.family) + "]", text});
  }
  cli::ListSection named{"presets (--preset NAME)", {}};
  for (const Preset& p : presets()) named.rows.push_back({p.name, p.description});
  return {algos, named};
}

Result frame_path(const std::string& pattern, int index, std::string& path) {
  std::string out;
  int numbers = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    std::size_t j = i + 1, width = 0;
    if (j + 1 < pattern.size() && pattern[j] == '0' && pattern[j + 1] >= '1' && pattern[j + 1] <= '9') {
      width = std::size_t(pattern[j + 1] - '0');
      j += 2;
    }
    if (j >= pattern.size() || pattern[j] != 'd' || ++numbers > 1) {
      numbers = 0;
      break;
    }
    std::string digits = std::to_string(index);
    if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
    out += digits;
    i = j;
  }
  if (numbers != 1) {
    return Result::failure("a frame pattern takes exactly one %d or %0Nd, and %% for '%' (got '" + pattern + "')");
  }
  path = out;
  return {};
}

Result check_backend(const std::string& name) {
  if (name == "cuda" && !backend().cuda) return Result::failure("--backend cuda: " + backend().reason);
  return {};
}

Result parse_race(const std::string& text, std::string& a, std::string& b) {
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) return Result::failure("--race needs two algorithms A,B (got '" + text + "')");
  a = text.substr(0, comma);
  b = text.substr(comma + 1);
  for (const std::string* name : {&a, &b}) {
    if (!find_algorithm(*name)) {
      return Result::failure("--race: unknown algorithm '" + *name + "' (--list names them)");
    }
  }
  return {};
}

}  // namespace primlab::ui
