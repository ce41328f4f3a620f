// Shared-memory block scan (GPU Gems 3 ch. 39; the lecture's scan3 and scanDistribute): plan,
// listing and CPU reference. Each block of B threads scans 2B elements in shared memory with the
// bank-conflict offsets (a toggle turns them off; the counters show the conflict degree either
// way); for more than one block the block sums are scanned and added back.
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
enum Rows { kShared = kStdRows, kSums, kScanned, kInput };

// The shared scan's two sweeps over one block's shared memory, emulated warp by warp. Used for the
// per-block levels and, whole, for the one-block scan of the block sums.
struct BlockSweep {
  cpu::CpuRun& run;
  ElemType type;
  bool offsets;
  std::int32_t offs(std::int32_t i) const { return offsets ? i >> 5 : 0; }

  // One up-sweep (down = false) or down-sweep level with d active threads of `threads`, on temp
  // (logical indices). Calls rec(tid, a, b) for each active thread.
  template <class Rec>
  void level(std::uint32_t* temp, std::int32_t threads, std::int32_t d, std::int32_t offset, bool down, Rec rec) {
    for (std::int32_t first = 0; first < threads; first += 32) {
      const int lanes = std::min<std::int32_t>(32, threads - first);
      int paths[32];
      std::int32_t A[32], Bv[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t tid = first + l;
        paths[l] = tid < d;
        A[l] = tid < d ? offset * (2 * tid + 1) - 1 : -1;
        Bv[l] = tid < d ? offset * (2 * tid + 2) - 1 : -1;
      }
      run.branch(paths, lanes);
      std::int32_t pa[32], pb[32];
      for (int l = 0; l < lanes; ++l) {
        pa[l] = A[l] < 0 ? -1 : A[l] + offs(A[l]);
        pb[l] = Bv[l] < 0 ? -1 : Bv[l] + offs(Bv[l]);
      }
      run.shared_access(pa, lanes);  // read temp[a]
      run.shared_access(pb, lanes);  // read temp[b]
      if (down) run.shared_access(pa, lanes);  // write temp[a]
      if (down) run.shared_access(pb, lanes);  // read temp[b] again: temp[b] += t after temp[a] = temp[b]
      run.shared_access(pb, lanes);  // write temp[b]
      for (int l = 0; l < lanes; ++l) {
        if (A[l] < 0) continue;
        if (down) {
          const std::uint32_t t = temp[A[l]];
          temp[A[l]] = temp[Bv[l]];
          temp[Bv[l]] = cpu::add_words(temp[Bv[l]], t, type);
        } else {
          temp[Bv[l]] = cpu::add_words(temp[Bv[l]], temp[A[l]], type);
        }
        run.count().adds += 1;
        rec(first + l, A[l], Bv[l]);
      }
    }
  }
  // The `if (tid == 0)` branch, warp by warp.
  void clear_branch(std::int32_t threads) {
    for (std::int32_t first = 0; first < threads; first += 32) {
      int paths[32];
      const int lanes = std::min<std::int32_t>(32, threads - first);
      for (int l = 0; l < lanes; ++l) paths[l] = first + l == 0;
      run.branch(paths, lanes);
    }
  }
  // Loads or stores two elements per thread (ai = tid, bi = tid + threads): two warp accesses.
  void two_per_thread(std::int32_t threads) {
    for (std::int32_t first = 0; first < threads; first += 32) {
      const int lanes = std::min<std::int32_t>(32, threads - first);
      std::int32_t pa[32], pb[32];
      for (int l = 0; l < lanes; ++l) {
        pa[l] = first + l + offs(first + l);
        pb[l] = first + l + threads + offs(first + l + threads);
      }
      run.shared_access(pa, lanes);
      run.shared_access(pb, lanes);
    }
  }
};
}  // namespace

