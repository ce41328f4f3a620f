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

// Steps of the tree reductions in plain words (the lecture's, reduce6 and reduce7).
inline std::string sequential_level_prose(int s) {
  const std::string S = std::to_string(s);
  return "Level s=" + S + ": the first " + S + " threads add the element " + S +
         " above them. Neighbouring threads touch neighbouring words, so no bank conflict; the rest idle.";
}
inline std::string unrolled_prose(int s) {
  return "Inside the last warp (s=" + std::to_string(s) +
         "): its lanes run in lockstep, so no __syncthreads() is needed; volatile shared memory keeps each read "
         "fresh. Every lane adds, needed or not.";
}
inline std::string write_prose(bool partial, std::int32_t blocks) {
  if (partial)
    return "Thread 0 of each block writes its block's partial sum to global memory. Blocks cannot wait for each "
           "other, so a second launch reduces these " + std::to_string(blocks) + " partial sums.";
  return "Thread 0 writes the block's sum: the total of the whole input.";
}

// Step `st` of a reduction in plain words.
inline std::string explain(const Schedule& sc, const RStep& st) {
  const Pass& p = sc.pass[st.pass];
  const std::string S = std::to_string(st.s), TS = std::to_string(2 * st.s);
  switch (st.kind) {
    case Kind::Load:
      if (sc.epb == 1)
        return "Each thread copies one element from global memory into shared memory, where the block's tree sum "
               "runs far faster than it would in global memory.";
      return std::string("Each thread loads two elements ") + std::to_string(p.B) + " apart and adds them on the way " +
             (sc.shuffle() ? "into a register" : "into shared memory") +
             ": half as many blocks, and no thread idles at the first add.";
    case Kind::Level:
      if (sc.variant == kReduce1)
        return "Level s=" + S + ": threads whose tid is a multiple of " + TS + " add the element " + S +
               " to their right. The working threads are scattered over every warp, so each warp diverges.";
      if (sc.variant == kReduce2)
        return "Level s=" + S + ": thread tid adds data[index+" + S + "] into data[index], index = " + TS +
               "*tid. The working threads are the first ones (little divergence), but words " + TS +
               " apart share banks.";
      return sequential_level_prose(st.s);
    case Kind::Unrolled:
      return unrolled_prose(st.s);
    case Kind::Shuffle:
      return std::string(st.warp0_only ? "Warp 0 combines the warp sums: each" : "Each") + " lane adds the value of the lane " +
             S + " above it, read from that lane's register with __shfl_down_sync: no shared memory, no barrier.";
    case Kind::WarpSums:
      return "Lane 0 of each warp writes its warp's sum to shared memory, so that one warp can combine them.";
    case Kind::WarpLoad:
      return "Warp 0 reads the warp sums into its registers (0 past the last warp) for the final shuffles.";
    case Kind::Write:
      return write_prose(st.pass + 1 < sc.passes, p.blocks);
  }
  return "";
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
