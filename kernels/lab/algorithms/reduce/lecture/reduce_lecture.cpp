// The lecture's reductions (seed 004) reduce1..reduce5 and the warp-shuffle reduction: the plans,
// which follow reduce_lecture.cuh's host loop (one launch a pass until one block is left: a step
// for the load, one per tree level, one per line of reduce5's unrolled warp and per shuffle
// offset, one for the write), and the CPU reference, which runs the same kernels warp by warp.
// The counters show what each variant fixes: reduce1 diverges in every warp, reduce2 trades that
// for bank conflicts, reduce3 has neither, reduce4 halves the idle threads, reduce5 drops the last
// warp's barriers and branches.
#include "lab/algorithms/reduce/cpu_tree_steps.h"
#include "lab/algorithms/reduce/reduce_rows.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace reduce;

// Load: the kernel's first statements, to its first barrier; Level: one tree level s; Unrolled:
// one line of reduce5's last warp; Write: out[blockIdx.x]. The shuffle: Shuffle, one offset d in
// every warp; WriteOneWarp: a block of at most one warp is done; WarpSums: lane 0 of each warp
// to s_warp[]; WarpLoad: warp 0 reads them; ShuffleSums: one offset d in warp 0; then Write.
enum class Kind { Load, Level, Unrolled, Write, Shuffle, WriteOneWarp, WarpSums, WarpLoad, ShuffleSums };

struct RStep {
  Kind kind;
  std::size_t pass;
  std::int32_t s;  // the level's s, the unrolled line's s, or the shuffle's d
};

// The first s of reduce5's last warp: 32, or half the block below 64 threads.
std::int32_t first_warp_stride(std::int32_t b) { return b < 64 ? b / 2 : 32; }

std::vector<RStep> schedule(int v, const Layout& L) {
  std::vector<RStep> steps;
  for (std::size_t k = 0; k < L.passes.size(); ++k) {
    const std::int32_t b = L.passes[k].threads;
    steps.push_back({Kind::Load, k, 0});
    if (v == kShuffle) {
      for (std::int32_t d = std::min(b, 32) / 2; d > 0; d /= 2) steps.push_back({Kind::Shuffle, k, d});
      if (b <= 32) {
        steps.push_back({Kind::WriteOneWarp, k, 0});
        continue;
      }
      steps.push_back({Kind::WarpSums, k, 0});
      steps.push_back({Kind::WarpLoad, k, 0});
      for (std::int32_t d = 16; d > 0; d /= 2) steps.push_back({Kind::ShuffleSums, k, d});
    } else if (v <= kReduce2) {
      for (std::int32_t s = 1; s < b; s *= 2) steps.push_back({Kind::Level, k, s});
    } else {
      for (std::int32_t s = b / 2; s > (v == kReduce5 ? 32 : 0); s /= 2) steps.push_back({Kind::Level, k, s});
      if (v == kReduce5)
        for (std::int32_t s = first_warp_stride(b); s > 0; s /= 2) steps.push_back({Kind::Unrolled, k, s});
    }
    steps.push_back({Kind::Write, k, 0});
  }
  return steps;
}

// Threads of a block that do the step's work (the rest of the launch idles).
std::int32_t active_per_block(int v, const RStep& st, std::int32_t b) {
  switch (st.kind) {
    case Kind::Load: return b;
    case Kind::Level: return v <= kReduce2 ? b / (2 * st.s) : st.s;
    case Kind::Unrolled: return std::min(32, b);
    case Kind::Shuffle: return b;
    case Kind::WarpSums: return b / 32;
    case Kind::WarpLoad:
    case Kind::ShuffleSums: return 32;
    case Kind::Write:
    case Kind::WriteOneWarp: return 1;
  }
  return 0;
}

int load_ops(int v) { return v <= kReduce3 ? 1 : v == kReduce4 ? 2 : v == kReduce5 ? 3 : kShuffleItems; }

std::string load_label(int v, const Pass& p) {
  const std::string B = std::to_string(p.threads), N = std::to_string(p.len);
  if (v <= kReduce3) return "load: sdata[tid] = i < n ? in[i] : 0, n = " + N;
  if (v == kShuffle)
    return "load: v += in[i] for i = base + k*" + B + ", k < items = " + std::to_string(kShuffleItems) + ", i < n = " + N +
           ": the first add during the load";
  return "load: sdata[tid] = in[i] + in[i+" + B + "], i < n = " + N + ": the first add during the load" +
         (v == kReduce5 ? "; sdata[tid+" + B + "] = 0" : "");
}