Result plan_scan_shared(const StepConfig& cfg, Trace& t) {
  const std::int32_t n = cfg.n, B = cfg.block, E = 2 * B, blocks = plan::div_up(n, E), W = blocks * E;
  t.title = cfg.conflict_offsets ? "Shared-memory scan (GPU Gems 3, bank-conflict offsets)"
                                  : "Shared-memory scan (GPU Gems 3, no bank-conflict offsets)";
  const std::string at_ai = cfg.conflict_offsets ? "temp[ai + conflict_free(ai)]" : "temp[ai]";
  t.width = W;
  t.elems_per_thread = 2;
  // temp[i + conflict_free(i)]: with the offsets, one padding word after every 32 elements.
  const std::int32_t pad = cfg.conflict_offsets ? (E - 1) >> 5 : 0;
  t.shared_layout.assign(std::size_t(E + pad), -1);
  for (std::int32_t i = 0; i < E; ++i) t.shared_layout[std::size_t(i + (cfg.conflict_offsets ? i >> 5 : 0))] = i;
  const plan::Code code = plan::code(t, "scan-shared");
  plan::standard_rows(t, "x (global)", W, cfg.type);
  plan::add_row(t, "shared (logical order)", RowKind::Values, W, cfg.type);
  plan::add_row(t, "block sums", RowKind::Values, blocks, cfg.type, false);
  plan::add_row(t, "scanned sums", RowKind::Values, blocks, cfg.type, false);
  plan::add_row(t, "input", RowKind::Values, W, cfg.type);
  plan::initial_step(t);
  const std::string padding = cfg.conflict_offsets
                                  ? ", each at its index plus index / 32: one padding word per 32 elements moves the "
                                    "later strided accesses into different banks."
                                  : ". Without padding, the strided accesses of the sweeps will pile into few banks.";
  plan::add_step(t, "load: " + at_ai + " = in[base + ai] (and bi)", "load", code.line("load"), blocks, B, blocks * B,
                 2, kShared)
      .explain = "Each block of " + std::to_string(B) + " threads loads its tile of " + std::to_string(E) +
                 " elements into shared memory, two per thread" + padding;
  // The block scan is one kernel: its sweeps are __syncthreads() apart.
  for (std::int32_t d = B, offset = 1; d > 0; d >>= 1, offset <<= 1) {
    Step& st = plan::add_step(t, "up-sweep offset=" + std::to_string(offset) + ": temp[b] += temp[a], " +
                                     std::to_string(d) + " threads a block",
                              "up-sweep", code.line("up-sweep"), blocks, B, blocks * d, 1, kShared);
    st.barrier = true;
    st.explain = "Up-sweep, offset " + std::to_string(offset) + ": " + std::to_string(d) +
                 " threads a block add temp[a] into temp[b], " + std::to_string(offset) +
                 " elements apart, building each tile's sum tree in shared memory.";
  }
  Step& clear = plan::add_step(t, "save the block sum, clear the last element", "clear", code.line("clear"), blocks, B,
                               blocks, 2, kShared);
  clear.barrier = true;
  clear.explain = "Thread 0 of each block saves the tile's total (the root) as the block sum, then clears the root "
                  "to 0 for the down-sweep.";
  for (std::int32_t d = 1, offset = B; d < E; d <<= 1, offset >>= 1) {
    Step& st = plan::add_step(t, "down-sweep offset=" + std::to_string(offset) + ": swap and add, " +
                                     std::to_string(d) + " threads a block",
                              "down-sweep", code.line("down-sweep"), blocks, B, blocks * d, 2, kShared);
    st.barrier = true;
    st.explain = "Down-sweep, offset " + std::to_string(offset) + ": " + std::to_string(d) +
                 " threads a block swap and add: temp[a] takes temp[b], and temp[b] gets their sum, pushing each "
                 "prefix down the tree.";
  }
  Step& write = plan::add_step(t, "write: out[base + ai] = " + at_ai + " (and bi)", "write", code.line("write"), blocks,
                               B, blocks * B, 2, kRowMain);
  write.barrier = true;
  write.explain = "Each block writes its scanned tile back to global memory: every element holds the sum of the "
                  "elements before it in its own tile.";
  if (blocks > 1) {
    const std::int32_t threads = std::max(1, plan::next_pow2(blocks) / 2);
    plan::add_step(t, "scan the " + std::to_string(blocks) + " block sums in one block", "scan sums",
                   code.line("scan sums"), 1, threads, threads, 2, kScanned)
        .explain = "A second launch scans the " + std::to_string(blocks) +
                   " block sums in one block: each block learns the total of all blocks before it.";
    plan::add_step(t, "distribute: x[i] += scanned[block] for blocks 1.." + std::to_string(blocks - 1), "distribute",
                   code.line("distribute"), blocks - 1, B, (blocks - 1) * B, 2, kRowMain)
        .explain = "A third launch adds each block's scanned sum to all of its elements, turning the per-tile prefix "
                   "sums into the prefix sum of the whole array.";
  }
  if (cfg.inclusive)
    plan::add_step(t, "inclusive: x[i] += in[i]", "inclusive", code.line("inclusive"), plan::div_up(n, B), B, n, 1,
                   kRowMain)
        .explain = "Each element adds its own input to its exclusive sum: the inclusive scan.";
  return {};
}

