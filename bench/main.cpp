// The `bench` command: times primlab, the teaching variants, CUB, Thrust and the CPU over a
// sweep, prints a table (ratio ours/CUB per row) and writes the results JSON.
//   bench --algo scan_exclusive,reduce_sum --type u32 --n 2^16,2^28 [--impl primlab,cub]
//         [--block 256] [--items 8] [--runs N] [--json FILE|auto] [--commit SHA] [--driver S]
//         [--list]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench.h"

using namespace primlab::bench;

namespace {

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

// "2^28", "2^10..2^16" (every power of two), "1000000".
bool parse_sizes(const std::string& s, std::vector<std::int64_t>* out) {
  auto one = [](const std::string& x, std::int64_t* v) {
    if (x.rfind("2^", 0) == 0) {
      const int e = std::atoi(x.c_str() + 2);
      if (e < 0 || e > 40) return false;
      *v = std::int64_t(1) << e;
      return true;
    }
    char* end = nullptr;
    *v = std::strtoll(x.c_str(), &end, 10);
    return end && *end == 0 && *v >= 0;
  };
  for (const std::string& part : split(s)) {
    const std::size_t dots = part.find("..");
    if (dots == std::string::npos) {
      std::int64_t v;
      if (!one(part, &v)) return false;
      out->push_back(v);
    } else {
      std::int64_t a, b;
      if (!one(part.substr(0, dots), &a) || !one(part.substr(dots + 2), &b) || a <= 0) return false;
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

}  // namespace

int main(int argc, char** argv) {
  SweepOptions o;
  std::string json, commit, driver;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--algo") o.primitives = split(next());
    else if (a == "--impl") o.impls = split(next());
    else if (a == "--type") {
      for (const std::string& t : split(next())) {
        Type ty;
        if (!parse_type(t, &ty)) {
          std::fprintf(stderr, "bench: unknown type %s\n", t.c_str());
          return 2;
        }
        o.types.push_back(ty);
      }
    } else if (a == "--n") {
      if (!parse_sizes(next(), &o.sizes)) {
        std::fprintf(stderr, "bench: bad --n (use 2^10..2^28, 2^16,2^28 or plain counts)\n");
        return 2;
      }
    } else if (a == "--block") o.block = std::atoi(next().c_str());
    else if (a == "--items") o.items = std::atoi(next().c_str());
    else if (a == "--runs") o.runs = std::atoi(next().c_str());
    else if (a == "--host-runs") o.host_runs = std::atoi(next().c_str());
    else if (a == "--host-max-n") o.host_max_n = std::atoll(next().c_str());
    else if (a == "--json") json = next();
    else if (a == "--commit") commit = next();
    else if (a == "--driver") driver = next();
    else if (a == "--list") list = true;
    else {
      std::fprintf(stderr, "usage: bench --algo A[,B] --type T[,U] --n 2^10..2^28 [--impl I[,J]] [--block B] "
                           "[--items K] [--runs R] [--json FILE|auto] [--commit SHA] [--driver S] [--list]\n");
      return 2;
    }
  }
  const BenchTable table = make_default_table();
  if (list) {
    for (const Impl& im : table) {
      std::printf("%-16s %-15s", im.primitive.c_str(), im.impl.c_str());
      for (Type t : im.types) std::printf(" %s", type_name(t));
      std::printf("%s%s\n", im.takes_block ? " [block]" : "", im.takes_items ? " [items]" : "");
    }
    return 0;
  }
  if (o.sizes.empty()) o.sizes = {std::int64_t(1) << 16, std::int64_t(1) << 24, std::int64_t(1) << 28};
  SweepResult r;
  r.commit = commit.empty() ? (std::getenv("PRIMLAB_COMMIT") ? std::getenv("PRIMLAB_COMMIT") : "unknown") : commit;
  r.driver = driver;
  o.on_row = [](const Row& row) {
    std::printf("%s\n", format_row(row).c_str());
    std::fflush(stdout);
  };
  const primlab::Status s = run_sweep(table, o, &r);
  if (s != primlab::Status::Success) {
    std::fprintf(stderr, "bench: %s\n", primlab::status_string(s));
    return 1;
  }
  std::printf("\n%s", format_table(r).c_str());
  if (!json.empty()) {
    if (json == "auto") json = "bench/results/" + slug(r.gpu) + "-" + r.date + ".json";
    std::string err;
    if (!write_json(r, json, &err)) {
      std::fprintf(stderr, "bench: %s\n", err.c_str());
      return 1;
    }
    std::printf("wrote %s\n", json.c_str());
  }
  return 0;
}