std::string level_label(int v, std::int32_t s, std::int32_t b) {
  const std::string S = std::to_string(s), TS = std::to_string(2 * s);
  if (v == kReduce1) return "s=" + S + ": if (tid % " + TS + " == 0) sdata[tid] += sdata[tid+" + S + "]";
  if (v == kReduce2)
    return "s=" + S + ": index = " + TS + "*tid; if (index < " + std::to_string(b) + ") sdata[index] += sdata[index+" + S +
           "]";
  return "s=" + S + ": if (tid < " + S + ") sdata[tid] += sdata[tid+" + S + "]";
}

std::string load_prose(int v, const Pass& p) {
  if (v <= kReduce3)
    return "Each thread copies one element from global memory into shared memory, where the block's tree sum runs "
           "far faster than it would in global memory.";
  const std::string B = std::to_string(p.threads);
  if (v == kShuffle)
    return "Each thread adds two elements " + B + " apart into its register v (0 past the end): half as many blocks, "
           "and no thread idles at the first add.";
  return "Each thread loads two elements " + B + " apart and adds them on the way into shared memory: half as many "
         "blocks, and no thread idles at the first add." +
         std::string(v == kReduce5 ? " It also zeroes sdata[tid+" + B + "], which the last warp's upper lanes read." : "");
}

std::string level_prose(int v, std::int32_t s) {
  const std::string S = std::to_string(s), TS = std::to_string(2 * s);
  if (v == kReduce1)
    return "Level s=" + S + ": threads whose tid is a multiple of " + TS + " add the element " + S +
           " to their right. The working threads are scattered over every warp, so each warp diverges.";
  if (v == kReduce2)
    return "Level s=" + S + ": thread tid adds sdata[index+" + S + "] into sdata[index], index = " + TS +
           "*tid. The working threads are the first ones (little divergence), but words " + TS +
           " apart share banks.";
  return reduce::level_prose(s);
}

std::string explain(int v, const Layout& L, const RStep& st) {
  const Pass& p = L.passes[st.pass];
  const std::string S = std::to_string(st.s);
  switch (st.kind) {
    case Kind::Load: return pass_prose(L, st.pass) + load_prose(v, p);
    case Kind::Level: return level_prose(v, st.s);
    case Kind::Unrolled: return unrolled_prose(st.s);
    case Kind::Shuffle:
    case Kind::ShuffleSums:
      return std::string(st.kind == Kind::ShuffleSums ? "Warp 0 combines the warp sums: each" : "Each") +
             " lane adds the value of the lane " + S +
             " above it, read from that lane's register with __shfl_down_sync: no shared memory, no barrier.";
    case Kind::WarpSums:
      return "Lane 0 of each warp writes its warp's sum to s_warp[] in shared memory, so that one warp can combine them.";
    case Kind::WarpLoad:
      return "Warp 0 reads the warp sums into its registers (0 past the last warp) for the final shuffles.";
    case Kind::WriteOneWarp:
      return "A block of one warp is done after its shuffles: " + reduce::write_prose(L, st.pass);
    case Kind::Write: return reduce::write_prose(L, st.pass);
  }
  return "";
}

