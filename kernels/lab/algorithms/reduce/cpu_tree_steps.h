// The CPU reference's shared-memory tree steps, as one warp runs them: a barrier-separated level
// and a warp-synchronous unrolled line. The lecture's reductions and reduce7 both step them.
// `sh` points at the block's shared words, which the trace shows in `shared_row` from `row_base`;
// the warp's threads are thread0 + first + lane.
#pragma once
#include <cstdint>

#include "lab/run/cpu_run.h"

namespace primlab::steppers::reduce {

// sdata[a] += sdata[b] for the lanes with pa >= 0 (pb their partners), after the branch of `paths`.
inline void cpu_tree_level(cpu::CpuRun& run, Counters& c, std::uint32_t* sh, std::int32_t row_base, int shared_row,
                           std::int64_t thread0, const int* paths, const std::int32_t* pa, const std::int32_t* pb,
                           int lanes, ElemType type) {
  run.branch(paths, lanes);
  run.shared_access(pa, lanes);  // read sdata[a]
  run.shared_access(pb, lanes);  // read sdata[a + s]
  run.shared_access(pa, lanes);  // write sdata[a]
  for (int l = 0; l < lanes; ++l) {
    if (pa[l] < 0) continue;
    sh[pa[l]] = cpu::add_words(sh[pa[l]], sh[pb[l]], type);
    c.adds += 1;
    run.op(thread0 + l, 0, OpKind::Add, shared_row, row_base + pb[l], shared_row, row_base + pa[l]);
  }
}

// One unrolled line of the last warp, sdata[tid] += sdata[tid + s] for tid < 32: every lane
// reads before any lane writes. Warps other than the first (first != 0) only take the branch.
inline void cpu_unrolled_line(cpu::CpuRun& run, Counters& c, std::uint32_t* sh, std::int32_t row_base,
                              int shared_row, std::int64_t thread0, std::int32_t first, std::int32_t s, int lanes,
                              ElemType type) {
  int paths[32];
  std::int32_t pa[32], pb[32];
  std::uint32_t nv[32];
  for (int l = 0; l < lanes; ++l) paths[l] = first + l < 32;
  run.branch(paths, lanes);
  if (first != 0) return;
  for (int l = 0; l < lanes; ++l) {
    pa[l] = l;
    pb[l] = l + s;
    nv[l] = cpu::add_words(sh[l], sh[l + s], type);
  }
  run.shared_access(pa, lanes);
  run.shared_access(pb, lanes);
  run.shared_access(pa, lanes);
  for (int l = 0; l < lanes; ++l) {
    sh[l] = nv[l];
    c.adds += 1;
    run.op(thread0 + l, 0, OpKind::Add, shared_row, row_base + l + s, shared_row, row_base + l);
  }
}

}  // namespace primlab::steppers::reduce
