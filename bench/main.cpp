// The `bench` command: times primlab, the lab's timed kernels, CUB, Thrust and the CPU over a
// sweep through the measuring engine, prints a table (ratio ours/CUB per row) and writes the
// results JSON.
//   bench --algo scan_exclusive,reduce_sum --type u32 --n 2^16,2^28 [--impl primlab,cub]
//         [--block 256] [--items 8] [--runs N] [--json FILE|auto] [--commit SHA] [--driver S]
//         [--list]
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/session.h"
#include "lab/error_line.h"
#include "lab/model/input.h"

using namespace primlab::bench;

namespace {

constexpr const char* kUsage =
    "usage: bench --algo A[,B] --type T[,U] --n 2^10..2^28 [--impl I[,J]] [--block B] [--items K] [--runs R] "
    "[--host-runs R] [--host-max-n N] [--json FILE|auto] [--commit SHA] [--driver S] [--list]";
constexpr std::int64_t kMaxN = std::int64_t(1) << 40;

int fail(const std::string& message, int code = 2) { return primlab::print_error_line("bench", message, code); }

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= s.size()) {
    std::size_t j = s.find(',', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// A whole decimal integer in [lo, hi].
bool parse_int(const std::string& s, std::int64_t lo, std::int64_t hi, std::int64_t* v) {
  errno = 0;
  char* end = nullptr;
  const long long x = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != 0 || errno == ERANGE || x < lo || x > hi) return false;
  *v = x;
  return true;
}

// "2^28", "1<<20", "1000000", and ranges "2^10..2^16" (every power of two); each n in [0, 2^40].
bool parse_sizes(const std::string& s, std::vector<std::int64_t>* out) {
  auto one = [](const std::string& x, std::int64_t* v) {
    return primlab::parse_count(x, *v).ok() && *v >= 0 && *v <= kMaxN;
  };
  for (const std::string& part : split(s)) {
    const std::size_t dots = part.find("..");
    if (dots == std::string::npos) {
      std::int64_t v;
      if (!one(part, &v)) return false;
      out->push_back(v);
    } else {
      std::int64_t a, b;
      if (!one(part.substr(0, dots), &a) || !one(part.substr(dots + 2), &b) || a <= 0 || a > b) return false;
      for (std::int64_t v = a; v <= b; v *= 2) out->push_back(v);
    }
  }
  return !out->empty();
}

std::string slug(const std::string& s) {
  std::string r;
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch))) r += char(std::tolower(static_cast<unsigned char>(ch)));
    else if (!r.empty() && r.back() != '-') r += '-';
  }
  while (!r.empty() && r.back() == '-') r.pop_back();
  return r;
}

// Every name must be in the table (as a primitive, or as an implementation).
bool check_names(const Table& table, const std::vector<std::string>& names, bool impl, std::string* bad) {
  for (const std::string& name : names) {
    bool found = false;
    for (const Impl& im : table) found = found || (impl ? im.impl : im.primitive) == name;
    if (!found) {
      *bad = name;
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  SweepOptions o;
  std::string json, commit, driver;
  bool list = false;
  const std::vector<std::string> with_value = {"--algo", "--impl", "--type", "--n", "--block", "--items", "--runs",
                                                "--host-runs", "--host-max-n", "--json", "--commit", "--driver"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("%s\n", kUsage);
      return 0;
    }
    if (a == "--list") {
      list = true;
      continue;
    }
    if (std::find(with_value.begin(), with_value.end(), a) == with_value.end())
      return fail("unknown argument '" + a + "' (--help shows the usage)");
    if (i + 1 >= argc) return fail(a + " needs a value");
    const std::string v = argv[++i];
    // An integer option's value, whole and in [lo, hi].
    auto integer = [&](std::int64_t lo, std::int64_t hi, auto* field) {
      std::int64_t x = 0;
      if (!parse_int(v, lo, hi, &x)) return false;
      *field = static_cast<std::remove_pointer_t<decltype(field)>>(x);
      return true;
    };
    bool ok = true;
    if (a == "--algo") o.primitives = split(v);
    else if (a == "--impl") o.impls = split(v);
    else if (a == "--type") {
      for (const std::string& t : split(v)) {
        Type ty;
        if (!parse_type(t, &ty)) return fail("unknown type '" + t + "' (u8, i32, u32, f32, i64, f64, u64)");
        o.types.push_back(ty);
      }
    } else if (a == "--n") {
      o.sizes.clear();
      ok = parse_sizes(v, &o.sizes);
    } else if (a == "--block") ok = integer(0, 1024, &o.settings.block);
    else if (a == "--items") ok = integer(0, 64, &o.settings.items);
    else if (a == "--runs") ok = integer(0, 100000, &o.settings.runs);
    else if (a == "--host-runs") ok = integer(0, 1000, &o.settings.host_runs);
    else if (a == "--host-max-n") ok = integer(0, kMaxN, &o.host_max_n);
    else if (a == "--json") json = v;
    else if (a == "--commit") commit = v;
    else if (a == "--driver") driver = v;
    if (!ok) return fail("bad " + a + " '" + v + "' (--help shows the usage)");
  }
  Session session;
  const Table& table = session.table();
  std::string bad;
  if (!check_names(table, o.primitives, false, &bad)) return fail("unknown --algo '" + bad + "' (bench --list)");
  if (!check_names(table, o.impls, true, &bad)) return fail("unknown --impl '" + bad + "' (bench --list)");
  if (list) {
    for (const Impl& im : table) {
      std::printf("%-22s %-16s", im.primitive.c_str(), im.impl.c_str());
      for (Type t : im.types) std::printf(" %s", type_name(t));
      std::printf("%s%s\n", im.takes_block ? " [block]" : "", im.takes_items ? " [items]" : "");
    }
    return 0;
  }
  if (!json.empty() && json != "auto") {
    std::error_code ec;
    const std::filesystem::path dir = std::filesystem::path(json).parent_path();
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
      return fail("no folder '" + dir.string() + "' for --json");
  }
  if (!session.has_device())
    for (const Impl& im : table)
      if (!im.on_host && (o.primitives.empty() || std::count(o.primitives.begin(), o.primitives.end(), im.primitive)) &&
          (o.impls.empty() || std::count(o.impls.begin(), o.impls.end(), im.impl)))
        return fail("no CUDA device: GPU rows need one (--impl cpu,cpu-par run without it)", 1);
  if (o.sizes.empty()) o.sizes = {std::int64_t(1) << 16, std::int64_t(1) << 24, std::int64_t(1) << 28};
  Results r;
  o.on_row = [](const Row& row) {
    std::printf("%s\n", format_row(row).c_str());
    std::fflush(stdout);
  };
  try {
    session.sweep(o, &r);
  } catch (const std::exception& e) {  // a host allocation the sweep could not make
    return fail(std::string("the sweep stopped: ") + e.what(), 1);
  }
  r.commit = commit.empty() ? (std::getenv("PRIMLAB_COMMIT") ? std::getenv("PRIMLAB_COMMIT") : "unknown") : commit;
  if (!driver.empty()) r.driver = driver;
  std::printf("\n%s", format_table(r).c_str());
  if (!json.empty()) {
    if (json == "auto") json = "bench/results/" + slug(r.gpu) + "-" + r.date + ".json";
    if (const primlab::Result w = write_json(r, json); !w.ok()) return fail(w.message(), 1);
    std::printf("wrote %s\n", json.c_str());
  }
  return 0;
}
