// The radix sorts' CPU side, shared by radix_split.cpp and radix_digits.cpp: the keys' bits on the
// trace's words, and the plan and CPU reference of the scan both sorts run (radix_scan.cuh): one
// step a launch of its host code and one a barrier of scan_block_kernel, warp by warp as the
// kernels run, with their ops, shared-memory accesses, branches and counters.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/algorithms/radix/radix_shape.h"
#include "lab/catalog.h"
#include "lab/model/plan.h"
#include "lab/model/trace.h"
#include "lab/run/cpu_run.h"

namespace primlab::lab::radix {

// [SECTION] Keys
// The lecture's flipFloat for floats (positive: set the sign bit; negative: flip every bit), the sign
// bit flipped for int32, nothing for uint32; all bits complemented for a descending sort. After the
// flip, positive NaNs sort after +inf and negative NaNs before -inf.
inline std::uint32_t sortable(std::uint32_t k, ElemType t, bool desc) {
  std::uint32_t s = k;
  if (t == ElemType::I32) s = k ^ 0x80000000u;
  if (t == ElemType::F32) s = k ^ ((0u - (k >> 31)) | 0x80000000u);
  return desc ? ~s : s;
}
// The bits a key needs below its sign (radix-split's max): uint32 as is, int32 k ^ (k >> 31).
inline std::uint32_t needed_bits(std::uint32_t k, ElemType t) {
  return t == ElemType::I32 ? k ^ std::uint32_t(std::int32_t(k) >> 31) : k;
}
// Bit k of a key; an int32 key's sign bit (k = 31) flipped, so that negative keys go first.
inline std::uint32_t key_bit(std::uint32_t key, int k, ElemType t) {
  return ((key ^ (t == ElemType::I32 && k == 31 ? 0x80000000u : 0u)) >> k) & 1u;
}

// [SECTION] The scan
// Where the scan's arrays are in a trace: the array it scans (level 0's in), its result (level 0's
// out), the shared memory of scan_block_kernel and the levels' block sums.
struct ScanRows {
  int in, out, temp, sums;
};

inline std::string scan_level_name(std::size_t level) { return "level " + std::to_string(level); }

// Appends the steps of radix_exclusive_scan(n, block); `what` names the scan in the labels
// ("fs = scan(f)").
inline void plan_scan(Trace& t, const plan::Code& code, std::int64_t n, int block, const ScanRows& rows,
                      const std::string& what) {
  const std::vector<ScanLevel> levels = scan_levels(n, block);
  for (std::size_t L = 0; L < levels.size(); ++L) {
    const ScanLevel& l = levels[L];
    const std::int32_t m = 2 * l.tree, nb = std::int32_t(l.blocks);
    const std::string M = std::to_string(m), B = std::to_string(l.tree), N = std::to_string(l.n);
    const std::string head = what + ", " + scan_level_name(L) + (L ? " (the block sums)" : "") + ": ";
    Step& load = plan::add_step(t,
                                head + "scan_block_kernel, m = " + M + ": temp[tid] = in[base + tid], temp[tid + " + B +
                                    "] = in[base + tid + " + B + "] (0 past n = " + N + ")",
                                "scan load", code.line("scan load"), nb, l.tree, nb * l.tree, 2, rows.temp);
    load.explain = "Each block of " + counted(l.tree, "thread") + " loads its " + M + " words of the " +
                   (L ? "block sums of the level before" : "array") +
                   " into shared memory (temp), two a thread, zeros past the end, for a work-efficient scan.";
    for (std::int32_t d = m / 2; d >= 1; d /= 2) {
      const std::int32_t offset = m / (2 * d);
      const std::string D = std::to_string(d), O = std::to_string(offset);
      Step& s = plan::add_step(t,
                               head + "up-sweep d = " + D + ", offset = " + O +
                                   ": temp[bi] += temp[ai], ai = offset(2tid+1)-1, bi = offset(2tid+2)-1, tid < " + D +
                                   (d == 1 ? "; thread 0: sums[blockIdx.x] = temp[" + std::to_string(m - 1) +
                                                 "], temp[" + std::to_string(m - 1) + "] = 0"
                                           : ""),
                               "up-sweep", code.line("up-sweep"), nb, l.tree, nb * d, d == 1 ? 3 : 1, rows.temp);
      s.barrier = true;
      s.explain = "Up-sweep with d = " + counted(d, "thread") + " a block and offset = " + O +
                  ": each adds temp[ai] into temp[bi]; " + "temp[bi] now holds the sum of " +
                  std::to_string(2 * offset) + " words." +
                  (d == 1 ? " Then thread 0 saves the block's total to sums[blockIdx.x] and clears the root for the "
                            "down-sweep."
                          : "");
      if (d == 1) s.also_lit.push_back(code.line("block sum"));
    }
    for (std::int32_t d = 1; d < m; d *= 2) {
      const std::int32_t offset = m / (2 * d);
      const std::string D = std::to_string(d), O = std::to_string(offset);
      Step& s = plan::add_step(t,
                               head + "down-sweep d = " + D + ", offset = " + O +
                                   ": t = temp[ai]; temp[ai] = temp[bi]; temp[bi] += t, tid < " + D,
                               "down-sweep", code.line("down-sweep"), nb, l.tree, nb * d, 2, rows.temp);
      s.barrier = true;
      s.explain = "Down-sweep with d = " + counted(d, "thread") + " a block and offset = " + O +
                  ": each moves temp[bi] (the sum of everything left of its subtree) into temp[ai] and adds the old "
                  "temp[ai] into temp[bi]; each level doubles the threads.";
    }
    std::int32_t storing = 0;
    for (std::int32_t b = 0; b < nb; ++b)
      storing += std::int32_t(std::clamp<std::int64_t>(l.n - std::int64_t(b) * m, 0, l.tree));
    Step& store = plan::add_step(
        t, head + "out[base + tid] = temp[tid], out[base + tid + " + B + "] = temp[tid + " + B + "] where < n = " + N,
        "scan store", code.line("scan store"), nb, l.tree, storing, 2, L ? rows.sums : rows.out);
    store.barrier = true;
    store.explain =
        "Each block writes its exclusive scan back (the words before n); block b's sum is still missing "
        "from its words" +
        std::string(nb > 1 ? " until the sums are scanned and added." : ": one block, none is.");
  }
  for (std::size_t L = levels.size() - 1; L-- > 0;) {
    const ScanLevel& l = levels[L];
    const std::string M = std::to_string(2 * l.tree);
    plan::add_step(t, what + ", " + scan_level_name(L) + ": add_sums_kernel: out[i] += sums[i / " + M + "]", "add sums",
                   code.line("add sums"), std::int32_t(blocks_for(l.n, l.tree)), l.tree, std::int32_t(l.n), 1,
                   L ? rows.sums : rows.out)
        .explain = "Each word adds the scanned sum of the blocks before its own (sums[i / " + M +
                   "]): the blocks' scans become one scan of the whole " + (L ? "level." : "array.");
  }
}

// Runs the scan's steps from step s on; returns the step after them.
inline std::size_t run_scan(cpu::CpuRun& run, Trace& t, std::size_t s, std::int64_t n, int block,
                            const ScanRows& rows) {
  const std::vector<ScanLevel> levels = scan_levels(n, block);
  std::uint32_t* temp = run.row(rows.temp);
  std::uint32_t* sums_row = run.row(rows.sums);
  auto in_of = [&](std::size_t L) { return L ? sums_row + levels[L].in_at : run.row(rows.in); };
  auto out_of = [&](std::size_t L) { return L ? sums_row + levels[L].in_at : run.row(rows.out); };
  // The trace's row and element of the level's in / out arrays (the probe's rows and offsets).
  auto in_row = [&](std::size_t L) { return L ? rows.sums : rows.in; };
  auto out_row = [&](std::size_t L) { return L ? rows.sums : rows.out; };
  auto at = [&](std::size_t L) { return std::int32_t(L ? levels[L].in_at : 0); };
  for (std::size_t L = 0; L < levels.size(); ++L) {
    const ScanLevel& l = levels[L];
    const std::int32_t m = 2 * l.tree, B = l.tree;
    const std::uint32_t* in = in_of(L);
    std::uint32_t* out = out_of(L);
    const std::int32_t sums_at = std::int32_t(l.sums_at);
    // scan load
    run.begin(s);
    cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      const std::int64_t base = std::int64_t(b) * m;
      std::int32_t a[32];
      for (int k = 0; k < 2; ++k) {
        for (int q = 0; q < lanes; ++q) a[q] = first + q + k * B;
        run.shared_access(a, lanes);
      }
      for (int q = 0; q < lanes; ++q)
        for (int k = 0; k < 2; ++k) {
          const std::int32_t tid = first + q, w = tid + k * B;
          const std::int64_t i = base + w;
          temp[base + w] = i < l.n ? in[i] : 0u;
          run.op(std::int64_t(b) * B + tid, k, i < l.n ? OpKind::Move : OpKind::Write, in_row(L),
                 i < l.n ? at(L) + std::int32_t(i) : -1, rows.temp, std::int32_t(base + w));
          run.count().global_read_bytes += i < l.n ? 4 : 0;
        }
    });
    run.end();
    ++s;
    // up-sweep levels, the last with the block sum
    for (std::int32_t d = m / 2; d >= 1; d /= 2) {
      const std::int32_t offset = m / (2 * d);
      run.begin(s);
      cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        const std::int64_t base = std::int64_t(b) * m;
        int paths[32];
        std::int32_t ai[32], bi[32];
        for (int q = 0; q < lanes; ++q) {
          const std::int32_t tid = first + q;
          paths[q] = tid < d;
          ai[q] = tid < d ? offset * (2 * tid + 1) - 1 : -1;
          bi[q] = tid < d ? offset * (2 * tid + 2) - 1 : -1;
        }
        run.branch(paths, lanes);
        for (int q = 0; q < lanes; ++q) {
          if (!paths[q]) continue;
          temp[base + bi[q]] += temp[base + ai[q]];
          run.op(std::int64_t(b) * B + first + q, 0, OpKind::Add, rows.temp, std::int32_t(base + ai[q]), rows.temp,
                 std::int32_t(base + bi[q]));
          run.count().adds += 1;
        }
        run.shared_access(ai, lanes);
        run.shared_access(bi, lanes);
        run.shared_access(bi, lanes);
        if (d > 1) return;
        int zero[32];
        std::int32_t root[32];
        for (int q = 0; q < lanes; ++q) {
          zero[q] = first + q == 0;
          root[q] = zero[q] ? m - 1 : -1;
        }
        run.branch(zero, lanes);
        if (first == 0) {
          sums_row[sums_at + b] = temp[base + m - 1];
          run.op(std::int64_t(b) * B, 1, OpKind::Move, rows.temp, std::int32_t(base + m - 1), rows.sums, sums_at + b);
          temp[base + m - 1] = 0;
          run.op(std::int64_t(b) * B, 2, OpKind::Write, rows.temp, -1, rows.temp, std::int32_t(base + m - 1));
          run.count().global_write_bytes += 4;
        }
        run.shared_access(root, lanes);
        run.shared_access(root, lanes);
      });
      run.end();
      ++s;
    }
    // down-sweep levels
    for (std::int32_t d = 1; d < m; d *= 2) {
      const std::int32_t offset = m / (2 * d);
      run.begin(s);
      cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        const std::int64_t base = std::int64_t(b) * m;
        int paths[32];
        std::int32_t ai[32], bi[32];
        for (int q = 0; q < lanes; ++q) {
          const std::int32_t tid = first + q;
          paths[q] = tid < d;
          ai[q] = tid < d ? offset * (2 * tid + 1) - 1 : -1;
          bi[q] = tid < d ? offset * (2 * tid + 2) - 1 : -1;
        }
        run.branch(paths, lanes);
        for (int q = 0; q < lanes; ++q) {
          if (!paths[q]) continue;
          const std::uint32_t old = temp[base + ai[q]];
          temp[base + ai[q]] = temp[base + bi[q]];
          temp[base + bi[q]] += old;
          const std::int64_t g = std::int64_t(b) * B + first + q;
          run.op(g, 0, OpKind::Move, rows.temp, std::int32_t(base + bi[q]), rows.temp, std::int32_t(base + ai[q]));
          run.op(g, 1, OpKind::Add, rows.temp, std::int32_t(base + ai[q]), rows.temp, std::int32_t(base + bi[q]));
          run.count().adds += 1;
        }
        run.shared_access(ai, lanes);
        run.shared_access(bi, lanes);
        run.shared_access(ai, lanes);
        run.shared_access(bi, lanes);
      });
      run.end();
      ++s;
    }
    // scan store
    run.begin(s);
    cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      const std::int64_t base = std::int64_t(b) * m;
      for (int k = 0; k < 2; ++k) {
        int paths[32];
        std::int32_t a[32];
        for (int q = 0; q < lanes; ++q) {
          const std::int32_t w = first + q + k * B;
          paths[q] = base + w < l.n;
          a[q] = paths[q] ? w : -1;
        }
        run.branch(paths, lanes);
        run.shared_access(a, lanes);
        for (int q = 0; q < lanes; ++q) {
          if (!paths[q]) continue;
          const std::int64_t i = base + a[q];
          out[i] = temp[i];
          run.op(std::int64_t(b) * B + first + q, k, OpKind::Move, rows.temp, std::int32_t(i), out_row(L),
                 at(L) + std::int32_t(i));
          run.count().global_write_bytes += 4;
        }
      }
    });
    run.end();
    ++s;
  }
  // add_sums_kernel, the deepest level first
  for (std::size_t L = levels.size() - 1; L-- > 0;) {
    const ScanLevel& l = levels[L];
    std::uint32_t* out = out_of(L);
    const std::uint32_t* sums = sums_row + l.sums_at;
    run.begin(s);
    cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      int paths[32];
      for (int q = 0; q < lanes; ++q) paths[q] = std::int64_t(b) * l.tree + first + q < l.n;
      run.branch(paths, lanes);
      for (int q = 0; q < lanes; ++q) {
        const std::int64_t i = std::int64_t(b) * l.tree + first + q;
        if (i >= l.n) continue;
        out[i] += sums[i / (2 * l.tree)];
        run.op(i, 0, OpKind::Add, rows.sums, std::int32_t(l.sums_at + i / (2 * l.tree)), out_row(L),
               at(L) + std::int32_t(i));
        run.count().adds += 1;
        run.count().global_read_bytes += 8;
        run.count().global_write_bytes += 4;
      }
    });
    run.end();
    ++s;
  }
  return s;
}

}  // namespace primlab::lab::radix
