// The tools' one sizes parser ("4096", "2^12", "1<<12", ranges "2^10..2^28", lists "2^16,2^20"),
// part of their one command-line grammar (cli/grammar.h includes it). On its own so that the step
// options (app/model/step_choice, which the Python package shares) read sizes as every tool does
// without linking the measuring engine.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/result.h"

namespace primlab::cli {

// One size in [lo, hi]: "4096", "2^12" or "1<<12". `option` names the flag in the message.
Result parse_size(const std::string& option, const std::string& text, std::int64_t lo, std::int64_t hi,
                  std::int64_t& out);
// Sizes: a comma-separated list of sizes and ranges "A..B" (A, A*factor, A*factor^2, ... and B),
// each in [lo, hi], in the order given, each once. A failure names the part that is wrong.
Result parse_sizes(const std::string& option, const std::string& text, std::int64_t lo, std::int64_t hi,
                   int factor, std::vector<std::int64_t>& out);
// "2^20" for powers of two above 2^16, else the decimal number ("4096").
std::string size_text(std::int64_t n);

}  // namespace primlab::cli
