// StepChoice inputs and the shared step options of the command-line tools.
#include "model/step_choice.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "cli/sizes.h"
#include "model/presets.h"

namespace primlab::ui {

Result make_choice_input(const StepChoice& c, std::vector<std::uint32_t>& out) {
  if (c.input == InputKind::Typed) {
    std::vector<std::uint32_t> v;
    if (Result r = parse_input_list(c.typed, c.cfg.type, v); !r.ok()) return r;
    if (v.size() > 4096) {
      return Result::failure("the list has " + std::to_string(v.size()) + " values; step mode takes at most 4096");
    }
    out = std::move(v);
    return {};
  }
  if (c.cfg.n < 1 || c.cfg.n > 4096) {
    return Result::failure("n must be between 1 and 4096 in step mode (got " + std::to_string(c.cfg.n) + ")");
  }
  out = make_input(c.input, c.cfg.n, c.cfg.type, c.seed);
  return {};
}

bool parse_size(const std::string& text, int min_w, int min_h, int& w, int& h) {
  int a = 0, b = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%dx%d%c", &a, &b, &extra) != 2 || a < min_w || b < min_h || a > 8192 || b > 8192)
    return false;
  w = a;
  h = b;
  return true;
}

namespace {

// The widest value any algorithm takes for an option (its row's limits); a value past it is out of
// range whatever the algorithm.
int widest_bins() {
  int most = 2;
  for (const Algorithm& a : algorithms())
    if (a.options & kOptBins) most = std::max(most, int(a.max_bins));
  return most;
}

int widest_variant() {
  int most = 0;
  for (const Algorithm& a : algorithms()) {
    if (!(a.options & kOptVariant) || !a.variant_names) continue;
    int names = 0;
    for (const char* p = a.variant_names; *p; p += std::strlen(p) + 1) ++names;
    most = std::max(most, names - 1);
  }
  return most;
}

}  // namespace

void add_step_options(CLI::App& app, StepOptions& o) {
  app.add_option("--preset", o.preset, "a named example input with its settings (--list names them)");
  app.add_option("--algo", o.algo, "the algorithm to step (--list names them)");
  app.add_option("--input", o.input, "a typed list of values, e.g. \"3 1 7 0 4 1 6 3\" (sets n)");
  app.add_option("--n", o.n, "number of elements: 1 to 4096, as 16, 2^4 or 1<<4 (ignored with --input)")
      ->each([&o](const std::string&) { o.n_given = true; });
  app.add_option("--dist", o.dist, "random, sorted, reversed, all-equal, few-distinct");
  app.add_option("--seed", o.seed, "seed of the random input (0 to 4294967295)");
  app.add_option("--type", o.type, "element type: i32, u32 or f32 (int, uint, float: the old names)");
  app.add_option("--block", o.block, "threads per block of the traced kernels: 1 to 1024 (or 2^K); a race: both sides")
      ->each([&o](const std::string&) { o.block_given = true; });
  app.add_flag("--inclusive", o.inclusive, "inclusive scan (default exclusive)");
  app.add_flag("--no-offsets", o.no_offsets, "shared-memory scan without the bank-conflict offsets");
  app.add_option("--digit-bits", o.digit_bits, "radix digit width in bits")->check(CLI::Range(2, 8));
  app.add_option("--bins", o.bins, "histogram bins, partitions or GPUs")
      ->check(CLI::Range(2, widest_bins()))
      ->each([&o](const std::string&) { o.bins_given = true; });
  app.add_option("--digit-start", o.digit_start, "radix partition: lowest bit of the digit")->check(CLI::Range(0, 31));
  app.add_option("--predicate", o.predicate, "compaction: 0 non-zero, 1 even, 2 greater than --threshold")
      ->check(CLI::Range(0, 2));
  app.add_option("--threshold", o.threshold, "compaction threshold (an int32)");
  app.add_option("--variant", o.variant, "algorithm sub-variant (--list names each algorithm's)")
      ->check(CLI::Range(0, widest_variant()));
  app.add_flag("--descending", o.descending, "sort descending");
  app.add_flag("--kv", o.key_value, "key-value pairs");
  app.add_option("--backend", o.backend, "auto, cpu or cuda");
}

Result resolve_step_options(const StepOptions& given, StepChoice& out) {
  const Preset* preset = given.preset.empty() ? nullptr : find_preset(given.preset);
  if (!given.preset.empty() && !preset) {
    return Result::failure("unknown preset '" + given.preset + "' (--list names them)");
  }
  const StepOptions& o = preset ? preset->options : given;
  StepChoice c;
  if (preset) c.preset = preset->name;
  const Algorithm* a = find_algorithm(o.algo);
  if (!a) return Result::failure("unknown algorithm '" + o.algo + "' (--list names them)");
  c.algo = o.algo;
  // One type vocabulary with perf and bench (i32, u32, f32); the step tools' old names stay.
  if (o.type == "i32" || o.type == "int" || o.type == "int32") c.cfg.type = ElemType::I32;
  else if (o.type == "u32" || o.type == "uint" || o.type == "uint32") c.cfg.type = ElemType::U32;
  else if (o.type == "f32" || o.type == "float") c.cfg.type = ElemType::F32;
  else {
    return Result::failure("--type: unknown type '" + o.type + "' (the step tools take i32, u32 or f32)");
  }
  std::int64_t v = 0;
  if (Result r = cli::parse_size("--block", o.block, 1, 1024, v); !r.ok()) return r;
  c.cfg.block = std::int32_t(v);
  if (o.input) {
    c.input = InputKind::Typed;
    c.typed = *o.input;
  } else {
    if (!parse_input_kind(o.dist, c.input) || c.input == InputKind::Typed) {
      return Result::failure("unknown --dist '" + o.dist + "' (random, sorted, reversed, all-equal, few-distinct)");
    }
    if (o.n.find(',') != std::string::npos || o.n.find("..") != std::string::npos)
      return Result::failure("--n: step mode takes one size (got '" + o.n + "'; lists and ranges are for perf and bench)");
    if (Result r = cli::parse_size("--n", o.n, 1, 4096, v); !r.ok()) return r;
    c.cfg.n = std::int32_t(v);
  }
  c.seed = o.seed;
  c.cfg.inclusive = o.inclusive;
  c.cfg.conflict_offsets = !o.no_offsets;
  c.cfg.digit_bits = o.digit_bits;
  c.cfg.bins = o.bins;
  c.cfg.digit_start = o.digit_start;
  c.cfg.predicate = o.predicate;
  c.cfg.threshold = o.threshold;
  c.cfg.variant = o.variant;
  c.cfg.descending = o.descending;
  c.cfg.key_value = o.key_value;
  c.cfg.seed = o.seed;
  if (o.backend != "auto" && o.backend != "cpu" && o.backend != "cuda") {
    return Result::failure("unknown --backend '" + o.backend + "' (auto, cpu or cuda)");
  }
  c.prefer_cuda = o.backend != "cpu";
  // What the command line leaves at its default is fitted to the row (a distributed sort takes 2-8
  // GPUs, the look-back scan blocks of 32 or 64); what it gives is checked as given.
  if (!o.bins_given || !o.block_given) {
    StepConfig fitted = c.cfg;
    fit_config(*a, fitted);
    if (!o.bins_given) c.cfg.bins = fitted.bins;
    if (!o.block_given) c.cfg.block = fitted.block;
  }
  std::vector<std::uint32_t> in;
  if (Result r = make_choice_input(c, in); !r.ok()) return r;
  c.cfg.n = std::int32_t(in.size());
  // The whole check of the row, planning included, so that a value the algorithm cannot take is
  // a bad argument here rather than a failure after the work started.
  Trace planned;
  if (Result r = plan_trace(*a, c.cfg, in, planned); !r.ok()) return r;
  out = c;
  return {};
}

}  // namespace primlab::ui
