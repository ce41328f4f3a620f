// Command-line plumbing shared by the tools (the window, `trace`, `render`, `perf`): the project's
// error convention (one line "tool: message" on stderr, exit code 2), CLI11 parsing under that
// convention, and checks of the paths and patterns that users type.
#pragma once
#include <optional>
#include <string>

#include "lab/model/result.h"

namespace CLI {
class App;
}

namespace primlab::ui {

// Prints "tool: message" as one line on stderr (control characters and newlines escaped, so that
// whatever the user typed stays on the line) and returns `code`.
int fail(const char* tool, const std::string& message, int code = 2);

// Parses argv into `app`. Returns the exit code when the program should stop now: 0 after
// --help (printed on stdout), 2 after a parse error (one line); nullopt to go on.
std::optional<int> parse_command_line(CLI::App& app, const char* tool, int argc, char** argv);

// Checks that a file can be written at `path` (its folder exists and takes files; the path is not
// a folder). A failure with a one-line message otherwise.
Result check_output_file(const std::string& path);

// The path of frame `index` for a pattern with exactly one %d or %0Nd (N from 1 to 9), e.g.
// "frames/step_%03d.png"; "%%" stands for '%'. A failure with a one-line message for any other '%'.
Result frame_path(const std::string& pattern, int index, std::string& path);

// "--backend cuda" where no CUDA device can run: a failure that says why (it never falls back to
// the CPU silently); any other backend passes.
Result check_backend(const std::string& name);

// Splits "A,B" into two known algorithm names. A failure with a one-line message otherwise.
Result parse_race(const std::string& text, std::string& a, std::string& b);

}  // namespace primlab::ui
