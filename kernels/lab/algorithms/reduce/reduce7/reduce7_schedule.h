// Harris's kernel 7 stepped: the schedule and rows shared by the plan, the CPU reference and the
// CUDA traced stepper. The stepped grid follows Brent's theorem: about log2(n) elements per thread
// (two per round of the grid-stride loop), so ceil(n / (2 * block * rounds)) blocks; one step per
// round shows the loop walking the input a grid's width at a time. Pass 2 runs the same kernel in
// one block over the partial sums (one round).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "lab/model/plan.h"

// The pass's index arithmetic runs in the CPU stepper and in the traced kernels.
#ifndef PRIMLAB_HD
#ifdef __CUDACC__
#define PRIMLAB_HD __host__ __device__
#else
#define PRIMLAB_HD
#endif
#endif

namespace primlab::steppers::reduce7 {

// Round: one trip of the grid-stride loop (sum += in[i] + in[i + B]); Store: sdata[tid] = sum;
// Level: one barrier-separated level s of the unrolled tree; Unrolled: one warp line; Write: out[block].
enum class Kind { Round, Store, Level, Unrolled, Write };

struct Pass {
  int in_row = kRowMain, in_len = 0;   // x, or pass 1's partial sums
  int sum_row = -1, shared_row = -1, out_row = -1;
  std::int32_t blocks = 0, B = 0;
  std::int32_t W = 0;                  // sdata words per block: B, doubled below 64 threads (padding)
  std::int32_t rounds = 0;
  PRIMLAB_HD std::int64_t grid() const { return 2 * std::int64_t(B) * blocks; }  // gridSize: elements per round
  // Index of thread `tid` of block `b` in round r (>= in_len: the thread has left the loop).
  PRIMLAB_HD std::int64_t index(std::int32_t b, std::int32_t tid, std::int32_t r) const {
    return std::int64_t(b) * 2 * B + tid + r * grid();
  }
};

struct RStep {
  Kind kind;
  int pass;
  int s;  // round, level stride or warp-line offset
};

struct RowSpec {
  std::string name;
  std::int32_t length;
};

struct Schedule {
  int passes = 1;
  std::int32_t width = 0;
  Pass pass[2];
  std::vector<RowSpec> rows;  // after the standard rows, in order
  std::vector<RStep> steps;   // steps 1.. (step 0 is the input)
};

// Threads of block-level step `st` that do its work (of the whole grid).
inline std::int32_t active_threads(const Schedule& sc, const RStep& st) {
  const Pass& p = sc.pass[st.pass];
  std::int32_t per_block = 1;
  switch (st.kind) {
    case Kind::Round: {
      std::int32_t active = 0;
      for (std::int32_t b = 0; b < p.blocks; ++b)
        for (std::int32_t tid = 0; tid < p.B; ++tid) active += p.index(b, tid, st.s) < p.in_len;
      return active;
    }
    case Kind::Store: per_block = p.B; break;
    case Kind::Level: per_block = st.s; break;
    case Kind::Unrolled: per_block = std::min(32, p.B); break;
    case Kind::Write: per_block = 1; break;
  }
  return p.blocks * per_block;
}

inline Pass make_pass(int in_row, std::int32_t len, std::int32_t blocks, std::int32_t B) {
  Pass p;
  p.in_row = in_row;
  p.in_len = len;
  p.blocks = blocks;
  p.B = B;
  p.W = B < 64 ? 2 * B : B;
  p.rounds = plan::div_up(len, p.grid());
  return p;
}

inline Schedule make_schedule(std::int32_t n, std::int32_t B) {
  Schedule sc;
  // Brent: about log2(n) elements per thread, two per round.
  const std::int32_t rounds = std::max(1, plan::div_up(plan::log2_floor(std::max(n, 1)), 2));
  const std::int32_t G = plan::div_up(n, 2 * std::int64_t(B) * rounds);
  int r = kStdRows;
  Pass& p1 = sc.pass[0];
  p1 = make_pass(kRowMain, n, G, B);
  p1.sum_row = r++;
  sc.rows.push_back({"sum: registers, one per thread", G * B});
  p1.shared_row = r++;
  sc.rows.push_back({"sdata[] in shared memory, one slice per block", G * p1.W});
  p1.out_row = r++;
  sc.rows.push_back({G > 1 ? "partial sums out[], one per block" : "sum", G});
  sc.width = std::max({n, G * B, G * p1.W});
  if (G > 1) {
    sc.passes = 2;
    Pass& p2 = sc.pass[1];
    p2 = make_pass(p1.out_row, G, 1, plan::next_pow2(plan::div_up(G, 2)));
    p2.sum_row = r++;
    sc.rows.push_back({"pass 2: sum (registers)", p2.B});
    p2.shared_row = r++;
    sc.rows.push_back({"pass 2: sdata[] of the one block", p2.W});
    p2.out_row = r++;
    sc.rows.push_back({"sum", 1});
    sc.width = std::max(sc.width, p2.W);
  }
  for (int pi = 0; pi < sc.passes; ++pi) {
    const Pass& p = sc.pass[pi];
    for (int round = 0; round < p.rounds; ++round) sc.steps.push_back({Kind::Round, pi, round});
    sc.steps.push_back({Kind::Store, pi, 0});
    for (int s = p.B / 2; s > 32; s /= 2) sc.steps.push_back({Kind::Level, pi, s});
    for (int s = std::min(32, p.B / 2); s > 0; s /= 2) sc.steps.push_back({Kind::Unrolled, pi, s});
    sc.steps.push_back({Kind::Write, pi, 0});
  }
  return sc;
}

}  // namespace primlab::steppers::reduce7
