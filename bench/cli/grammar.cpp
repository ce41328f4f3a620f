// The tools' one command-line grammar: CLI11 under the error rule, sizes, types and --list.
#include "cli/grammar.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lab/error_line.h"

namespace primlab::cli {

// [SECTION] Errors and parsing
int fail(const char* tool, const std::string& message, int code) { return print_error_line(tool, message, code); }

std::optional<int> parse(CLI::App& app, const char* tool, int argc, char** argv) {
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

CLI::Option* add_renamed_option(CLI::App& app, const std::string& names, std::string& value,
                                const std::string& description) {
  std::string old;
  for (std::size_t i = names.find(','); i != std::string::npos; i = names.find(',', i + 1)) {
    const std::size_t j = names.find(',', i + 1);
    old += (old.empty() ? "" : ", ") + names.substr(i + 1, j == std::string::npos ? std::string::npos : j - i - 1);
  }
  return app.add_option(names, value, description + (old.empty() ? "" : " (" + old + ": the old name, kept for one release)"));
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

// [SECTION] Element types
bool parse_type_name(const std::string& text, bench::Type* out) {
  const std::string name = text == "int" ? "i32" : text == "uint" ? "u32" : text == "float" ? "f32" : text;
  return bench::parse_type(name, out);
}

Result parse_types(const std::string& option, const std::string& text, std::vector<bench::Type>& out) {
  std::vector<bench::Type> types;
  for (const std::string& t : split_list(text)) {
    bench::Type ty;
    if (!parse_type_name(t, &ty))
      return Result::failure(option + ": unknown type '" + t + "' (u8, i32, u32, f32, i64, f64, u64)");
    types.push_back(ty);
  }
  if (types.empty() || text.back() == ',' || text.front() == ',')
    return Result::failure(option + ": '" + text + "' is not a list of types (e.g. u32 or u32,f32)");
  out = std::move(types);
  return {};
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= text.size()) {
    std::size_t j = text.find(',', i);
    if (j == std::string::npos) j = text.size();
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// [SECTION] --list
void print_list(std::FILE* out, const std::vector<ListSection>& sections) {
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const ListSection& sec = sections[s];
    std::vector<std::size_t> width;
    for (const auto& row : sec.rows)
      for (std::size_t c = 0; c + 1 < row.size(); ++c) {
        if (width.size() <= c) width.resize(c + 1, 0);
        width[c] = std::max(width[c], row[c].size());
      }
    std::fprintf(out, "%s%s:\n", s ? "\n" : "", sec.title.c_str());
    for (const auto& row : sec.rows) {
      std::string line = " ";
      for (std::size_t c = 0; c < row.size(); ++c) {
        line += " " + row[c];
        if (c + 1 < row.size()) line.append(width[c] - row[c].size(), ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      std::fprintf(out, "%s\n", line.c_str());
    }
  }
}

ListSection implementations_list(const bench::Table& table) {
  ListSection sec{"implementations (--prim PRIMITIVE --impl IMPL --type TYPE)", {}};
  for (const bench::Impl& im : table) {
    std::string types;
    for (bench::Type t : im.types) types += (types.empty() ? "" : ",") + std::string(bench::type_name(t));
    std::string takes = std::string(im.takes_block ? "--block " : "") + (im.takes_items ? "--items" : "");
    while (!takes.empty() && takes.back() == ' ') takes.pop_back();
    sec.rows.push_back({im.primitive, im.impl, im.on_host ? "CPU" : "GPU", types, takes});
  }
  return sec;
}

}  // namespace primlab::cli
