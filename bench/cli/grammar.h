// The one command-line grammar of the five tools (primlab, trace, render, perf, bench): CLI11
// parsing under the error rule (bad arguments: one line "tool: message" on stderr, exit code 2),
// one sizes parser ("4096", "2^12", "1<<12", ranges "2^10..2^28", lists "2^16,2^20"), one type
// vocabulary and one --list printer. It sits at the measuring engine's layer, the lowest one that
// every tool links (`bench` links no app code); app/tools/command_line.h adds the app's own checks.
//
// One flag name per concept, in every tool that takes the concept:
//   --algo  a stepped algorithm (a catalog row)      --prim  a measured primitive (scan_exclusive)
//   --impl  an implementation of a primitive          --type  an element type (u32, i32, f32, ...)
//   --n     sizes (one in step mode, lists/ranges in perf and bench; --n-factor for ranges)
//   --block threads per block   --items items per thread   --runs timed runs per row
//   --out   where the output goes (a file, a folder or a pattern)   --list  what the names can be
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/sizes.h"
#include "engine/table.h"
#include "lab/model/result.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace primlab::cli {

// [SECTION] Errors and parsing
// Prints "tool: message" as one line on stderr (control characters escaped) and returns `code`:
// 2 for bad arguments, 1 for a failure at run time.
int fail(const char* tool, const std::string& message, int code = 2);

// Parses argv into `app`. Returns the exit code when the program should stop now: 0 after --help
// (printed on stdout), 2 after a parse error (one line); nullopt to go on.
std::optional<int> parse(CLI::App& app, const char* tool, int argc, char** argv);

// Adds the option `names` ("--prim,--algo") whose first name is the current one and whose other
// names are old spellings, kept for one release: the help says so.
CLI::Option* add_renamed_option(CLI::App& app, const std::string& names, std::string& value,
                                const std::string& description);

// Checks that a file can be written at `path` (its folder exists and takes files; the path is not
// a folder), before any work. A failure with a one-line message otherwise.
Result check_output_file(const std::string& path);

// [SECTION] Element types
// The engine's type names (u8, i32, u32, f32, i64, f64, u64); "int", "uint" and "float" (the step
// tools' old names) are read as i32, u32 and f32.
bool parse_type_name(const std::string& text, bench::Type* out);
// A comma-separated list of types, or a one-line failure.
Result parse_types(const std::string& option, const std::string& text, std::vector<bench::Type>& out);

// Splits "a,b,,c" into its non-empty parts.
std::vector<std::string> split_list(const std::string& text);

// [SECTION] --list
// What a tool's names can be, as sections of aligned columns under a title; every tool's --list
// prints through print_list.
struct ListSection {
  std::string title;                            // "algorithms (--algo NAME)"
  std::vector<std::vector<std::string>> rows;  // columns; the last is not padded
};
void print_list(std::FILE* out, const std::vector<ListSection>& sections);
// The measuring engine's implementations: primitive, implementation, where it runs, its types and
// whether it takes --block and --items (perf and bench).
ListSection implementations_list(const bench::Table& table);

}  // namespace primlab::cli
