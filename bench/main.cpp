// The `bench` command: times primlab, the lab's timed kernels, CUB, Thrust and the CPU over a
// sweep through the measuring engine, prints a table (ratio ours/CUB per row) and writes the
// results JSON. Its command line is the tools' one grammar (cli/grammar.h).
//   bench --prim scan_exclusive,reduce_sum --type u32 --n 2^16,2^28 [--impl primlab,cub]
//         [--block 256] [--items 8] [--runs N] [--out FILE|auto] [--commit SHA] [--driver S] [--list]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "cli/grammar.h"
#include "engine/session.h"

using namespace primlab::bench;

namespace {

constexpr std::int64_t kMaxN = std::int64_t(1) << 40;

int fail(const std::string& message, int code = 2) { return primlab::cli::fail("bench", message, code); }

std::string slug(const std::string& s) {
  std::string r;
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch))) r += char(std::tolower(static_cast<unsigned char>(ch)));
    else if (!r.empty() && r.back() != '-') r += '-';
  }
  while (!r.empty() && r.back() == '-') r.pop_back();
  return r;
}

// The first name that is not in the table (as a primitive, or as an implementation); "" if none.
std::string unknown_name(const Table& table, const std::vector<std::string>& names, bool impl) {
  for (const std::string& name : names) {
    bool found = false;
    for (const Impl& im : table) found = found || (impl ? im.impl : im.primitive) == name;
    if (!found) return name;
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = primlab::cli;
  CLI::App app{"bench: time primlab, the lab's kernels, CUB, Thrust and the CPU; print a table, write JSON"};
  SweepOptions o;
  std::string prims, impls, types, sizes = "2^16,2^24,2^28", block = "0", host_max_n = "2^28", json, commit, driver;
  int factor = 2;
  bool list = false;
  cli::add_renamed_option(app, "--prim,--algo", prims, "primitives, comma-separated (default: every one; --list)");
  app.add_option("--impl", impls, "implementations, comma-separated (default: every one; --list)");
  app.add_option("--type", types, "element types, comma-separated: u8, i32, u32, f32, i64, f64, u64 (default: every one)");
  app.add_option("--n", sizes, "sizes: 4096, 2^20, 1<<20, ranges 2^10..2^28, lists 2^16,2^28 (0 to 2^40)");
  app.add_option("--n-factor", factor, "each n of a range is this many times the last: 2 or 4")
      ->check(CLI::IsMember({2, 4}));
  app.add_option("--block", block, "block size for the implementations that take one (0: default; up to 1024)");
  app.add_option("--items", o.settings.items, "items per thread for those that take it (0: default)")
      ->check(CLI::Range(0, 64));
  app.add_option("--runs", o.settings.runs, "GPU runs per row (0: automatic)")->check(CLI::Range(0, 100000));
  app.add_option("--host-runs", o.settings.host_runs, "CPU runs per row (0: automatic)")->check(CLI::Range(0, 1000));
  app.add_option("--host-max-n", host_max_n, "CPU rows above this n are skipped (a size, up to 2^40)");
  cli::add_renamed_option(app, "--out,--json", json, "write the results JSON to this file ('auto': bench/results/<gpu>-<date>.json)");
  app.add_option("--commit", commit, "the commit to record (default: $PRIMLAB_COMMIT)");
  app.add_option("--driver", driver, "the driver version to record");
  app.add_flag("--list", list, "list the primitives and implementations and exit");
  if (auto code = cli::parse(app, "bench", argc, argv)) return *code;
  o.primitives = cli::split_list(prims);
  o.impls = cli::split_list(impls);
  std::int64_t v = 0;
  primlab::Result checked = cli::parse_sizes("--n", sizes, 0, kMaxN, factor, o.sizes);
  if (checked.ok() && !types.empty()) checked = cli::parse_types("--type", types, o.types);
  if (checked.ok()) checked = cli::parse_size("--block", block, 0, 1024, v);
  o.settings.block = int(v);
  if (checked.ok()) checked = cli::parse_size("--host-max-n", host_max_n, 0, kMaxN, o.host_max_n);
  if (checked.ok() && !json.empty() && json != "auto") checked = cli::check_output_file(json);
  if (!checked.ok()) return fail(checked.message());
  Session session;
  const Table& table = session.table();
  if (list) {
    cli::print_list(stdout, {cli::implementations_list(table)});
    return 0;
  }
  if (const std::string bad = unknown_name(table, o.primitives, false); !bad.empty()) {
    const bool is_impl = unknown_name(table, {bad}, true).empty();
    return fail("unknown --prim '" + bad + "'" + (is_impl ? " (an implementation: --impl " + bad + ")" : " (bench --list)"));
  }
  if (const std::string bad = unknown_name(table, o.impls, true); !bad.empty())
    return fail("unknown --impl '" + bad + "' (bench --list)");
  if (!session.has_device())
    for (const Impl& im : table)
      if (!im.on_host && (o.primitives.empty() || std::count(o.primitives.begin(), o.primitives.end(), im.primitive)) &&
          (o.impls.empty() || std::count(o.impls.begin(), o.impls.end(), im.impl)))
        return fail("no CUDA device: GPU rows need one (--impl cpu,cpu-par run without it)", 1);
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
