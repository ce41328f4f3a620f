// Step-mode inputs: generated distributions and typed lists, as 32-bit words of the element type.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/result.h"
#include "lab/model/trace.h"

namespace primlab {

enum class InputKind : std::int32_t { Random = 0, Sorted, Reversed, AllEqual, FewDistinct, Typed };
const char* input_kind_name(InputKind k);
bool parse_input_kind(const std::string& s, InputKind& out);

// n words of type t. Random values are small (0..9, or quarters in [0, 10) for floats) so that
// the bars and labels stay readable; `seed` makes them reproducible.
std::vector<std::uint32_t> make_input(InputKind kind, std::int32_t n, ElemType t, std::uint32_t seed);

// Parses a typed list ("3 1 7 0", commas allowed). On error returns a failure whose one-line
// message names the offending token; `out` is left untouched.
Result parse_input_list(const std::string& text, ElemType t, std::vector<std::uint32_t>& out);

// Parses a size such as "4096", "2^12" or "1<<12"; a failure with a message on error or overflow.
Result parse_count(const std::string& text, std::int64_t& out);

}  // namespace primlab
