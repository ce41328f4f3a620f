// scan-shared: the plan (one step a launch of scan_shared.cuh's host code and one a barrier of its
// block scan, down the recursion and back) and the CPU reference, which runs the same kernels
// warp by warp with the same shared-memory addresses, so that its bank-conflict degrees are the
// ones the kernel's accesses have.
#include "lab/algorithms/scan/cpu_scan_steps.h"
#include "lab/algorithms/scan/shared/scan_shared_levels.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab;

std::int32_t offset_terms(int terms, std::int32_t i) {
  return terms == 0 ? 0 : (i >> 5) + (terms == 2 ? i >> 10 : 0);
}
// cfg.variant: bit 0 the two-term offset, bit 1 seed 000's kernStitch in place of the recursion.
int terms_of(const StepConfig& cfg) { return cfg.conflict_offsets ? 1 + (cfg.variant & 1) : 0; }
bool stitches(const StepConfig& cfg) { return (cfg.variant & 2) != 0; }
// kernStitch's op slots: one add per block before an element's own.
constexpr std::int64_t kMaxStitchOps = std::int64_t(1) << 21;

std::string level_name(int level, std::int64_t n) {
  return level == 0 ? "" : "level " + std::to_string(level) + " (the " + std::to_string(n) + " sums): ";
}

// [SECTION] The plan
void plan_block_scan(Trace& t, const plan::Code& code, int terms, const SharedScanLaunch& l) {
  const std::int32_t B = t.block, blocks = std::int32_t(shared_scan_blocks(l.n, B));
  const std::string pre = level_name(l.level, l.n), at = terms == 0 ? "temp[ai]" : "temp[ai + conflict_free(ai)]";
  const SharedScanArrays rows = shared_scan_arrays(l);
  std::vector<int> lit;  // the recursion's line, on every step of a level below the first
  if (l.level > 0) lit.push_back(code.line("scan sums"));
  auto step = [&](const std::string& label, const std::string& phase, std::int32_t active, int ops, int focus,
                  bool barrier) -> Step& {
    Step& st = plan::add_step(t, pre + label, phase, code.line(phase), blocks, B, active, ops, focus);
    st.barrier = barrier;
    st.also_lit = lit;
    return st;
  };
  std::int32_t in_range = 0;  // threads whose ai < n: the ones that write
  for (std::int32_t b = 0; b < blocks; ++b) in_range += std::int32_t(std::clamp<std::int64_t>(l.n - std::int64_t(b) * 2 * B, 0, B));
  const std::string padding =
      terms == 0   ? ". Without padding, the strided accesses of the sweeps will pile into few banks."
      : terms == 1 ? ", each at its index plus index / 32: one padding word per 32 elements moves the later strided "
                     "accesses into different banks."
                   : ", each at its index plus index / 32 + index / 1024: one padding word per 32 elements and one "
                     "more per 1024 keep even the 32-word strides of a 2048-element tile out of one bank.";
  Step& load = step("load: " + at + " = in[base + ai], and bi (0 past n)", "load", blocks * B, 2, kSharedTemp, false);
  if (terms > 0) load.also_lit.push_back(code.line("load (offsets)"));
  load.explain = (l.level == 0 ? "" : "The same kernel, one level down, scans the block sums in place. ") +
                 std::string("Each block of ") + std::to_string(B) + " threads loads its tile of " +
                 std::to_string(2 * B) + " elements into shared memory, two per thread" + padding;
  std::int32_t offset = 1;
  for (std::int32_t d = B; d > 0; d >>= 1, offset <<= 1) {
    const std::string D = std::to_string(d), O = std::to_string(offset);
    const bool root = d == 1;
    Step& st = step("up-sweep d=" + D + ", offset=" + O + ": temp[b] += temp[a] for tid < d" +
                        (root ? "; tid 0: sums[blockIdx.x] = temp[last], temp[last] = 0" : ""),
                    "up-sweep", blocks * d, root ? 3 : 1, kSharedTemp, true);
    if (root) st.also_lit.push_back(code.line("clear"));
    st.explain = "After a barrier, d = " + counted(d, "thread") + " a block add temp[a] into temp[b], offset = " +
                 counted(offset, "element") + " apart, building each tile's sum tree in shared memory." +
                 (root ? " Then thread 0 saves the tile's total (the root) as the block sum and clears the root to 0 "
                         "for the down-sweep."
                       : "");
  }
  for (std::int32_t d = 1; d < 2 * B; d <<= 1) {
    offset >>= 1;
    const std::string D = std::to_string(d), O = std::to_string(offset);
    step("down-sweep d=" + D + ", offset=" + O + ": t = temp[a]; temp[a] = temp[b]; temp[b] += t for tid < d",
         "down-sweep", blocks * d, 2, kSharedTemp, true)
        .explain = "After a barrier, d = " + counted(d, "thread") + " a block swap and add, offset = " +
                   counted(offset, "element") +
                   " apart: temp[a] takes temp[b], and temp[b] gets their sum, pushing each prefix down the tree.";
  }
  step("write: out[base + ai] = " + at + ", and bi (below n)", "write", in_range, 2, rows.out, true).explain =
      "After the last barrier, each block writes its scanned tile back to global memory: every element holds the "
      "sum of the elements before it in its own tile.";
}

