// Step-mode inputs: distributions, typed lists and size parsing, with one-line errors.
#include "lab/model/input.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <random>

namespace primlab {

const char* input_kind_name(InputKind k) {
  switch (k) {
    case InputKind::Random: return "random";
    case InputKind::Sorted: return "sorted";
    case InputKind::Reversed: return "reversed";
    case InputKind::AllEqual: return "all-equal";
    case InputKind::FewDistinct: return "few-distinct";
    case InputKind::Typed: return "typed";
  }
  return "?";
}

bool parse_input_kind(const std::string& s, InputKind& out) {
  for (int k = 0; k <= int(InputKind::Typed); ++k)
    if (s == input_kind_name(InputKind(k))) {
      out = InputKind(k);
      return true;
    }
  return false;
}

std::vector<std::uint32_t> make_input(InputKind kind, std::int32_t n, ElemType t, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<double> v(std::size_t(std::max(n, 0)));
  const bool is_float = t == ElemType::F32;
  auto draw = [&](int hi) { return double(std::uniform_int_distribution<int>(0, hi)(rng)); };
  for (auto& x : v) {
    switch (kind) {
      case InputKind::Random:
      case InputKind::Typed:
      case InputKind::Sorted:
      case InputKind::Reversed: x = is_float ? draw(39) / 4.0 : draw(9); break;
      case InputKind::AllEqual: x = 5; break;
      case InputKind::FewDistinct: x = is_float ? draw(2) * 2.5 : draw(2) * 3 + 1; break;
    }
  }
  if (kind == InputKind::Sorted) std::sort(v.begin(), v.end());
  if (kind == InputKind::Reversed) std::sort(v.rbegin(), v.rend());
  std::vector<std::uint32_t> w(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    w[i] = is_float ? to_word(float(v[i])) : std::uint32_t(std::int32_t(v[i]));
  return w;
}

Result parse_input_list(const std::string& text, ElemType t, std::vector<std::uint32_t>& out) {
  std::vector<std::uint32_t> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (std::isspace((unsigned char)text[i]) || text[i] == ',')) ++i;
    if (i >= text.size()) break;
    std::size_t j = i;
    while (j < text.size() && !std::isspace((unsigned char)text[j]) && text[j] != ',') ++j;
    const std::string tok = text.substr(i, j - i);
    errno = 0;
    char* end = nullptr;
    if (t == ElemType::F32) {
      float f = std::strtof(tok.c_str(), &end);
      if (end == tok.c_str() || *end != '\0') {
        return Result::failure("not a number: '" + tok + "'");
      }
      words.push_back(to_word(f));
    } else {
      long long v = std::strtoll(tok.c_str(), &end, 10);
      if (end == tok.c_str() || *end != '\0') {
        return Result::failure("not an integer: '" + tok + "'");
      }
      const long long lo = t == ElemType::I32 ? -2147483648LL : 0;
      const long long hi = t == ElemType::I32 ? 2147483647LL : 4294967295LL;
      if (errno == ERANGE || v < lo || v > hi) {
        return Result::failure("out of " + std::string(elem_type_name(t)) + " range: '" + tok + "'");
      }
      words.push_back(std::uint32_t(v));
    }
    i = j;
  }
  if (words.empty()) {
    return Result::failure("the list is empty");
  }
  out = std::move(words);
  return {};
}

Result parse_count(const std::string& text, std::int64_t& out) {
  auto parse_int = [&](const std::string& s, long long& v) {
    errno = 0;
    char* end = nullptr;
    v = std::strtoll(s.c_str(), &end, 10);
    return !s.empty() && end != s.c_str() && *end == '\0' && errno != ERANGE;
  };
  long long v = 0;
  std::size_t p;
  if ((p = text.find('^')) != std::string::npos || (p = text.find("<<")) != std::string::npos) {
    const bool caret = text[p] == '^';
    long long base = 0, e = 0;
    if (!parse_int(text.substr(0, p), base) || !parse_int(text.substr(p + (caret ? 1 : 2)), e) || e < 0 || e > 62) {
      return Result::failure("not a size: '" + text + "'");
    }
    if (caret && base != 2) {
      return Result::failure("only powers of two are accepted in '" + text + "'");
    }
    if (caret) base = 1;
    if (base < 0 || (base != 0 && e > 0 && base > (INT64_MAX >> e))) {
      return Result::failure("size out of range: '" + text + "'");
    }
    v = base << e;
  } else if (!parse_int(text, v)) {
    return Result::failure("not a size: '" + text + "'");
  }
  out = v;
  return {};
}

}  // namespace primlab
