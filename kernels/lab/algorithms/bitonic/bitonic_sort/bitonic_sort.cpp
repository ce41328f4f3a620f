// Bitonic sort (the lecture's bitonicSortShared, then global merge passes): plan, listing and CPU
// reference. n is padded to a power of two W with sentinels that sort last (shown hatched): copies
// of the input's last key in the order, key-value ties broken by the index;
// tiles of 2B elements are sorted in shared memory, then each larger stage runs its strides >= 2B
// as global passes and its smaller strides as a shared-memory merge. One step per pass.
// Ops: one CompareSwap per comparator, src = the index that receives the smaller element, dst = the
// one receiving the larger (src > dst: a descending comparator), whichever way the whole sort goes.
#include <string>

#include "lab/model/plan.h"
#include "lab/algorithms/bitonic/bitonic_steps.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using bitonic::Kind;


// A comparator sorts its pair in the sort's direction where (i & size) == 0 and against it elsewhere.
std::string pass_label(const bitonic::Pass& p, const bitonic::Shape& s, bool desc) {
  const std::string size = std::to_string(p.size), stride = std::to_string(p.stride);
  const std::string stage = p.size == s.W ? "final merge " + size : "stage " + size;
  const std::string where = (p.kind == Kind::Shared ? " (shared): x[i] <-> x[i+" : " (global): x[i] <-> x[i+") + stride +
                            "], " + (desc ? "descending" : "ascending") + " where (i & " + size + ") == 0";
  switch (p.kind) {
    case Kind::Load: return "load tiles of " + std::to_string(s.T) + " into shared memory";
    case Kind::Store: return "store the tiles back to global memory";
    case Kind::Shared:
    case Kind::Global: return stage + ", stride " + stride + where + (p.size == s.W ? "" : ", else the other way");
  }
  return "";
}

std::string pass_prose(const bitonic::Pass& p, const bitonic::Shape& s, bool desc) {
  const std::string size = std::to_string(p.size), stride = std::to_string(p.stride);
  const std::string dir = desc ? "descending" : "ascending";
  switch (p.kind) {
    case Kind::Load:
      return "Each block loads a tile of " + std::to_string(s.T) +
             " keys into shared memory, two per thread, so the passes with small strides run there.";
    case Kind::Store: return "Each block writes its tile back to global memory.";
    case Kind::Shared:
    case Kind::Global: {
      const std::string where = p.kind == Kind::Shared ? "in shared memory" : "in global memory (the stride spans tiles)";
      const std::string goal = p.size == s.W ? "the whole array becomes " + dir
                                             : "each run of " + size + " becomes sorted, alternately " + dir +
                                                   " and the other way, so pairs of runs form the bitonic sequences of "
                                                   "the next stage";
      return "Stage " + size + ", stride " + stride + ": each thread compares the keys " + stride + " apart " + where +
             " and swaps them if they are out of order; when the stride reaches 1, " + goal + ".";
    }
  }
  return "";
}
}  // namespace

Result plan_bitonic_sort(const StepConfig& cfg, Trace& t) {
  const bitonic::Shape s(cfg.n, cfg.block);
  const bitonic::RowIds r(cfg.key_value);
  t.title = "Bitonic sort (shared-memory tiles + global merge passes)";
  t.width = s.W;
  t.block = s.Be;
  t.elems_per_thread = 2;
  const plan::Code code = plan::code(t, "bitonic-sort");  // bitonic_sort_timed.cu
  const std::string dir = cfg.descending ? "descending" : "ascending";
  plan::standard_rows(t, "keys (" + dir + ")", s.W, cfg.type);
  if (cfg.key_value) plan::add_row(t, "values (original index)", RowKind::Index, s.W, ElemType::I32);
  plan::add_row(t, "shared keys (tile)", RowKind::Values, s.W, cfg.type);
  if (cfg.key_value) plan::add_row(t, "shared values", RowKind::Index, s.W, ElemType::I32);
  plan::initial_step(t);
  if (s.W > cfg.n) t.steps[0].label = "input, padded to " + std::to_string(s.W) + " with copies of the last key (padding sorts behind it)";
  for (const bitonic::Pass& p : bitonic::schedule(s)) {
    const std::string label = pass_label(p, s, cfg.descending);
    const bool merge = p.size > s.T;  // a merge stage's shared run (merge_shared_kernel)
    Step* step = nullptr;
    switch (p.kind) {
      case Kind::Load:
        step = &plan::add_step(t, label, "load", code.line(merge ? "load (merge)" : "load"), s.tiles, s.Be,
                               s.tiles * s.Be, 2, r.shared);
        break;
      case Kind::Store:
        step = &plan::add_step(t, label, "store", code.line(merge ? "store (merge)" : "store"), s.tiles, s.Be,
                               s.tiles * s.Be, 2, kRowMain);
        break;
      case Kind::Shared:
        step = &plan::add_step(t, label, "shared pass", code.line(merge ? "shared pass (merge)" : "shared pass"),
                               s.tiles, s.Be, s.tiles * s.Be, 1, r.shared);
        break;
      case Kind::Global:
        step = &plan::add_step(t, label, "global pass", code.line("global pass"), s.tiles, s.Be, s.tiles * s.Be, 1,
                               kRowMain);
        break;
    }
    // A shared run (load, passes, store) is one kernel, its passes __syncthreads() apart.
    step->barrier = p.kind == Kind::Shared || p.kind == Kind::Store;
    step->explain = pass_prose(p, s, cfg.descending);
  }
  t.network = true;
  return {};
}

