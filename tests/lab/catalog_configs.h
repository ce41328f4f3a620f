// The configs the catalog-driven tests run for a row, read from the row itself: both ends of its
// n and block limits, a block that is not a power of two where the row allows one, every element
// type it takes and every option it declares. Adding a row adds its configs.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "lab/catalog.h"
#include "lab/model/input.h"

namespace test {

struct RowConfig {
  primlab::StepConfig cfg;
  std::string what;  // for failure messages
};

// The names of a family's rows, in menu order: tests of a family's shared facts read them here.
inline std::vector<const char*> family(const std::string& name) {
  std::vector<const char*> v;
  for (const primlab::Algorithm& a : primlab::algorithms())
    if (name == a.family) v.push_back(a.name);
  return v;
}

inline std::vector<RowConfig> configs_for(const primlab::Algorithm& a) {
  using namespace primlab;
  std::vector<RowConfig> v;
  const int mid = a.min_block <= 32 && 32 <= a.max_block ? 32 : a.min_block;
  auto add = [&](int n, int block, const std::string& what, auto&& set) {
    RowConfig r;
    r.cfg.n = n;
    r.cfg.block = block;
    r.cfg.bins = std::min(16, a.max_bins);
    r.cfg.seed = std::uint32_t(v.size() + 1);
    set(r.cfg);
    r.what = std::string(a.name) + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " " + what;
    v.push_back(r);
  };
  auto none = [](StepConfig&) {};
  // The limits: the smallest block on small arrays (one-thread blocks on 4096 elements are slow to
  // no purpose), the largest block up to max_n.
  add(1, a.min_block, "", none);
  add(37, a.min_block, "", none);
  add(256, mid, "", none);
  add(a.max_n, a.max_block, "", none);
  add(a.max_n, mid, "", none);
  if (!a.block_pow2 && a.min_block <= 3 && 3 <= a.max_block) add(1000, 3, "", none);
  // Element types and options, on 300 elements in blocks of `mid` threads.
  if (a.options & kOptFloat) add(300, mid, "f32", [](StepConfig& c) { c.type = ElemType::F32; });
  if (a.options & kOptU32) add(300, mid, "u32", [](StepConfig& c) { c.type = ElemType::U32; });
  if (a.options & kOptInclusive) add(300, mid, "inclusive", [](StepConfig& c) { c.inclusive = true; });
  if (a.options & kOptConflictOffsets)
    add(300, mid, "no conflict offsets", [](StepConfig& c) { c.conflict_offsets = false; });
  if (a.options & kOptDescending) add(300, mid, "descending", [](StepConfig& c) { c.descending = true; });
  if (a.options & kOptKeyValue) add(300, mid, "key-value", [](StepConfig& c) { c.key_value = true; });
  if (a.options & kOptDigitBits)
    for (int bits : {2, 8}) add(300, mid, "digit bits " + std::to_string(bits), [&](StepConfig& c) { c.digit_bits = bits; });
  if (a.options & kOptBins)
    for (int bins : {2, std::min(256, a.max_bins)})
      add(300, mid, "bins " + std::to_string(bins), [&](StepConfig& c) { c.bins = bins; });
  if (a.options & kOptDigitStart) add(300, mid, "digit start 28", [](StepConfig& c) { c.digit_start = 28; });
  if (a.options & kOptPredicate)
    for (int p : {1, 2}) add(300, mid, "predicate " + std::to_string(p), [&](StepConfig& c) { c.predicate = p; });
  if (a.options & kOptVariant) {
    int k = 0;
    for (const char* s = a.variant_names; s && *s; s += std::string(s).size() + 1) ++k;
    for (int i = 1; i < k; ++i) add(300, mid, "variant " + std::to_string(i), [&](StepConfig& c) { c.variant = i; });
  }
  return v;
}

// A wider sweep for the CPU-against-CUDA test: sizes around warp, block and tile edges, every block
// of a ladder the row allows, and each config's element type, options and input kind rotated by its
// seed, so that the sweep meets every option in many shapes.
struct SweepConfig {
  RowConfig rc;
  primlab::InputKind kind = primlab::InputKind::Random;
  bool full_range = false;  // integer words over the whole 32-bit range (negatives included)
};

inline std::vector<SweepConfig> sweep_for(const primlab::Algorithm& a) {
  using namespace primlab;
  std::vector<ElemType> types = {ElemType::I32};
  if (a.options & kOptFloat) types.push_back(ElemType::F32);
  if (a.options & kOptU32) types.push_back(ElemType::U32);
  int variants = 0;
  for (const char* s = a.variant_names; s && *s; s += std::string(s).size() + 1) ++variants;
  const InputKind kinds[] = {InputKind::Random, InputKind::Reversed, InputKind::AllEqual, InputKind::FewDistinct,
                             InputKind::Sorted};
  std::vector<SweepConfig> v;
  std::uint32_t seed = 0;
  for (int n : {1, 2, 3, 31, 32, 33, 100, 127, 128, 129, 500, 1000, 1024, 1025, 2047, 2048, 3000, 4095, 4096}) {
    if (n > a.max_n) continue;
    for (int block : {1, 3, 7, 8, 32, 64, 96, 128, 256, 1024}) {
      if (block < a.min_block || block > a.max_block || (a.block_pow2 && (block & (block - 1)) != 0)) continue;
      if (block < 32 && n > 512) continue;  // thousands of tiny blocks: slow to no purpose
      ++seed;
      SweepConfig sc;
      StepConfig& c = sc.rc.cfg;
      c.n = n;
      c.block = block;
      c.seed = seed;
      c.type = types[seed % types.size()];
      if (a.options & kOptInclusive) c.inclusive = seed % 2 == 0;
      if (a.options & kOptConflictOffsets) c.conflict_offsets = seed % 7 != 0;
      if (a.options & kOptDescending) c.descending = seed % 3 == 0;
      if (a.options & kOptKeyValue) c.key_value = seed % 4 == 0;
      if (a.options & kOptDigitBits) c.digit_bits = 2 + int(seed % 7);
      if (a.options & kOptBins) {
        // Partitions take powers of two up to 4096 (and a digit), histograms 2 to 256 bins.
        const int bins[] = {2, 16, 256, 4096};
        c.bins = std::min(bins[seed % ((a.options & kOptDigitStart) ? 4 : 3)], a.max_bins);
      }
      if (a.options & kOptDigitStart) {
        int bits = 0;
        while ((1 << bits) < c.bins) ++bits;
        c.digit_start = seed % 4 == 0 ? 32 - bits : std::min(int(seed % 5), 32 - bits);
      }
      if (a.options & kOptPredicate) {
        c.predicate = int(seed % 3);
        c.threshold = int(seed % 50);
      }
      if (variants > 0) c.variant = int(seed % std::uint32_t(variants));
      sc.kind = kinds[seed % 5];
      sc.full_range = c.type != ElemType::F32 && seed % 2 == 1;  // float NaN payloads may differ by backend
      sc.rc.what = std::string(a.name) + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " type=" +
                   elem_type_name(c.type) + " seed=" + std::to_string(seed);
      v.push_back(sc);
    }
  }
  return v;
}

// Calls f(trace) with the CPU trace of every catalog row at each of its configs (a random input),
// under a SCOPED_TRACE naming the config; configs a plan refuses are skipped (the catalog test
// checks those). Needs gtest.
template <class F>
void for_each_row_trace(F f) {
  for (const primlab::Algorithm& a : primlab::algorithms()) {
    for (const RowConfig& rc : configs_for(a)) {
      SCOPED_TRACE(rc.what);
      primlab::Trace t;
      const auto in = primlab::make_input(primlab::InputKind::Random, rc.cfg.n, rc.cfg.type, rc.cfg.seed);
      if (build_trace_cpu(a, rc.cfg, in, t).ok()) f(static_cast<const primlab::Trace&>(t));
    }
  }
}

}  // namespace test