void plan_launch(Trace& t, const plan::Code& code, int terms, const SharedScanLaunch& l) {
  const std::int32_t B = t.block, blocks = std::int32_t(shared_scan_blocks(l.n, B));
  const SharedScanArrays rows = shared_scan_arrays(l);
  if (l.kind == SharedScanLaunch::kBlockScan) return plan_block_scan(t, code, terms, l);
  if (l.kind == SharedScanLaunch::kStitch) {
    std::int32_t active = 0;
    for (std::int32_t b = 1; b < blocks; ++b) active += std::int32_t(std::clamp<std::int64_t>(l.n - std::int64_t(b) * 2 * B, 0, B));
    plan::add_step(t, "kernStitch: block bx adds sums[0..bx-1] to each of its elements", "stitch", code.line("stitch"),
                   blocks, B, active, 2 * (blocks - 1), kSharedOut)
        .explain = "Seed 000's kernStitch: instead of scanning the " + std::to_string(blocks) +
                   " block sums, every block adds the roots of all the blocks before it to each of its elements, "
                   "one by one: block " + std::to_string(blocks - 1) + " does " + std::to_string(blocks - 1) +
                   " adds per element, O(blocks) where a scan of the sums needs O(log blocks).";
    return;
  }
  if (l.kind == SharedScanLaunch::kDistribute) {
    std::int32_t active = 0;
    for (std::int32_t b = 0; b < blocks; ++b) active += std::int32_t(std::clamp<std::int64_t>(l.n - std::int64_t(b) * 2 * B, 0, B));
    Step& st = plan::add_step(t, level_name(l.level, l.n) + "distribute: out[base + j] += sums[blockIdx.x], " +
                                     std::to_string(blocks) + " blocks",
                              "distribute", code.line("distribute"), blocks, B, active, 2, rows.out);
    if (l.level > 0) st.also_lit.push_back(code.line("scan sums"));
    st.explain = "Back up the recursion: each block adds its scanned block sum, the total of all the tiles before it, "
                 "to its " + std::to_string(2 * B) + " elements, turning the per-tile prefix sums into the prefix sum "
                 "of the whole level.";
    return;
  }
  plan::add_step(t, "inclusive: out[i] += in[i] for i < n = " + std::to_string(l.n), "inclusive",
                 code.line("inclusive"), plan::div_up(l.n, B), B, std::int32_t(l.n), 1, kSharedOut)
      .explain = "Each element adds its own input to its exclusive sum: the inclusive scan.";
}

// [SECTION] The CPU reference
// The block scan's accesses to one block's shared memory, warp by warp, at the kernel's (padded)
// word addresses.
struct BlockSweep {
  cpu::CpuRun& run;
  ElemType type;
  int terms;
  std::int32_t padded(std::int32_t i) const { return i + offset_terms(terms, i); }

