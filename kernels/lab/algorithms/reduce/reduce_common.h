// The lecture's reductions (seed 004: reduce1..reduce5) and the warp-shuffle reduction: the step
// schedule and rows shared by the plan, the CPU reference and the CUDA traced stepper, so all
// three walk the same steps over the same rows. Pass 1 leaves one partial sum per block; when
// there is more than one, pass 2 runs the same kernel in one block over the partial sums.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "lab/model/plan.h"

namespace primlab::steppers::reduce {

enum Variant : int { kReduce1 = 1, kReduce2, kReduce3, kReduce4, kReduce5, kShuffle };

// Load: to shared (tree) or registers (shuffle); Level: one barrier-separated tree level s;
// Unrolled: one warp-synchronous line of reduce5; Shuffle: one __shfl_down_sync offset;
// WarpSums / WarpLoad: the shuffle's warp sums through shared memory; Write: out[block].
enum class Kind { Load, Level, Unrolled, Shuffle, WarpSums, WarpLoad, Write };

struct Pass {
  int in_row = kRowMain, in_len = 0;  // what the pass reduces: x, or pass 1's partial sums
  int shared_row = -1;                // data[] (tree) or warp_sums[] (shuffle, more than one warp)
  int regs_row = -1;                  // shuffle: v, one per thread
  int out_row = -1;                   // one value per block
  int blocks = 0, B = 0, E = 0;       // blocks, threads per block, elements per block
};

struct RStep {
  Kind kind;
  int pass;
  int s;            // level stride, unrolled-line offset or shuffle offset
  bool warp0_only;  // shuffle over the warp sums (second level, warp 0 only)
};

struct RowSpec {
  std::string name;
  std::int32_t length;
  bool element_space;
};

struct Schedule {
  int variant = kReduce1, epb = 1, passes = 1;
  std::int32_t width = 0;
  Pass pass[2];
  std::vector<RowSpec> rows;  // after the standard rows, in order
  std::vector<RStep> steps;   // steps 1.. (step 0 is the input)
  std::string error;

  bool shuffle() const { return variant == kShuffle; }
};

// Threads of block-level step `st` that do its work (the rest of the launch idles).
inline std::int32_t active_per_block(const Schedule& sc, const RStep& st) {
  const Pass& p = sc.pass[st.pass];
  switch (st.kind) {
    case Kind::Load: return p.B;
    case Kind::Level: return sc.variant <= kReduce2 ? p.B / (2 * st.s) : st.s;
    case Kind::Unrolled: return std::min(32, p.B);
    case Kind::Shuffle: return st.warp0_only ? 32 : p.B;
    case Kind::WarpSums: return p.B / 32;
    case Kind::WarpLoad: return 32;
    case Kind::Write: return 1;
  }
  return 0;
}

inline Schedule make_schedule(int variant, std::int32_t n, std::int32_t B) {
  Schedule sc;
  sc.variant = variant;
  sc.epb = variant >= kReduce4 ? 2 : 1;
  const std::int32_t E = B * sc.epb, P1 = plan::div_up(n, E);
  int r = kStdRows;
  Pass& p1 = sc.pass[0];
  p1 = {kRowMain, n, -1, -1, -1, P1, B, E};
  if (sc.shuffle()) {
    p1.regs_row = r++;
    sc.rows.push_back({"v: registers, one per thread", P1 * E, true});
    if (B > 32) {
      p1.shared_row = r++;
      sc.rows.push_back({"warp_sums[] in shared memory", P1 * E, true});
    }
  } else {
    p1.shared_row = r++;
    sc.rows.push_back({"data[] in shared memory", P1 * E, true});
  }
  p1.out_row = r++;
  sc.rows.push_back({P1 > 1 ? "partial sums out[], one per block" : "sum", P1, false});
  sc.width = P1 * E;
  sc.passes = P1 > 1 ? 2 : 1;
  if (P1 > 1) {
    const std::int32_t B2 = plan::next_pow2(plan::div_up(P1, sc.epb));
    if (B2 > 1024) {
      sc.error = "block " + std::to_string(B) + " leaves " + std::to_string(P1) +
                 " partial sums, more than one block of 1024 threads can reduce in the second pass: use a block of "
                 "at least " + std::to_string(plan::next_pow2(plan::div_up(n, 1024 * sc.epb))) + " threads";
      return sc;
    }
    Pass& p2 = sc.pass[1];
    p2 = {p1.out_row, P1, -1, -1, -1, 1, B2, B2 * sc.epb};
    if (sc.shuffle()) {
      p2.regs_row = r++;
      sc.rows.push_back({"pass 2: v (registers)", B2, false});
      if (B2 > 32) {
        p2.shared_row = r++;
        sc.rows.push_back({"pass 2: warp_sums[]", B2 / 32, false});
      }
    } else {
      p2.shared_row = r++;
      sc.rows.push_back({"pass 2: data[] of the one block", p2.E, false});
    }
    p2.out_row = r++;
    sc.rows.push_back({"sum", 1, false});
    sc.width = std::max(sc.width, p2.E);
  }
  for (int pi = 0; pi < sc.passes; ++pi) {
    const std::int32_t b = sc.pass[pi].B;
    sc.steps.push_back({Kind::Load, pi, 0, false});
    if (sc.shuffle()) {
      for (int d = std::min(32, b) / 2; d > 0; d /= 2) sc.steps.push_back({Kind::Shuffle, pi, d, false});
      if (b > 32) {
        sc.steps.push_back({Kind::WarpSums, pi, 0, false});
        sc.steps.push_back({Kind::WarpLoad, pi, 0, false});
        for (int d = 16; d > 0; d /= 2) sc.steps.push_back({Kind::Shuffle, pi, d, true});
      }
    } else if (variant <= kReduce2) {
      for (int s = 1; s < b; s *= 2) sc.steps.push_back({Kind::Level, pi, s, false});
    } else {
      const int last = variant == kReduce5 ? 32 : 0;  // reduce5 unrolls s <= 32
      for (int s = b / 2; s > last; s /= 2) sc.steps.push_back({Kind::Level, pi, s, false});
      if (variant == kReduce5)
        for (int s = std::min(32, b / 2); s > 0; s /= 2) sc.steps.push_back({Kind::Unrolled, pi, s, false});
    }
    sc.steps.push_back({Kind::Write, pi, 0, false});
  }
  return sc;
}

}  // namespace primlab::steppers::reduce
