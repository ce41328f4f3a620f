// radix-split: the plan (one step a launch of radix_split.cuh's host code and one a barrier inside
// its kernels: find_max_kernel's tree levels, the scan's sweeps) and the CPU reference, which runs
// the same launches warp by warp. The rows are the code's arrays (radix_split_rows.h); the plan
// knows the input, so it sizes the passes from the max as the host code does.
#include <string>

#include "lab/algorithms/radix/radix_steps.h"
#include "lab/algorithms/radix/split/radix_split_rows.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab::radix;

// The max find_max_kernel finds, and the bits it gives (uint32 and int32 without the input: all).
int needed_bit_count(const StepConfig& cfg, std::uint32_t& max_out) {
  max_out = 0;
  if (!cfg.input) return cfg.type == ElemType::I32 ? 31 : 32;
  for (std::uint32_t k : *cfg.input) max_out = std::max(max_out, needed_bits(k, cfg.type));
  int bits = 0;
  while (bits < 32 && (max_out >> bits) != 0) ++bits;
  return bits;
}

// Pass p's bit, and the key rows it reads and writes (the last pass writes out).
struct SplitPass {
  int k, src, dst;
};
std::vector<SplitPass> split_passes(int bits, bool i32) {
  const int passes = bits + (i32 ? 1 : 0);
  std::vector<SplitPass> v;
  int src = kSplitIn;
  for (int p = 0; p < passes; ++p) {
    const int dst = (passes - 1 - p) % 2 == 0 ? kSplitOut : kSplitAlt;
    v.push_back({p < bits ? p : 31, src, dst});
    src = dst;
  }
  return v;
}

std::string key_row_name(int r) { return r == kSplitIn ? "in" : r == kSplitOut ? "out" : "alt"; }

const ScanRows kScanRows{kSplitFalse, kSplitFalseScan, kSplitTemp, kSplitSums};

}  // namespace

