// Harris's kernel 7: the plan, which follows reduce7.cuh's host loop (one launch a pass until one
// block is left: a step for the grid-stride loop and the store to shared memory, which no barrier
// separates, one per barrier level and per warp line of kernel 6's unrolled tree, one for the
// write), and the CPU reference, which runs the same kernel warp by warp. The stepped grid follows
// Brent's theorem: about log2(n) elements a thread. The counters show the point: global reads
// spread over a small grid, and the tree's shared traffic paid once per block for many elements.
#include "lab/algorithms/reduce/cpu_tree_steps.h"
#include "lab/algorithms/reduce/reduce_rows.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace reduce;

// Loop: the grid-stride loop and sdata[tid] = sum; Level (barrier) strides s = blockSize/2 .. 64;
// Unrolled (warp) strides s = 32 .. 1 below blockSize; Write.
enum class Kind { Loop, Level, Unrolled, Write };

struct RStep {
  Kind kind;
  std::size_t pass;
  std::int32_t s;
};

std::vector<RStep> schedule(const Layout& L) {
  std::vector<RStep> steps;
  for (std::size_t k = 0; k < L.passes.size(); ++k) {
    const std::int32_t b = L.passes[k].threads;
    steps.push_back({Kind::Loop, k, 0});
    for (std::int32_t s = b / 2; s > 32; s /= 2) steps.push_back({Kind::Level, k, s});
    for (std::int32_t s = std::min(32, b / 2); s > 0; s /= 2) steps.push_back({Kind::Unrolled, k, s});
    steps.push_back({Kind::Write, k, 0});
  }
  return steps;
}

// gridSize, the elements one round of the loop covers, and the most rounds a thread runs.
std::int32_t grid_size(const Pass& p) { return 2 * p.threads * p.blocks; }
std::int32_t rounds(const Pass& p) { return plan::div_up(p.len, grid_size(p)); }

// The loop and the store, one warp: `sum += i + B < n ? in[i] + in[i + B] : in[i]` for i from
// base + tid by gridSize while i < n (the condition is a branch each time a lane evaluates it),
// then `sdata[tid] = sum` (and below 64 threads `sdata[tid + B] = 0`).
void cpu_loop(const TreeBlock& k, const Pass& p, int sum_row, std::int32_t first, int lanes) {
  Counters& c = k.run.count();
  const std::uint32_t* in = k.run.row(p.in_row);
  std::uint32_t* sum = k.run.row(sum_row);
  const std::int32_t b = p.threads, grid = grid_size(p), R = rounds(p);
  int trips[32], paths[32];
  for (int l = 0; l < lanes; ++l) {
    const std::int32_t i0 = k.base + first + l;
    trips[l] = i0 < p.len ? plan::div_up(p.len - i0, grid) : 0;
    paths[l] = trips[l] > 0;
  }
  k.run.branch(paths, lanes);
  for (std::int32_t r = 0; r < R; ++r) {
    int alive = 0;
    for (int l = 0; l < lanes; ++l) {
      if (trips[l] <= r) continue;
      const std::int32_t tid = first + l, i = k.base + tid + r * grid, at = k.base + tid;
      const std::int64_t thread = k.thread0 + tid;
      std::uint32_t pair = in[i];
      k.run.op(thread, 2 * r, OpKind::Add, p.in_row, i, sum_row, at);
      if (i + b < p.len) {
        pair = cpu::add_words(pair, in[i + b], k.type);
        k.run.op(thread, 2 * r + 1, OpKind::Add, p.in_row, i + b, sum_row, at);
      }
      sum[at] = cpu::add_words(r == 0 ? 0u : sum[at], pair, k.type);
      c.global_read_bytes += i + b < p.len ? 8 : 4;
      c.adds += i + b < p.len ? 2 : 1;
      paths[alive++] = trips[l] > r + 1;
    }
    if (alive) k.run.branch(paths, alive);
  }
  std::int32_t at[32], padding[32];
  for (int l = 0; l < lanes; ++l) {
    const std::int32_t tid = first + l, idx = k.base + tid;
    const std::int64_t thread = k.thread0 + tid;
    if (trips[l] == 0) sum[idx] = 0u;
    k.sdata[tid] = sum[idx];
    at[l] = tid;
    k.run.op(thread, 2 * R, OpKind::Move, sum_row, idx, k.shared_row, idx);
    if (b < 64) {
      k.sdata[tid + b] = 0u;
      padding[l] = tid + b;
      k.run.op(thread, 2 * R + 1, OpKind::Write, p.in_row, -1, k.shared_row, idx + b);
    }
  }
  k.run.shared_access(at, lanes);
  if (b < 64) k.run.shared_access(padding, lanes);
}
}  // namespace

