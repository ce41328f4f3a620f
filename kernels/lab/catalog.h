// A stepped algorithm: its plan (steps, rows, listing), its CPU reference stepper and its CUDA
// traced stepper. Both steppers fill the same planned Trace; tests compare them bit for bit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/trace.h"

namespace primlab {

// Everything a user can set in the Step tab. Each algorithm reads the fields its options name.
struct StepConfig {
  std::int32_t n = 16;
  ElemType type = ElemType::I32;
  std::int32_t block = 8;          // threads per block of the traced kernels
  bool inclusive = false;          // scans: inclusive or exclusive
  bool conflict_offsets = true;    // shared-memory scan: GPU Gems 3 bank-conflict offsets on/off
  std::int32_t digit_bits = 4;     // radix digit width
  std::int32_t bins = 16;          // histogram bins / partitions
  std::int32_t predicate = 0;      // compaction: 0 non-zero, 1 even, 2 greater than threshold
  std::int32_t threshold = 0;
  bool descending = false;
  bool key_value = false;
  std::int32_t variant = 0;        // algorithm-specific sub-variant
  std::uint32_t seed = 1;          // for algorithms with a random element (atomic order)
  const std::vector<std::uint32_t>* input = nullptr;  // plan(): the input when known (radix-split sizes its bit passes from the max)
  std::int32_t digit_start = 0;    // radix partition: lowest bit of the digit (bits [digit_start, +log2(bins)))
};

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

// Device memory of a whole trace (values and op slots), laid out as Trace::values / Trace::ops.
// It may be a mapped OpenGL buffer (interop) or plain device memory (tests, headless).
struct DeviceTraceView {
  std::uint32_t* values = nullptr;
  Op* ops = nullptr;
};

struct Algorithm {
  const char* name;         // registry key, e.g. "scan-blelloch"
  const char* family;       // "scan", "reduce", ...
  const char* title;        // "Work-efficient scan (Blelloch)"
  const char* description;  // one line
  unsigned options;         // StepOption bits
  std::int32_t max_n;       // largest n the stepper accepts
  std::int32_t min_block, max_block;
  bool block_pow2;          // block size must be a power of two
  bool deterministic;       // CPU and CUDA traces equal bit for bit (else final state and counts)
  const char* variant_names;  // kOptVariant: the names of cfg.variant's values, NUL-separated, ending in two NULs
  // Fills trace metadata: rows, steps (labels, launch shapes, op slots), listing. Returns "" or
  // a user-facing error for a config the algorithm cannot run.
  std::string (*plan)(const StepConfig& cfg, Trace& trace);
  // Fills values, ops and counters of a planned trace from the input words (cfg.n of them).
  void (*run_cpu)(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& trace);
  // Same on the GPU: writes values and ops into `out`, counters into trace.steps. Returns "" or
  // an error. Null in builds without CUDA.
  std::string (*run_cuda)(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& trace,
                          DeviceTraceView out);
};

// The registry: every stepped algorithm, in menu order.
const std::vector<Algorithm>& algorithms();
const Algorithm* find_algorithm(const std::string& name);

// Checks cfg against the algorithm's limits; "" when valid.
std::string validate(const Algorithm& a, const StepConfig& cfg);

// Validates and plans (rows, steps, op slots) without running; values and ops are allocated.
std::string plan_trace(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                       Trace& out);
// Plans and runs on the CPU reference. Returns "" or an error (trace untouched on error).
std::string build_trace_cpu(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                            Trace& out);
// Plans and runs on the CUDA device, then copies the trace back to the host (tests, `trace`).
std::string build_trace_cuda(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input,
                             Trace& out);

}  // namespace primlab