  // One up-sweep (down = false) or down-sweep level of d active threads of `threads`, on temp
  // (logical indices); rec(tid, a, b) for each active thread.
  template <class Rec>
  void level(std::uint32_t* temp, std::int32_t threads, std::int32_t d, std::int32_t offset, bool down, Rec rec) {
    for (std::int32_t first = 0; first < threads; first += 32) {
      const int lanes = std::min<std::int32_t>(32, threads - first);
      int paths[32];
      std::int32_t A[32], Bv[32], pa[32], pb[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t tid = first + l;
        paths[l] = tid < d;
        A[l] = tid < d ? offset * (2 * tid + 1) - 1 : -1;
        Bv[l] = tid < d ? offset * (2 * tid + 2) - 1 : -1;
        pa[l] = A[l] < 0 ? -1 : padded(A[l]);
        pb[l] = Bv[l] < 0 ? -1 : padded(Bv[l]);
      }
      run.branch(paths, lanes);
      run.shared_access(pa, lanes);  // read temp[a]
      run.shared_access(pb, lanes);  // read temp[b]
      if (down) run.shared_access(pa, lanes);  // write temp[a]
      if (down) run.shared_access(pb, lanes);  // read temp[b] again
      run.shared_access(pb, lanes);  // write temp[b]
      for (int l = 0; l < lanes; ++l) {
        if (A[l] < 0) continue;
        if (down) {
          const std::uint32_t x = temp[A[l]];
          temp[A[l]] = temp[Bv[l]];
          temp[Bv[l]] = cpu::add_words(temp[Bv[l]], x, type);
        } else {
          temp[Bv[l]] = cpu::add_words(temp[Bv[l]], temp[A[l]], type);
        }
        run.count().adds += 1;
        rec(first + l, A[l], Bv[l]);
      }
    }
  }
  // One warp access a thread to logical index first + l + k * threads of each lane l, where `live`.
  template <class Live>
  void each_thread(std::int32_t threads, std::int32_t k, Live live) {
    for (std::int32_t first = 0; first < threads; first += 32) {
      const int lanes = std::min<std::int32_t>(32, threads - first);
      std::int32_t a[32];
      for (int l = 0; l < lanes; ++l) a[l] = live(first + l) ? padded(first + l + k * threads) : -1;
      run.shared_access(a, lanes);
    }
  }
};