Result plan_radix_split(const StepConfig& cfg, Trace& t) {
  if (cfg.type == ElemType::F32)
    return Result::failure("radix-split sorts int32 and uint32 keys (radix-digits takes floats)");
  const std::int32_t n = cfg.n, B = cfg.block, W = split_width(n, B);
  const bool i32 = cfg.type == ElemType::I32;
  const int tree = tree_block(B, n);
  const std::int32_t max_blocks = std::int32_t(blocks_for(n, tree)), grid = std::int32_t(blocks_for(n, B));
  t.title = "Radix sort, 1-bit split (scan of the false flags)";
  t.width = W;
  const plan::Code code = plan::code(t, "radix-split");
  plan::standard_rows(t, "in (keys)", n, cfg.type);
  plan::add_row(t, "alt (keys)", RowKind::Values, n, cfg.type);
  plan::add_row(t, "out (keys)", RowKind::Values, n, cfg.type);
  plan::add_row(t, i32 ? "s_max: k ^ (k >> 31) (max tree)" : "s_max (max tree)", RowKind::Values, max_blocks * tree,
                ElemType::U32);
  plan::add_row(t, "out_max", RowKind::Values, 1, ElemType::U32, false);
  plan::add_row(t, "b = bit k", RowKind::Bits, n, ElemType::I32);
  plan::add_row(t, "f = !b", RowKind::Flags, n, ElemType::I32);
  plan::add_row(t, "fs = scan(f)", RowKind::Index, n, ElemType::I32);
  plan::add_row(t, "temp (the scan's shared memory)", RowKind::Values, std::int32_t(scan_row_width(n, B)),
                ElemType::I32, false);
  plan::add_row(t, "sums (the scan's block sums)", RowKind::Values, std::int32_t(radix_scan_scratch_words(n, B)),
                ElemType::I32, false);
  plan::add_row(t, "total_falses", RowKind::Values, 1, ElemType::I32, false);
  plan::add_row(t, "t = i - fs[i] + total_falses", RowKind::Index, n, ElemType::I32);
  plan::add_row(t, "destination b[i] ? t : fs[i]", RowKind::Index, n, ElemType::I32);
  plan::initial_step(t);

  std::uint32_t maxv = 0;
  const int bits = needed_bit_count(cfg, maxv);
  const std::vector<SplitPass> passes = split_passes(bits, i32);
  const std::string key = i32 ? "in[i] ^ (in[i] >> 31)" : "in[i]";
  plan::add_step(t, "find_max_kernel: s_max[tid] = i < n ? " + key + " : 0", "max keys", code.line("max keys"),
                 max_blocks, tree, max_blocks * tree, 1, kSplitTree)
      .explain = "Each thread puts the bits its key needs (" + std::string(i32 ? "negative ints flipped, " : "") +
                 "0 past n) into the block's shared tree s_max: the max over them tells how many bit passes the sort "
                 "needs.";
  for (int s = tree / 2; s >= 1; s /= 2) {
    Step& st = plan::add_step(t,
                              "s = " + std::to_string(s) + ": s_max[tid] = max(s_max[tid], s_max[tid + " +
                                  std::to_string(s) + "]), tid < " + std::to_string(s),
                              "find max", code.line("find max"), max_blocks, tree, max_blocks * s, 1, kSplitTree);
    st.barrier = true;
    st.explain = "Max tree, s = " + std::to_string(s) + ": the first " + counted(s, "thread") +
                 " of each block keep the larger of two values s apart, halving the candidates.";
  }
  std::string found;
  if (cfg.input)
    found = " -> max " + std::to_string(maxv) + ": " + std::to_string(bits) + " bit" + (bits == 1 ? "" : "s") +
            (i32 ? " and the sign" : "") + (passes.empty() ? ", nothing to sort: out = in" : "");
  Step& am = plan::add_step(t, "thread 0 of each block: atomicMax(out_max, s_max[0])" + found, "atomic max",
                            code.line("atomic max"), max_blocks, tree, max_blocks, 1, kSplitMax);
  am.barrier = true;
  am.explain =
      "Thread 0 of each block folds its block's max into out_max with one atomicMax; the host reads it "
      "back: bits = 32 - clz(max) passes" +
      std::string(i32 ? ", then one on the sign bit." : ".");

  for (const SplitPass& p : passes) {
    const std::string K = std::to_string(p.k), in = key_row_name(p.src), out = key_row_name(p.dst);
    const std::string bit = p.k == 31 && i32 ? "31 (the sign, flipped: negatives first)" : K;
    plan::add_step(t, "bit k = " + bit + ": b[i] = bit k of " + in + "[i], f[i] = b[i] ^ 1", "bits", code.line("bits"),
                   grid, B, n, 2, kSplitBit)
        .explain = "Pass for bit k = " + K +
                   ": each thread reads its key's bit b and writes f = !b, 1 for the keys "
                   "that go first (the falses).";
    plan_scan(t, code, n, B, kScanRows, "bit " + K + ": fs = scan(f)");
    Step& sc = plan::add_step(t,
                              "bit " + K + ": total_falses = fs[n-1] + f[n-1], t = i - fs[i] + total_falses, " + out +
                                  "[b[i] ? t : fs[i]] = " + in + "[i]",
                              "scatter", code.line("scatter"), grid, B, n, 1, p.dst);
    sc.also_lit = {code.line("total"), code.line("true")};
    sc.explain =
        "Each thread adds the last flag to the last scanned value (total_falses, where the true keys start), "
        "computes t, its place if its bit is 1, and moves its key to fs[i] (bit 0) or t (bit 1) in " +
        out +
        ": the falses first, the trues after, each group in its input order, so the split is stable and the "
        "earlier bits' order survives.";
  }
  return {};
}

