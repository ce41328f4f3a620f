// What the scan family's CPU references share: a launch of an element-wise kernel (its bounds
// check is one branch a warp), a branch the live threads of each warp take, and the inclusive
// step (add_input.cuh), which every scan with the inclusive option runs the same way.
#pragma once
#include <cstdint>

#include "lab/run/cpu_run.h"

namespace primlab::steppers::scan {

// A launch of a kernel that starts `if (k < count)` (k the thread's index in the grid): each warp's
// check is one branch, then f(k) runs for each thread k < count, in order.
template <class F>
void elementwise(cpu::CpuRun& run, const LaunchShape& launch, std::int64_t count, F f) {
  cpu::for_each_warp(launch, [&](std::int32_t b, std::int32_t first, int lanes) {
    const std::int64_t k0 = std::int64_t(b) * launch.threads + first;
    int paths[32];
    for (int l = 0; l < lanes; ++l) paths[l] = k0 + l < count;
    run.branch(paths, lanes);
    for (int l = 0; l < lanes; ++l)
      if (k0 + l < count) f(k0 + l);
  });
}

// A branch that the threads k < count of each warp take, thread k on path path(k).
template <class P>
void live_branch(cpu::CpuRun& run, const LaunchShape& launch, std::int64_t count, P path) {
  cpu::for_each_warp(launch, [&](std::int32_t b, std::int32_t first, int lanes) {
    const std::int64_t k0 = std::int64_t(b) * launch.threads + first;
    int paths[32], live = 0;
    for (int l = 0; l < lanes; ++l)
      if (k0 + l < count) paths[live++] = path(k0 + l);
    run.branch(paths, live);
  });
}

// add_input: out[i] += in[i] for i < n, out the main row and in the row after the standard ones.
inline void add_input(cpu::CpuRun& run, const LaunchShape& launch, std::int32_t n, ElemType type) {
  std::uint32_t* out = run.row(kRowMain);
  const std::uint32_t* in = run.row(kStdRows);
  Counters& c = run.count();
  elementwise(run, launch, n, [&](std::int64_t i) {
    out[i] = cpu::add_words(out[i], in[i], type);
    run.op(i, 0, OpKind::Add, kStdRows, std::int32_t(i), kRowMain, std::int32_t(i));
    c.global_read_bytes += 8;
    c.global_write_bytes += 4;
    c.adds += 1;
  });
}

}  // namespace primlab::steppers::scan