Result plan_lecture(int v, const StepConfig& cfg, Trace& t) {
  const Layout L = lecture_layout(v, cfg.n, cfg.block);
  const char* titles[] = {"",
                          "reduce1: interleaved addressing (divergent branch)",
                          "reduce2: strided index (bank conflicts)",
                          "reduce3: sequential addressing",
                          "reduce4: first add during load",
                          "reduce5: last warp unrolled",
                          "Warp-shuffle reduction"};
  const char* listings[] = {"", "reduce1", "reduce2", "reduce3", "reduce4", "reduce5", "reduce-shuffle"};
  t.title = titles[v];
  t.width = L.width;
  t.elems_per_thread = lecture_per_block(v, cfg.block) / cfg.block;
  const plan::Code code = plan::code(t, listings[v]);
  plan::standard_rows(t, "x (input)", cfg.n, cfg.type);
  const int own = kStdRows;
  if (v == kShuffle) {
    plan::add_row(t, "v: registers, one per thread", RowKind::Values, L.width, cfg.type);
    if (cfg.block > 32) plan::add_row(t, "s_warp[] in shared memory", RowKind::Values, L.width, cfg.type);
  } else {
    plan::add_row(t, "sdata[] in shared memory, a slice per block", RowKind::Values, L.width, cfg.type);
  }
  add_partial_rows(t, L, cfg.type);
  plan::initial_step(t);
  for (const RStep& st : schedule(v, L)) {
    const Pass& p = L.passes[st.pass];
    const std::string S = std::to_string(st.s);
    std::string label;
    int line = -1, ops = 1, focus = own;
    switch (st.kind) {
      case Kind::Load:
        line = code.line("load");
        ops = load_ops(v);
        label = load_label(v, p);
        break;
      case Kind::Level:
        line = code.line("level");
        label = level_label(v, st.s, p.threads);
        break;
      case Kind::Unrolled:
        line = code.line("unrolled");
        label = "warp s=" + S + ": v += sdata[tid+" + S + "]; sdata[tid] = v in the " +
                std::to_string(std::min(32, p.threads)) + " lanes of warp 0, no barrier";
        break;
      case Kind::Shuffle:
        line = code.line("shuffle");
        label = "d=" + S + ": v += __shfl_down_sync(lanes, v, " + S + ", width) from lane + " + S;
        break;
      case Kind::WriteOneWarp:
        line = code.line("write (one warp)");
        focus = p.out_row;
        label = "if (threadIdx.x == 0) out[blockIdx.x] = v" + write_target(L, st.pass);
        break;
      case Kind::WarpSums:
        line = code.line("warp sums");
        focus = own + 1;
        label = "if (lane == 0) s_warp[warp] = v: " + std::to_string(p.threads / 32) + " warp sums a block";
        break;
      case Kind::WarpLoad:
        line = code.line("warp load");
        label = "warp 0: v = lane < " + std::to_string(p.threads / 32) + " ? s_warp[lane] : 0";
        break;
      case Kind::ShuffleSums:
        line = code.line("shuffle sums");
        label = "warp 0, d=" + S + ": v += __shfl_down_sync(0xffffffff, v, " + S + ") from lane + " + S;
        break;
      case Kind::Write:
        line = code.line("write");
        focus = p.out_row;
        label = std::string(v == kShuffle ? "if (lane == 0) out[blockIdx.x] = v" : "if (tid == 0) out[blockIdx.x] = sdata[0]") +
                write_target(L, st.pass);
        break;
    }
    Step& step = plan::add_step(t, pass_prefix(L, st.pass) + label, pass_phase(st.pass), line, p.blocks, p.threads,
                                p.blocks * active_per_block(v, st, p.threads), ops, focus);
    step.explain = explain(v, L, st);
    step.barrier = st.kind != Kind::Load;  // a pass is one launch: its other steps end at barriers
  }
  return {};
}

// [SECTION] The CPU reference: each step's warps, as the kernels run them.
// reduce5's last warp, `v = sdata[tid]`, then `v += sdata[tid + s]; sdata[tid] = v;` a line: the
// lanes' registers v live across the line steps.
struct LastWarp {
  std::vector<std::uint32_t> v;  // 32 registers a block
};