void cpu_radix_split(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const std::int32_t n = t.n, B = t.block;
  const ElemType type = t.type;
  std::copy(input.begin(), input.end(), run.row(kSplitIn));
  run.snapshot_initial();
  std::uint32_t* tree_row = run.row(kSplitTree);
  std::uint32_t* b = run.row(kSplitBit);
  std::uint32_t* f = run.row(kSplitFalse);
  std::uint32_t* fs = run.row(kSplitFalseScan);
  const int tree = tree_block(B, n);
  std::size_t s = 1;

  // find_max_kernel: the load, the tree levels, the atomicMax
  run.begin(s);
  cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t blk, std::int32_t first, int lanes) {
    std::int32_t a[32];
    for (int l = 0; l < lanes; ++l) a[l] = first + l;
    run.shared_access(a, lanes);
    for (int l = 0; l < lanes; ++l) {
      const std::int32_t i = blk * tree + first + l;
      tree_row[i] = i < n ? needed_bits(run.row(kSplitIn)[i], type) : 0u;
      run.op(i, 0, i < n ? OpKind::Move : OpKind::Write, kSplitIn, i < n ? i : -1, kSplitTree, i);
      run.count().global_read_bytes += i < n ? 4 : 0;
    }
  });
  run.end();
  ++s;
  for (int half = tree / 2; half >= 1; half /= 2, ++s) {
    run.begin(s);
    cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t blk, std::int32_t first, int lanes) {
      int paths[32];
      std::int32_t lo[32], hi[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t tid = first + l;
        paths[l] = tid < half;
        lo[l] = paths[l] ? tid : -1;
        hi[l] = paths[l] ? tid + half : -1;
      }
      run.branch(paths, lanes);
      for (int l = 0; l < lanes; ++l) {
        if (!paths[l]) continue;
        const std::int32_t base = blk * tree, g = base + first + l;
        tree_row[base + lo[l]] = std::max(tree_row[base + lo[l]], tree_row[base + hi[l]]);
        run.op(g, 0, OpKind::Add, kSplitTree, base + hi[l], kSplitTree, base + lo[l]);
      }
      run.shared_access(lo, lanes);
      run.shared_access(hi, lanes);
      run.shared_access(lo, lanes);
    });
    run.end();
  }
  run.begin(s);
  cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t blk, std::int32_t first, int lanes) {
    int paths[32];
    std::int32_t a[32];
    for (int l = 0; l < lanes; ++l) {
      paths[l] = first + l == 0;
      a[l] = paths[l] ? 0 : -1;
    }
    run.branch(paths, lanes);
    if (first == 0) {
      std::uint32_t& out_max = run.row(kSplitMax)[0];
      out_max = std::max(out_max, tree_row[blk * tree]);
      run.op(blk * tree, 0, OpKind::Atomic, kSplitTree, blk * tree, kSplitMax, 0);
      run.count().atomics += 1;
    }
    run.shared_access(a, lanes);
  });
  const std::uint32_t maxv = run.row(kSplitMax)[0];
  const int bits = maxv == 0 ? 0 : 32 - __builtin_clz(maxv);
  const std::vector<SplitPass> passes = split_passes(bits, type == ElemType::I32);
  if (passes.empty()) std::copy(input.begin(), input.end(), run.row(kSplitOut));  // the host's cudaMemcpyAsync
  run.end();
  ++s;

  for (const SplitPass& p : passes) {
    const std::uint32_t* src = run.row(p.src);
    std::uint32_t* dst = run.row(p.dst);
    // bool_maps_kernel
    run.begin(s);
    cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t blk, std::int32_t first, int lanes) {
      int paths[32];
      for (int l = 0; l < lanes; ++l) paths[l] = blk * B + first + l < n;
      run.branch(paths, lanes);
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t i = blk * B + first + l;
        if (i >= n) continue;
        b[i] = key_bit(src[i], p.k, type);
        f[i] = b[i] ^ 1u;
        run.op(i, 0, OpKind::Move, p.src, i, kSplitBit, i);
        run.op(i, 1, OpKind::Move, p.src, i, kSplitFalse, i);
        run.count().global_read_bytes += 4;
        run.count().global_write_bytes += 8;
      }
    });
    run.end();
    ++s;
    s = run_scan(run, t, s, n, B, kScanRows);
    // scatter_kernel
    run.begin(s);
    cpu::for_each_warp(t.steps[s].launch, [&](std::int32_t blk, std::int32_t first, int lanes) {
      int paths[32];
      for (int l = 0; l < lanes; ++l) paths[l] = blk * B + first + l < n;
      run.branch(paths, lanes);
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t i = blk * B + first + l;
        if (i >= n) continue;
        const std::uint32_t total_falses = fs[n - 1] + f[n - 1];
        const std::uint32_t tr = std::uint32_t(i) - fs[i] + total_falses;
        const std::uint32_t d = b[i] ? tr : fs[i];
        run.row(kSplitTotal)[0] = total_falses;
        run.row(kSplitTrue)[i] = tr;
        run.row(kSplitDest)[i] = d;
        dst[d] = src[i];
        run.op(i, 0, OpKind::Move, p.src, i, p.dst, std::int32_t(d));
        run.count().adds += 3;
        run.count().global_read_bytes += 20;
        run.count().global_write_bytes += 4;
      }
    });
    run.end();
    ++s;
  }
}

}  // namespace primlab::steppers