void cpu_bitonic_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const bitonic::Shape s(cfg.n, cfg.block);
  const bitonic::RowIds r(cfg.key_value);
  const bool kv = cfg.key_value, desc = cfg.descending;
  const ElemType type = t.type;
  std::uint32_t* key = run.row(kRowMain);
  std::uint32_t* sk = run.row(r.shared);
  std::uint32_t* val = kv ? run.row(r.values) : nullptr;
  std::uint32_t* sv = kv ? run.row(r.shared_values) : nullptr;
  const std::uint32_t pad = bitonic::pad_key(input, type, desc);
  for (std::int32_t i = 0; i < s.W; ++i) {
    key[i] = i < cfg.n ? input[std::size_t(i)] : pad;
    if (kv) val[i] = std::uint32_t(i);
  }
  run.snapshot_initial();
  const std::vector<bitonic::Pass> passes = bitonic::schedule(s);
  const std::int64_t words = kv ? 2 : 1;
  for (std::size_t st = 1; st < t.steps.size(); ++st) {
    run.begin(st);
    const bitonic::Pass& p = passes[st - 1];
    Counters& c = run.count();
    if (p.kind == Kind::Load || p.kind == Kind::Store) {
      const bool load = p.kind == Kind::Load;
      for (std::int32_t b = 0; b < s.tiles; ++b) {
        for (std::int32_t first = 0; first < s.Be; first += 32) {
          const int lanes = std::min<std::int32_t>(32, s.Be - first);
          std::int32_t a[32];
          for (int k = 0; k < 2; ++k)
            for (std::int32_t w = 0; w < words; ++w) {
              for (int l = 0; l < lanes; ++l) a[l] = w * s.T + first + l + k * s.Be;
              run.shared_access(a, lanes);
            }
        }
        for (std::int32_t tid = 0; tid < s.Be; ++tid)
          for (int k = 0; k < 2; ++k) {
            const std::int32_t i = b * s.T + tid + k * s.Be;
            if (load) {
              sk[i] = key[i];
              if (kv) sv[i] = val[i];
              run.op(b * s.Be + tid, k, OpKind::Move, kRowMain, i, r.shared, i);
            } else {
              key[i] = sk[i];
              if (kv) val[i] = sv[i];
              run.op(b * s.Be + tid, k, OpKind::Move, r.shared, i, kRowMain, i);
            }
          }
      }
      (load ? c.global_read_bytes : c.global_write_bytes) += std::int64_t(s.W) * 4 * words;
    } else {
      const bool shared = p.kind == Kind::Shared;
      std::uint32_t* K = shared ? sk : key;
      std::uint32_t* V = shared ? sv : val;
      const int row = shared ? r.shared : kRowMain;
      cpu::for_each_warp(t.steps[st].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        std::int32_t lo[32], hi[32];
        int swap[32];
        bool up[32];
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t g = b * s.Be + first + l;
          lo[l] = bitonic::comparator_pos(g, p.stride);
          hi[l] = lo[l] + p.stride;
          up[l] = bitonic::comparator_up(lo[l], p.size);
          const std::uint32_t va = kv ? V[lo[l]] : 0u, vb = kv ? V[hi[l]] : 0u;
          swap[l] = bitonic::before(K[hi[l]], vb, K[lo[l]], va, type, desc, kv) == up[l];
        }
        if (shared) {
          // Shared addresses are tile-local; values live after the keys (sv = sk + T).
          std::int32_t a[32];
          for (std::int32_t w = 0; w < words; ++w) {
            for (int l = 0; l < lanes; ++l) a[l] = w * s.T + lo[l] - b * s.T;
            run.shared_access(a, lanes);
            for (int l = 0; l < lanes; ++l) a[l] = w * s.T + hi[l] - b * s.T;
            run.shared_access(a, lanes);
          }
        }
        run.branch(swap, lanes);
        if (shared) {
          std::int32_t a[32];
          for (std::int32_t w = 0; w < words; ++w) {
            for (int l = 0; l < lanes; ++l) a[l] = swap[l] ? w * s.T + lo[l] - b * s.T : -1;
            run.shared_access(a, lanes);
            for (int l = 0; l < lanes; ++l) a[l] = swap[l] ? w * s.T + hi[l] - b * s.T : -1;
            run.shared_access(a, lanes);
          }
        }
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t g = b * s.Be + first + l;
          if (swap[l]) {
            std::swap(K[lo[l]], K[hi[l]]);
            if (kv) std::swap(V[lo[l]], V[hi[l]]);
          }
          const bool asc = up[l] != desc;
          run.compare_swap(g, 0, row, asc ? lo[l] : hi[l], asc ? hi[l] : lo[l], swap[l] != 0);
          if (!shared) {
            c.global_read_bytes += 8 * words;
            if (swap[l]) c.global_write_bytes += 8 * words;
          }
        }
      });
    }
    run.end();
  }
}

}  // namespace primlab::steppers