Result plan_reduce7(const StepConfig& cfg, Trace& t) {
  const Layout L = reduce7_layout(cfg.n, cfg.block);
  t.title = "reduce7: many elements per thread (grid-stride loop, Brent's theorem)";
  t.width = L.width;
  t.elems_per_thread = 2;
  const plan::Code code = plan::code(t, "reduce7");
  plan::standard_rows(t, "x (input)", cfg.n, cfg.type);
  const int sum = plan::add_row(t, "sum: registers, one per thread", RowKind::Values, L.width, cfg.type);
  const int shared = plan::add_row(t, "sdata[] in shared memory, a slice per block", RowKind::Values, L.width, cfg.type);
  add_partial_rows(t, L, cfg.type);
  plan::initial_step(t);
  const std::string items = std::to_string(reduce7_items(cfg.n));
  for (const RStep& st : schedule(L)) {
    const Pass& p = L.passes[st.pass];
    const std::string B = std::to_string(p.threads), G = std::to_string(grid_size(p)), R = std::to_string(rounds(p));
    std::string label, prose;
    int line = -1, ops = 1, focus = shared;
    std::int32_t active = p.threads;
    std::vector<int> also;
    switch (st.kind) {
      case Kind::Loop:
        line = code.line("round");
        also.push_back(code.line("store"));
        ops = 2 * rounds(p) + 1 + (p.threads < 64 ? 1 : 0);
        focus = sum;
        label = "loop: sum += in[i] + in[i+" + B + "], i += gridSize = " + G + " while i < n = " + std::to_string(p.len) +
                " (" + R + (rounds(p) == 1 ? " round" : " rounds") + "); sdata[tid] = sum" +
                (p.threads < 64 ? "; sdata[tid+" + B + "] = 0" : "");
        prose = pass_prose(L, st.pass) + "The grid-stride loop: each thread adds pairs of elements " + B +
                " apart, a grid's width (gridSize = " + G + ") further on each round, into its register sum, " +
                "then stores sum in shared memory for the block's tree. Few threads doing log n serial adds each (" +
                items + " elements a thread) keep the work O(n): Brent's theorem.";
        break;
      case Kind::Level:
      case Kind::Unrolled: {
        const bool warp = st.kind == Kind::Unrolled;
        line = unrolled_line(code, warp, st.s);
        also.push_back(unrolled_helper_line(code, warp));
        label = unrolled_label(warp, st.s, std::min(32, p.threads));
        prose = warp ? unrolled_prose(st.s) : level_prose(st.s);
        active = warp ? std::min(32, p.threads) : st.s;
        break;
      }
      case Kind::Write:
        line = code.line("write");
        focus = p.out_row;
        label = "if (tid == 0) out[blockIdx.x] = sdata[0]" + write_target(L, st.pass);
        prose = write_prose(L, st.pass);
        active = 1;
        break;
    }
    Step& step = plan::add_step(t, pass_prefix(L, st.pass) + label, pass_phase(st.pass), line, p.blocks, p.threads,
                                p.blocks * active, ops, focus);
    step.also_lit = also;
    step.explain = prose;
    step.barrier = st.kind != Kind::Loop;  // a pass is one launch
  }
  return {};
}

// Runs the kernel of each pass warp by warp, step by step.
void cpu_reduce7(const StepConfig&, const std::vector<std::uint32_t>& input, Trace& t) {
  const Layout L = reduce7_layout(t.n, t.block);
  const int sum = kStdRows, shared = kStdRows + 1;
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  run.snapshot_initial();
  std::size_t s = 0;
  for (const RStep& st : schedule(L)) {
    run.begin(++s);
    const Pass& p = L.passes[st.pass];
    const std::int32_t b = p.threads;
    // `if (tid < 32)` runs in the step after the last barrier level: the first warp line, or the
    // write of a one-thread block.
    const bool enter_warp = (st.kind == Kind::Unrolled && st.s == std::min(32, b / 2)) || (st.kind == Kind::Write && b == 1);
    for (std::int32_t blk = 0; blk < p.blocks; ++blk) {
      const std::int32_t base = blk * 2 * b;  // sdata[0] and the register sum of thread 0
      const TreeBlock k{run, t.type, shared, run.row(shared) + base, base, std::int64_t(blk) * b};
      for (std::int32_t first = 0; first < b; first += 32) {
        const int lanes = std::min<std::int32_t>(32, b - first);
        if (enter_warp) cpu_last_warp_branch(k, first, lanes);
        switch (st.kind) {
          case Kind::Loop: cpu_loop(k, p, sum, first, lanes); break;
          case Kind::Level: cpu_sequential_level(k, first, st.s, lanes); break;
          case Kind::Unrolled:
            if (first == 0) cpu_warp_line(k, st.s, lanes);
            break;
          case Kind::Write: cpu_tree_write(k, run.row(p.out_row), p.out_row, blk, first, lanes); break;
        }
      }
    }
    run.end();
  }
  t.steps.back().label += " = " + format_word(t.row(t.steps.size() - 1, std::size_t(L.out))[0], t.type);
}

}  // namespace primlab::steppers
