// The registry: one table of every stepped algorithm, read by the app, the tests and the CLI.
// Adding an algorithm is one stepper file per backend and one row here.
#include "lab/catalog.h"
#include "lab/catalog/families.h"

namespace primlab {
namespace {

// One registration function per family, in menu order (kernels/lab/catalog/<family>.cpp).
const std::vector<Algorithm> kAlgorithms = [] {
  std::vector<Algorithm> v;
  registry::add_scans(v);
  registry::add_reductions(v);
  registry::add_compaction(v);
  registry::add_histograms(v);
  registry::add_bitonic(v);
  registry::add_radix_sorts(v);
  registry::add_partitions(v);
  return v;
}();

}  // namespace

const std::vector<Algorithm>& algorithms() { return kAlgorithms; }

const Algorithm* find_algorithm(const std::string& name) {
  for (const Algorithm& a : kAlgorithms)
    if (name == a.name) return &a;
  return nullptr;
}

std::string validate(const Algorithm& a, const StepConfig& cfg) {
  if (cfg.n < 1 || cfg.n > a.max_n)
    return "n must be between 1 and " + std::to_string(a.max_n) + " in step mode (got " + std::to_string(cfg.n) + ")";
  if (cfg.block < a.min_block || cfg.block > a.max_block)
    return "block size must be between " + std::to_string(a.min_block) + " and " + std::to_string(a.max_block);
  if (a.block_pow2 && (cfg.block & (cfg.block - 1)) != 0)
    return std::string(a.name) + " needs a power-of-two block size (got " + std::to_string(cfg.block) + ")";
  if (cfg.type == ElemType::F32 && !(a.options & kOptFloat)) return std::string(a.name) + " does not take floats";
  if (cfg.type == ElemType::U32 && !(a.options & kOptU32)) return std::string(a.name) + " does not take uint32";
  return "";
}

namespace {
std::string plan_checked(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                         Trace& t) {
  if (std::string e = validate(a, cfg); !e.empty()) return e;
  if (input.size() != std::size_t(cfg.n)) return "the input has " + std::to_string(input.size()) + " values, n is " +
                                                 std::to_string(cfg.n);
  t = Trace{};
  t.algo = a.name;
  t.type = cfg.type;
  t.n = cfg.n;
  t.block = cfg.block;
  StepConfig with_input = cfg;
  with_input.input = &input;  // some plans size themselves from the data (radix-split's bit count)
  if (std::string e = a.plan(with_input, t); !e.empty()) return e;
  t.allocate();
  return "";
}
}  // namespace

std::string build_trace_cpu(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                            Trace& out) {
  Trace t;
  if (std::string e = plan_checked(a, cfg, input, t); !e.empty()) return e;
  a.run_cpu(cfg, input, t);
  out = std::move(t);
  return "";
}

std::string plan_trace(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                       Trace& out) {
  return plan_checked(a, cfg, input, out);
}

}  // namespace primlab