// The steps of one launch of scan3_kernel, from step s on; returns the step after them.
std::size_t cpu_block_scan(cpu::CpuRun& run, Trace& t, std::size_t s, const SharedScanLaunch& l, int terms) {
  const std::int32_t B = t.block, E = 2 * B, blocks = std::int32_t(shared_scan_blocks(l.n, B));
  const SharedScanArrays rows = shared_scan_arrays(l);
  const std::uint32_t* in = run.row(rows.in);
  std::uint32_t* out = run.row(rows.out);
  std::uint32_t* sums = run.row(rows.sums);
  std::uint32_t* temp = run.row(kSharedTemp);
  BlockSweep sweep{run, t.type, terms};
  // Load.
  run.begin(s++);
  for (std::int32_t b = 0; b < blocks; ++b) {
    for (std::int32_t tid = 0; tid < B; ++tid)
      for (int k = 0; k < 2; ++k) {
        const std::int32_t x = tid + k * B, i = b * E + x;
        const bool here = i < l.n;
        temp[i] = here ? in[i] : 0u;
        run.op(b * B + tid, k, here ? OpKind::Move : OpKind::Write, rows.in, here ? i : -1, kSharedTemp, i);
        run.count().global_read_bytes += here ? 4 : 0;
      }
    for (int k = 0; k < 2; ++k) sweep.each_thread(B, k, [](std::int32_t) { return true; });
  }
  run.end();
  // Up-sweep, the last level with the clear.
  std::int32_t offset = 1;
  for (std::int32_t d = B; d > 0; d >>= 1, offset <<= 1) {
    run.begin(s++);
    for (std::int32_t b = 0; b < blocks; ++b) {
      sweep.level(temp + b * E, B, d, offset, false, [&](std::int32_t tid, std::int32_t a, std::int32_t bb) {
        run.op(b * B + tid, 0, OpKind::Add, kSharedTemp, b * E + a, kSharedTemp, b * E + bb);
      });
      if (d > 1) continue;
      for (std::int32_t first = 0; first < B; first += 32) {
        int paths[32];
        const int lanes = std::min<std::int32_t>(32, B - first);
        for (int ln = 0; ln < lanes; ++ln) paths[ln] = first + ln == 0;
        run.branch(paths, lanes);
      }
      const std::int32_t last = b * E + E - 1, word[1] = {sweep.padded(E - 1)};
      run.shared_access(word, 1);  // read temp[last]
      run.shared_access(word, 1);  // write temp[last]
      sums[b] = temp[last];
      temp[last] = 0;
      run.op(b * B, 1, OpKind::Move, kSharedTemp, last, rows.sums, b);
      run.op(b * B, 2, OpKind::Write, kSharedTemp, -1, kSharedTemp, last);
      run.count().global_write_bytes += 4;
    }
    run.end();
  }
  // Down-sweep.
  for (std::int32_t d = 1; d < E; d <<= 1) {
    offset >>= 1;
    run.begin(s++);
    for (std::int32_t b = 0; b < blocks; ++b)
      sweep.level(temp + b * E, B, d, offset, true, [&](std::int32_t tid, std::int32_t a, std::int32_t bb) {
        run.op(b * B + tid, 0, OpKind::Move, kSharedTemp, b * E + bb, kSharedTemp, b * E + a);
        run.op(b * B + tid, 1, OpKind::Add, kSharedTemp, b * E + a, kSharedTemp, b * E + bb);
      });
    run.end();
  }
  // Write.
  run.begin(s++);
  for (std::int32_t b = 0; b < blocks; ++b)
    for (int k = 0; k < 2; ++k) {
      auto here = [&](std::int32_t tid) { return b * E + tid + k * B < l.n; };
      for (std::int32_t first = 0; first < B; first += 32) {
        int paths[32];
        const int lanes = std::min<std::int32_t>(32, B - first);
        for (int ln = 0; ln < lanes; ++ln) paths[ln] = here(first + ln);
        run.branch(paths, lanes);
      }
      sweep.each_thread(B, k, here);
      for (std::int32_t tid = 0; tid < B; ++tid) {
        const std::int32_t i = b * E + tid + k * B;
        if (!here(tid)) continue;
        out[i] = temp[i];
        run.op(b * B + tid, k, OpKind::Move, kSharedTemp, i, rows.out, i);
        run.count().global_write_bytes += 4;
      }
    }
  run.end();
  return s;
}

void cpu_distribute(cpu::CpuRun& run, Trace& t, const SharedScanLaunch& l) {
  const std::int32_t B = t.block, E = 2 * B, blocks = std::int32_t(shared_scan_blocks(l.n, B));
  const SharedScanArrays rows = shared_scan_arrays(l);
  std::uint32_t* out = run.row(rows.out);
  const std::uint32_t* sums = run.row(rows.sums);
  Counters& c = run.count();
  c.global_read_bytes += std::int64_t(blocks) * B * 4;  // each thread's sums[blockIdx.x]
  for (std::int32_t b = 0; b < blocks; ++b)
    for (int k = 0; k < 2; ++k)
      for (std::int32_t first = 0; first < B; first += 32) {
        int paths[32];
        const int lanes = std::min<std::int32_t>(32, B - first);
        for (int ln = 0; ln < lanes; ++ln) {
          const std::int32_t tid = first + ln, i = b * E + tid + k * B;
          paths[ln] = i < l.n;
          if (i >= l.n) continue;
          out[i] = cpu::add_words(out[i], sums[b], t.type);
          run.op(b * B + tid, k, OpKind::Add, rows.sums, b, rows.out, i);
          c.global_read_bytes += 4;
          c.global_write_bytes += 4;
          c.adds += 1;
        }
        run.branch(paths, lanes);
      }
}