void cpu_scan_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const std::int32_t B = t.block, E = 2 * B, blocks = t.width / E;
  std::uint32_t* x = run.row(kRowMain);
  std::uint32_t* sh = run.row(kShared);
  std::uint32_t* sums = run.row(kSums);
  std::uint32_t* scanned = run.row(kScanned);
  std::copy(input.begin(), input.end(), x);
  std::copy(input.begin(), input.end(), run.row(kInput));
  run.snapshot_initial();
  BlockSweep sweep{run, t.type, cfg.conflict_offsets};
  std::int32_t offset = 1;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    const std::string& ph = st.phase;
    if (ph == "load" || ph == "write") {
      const bool load = ph == "load";
      for (std::int32_t b = 0; b < blocks; ++b) {
        for (std::int32_t tid = 0; tid < B; ++tid)
          for (int k = 0; k < 2; ++k) {
            const std::int32_t i = b * E + tid + k * B;
            if (load) {
              sh[i] = x[i];
              run.op(b * B + tid, k, OpKind::Move, kRowMain, i, kShared, i);
            } else {
              x[i] = sh[i];
              run.op(b * B + tid, k, OpKind::Move, kShared, i, kRowMain, i);
            }
          }
        sweep.two_per_thread(B);
      }
      (load ? c.global_read_bytes : c.global_write_bytes) += std::int64_t(blocks) * E * 4;
    } else if (ph == "up-sweep" || ph == "down-sweep") {
      const bool down = ph == "down-sweep";
      if (down) offset >>= 1;
      const std::int32_t d = st.launch.active / blocks;
      for (std::int32_t b = 0; b < blocks; ++b)
        sweep.level(sh + b * E, B, d, offset, down, [&](std::int32_t tid, std::int32_t a, std::int32_t bb) {
          if (down) run.op(b * B + tid, 0, OpKind::Move, kShared, b * E + bb, kShared, b * E + a);
          run.op(b * B + tid, down ? 1 : 0, OpKind::Add, kShared, b * E + a, kShared, b * E + bb);
        });
      if (!down) offset <<= 1;
    } else if (ph == "clear") {
      for (std::int32_t b = 0; b < blocks; ++b) {
        sweep.clear_branch(B);
        const std::int32_t last = E - 1, addr[1] = {last + sweep.offs(last)};
        run.shared_access(addr, 1);  // read temp[last]
        run.shared_access(addr, 1);  // write temp[last] = 0
        sums[b] = sh[b * E + last];
        sh[b * E + last] = 0;
        run.op(b * B, 0, OpKind::Move, kShared, b * E + last, kSums, b);
        run.op(b * B, 1, OpKind::Write, kShared, -1, kShared, b * E + last);
      }
      c.global_write_bytes += std::int64_t(blocks) * 4;
    } else if (ph == "scan sums") {
      const std::int32_t threads = st.launch.threads, P = 2 * threads;
      std::vector<std::uint32_t> temp(std::size_t(P), 0u);
      std::copy(sums, sums + blocks, temp.begin());
      sweep.two_per_thread(threads);  // load
      std::int32_t off = 1;
      for (std::int32_t d = threads; d > 0; d >>= 1, off <<= 1)
        sweep.level(temp.data(), threads, d, off, false, [](std::int32_t, std::int32_t, std::int32_t) {});
      sweep.clear_branch(threads);
      const std::int32_t last[1] = {P - 1 + sweep.offs(P - 1)};
      run.shared_access(last, 1);  // temp[last] = 0
      temp[std::size_t(P - 1)] = 0;
      for (std::int32_t d = 1; d < P; d <<= 1) {
        off >>= 1;
        sweep.level(temp.data(), threads, d, off, true, [](std::int32_t, std::int32_t, std::int32_t) {});
      }
      sweep.two_per_thread(threads);  // store
      for (std::int32_t tid = 0; tid < threads; ++tid)
        for (int k = 0; k < 2; ++k) {
          const std::int32_t i = tid + k * threads;
          if (i < blocks) run.op(tid, k, OpKind::Move, kSums, i, kScanned, i);
        }
      std::copy(temp.begin(), temp.begin() + blocks, scanned);
      c.global_read_bytes += std::int64_t(blocks) * 4;
      c.global_write_bytes += std::int64_t(blocks) * 4;
    } else if (ph == "distribute") {
      for (std::int32_t b = 1; b < blocks; ++b)
        for (std::int32_t tid = 0; tid < B; ++tid)
          for (int k = 0; k < 2; ++k) {
            const std::int32_t i = b * E + tid + k * B;
            x[i] = cpu::add_words(x[i], scanned[b], t.type);
            run.op((b - 1) * B + tid, k, OpKind::Add, kScanned, b, kRowMain, i);
          }
      const std::int64_t threads = std::int64_t(blocks - 1) * B;
      c.adds += threads * 2;
      c.global_read_bytes += threads * 12;
      c.global_write_bytes += threads * 8;
    } else if (ph == "inclusive") {
      cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        int paths[32];
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t i = b * B + first + l;
          paths[l] = i < t.n;
          if (i >= t.n) continue;
          x[i] = cpu::add_words(x[i], run.row(kInput)[i], t.type);
          run.op(i, 0, OpKind::Add, kInput, i, kRowMain, i);
          c.adds += 1;
          c.global_read_bytes += 8;
          c.global_write_bytes += 4;
        }
        run.branch(paths, lanes);
      });
    }
    run.end();
  }
}

}  // namespace primlab::steppers
