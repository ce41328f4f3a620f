// Command-line plumbing shared by the tools: one-line errors, CLI11 parsing, output paths.
#include "tools/command_line.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "lab/catalog.h"
#include "lab/error_line.h"
#include "lab/run/backend.h"

namespace primlab::ui {

int fail(const char* tool, const std::string& message, int code) {
  return print_error_line(tool, message, code);
}

std::optional<int> parse_command_line(CLI::App& app, const char* tool, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help: the help text, exit 0
    std::string what = e.what();
    // CLI11 says "Could not convert: --seed = -1"; say what the option takes instead.
    const std::string prefix = "Could not convert: ", eq = " = ";
    const std::size_t at = what.find(eq);
    if (dynamic_cast<const CLI::ConversionError*>(&e) && what.rfind(prefix, 0) == 0 && at != std::string::npos)
      what = what.substr(prefix.size(), at - prefix.size()) + ": '" + what.substr(at + eq.size()) +
             "' is not a value this option takes";
    return fail(tool, what + " (--help lists the options)");
  }
  return std::nullopt;
}

Result check_output_file(const std::string& path) {
  // Opening the file is the only test that covers every case (a missing or read-only folder, a
  // folder in the way, a file system that takes no new files); a file that was not there before
  // is removed again.
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (!f) return Result::failure("cannot write '" + path + "': " + std::strerror(errno));
  std::fclose(f);
  if (!existed) std::filesystem::remove(path, ec);
  return {};
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
      return Result::failure("--race: unknown algorithm '" + *name + "' (trace --list names them)");
    }
  }
  return {};
}

}  // namespace primlab::ui
