// The app's command-line checks over the tools' one grammar (bench/cli/grammar.h, shared with
// `bench`: one-line errors with exit code 2, CLI11 parsing, sizes, --list): frame patterns, the
// backend, races, and the --list of the step tools (the window, `trace`, `render`).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cli/grammar.h"
#include "lab/model/result.h"

namespace primlab::ui {

using cli::check_output_file;
using cli::fail;
inline std::optional<int> parse_command_line(CLI::App& app, const char* tool, int argc, char** argv) {
  return cli::parse(app, tool, argc, argv);
}

// What --algo and --preset can be: every algorithm of the catalog and every preset (the step
// tools' --list, printed with cli::print_list).
std::vector<cli::ListSection> step_list();

// The path of frame `index` for a pattern with exactly one %d or %0Nd (N from 1 to 9), e.g.
// "frames/step_%03d.png"; "%%" stands for '%'. A failure with a one-line message for any other '%'.
Result frame_path(const std::string& pattern, int index, std::string& path);

// "--backend cuda" where no CUDA device can run: a failure that says why (it never falls back to
// the CPU silently); any other backend passes.
Result check_backend(const std::string& name);

// Splits "A,B" into two known algorithm names. A failure with a one-line message otherwise.
Result parse_race(const std::string& text, std::string& a, std::string& b);

}  // namespace primlab::ui