void cpu_stitch(cpu::CpuRun& run, Trace& t, const SharedScanLaunch& l) {
  const std::int32_t B = t.block, E = 2 * B, blocks = std::int32_t(shared_scan_blocks(l.n, B));
  const SharedScanArrays rows = shared_scan_arrays(l);
  std::uint32_t* out = run.row(rows.out);
  const std::uint32_t* sums = run.row(rows.sums);
  Counters& c = run.count();
  for (std::int32_t b = 1; b < blocks; ++b)
    for (std::int32_t first = 0; first < B; first += 32) {
      const int lanes = std::min<std::int32_t>(32, B - first);
      bool live[32];
      for (int ln = 0; ln < lanes; ++ln) live[ln] = true;
      for (int k = 0; k < 2; ++k) {
        int paths[32], count = 0;
        for (int ln = 0; ln < lanes; ++ln) {
          if (!live[ln]) continue;
          const std::int32_t tid = first + ln, index = b * E + tid + k * B;
          paths[count++] = index < l.n;
          live[ln] = index < l.n;  // `if (index >= n) return;`
          if (!live[ln]) continue;
          for (std::int32_t i = 0; i < b; ++i) {
            out[index] = cpu::add_words(out[index], sums[i], t.type);
            run.op(b * B + tid, k * (blocks - 1) + i, OpKind::Add, rows.sums, i, rows.out, index);
          }
          c.adds += b;
          c.global_read_bytes += 8 * b;
          c.global_write_bytes += 4 * b;
        }
        run.branch(paths, count);
      }
    }
}
}  // namespace

Result plan_scan_shared(const StepConfig& cfg, Trace& t) {
  if (cfg.variant < 0 || cfg.variant > 3)
    return Result::failure("the shared scan's variant must be 0 to 3 (bit 0: two-term offset, bit 1: kernStitch)");
  const std::int32_t n = cfg.n, B = cfg.block, E = 2 * B, blocks = plan::div_up(n, E), W = blocks * E;
  if (stitches(cfg) && std::int64_t(blocks) * B * 2 * (blocks - 1) > kMaxStitchOps)
    return Result::failure("kernStitch adds " + std::to_string(blocks - 1) +
                           " block sums to each element: too many adds to trace; take larger blocks");
  const int terms = terms_of(cfg);
  t.title = terms == 0   ? "Shared-memory scan (GPU Gems 3, no bank-conflict offsets)"
            : terms == 1 ? "Shared-memory scan (GPU Gems 3, bank-conflict offsets)"
                         : "Shared-memory scan (GPU Gems 3, two-term bank-conflict offsets)";
  if (stitches(cfg)) t.title += ", kernStitch (seed 000)";
  t.width = W;
  t.elems_per_thread = 2;
  // temp[i + conflict_free(i)]: one padding word after every 32 elements, and with the second
  // term one more after every 1024.
  t.shared_layout.assign(std::size_t(E + offset_terms(terms, E - 1)), -1);
  for (std::int32_t i = 0; i < E; ++i) t.shared_layout[std::size_t(i + offset_terms(terms, i))] = i;
  const plan::Code code = plan::code(t, "scan-shared");
  plan::standard_rows(t, "d_out", n, cfg.type);
  plan::add_row(t, "d_in", RowKind::Values, n, cfg.type);
  plan::add_row(t, "temp (shared memory, logical order)", RowKind::Values, W, cfg.type);
  const std::vector<std::int64_t> levels = shared_scan_levels(n, B);
  for (std::size_t k = 0; k < levels.size(); ++k)
    plan::add_row(t, k == 0 ? "sums (a block's total)" : "sums + " + std::to_string(k) + " * stride (level " +
                                                             std::to_string(k) + "'s block sums)",
                  RowKind::Values, std::int32_t(shared_scan_blocks(levels[k], B)), cfg.type, false);
  plan::initial_step(t, kSharedIn);
  for (const SharedScanLaunch& l : shared_scan_launches(n, B, stitches(cfg), cfg.inclusive))
    plan_launch(t, code, terms, l);
  return {};
}

void cpu_scan_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kSharedIn));
  run.snapshot_initial();
  std::size_t s = 1;
  for (const SharedScanLaunch& l : shared_scan_launches(t.n, t.block, stitches(cfg), cfg.inclusive)) {
    if (l.kind == SharedScanLaunch::kBlockScan) {
      s = cpu_block_scan(run, t, s, l, terms_of(cfg));
      continue;
    }
    run.begin(s);
    if (l.kind == SharedScanLaunch::kStitch) cpu_stitch(run, t, l);
    else if (l.kind == SharedScanLaunch::kDistribute) cpu_distribute(run, t, l);
    else scan::add_input(run, t.steps[s].launch, t.n, t.type);
    run.end();
    ++s;
  }
}

}  // namespace primlab::steppers