void cpu_tree_step(int v, const RStep& st, const Pass& p, cpu::CpuRun& run, ElemType type, int shared_row,
                   LastWarp& warp) {
  const std::uint32_t* in = run.row(p.in_row);
  std::uint32_t* out = run.row(p.out_row);
  const std::int32_t b = p.threads, s = st.s;
  // reduce5 enters its last warp in the step after its last level: the first line, or the write
  // where the block has no line (one thread).
  const bool enter_warp = v == kReduce5 && ((st.kind == Kind::Unrolled && s == first_warp_stride(b)) ||
                                            (st.kind == Kind::Write && first_warp_stride(b) == 0));
  if (enter_warp) warp.v.assign(std::size_t(p.blocks) * 32, 0u);
  for (std::int32_t blk = 0; blk < p.blocks; ++blk) {
    const std::int32_t base = blk * p.per_block;
    const TreeBlock k{run, type, shared_row, run.row(shared_row) + base, base, std::int64_t(blk) * b};
    std::uint32_t* regs = enter_warp || st.kind == Kind::Unrolled ? warp.v.data() + std::size_t(blk) * 32 : nullptr;
    for (std::int32_t first = 0; first < b; first += 32) {
      const int lanes = std::min<std::int32_t>(32, b - first);
      if (enter_warp) {
        cpu_last_warp_branch(k, first, lanes);
        if (first == 0) {
          std::int32_t at[32];
          for (int l = 0; l < lanes; ++l) {
            at[l] = l;
            regs[l] = k.sdata[l];
          }
          run.shared_access(at, lanes);
        }
      }
      switch (st.kind) {
        case Kind::Load:
          if (v <= kReduce3) {
            std::int32_t at[32];
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l, i = base + tid;
              at[l] = tid;
              k.sdata[tid] = i < p.len ? in[i] : 0u;
              run.op(k.thread0 + tid, 0, i < p.len ? OpKind::Move : OpKind::Write, p.in_row, i < p.len ? i : -1,
                     shared_row, i);
              run.count().global_read_bytes += i < p.len ? 4 : 0;
            }
            run.shared_access(at, lanes);
          } else {
            cpu_pair_load(k, in, p.in_row, p.len, b, first, lanes, v == kReduce5);
          }
          break;
        case Kind::Level:
          if (v == kReduce1 || v == kReduce2) {
            int paths[32];
            std::int32_t pa[32], pb[32];
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l, index = v == kReduce1 ? tid : 2 * s * tid;
              const bool active = v == kReduce1 ? tid % (2 * s) == 0 : index < b;
              paths[l] = active;
              pa[l] = active ? index : -1;
              pb[l] = active ? index + s : -1;
            }
            cpu_tree_level(k, first, paths, pa, pb, lanes);
          } else {
            cpu_sequential_level(k, first, s, lanes);
          }
          break;
        case Kind::Unrolled: {
          if (first != 0) break;
          std::int32_t pa[32], pb[32];
          for (int l = 0; l < lanes; ++l) {
            pa[l] = l;
            pb[l] = l + s;
            regs[l] = cpu::add_words(regs[l], k.sdata[l + s], type);
          }
          run.shared_access(pb, lanes);
          run.shared_access(pa, lanes);
          for (int l = 0; l < lanes; ++l) {
            k.sdata[l] = regs[l];
            run.count().adds += 1;
            run.op(k.thread0 + l, 0, OpKind::Add, shared_row, base + l + s, shared_row, base + l);
          }
          break;
        }
        case Kind::Write: cpu_tree_write(k, out, p.out_row, blk, first, lanes); break;
        default: break;
      }
    }
  }
}

