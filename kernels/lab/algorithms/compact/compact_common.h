// Stream compaction (seeds 001, 002): map to flags, exclusive scan of the flags, scatter. The scan
// is one of the scan family's rows, found in the catalog and run as it runs (its plan, its CPU
// reference or its stepped CUDA form) on the flags, then spliced into the compaction's trace: its
// rows become compaction rows, its steps compaction steps, its listing follows the compaction's.
// Shared by the plan, the CPU reference and the stepped CUDA form (map_scan_scatter/).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "lab/catalog.h"
#include "lab/model/plan.h"
#include "lab/run/steppers.h"

#ifdef __CUDACC__
#define PRIMLAB_COMPACT_HD __host__ __device__
#else
#define PRIMLAB_COMPACT_HD
#endif

namespace primlab::steppers::compact {

enum Variant : int { kBlelloch = 0, kNaive = 1, kSharedScan = 2 };
enum Rows : int { kFlags = kStdRows, kScanned, kScanAux };  // scan rows, then the output and the count

// The scan's steps, rows and how they land in the compaction trace.
struct Layout {
  StepConfig scan_cfg;
  Trace scan;                 // the planned scan trace (values and ops allocated)
  std::vector<int> row_map;   // scan row -> compaction row (-1: the scan's touch and owner rows)
  int output_row = -1, count_row = -1;
  std::size_t scan_steps = 0;  // scan steps after its input step; compaction steps 2 .. 1 + scan_steps
  std::string error;
};

// The scan row of the catalog that the variant runs.
inline const Algorithm& scan_algo(int variant) {
  return *find_algorithm(variant == kNaive ? "scan-naive" : variant == kSharedScan ? "scan-shared" : "scan-blelloch");
}

inline Layout make_layout(const StepConfig& cfg) {
  Layout L;
  if (cfg.variant < kBlelloch || cfg.variant > kSharedScan) {
    L.error = "compaction's scan variant must be 0 (Blelloch), 1 (naive) or 2 (shared memory)";
    return L;
  }
  if (cfg.predicate < 0 || cfg.predicate > 2) {
    L.error = "the predicate must be 0 (non-zero), 1 (even) or 2 (greater than the threshold)";
    return L;
  }
  const Algorithm& scan = scan_algo(cfg.variant);
  L.scan_cfg = cfg;
  L.scan_cfg.variant = 0;  // the shared scan's one-term offsets
  L.scan_cfg.type = ElemType::I32;
  L.scan_cfg.inclusive = false;
  L.scan_cfg.input = nullptr;
  if (const Result r = validate(scan, L.scan_cfg); !r.ok()) {  // the scan's own limits (a power-of-two block)
    L.error = r.message();
    return L;
  }
  Trace& s = L.scan;
  s.algo = scan.name;
  s.type = ElemType::I32;
  s.n = cfg.n;
  s.block = cfg.block;
  const Result r = scan.plan(L.scan_cfg, s);
  if (!r.ok()) {
    L.error = r.message();
    return L;
  }
  s.allocate();
  L.scan_steps = s.steps.size() - 1;
  L.row_map.assign(s.rows.size(), -1);
  L.row_map[kRowMain] = kScanned;
  int next = kScanAux;
  // Every scan of the family shows its input at step 0: the flags.
  const int scan_in = s.steps[0].focus_row;
  for (std::size_t r = kStdRows; r < s.rows.size(); ++r) L.row_map[r] = int(r) == scan_in ? kFlags : next++;
  L.output_row = next++;
  L.count_row = next;
  return L;
}

// A packed op kind or a touch word of the scan, in the compaction's rows.
PRIMLAB_COMPACT_HD inline std::int32_t remap_kind(std::int32_t k, const int* map, int rows) {
  const int sr = src_row_of(k), dr = dst_row_of(k);
  const int s2 = sr < rows && map[sr] >= 0 ? map[sr] : 0, d2 = dr < rows && map[dr] >= 0 ? map[dr] : 0;
  return pack_kind(kind_of(k), s2, d2);
}
PRIMLAB_COMPACT_HD inline std::uint32_t remap_touch(std::uint32_t w, const int* map, int rows) {
  std::uint32_t o = 0;
  for (int r = 0; r < rows && r < 16; ++r)
    if (map[r] >= 0) o |= touch_bits((w >> (2 * r)) & 3u, map[r]);
  return o;
}

inline std::string predicate_text(const StepConfig& cfg) {
  if (cfg.predicate == 1) return cfg.type == ElemType::F32 ? "fmodf(v, 2) == 0" : "v % 2 == 0";
  if (cfg.predicate == 2) return "v > " + std::to_string(cfg.threshold);
  return "v != 0";
}

// keep(v) on the host; the CUDA stepper computes the same (fmodf is exact on both).
inline bool keep(std::uint32_t w, ElemType t, int predicate, std::int32_t threshold) {
  if (t == ElemType::F32) {
    const float v = word_to_float(w);
    if (predicate == 1) return std::fmod(v, 2.0f) == 0.0f;
    if (predicate == 2) return v > float(threshold);
    return v != 0.0f;
  }
  const std::int32_t v = std::int32_t(w);
  if (predicate == 1) return (v & 1) == 0;
  if (predicate == 2) return v > threshold;
  return v != 0;
}

}  // namespace primlab::steppers::compact
