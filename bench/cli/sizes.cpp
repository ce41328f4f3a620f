// The tools' one sizes parser (cli/sizes.h).
#include "cli/sizes.h"

#include <algorithm>

#include "lab/model/input.h"

namespace primlab::cli {

std::string size_text(std::int64_t n) {
  if (n > 65536 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((std::int64_t(1) << k) < n) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(n);
}

Result parse_size(const std::string& option, const std::string& text, std::int64_t lo, std::int64_t hi,
                  std::int64_t& out) {
  std::int64_t v = 0;
  if (!parse_count(text, v).ok())
    return Result::failure(option + ": '" + text + "' is not a size (a number, 2^K or 1<<K)");
  if (v < lo || v > hi)
    return Result::failure(option + ": '" + text + "' is out of range (" + size_text(lo) + " to " + size_text(hi) + ")");
  out = v;
  return {};
}

Result parse_sizes(const std::string& option, const std::string& text, std::int64_t lo, std::int64_t hi,
                   int factor, std::vector<std::int64_t>& out) {
  std::vector<std::int64_t> sizes;
  auto add = [&](std::int64_t v) {
    if (std::find(sizes.begin(), sizes.end(), v) == sizes.end()) sizes.push_back(v);
  };
  if (text.find_first_not_of(", ") == std::string::npos)
    return Result::failure(option + ": no size given (e.g. 4096, 2^20, 2^10..2^28 or 2^16,2^20)");
  std::size_t i = 0;
  while (i <= text.size()) {
    std::size_t j = text.find(',', i);
    if (j == std::string::npos) j = text.size();
    const std::string part = text.substr(i, j - i);
    i = j + 1;
    if (part.empty()) continue;
    const std::size_t dots = part.find("..");
    if (dots == std::string::npos) {
      std::int64_t v = 0;
      if (Result r = parse_size(option, part, lo, hi, v); !r.ok()) return r;
      add(v);
      continue;
    }
    std::int64_t a = 0, b = 0;
    if (Result r = parse_size(option, part.substr(0, dots), std::max<std::int64_t>(lo, 1), hi, a); !r.ok()) return r;
    if (Result r = parse_size(option, part.substr(dots + 2), lo, hi, b); !r.ok()) return r;
    if (a > b) return Result::failure(option + ": the range '" + part + "' runs backwards");
    for (std::int64_t v = a; v < b; v = v > b / factor ? b : v * factor) add(v);
    add(b);
  }
  out = std::move(sizes);
  return {};
}

}  // namespace primlab::cli