void cpu_shuffle_step(const RStep& st, const Pass& p, cpu::CpuRun& run, ElemType type, int regs_row,
                      int warp_sums_row) {
  const std::uint32_t* in = run.row(p.in_row);
  std::uint32_t* out = run.row(p.out_row);
  std::uint32_t* regs = run.row(regs_row);
  Counters& c = run.count();
  const std::int32_t b = p.threads, d = st.s, warps = b / 32;
  for (std::int32_t blk = 0; blk < p.blocks; ++blk) {
    const std::int32_t block_base = blk * p.per_block;
    for (std::int32_t first = 0; first < b; first += 32) {
      const int lanes = std::min<std::int32_t>(32, b - first);
      const std::int64_t t0 = std::int64_t(blk) * b + first;  // the warp's first thread
      const std::int32_t base0 = block_base + first;           // its lane 0's `base`
      int paths[32];
      std::int32_t at[32];
      std::uint32_t nv[32];
      switch (st.kind) {
        case Kind::Load:
          for (int l = 0; l < lanes; ++l) regs[base0 + l] = 0u;
          for (int item = 0; item < kShuffleItems; ++item) {
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t i = base0 + l + item * b;
              paths[l] = i < p.len;
              if (i >= p.len) continue;
              regs[base0 + l] = cpu::add_words(regs[base0 + l], in[i], type);
              c.global_read_bytes += 4;
              c.adds += 1;
              run.op(t0 + l, item, OpKind::Add, p.in_row, i, regs_row, base0 + l);
            }
            run.branch(paths, lanes);
          }
          break;
        case Kind::Shuffle:
        case Kind::ShuffleSums: {
          if (st.kind == Kind::ShuffleSums && first != 0) break;
          const int width = std::min(b, 32);
          for (int l = 0; l < lanes; ++l) {
            const int src = l + d < width ? l + d : l;
            nv[l] = cpu::add_words(regs[base0 + l], regs[base0 + src], type);
            run.op(t0 + l, 0, OpKind::Add, regs_row, base0 + src, regs_row, base0 + l);
          }
          for (int l = 0; l < lanes; ++l) regs[base0 + l] = nv[l];
          c.adds += lanes;
          break;
        }
        case Kind::WriteOneWarp:
        case Kind::Write:
          if (st.kind == Kind::Write && first != 0) break;
          for (int l = 0; l < lanes; ++l) paths[l] = l == 0;
          run.branch(paths, lanes);
          out[blk] = regs[base0];
          c.global_write_bytes += 4;
          run.op(t0, 0, OpKind::Move, regs_row, base0, p.out_row, blk);
          break;
        case Kind::WarpSums: {
          const std::int32_t warp = first / 32;
          for (int l = 0; l < lanes; ++l) {
            paths[l] = l == 0;
            at[l] = l == 0 ? warp : -1;
          }
          run.branch(paths, lanes);
          run.shared_access(at, lanes);
          run.row(warp_sums_row)[block_base + warp] = regs[base0];
          run.op(t0, 0, OpKind::Move, regs_row, base0, warp_sums_row, block_base + warp);
          break;
        }
        case Kind::WarpLoad: {
          for (int l = 0; l < lanes; ++l) paths[l] = first == 0;
          run.branch(paths, lanes);
          if (first != 0) break;
          const std::uint32_t* s_warp = run.row(warp_sums_row) + block_base;
          for (int l = 0; l < lanes; ++l) {
            at[l] = l < warps ? l : -1;
            regs[base0 + l] = l < warps ? s_warp[l] : 0u;
            run.op(t0 + l, 0, l < warps ? OpKind::Move : OpKind::Write, warp_sums_row, l < warps ? block_base + l : -1,
                   regs_row, base0 + l);
          }
          run.shared_access(at, lanes);
          break;
        }
        default: break;
      }
    }
  }
}

void cpu_lecture(int v, const std::vector<std::uint32_t>& input, Trace& t) {
  const Layout L = lecture_layout(v, t.n, t.block);
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  run.snapshot_initial();
  const int own = kStdRows;
  LastWarp warp;
  std::size_t s = 0;
  for (const RStep& st : schedule(v, L)) {
    run.begin(++s);
    if (v == kShuffle) cpu_shuffle_step(st, L.passes[st.pass], run, t.type, own, own + 1);
    else cpu_tree_step(v, st, L.passes[st.pass], run, t.type, own, warp);
    run.end();
  }
  t.steps.back().label += " = " + format_word(t.row(t.steps.size() - 1, std::size_t(L.out))[0], t.type);
}
}  // namespace

Result plan_reduce1(const StepConfig& cfg, Trace& t) { return plan_lecture(kReduce1, cfg, t); }
Result plan_reduce2(const StepConfig& cfg, Trace& t) { return plan_lecture(kReduce2, cfg, t); }
Result plan_reduce3(const StepConfig& cfg, Trace& t) { return plan_lecture(kReduce3, cfg, t); }
Result plan_reduce4(const StepConfig& cfg, Trace& t) { return plan_lecture(kReduce4, cfg, t); }
Result plan_reduce5(const StepConfig& cfg, Trace& t) { return plan_lecture(kReduce5, cfg, t); }
Result plan_reduce_shuffle(const StepConfig& cfg, Trace& t) { return plan_lecture(kShuffle, cfg, t); }
void cpu_reduce1(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_lecture(kReduce1, in, t); }
void cpu_reduce2(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_lecture(kReduce2, in, t); }
void cpu_reduce3(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_lecture(kReduce3, in, t); }
void cpu_reduce4(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_lecture(kReduce4, in, t); }
void cpu_reduce5(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) { cpu_lecture(kReduce5, in, t); }
void cpu_reduce_shuffle(const StepConfig&, const std::vector<std::uint32_t>& in, Trace& t) {
  cpu_lecture(kShuffle, in, t);
}

}  // namespace primlab::steppers
