// The lab's catalog: one row (Algorithm) per algorithm, with its stepped form (plan, CPU reference
// stepper, and the CUDA stepped form, which runs the algorithm's own kernels with a recording
// probe: both fill the same planned Trace, which tests compare bit for bit) and its timed large-n
// form (TimedForm, the same kernels with NoProbe), one set of limits and its options. The Step tab, trace,
// render, the bench, the Performance tab and the tests all read it; lab calls that can fail return
// a Result (lab/model/result.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/forms.h"
#include "lab/model/result.h"
#include "lab/model/trace.h"
#include "primlab/status.h"

namespace primlab {

// Which StepConfig fields an algorithm reads (the UI shows only those).
enum StepOption : unsigned {
  kOptInclusive = 1u << 0,
  kOptConflictOffsets = 1u << 1,
  kOptFloat = 1u << 2,        // supports F32 elements
  kOptDigitBits = 1u << 3,
  kOptBins = 1u << 4,
  kOptPredicate = 1u << 5,
  kOptDescending = 1u << 6,
  kOptKeyValue = 1u << 7,
  kOptU32 = 1u << 8,          // supports U32 elements
  kOptVariant = 1u << 9,
  kOptDigitStart = 1u << 10,  // reads digit_start
};

// An algorithm's timed large-n form (its folder's <algo>.cu: the kernels of <algo>.cuh with NoProbe).
struct TimedForm {
  const char* primitive = nullptr;          // the engine's primitive: "scan_exclusive", "reduce_sum",
                                            // "histogram_even", "sort_keys", "bitonic_sort_keys";
                                            // null: no timed form
  std::vector<std::string> types;           // element types it runs
  int default_block = kTimedDefaultBlock;
  bool takes_items = false;
  // Workspace for args (its type, n and block); null in builds without CUDA.
  std::size_t (*workspace_bytes)(const TimedArgs&) = nullptr;
  // Runs on args.stream; InvalidArgument outside the row's limits or types. Null without CUDA.
  Status (*run)(const TimedArgs&) = nullptr;
};

// One row of the catalog: an algorithm's names, its limits (one set for the stepped and the timed
// form), its options, and its two forms. Rows are built in kernels/lab/catalog.cpp.
struct Algorithm {
  const char* name = nullptr;         // the key everywhere (Step tab, trace, bench, tests): "scan-blelloch"
  const char* family = nullptr;       // "scan", "reduce", ...
  const char* title = nullptr;        // "Work-efficient scan (Blelloch)"
  const char* description = nullptr;  // one line
  unsigned options = 0;               // StepOption bits
  // Limits, checked by validate() for the stepped form and by the timed kernel for the timed form.
  std::int32_t max_n = 4096;          // largest n the stepper accepts
  std::int32_t min_block = 1, max_block = 1024;
  bool block_pow2 = false;            // block size must be a power of two
  std::int32_t max_bins = 4096;       // kOptBins: bins (or partitions) from 2 up to this
  bool bins_pow2 = false;             // kOptBins: bins must be a power of two
  bool deterministic = true;          // CPU and CUDA traces equal bit for bit (else final state and counts)
  const char* bins_label = nullptr;   // kOptBins: what the bins count, where not histogram bins ("GPUs")
  const char* variant_names = nullptr;  // kOptVariant: the names of cfg.variant's values, NUL-separated, ending in two NULs
  // The stepped form. plan fills trace metadata: rows, steps (labels, launch shapes, op slots),
  // listing; it fails with a user-facing message for a config the algorithm cannot run.
  Result (*plan)(const StepConfig& cfg, Trace& trace) = nullptr;
  // Fills values, ops and counters of a planned trace from the input words (cfg.n of them).
  void (*run_cpu)(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& trace) = nullptr;
  // Same on the GPU: runs the algorithm's kernels and host code with the recording probe, which
  // writes values and ops into `out` and counters into trace.steps. Null in builds without CUDA.
  Result (*run_cuda)(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& trace,
                     DeviceTraceView out) = nullptr;
  TimedForm timed;  // the large-n kernel the bench and the Performance tab time
};

// The catalog: every algorithm, in menu order.
const std::vector<Algorithm>& algorithms();
const Algorithm* find_algorithm(const std::string& name);

// Checks cfg against the algorithm's limits.
Result validate(const Algorithm& a, const StepConfig& cfg);
// Moves cfg's block, type and bins to the nearest values the algorithm takes (a new algorithm is
// picked with the options of the last one).
void fit_config(const Algorithm& a, StepConfig& cfg);

// Validates and plans (rows, steps, op slots) without running; values and ops are allocated.
Result plan_trace(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& out);
// Plans and runs on the CPU reference (trace untouched on failure).
Result build_trace_cpu(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                       Trace& out);
// Plans and runs on the CUDA device, then copies the trace back to the host (tests, `trace`).
Result build_trace_cuda(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                        Trace& out);

}  // namespace primlab
