// What an algorithm's forms take: the Step tab's settings (StepConfig), the device memory a
// stepped CUDA run writes (DeviceTraceView), and one timed run's buffers (TimedArgs). Plain data,
// below the runners and the catalog, so that both can name them.
#pragma once
#include <cstddef>
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

// Device memory of a whole trace (values and op slots), laid out as Trace::values / Trace::ops.
// It may be a mapped OpenGL buffer (interop) or plain device memory (tests, headless).
struct DeviceTraceView {
  std::uint32_t* values = nullptr;
  Op* ops = nullptr;
};

// A timed form's block and items per thread where TimedArgs leaves them 0.
constexpr int kTimedDefaultBlock = 256;
constexpr int kTimedDefaultItems = 8;

// One timed run's buffers, owned by the engine: plain pointers, so that the catalog needs no CUDA.
struct TimedArgs {
  std::string type;            // the engine's type name: "i32", "u32", "f32", "u8"
  std::int64_t n = 0;
  const void* d_in = nullptr;  // n elements of type
  void* d_out = nullptr;       // n elements (a scan's output, sorted keys), or a histogram's bins
  void* d_scalar = nullptr;    // a reduction's result
  void* d_ws = nullptr;        // workspace of workspace_bytes(args) bytes
  std::size_t ws_bytes = 0;
  int block = 0;               // 0: the form's default_block
  int items = 0;               // 0: the form's default (takes_items)
  int bins = 256;              // histograms: bins over [lower, upper)
  double lower = 0, upper = 0;
  void* stream = nullptr;      // a cudaStream_t
};

}  // namespace primlab
