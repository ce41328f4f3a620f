// The CPU reference's steps of the shared-memory tree kernels (the lecture's reduce1..reduce5,
// reduce6 and reduce7), one warp at a time, counted as the recording probe counts the kernels'
// statements: the load of a pair with the first add, one barrier-separated level, one of reduce6
// and reduce7's warp lines, and thread 0's write. A block's sdata[j] is element base + j of the
// trace's shared row; a warp's lanes are the block's threads first + lane.
#pragma once
#include <cstdint>

#include "lab/run/cpu_run.h"

namespace primlab::steppers::reduce {

// One block of a tree kernel as the CPU reference runs it.
struct TreeBlock {
  cpu::CpuRun& run;
  ElemType type;
  int shared_row;
  std::uint32_t* sdata;   // the block's sdata[0], in the run's shared row
  std::int32_t base;      // its index in the shared row
  std::int64_t thread0;   // the block's first global thread
};

// `T v = i < n ? in[i] : 0; if (i + b < n) v += in[i + b]; sdata[tid] = v;` with i = base + tid
// (the block covers the 2b elements from base), and with `pad` also `sdata[tid + b] = 0`.
inline void cpu_pair_load(const TreeBlock& k, const std::uint32_t* in, int in_row, std::int32_t n, std::int32_t b,
                          std::int32_t first, int lanes, bool pad) {
  Counters& c = k.run.count();
  int paths[32];
  std::int32_t at[32], padding[32];
  for (int l = 0; l < lanes; ++l) {
    const std::int32_t tid = first + l, i = k.base + tid;
    const std::int64_t thread = k.thread0 + tid;
    paths[l] = i + b < n;
    std::uint32_t v = 0;
    if (i < n) {
      v = in[i];
      c.global_read_bytes += 4;
      k.run.op(thread, 0, OpKind::Move, in_row, i, k.shared_row, i);
    } else {
      k.run.op(thread, 0, OpKind::Write, in_row, -1, k.shared_row, i);
    }
    if (i + b < n) {
      v = cpu::add_words(v, in[i + b], k.type);
      c.global_read_bytes += 4;
      c.adds += 1;
      k.run.op(thread, 1, OpKind::Add, in_row, i + b, k.shared_row, i);
    }
    k.sdata[tid] = v;
    at[l] = tid;
    if (pad) {
      k.sdata[tid + b] = 0;
      padding[l] = tid + b;
      k.run.op(thread, 2, OpKind::Write, in_row, -1, k.shared_row, i + b);
    }
  }
  k.run.branch(paths, lanes);
  k.run.shared_access(at, lanes);
  if (pad) k.run.shared_access(padding, lanes);
}

// `if (active) sdata[a] += sdata[a + s]` for the lanes with pa >= 0 (pb their partners), after the
// branch of `paths`: reads sdata[a] and sdata[b], writes sdata[a].
inline void cpu_tree_level(const TreeBlock& k, std::int32_t first, const int* paths, const std::int32_t* pa,
                           const std::int32_t* pb, int lanes) {
  Counters& c = k.run.count();
  k.run.branch(paths, lanes);
  k.run.shared_access(pa, lanes);
  k.run.shared_access(pb, lanes);
  k.run.shared_access(pa, lanes);
  for (int l = 0; l < lanes; ++l) {
    if (pa[l] < 0) continue;
    k.sdata[pa[l]] = cpu::add_words(k.sdata[pa[l]], k.sdata[pb[l]], k.type);
    c.adds += 1;
    k.run.op(k.thread0 + first + l, 0, OpKind::Add, k.shared_row, k.base + pb[l], k.shared_row, k.base + pa[l]);
  }
}

// `if (tid < s) sdata[tid] += sdata[tid + s]`: sequential addressing.
inline void cpu_sequential_level(const TreeBlock& k, std::int32_t first, std::int32_t s, int lanes) {
  int paths[32];
  std::int32_t pa[32], pb[32];
  for (int l = 0; l < lanes; ++l) {
    const std::int32_t tid = first + l;
    paths[l] = tid < s;
    pa[l] = tid < s ? tid : -1;
    pb[l] = tid < s ? tid + s : -1;
  }
  cpu_tree_level(k, first, paths, pa, pb, lanes);
}

// The branch `if (tid < 32)` into the last warp's code, taken by every warp of the block.
inline void cpu_last_warp_branch(const TreeBlock& k, std::int32_t first, int lanes) {
  int paths[32];
  for (int l = 0; l < lanes; ++l) paths[l] = first + l < 32;
  k.run.branch(paths, lanes);
}

// One of reduce6 and reduce7's warp lines in warp 0, `v = d[tid] + d[tid + s]; d[tid] = v;`: every
// lane reads both words before any lane writes.
inline void cpu_warp_line(const TreeBlock& k, std::int32_t s, int lanes) {
  Counters& c = k.run.count();
  std::int32_t pa[32], pb[32];
  std::uint32_t v[32];
  for (int l = 0; l < lanes; ++l) {
    pa[l] = l;
    pb[l] = l + s;
    v[l] = cpu::add_words(k.sdata[l], k.sdata[l + s], k.type);
  }
  k.run.shared_access(pa, lanes);
  k.run.shared_access(pb, lanes);
  k.run.shared_access(pa, lanes);
  for (int l = 0; l < lanes; ++l) {
    k.sdata[l] = v[l];
    c.adds += 1;
    k.run.op(k.thread0 + l, 0, OpKind::Add, k.shared_row, k.base + l + s, k.shared_row, k.base + l);
  }
}

// `if (tid == 0) out[blockIdx.x] = sdata[0]`.
inline void cpu_tree_write(const TreeBlock& k, std::uint32_t* out, int out_row, std::int32_t block,
                           std::int32_t first, int lanes) {
  int paths[32];
  std::int32_t at[32];
  for (int l = 0; l < lanes; ++l) {
    paths[l] = first + l == 0;
    at[l] = first + l == 0 ? 0 : -1;
  }
  k.run.branch(paths, lanes);
  k.run.shared_access(at, lanes);
  if (first != 0) return;
  out[block] = k.sdata[0];
  k.run.count().global_write_bytes += 4;
  k.run.op(k.thread0, 0, OpKind::Move, k.shared_row, k.base, out_row, block);
}

}  // namespace primlab::steppers::reduce
