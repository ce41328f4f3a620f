// bitonic-sort: the plan (one step a launch of bitonic_sort.cuh's host code, and one a barrier
// inside its shared-memory kernels) and the CPU reference, which runs the same launches warp by
// warp. The rows are the code's arrays: the keys (the workspace the sort runs in, padded to N),
// the key-value sort's index, and each block's shared-memory tile shown at its place in the keys.
// Ops: one CompareSwap per comparator, src = the index that receives the key that comes first, dst
// = the other (src > dst: a comparator against the sort's direction), whichever way the sort goes.
#include <algorithm>
#include <string>

#include "lab/algorithms/bitonic/tiled/bitonic_sort_steps.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using lab::bitonic::Kind;
using lab::bitonic::Pass;
using lab::bitonic::Shape;

// A comparator sorts its pair in the sort's direction where (index & size) == 0, against it elsewhere.
std::string pass_label(const Pass& p, const Shape& s, bool desc) {
  const std::string size = std::to_string(p.size), stride = std::to_string(p.stride);
  const std::string dir = desc ? "descending" : "ascending", other = desc ? "ascending" : "descending";
  const std::string stage = p.size == s.N ? "final merge, size " + size : "size " + size;
  const std::string index = p.kind == Kind::Global ? "pos" : p.merge ? "base" : "gi0";
  const std::string pair = p.kind == Kind::Global ? " (global): comparator(d[pos], d[pos + " + stride + "], dir), "
                                                  : " (shared): comparator(s[pos], s[pos + " + stride + "], dir), ";
  return stage + ", stride " + stride + pair + dir + " where (" + index + " & " + size + ") == 0" +
         (p.size == s.N ? "" : ", else " + other);
}

std::string pass_prose(const Pass& p, const Shape& s, std::int32_t n, ElemType t, bool desc, bool kv) {
  const std::string size = std::to_string(p.size), stride = std::to_string(p.stride), L = std::to_string(s.L);
  const std::string dir = desc ? "descending" : "ascending";
  switch (p.kind) {
    case Kind::Pad:
      return "pad_kernel fills keys[" + std::to_string(n) + ".." + std::to_string(s.N - 1) +
             "] with the key that sorts last (" + format_word(lab::bitonic::pad_key(t, desc), t) + "), so that the network sorts a "
             "power of two N = " +
             std::to_string(s.N) + " and the padding ends up behind the real keys.";
    case Kind::Load:
      return p.merge ? "merge_shared_kernel: each block loads its tile of L = " + L +
                           " keys into shared memory, two a thread, for the strides of stage " + size +
                           " that stay inside a tile."
                     : std::string("sort_shared_kernel: each block loads its tile of L = ") + L +
                           " keys into shared memory, two a thread" +
                           (kv ? ", each tagged with its index in the input (equal keys keep their order by it)" : "") +
                           ".";
    case Kind::Store:
      return "Each block writes its tile back to global memory.";
    case Kind::Shared:
    case Kind::Global: {
      const std::string where = p.kind == Kind::Shared ? "in shared memory, __syncthreads() apart"
                                                       : "in global memory, one launch (the stride spans tiles)";
      const std::string goal = p.size == s.N ? "the whole array becomes " + dir
                                             : "each run of " + size + " becomes sorted, alternately " + dir +
                                                   " and the other way, so pairs of runs form the bitonic sequences of "
                                                   "the next stage";
      return "Stage size " + size + ", stride " + stride + ": each thread compares the keys at pos and pos + " +
             stride + " " + where +
             " and swaps them if they are out of the direction dir; when the stride reaches 1, " + goal + ".";
    }
  }
  return "";
}
}  // namespace

Result plan_bitonic_sort(const StepConfig& cfg, Trace& t) {
  const Shape s(cfg.n, cfg.block);
  const lab::bitonic::RowIds r(cfg.key_value);
  t.title = "Bitonic sort (shared-memory tiles + global merge passes)";
  t.width = s.N;
  t.block = s.B;
  t.elems_per_thread = 2;
  const plan::Code code = plan::code(t, "bitonic-sort");
  const std::string dir = cfg.descending ? "descending" : "ascending";
  plan::standard_rows(t, "keys (" + dir + ")", s.N, cfg.type);
  if (cfg.key_value) plan::add_row(t, "index (position in the input)", RowKind::Index, s.N, ElemType::I32);
  plan::add_row(t, "s: shared keys (tiles)", RowKind::Values, s.N, cfg.type);
  if (cfg.key_value) plan::add_row(t, "s: shared index", RowKind::Index, s.N, ElemType::I32);
  plan::initial_step(t);
  t.has_pad_key = s.N > cfg.n;
  t.pad_key = lab::bitonic::pad_key(cfg.type, cfg.descending);
  t.pad_key_in_input = cfg.input && std::find(cfg.input->begin(), cfg.input->end(), t.pad_key) != cfg.input->end();
  if (s.N > cfg.n)
    t.steps[0].label = "input: n = " + counted(cfg.n, "key") + " in a buffer of N = " + std::to_string(s.N);
  for (const Pass& p : lab::bitonic::schedule(s, cfg.n)) {
    const std::string label = pass_label(p, s, cfg.descending);
    const std::string merge = p.merge ? " (merge)" : "";
    Step* step = nullptr;
    switch (p.kind) {
      case Kind::Pad:
        step =
            &plan::add_step(t, "pad: keys[i] = pad for i = " + std::to_string(cfg.n) + ".." + std::to_string(s.N - 1),
                            "pad", code.line("pad"), plan::div_up(s.N - cfg.n, 256), 256, s.N - cfg.n, 1);
        t.pad_step = std::int32_t(t.steps.size()) - 1;  // the pad key marks the padding from here on
        break;
      case Kind::Load:
        step = &plan::add_step(t,
                               std::string(p.merge ? "merge_shared_kernel" : "sort_shared_kernel") +
                                   ": load tiles of L = " + std::to_string(s.L) +
                                   ": s[tid] = d[base + tid], s[tid + B] = d[base + tid + B]",
                               "load", code.line("load" + merge), s.tiles, s.B, s.tiles * s.B, 2, r.shared);
        break;
      case Kind::Store:
        step = &plan::add_step(t, "store the tiles: d[base + tid] = s[tid], d[base + tid + B] = s[tid + B]", "store",
                               code.line("store" + merge), s.tiles, s.B, s.tiles * s.B, 2, kRowMain);
        break;
      case Kind::Shared:
        step = &plan::add_step(t, label, "shared pass", code.line("shared pass" + merge), s.tiles, s.B, s.tiles * s.B,
                               1, r.shared);
        break;
      case Kind::Global:
        step = &plan::add_step(t, label, "global pass", code.line("global pass"), s.tiles, s.B, s.tiles * s.B, 1,
                               kRowMain);
        break;
    }
    // A shared-memory kernel's passes and its store follow __syncthreads() in the same launch.
    step->barrier = p.kind == Kind::Shared || p.kind == Kind::Store;
    step->explain = pass_prose(p, s, cfg.n, cfg.type, cfg.descending, cfg.key_value);
  }
  t.network = true;
  return {};
}

namespace {

// The CPU side of one step: the keys, the index, the shared tiles (at their place in the keys).
struct Sort {
  cpu::CpuRun& run;
  const Shape& s;
  const lab::bitonic::RowIds& r;
  ElemType type;
  bool desc, kv;
  std::uint32_t *key, *index, *sk, *si;

  std::int64_t words() const { return kv ? 2 : 1; }

  // A tile load or store: thread tid of block b moves elements base + tid and base + tid + B.
  void move_tiles(const Pass& p) {
    const bool load = p.kind == Kind::Load;
    Counters& c = run.count();
    for (std::int32_t b = 0; b < s.tiles; ++b) {
      const std::int32_t base = b * s.L;
      for (std::int32_t first = 0; first < s.B; first += 32) {
        const int lanes = std::min<std::int32_t>(32, s.B - first);
        std::int32_t a[32];
        for (std::int32_t w = 0; w < words(); ++w)
          for (int k = 0; k < 2; ++k) {
            for (int l = 0; l < lanes; ++l) a[l] = w * s.L + first + l + k * s.B;
            run.shared_access(a, lanes);
          }
      }
      for (std::int32_t tid = 0; tid < s.B; ++tid)
        for (int k = 0; k < 2; ++k) {
          const std::int32_t i = base + tid + k * s.B;
          if (load) {
            sk[i] = key[i];
            if (kv) si[i] = p.merge ? index[i] : std::uint32_t(i);
            run.op(b * s.B + tid, k, OpKind::Move, kRowMain, i, r.shared, i);
          } else {
            key[i] = sk[i];
            if (kv) index[i] = si[i];
            run.op(b * s.B + tid, k, OpKind::Move, r.shared, i, kRowMain, i);
          }
        }
    }
    const std::int64_t bytes = std::int64_t(s.N) * 4 * (load && !p.merge ? 1 : words());
    (load ? c.global_read_bytes : c.global_write_bytes) += bytes;
  }

  // One pass of comparators, in shared memory (the tiles) or in global memory.
  void compare(const Pass& p, const LaunchShape& launch) {
    const bool shared = p.kind == Kind::Shared;
    std::uint32_t* K = shared ? sk : key;
    std::uint32_t* I = shared ? si : index;
    const int row = shared ? r.shared : kRowMain;
    Counters& c = run.count();
    cpu::for_each_warp(launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      std::int32_t lo[32], hi[32];
      int swap[32];
      bool dir[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t g = b * s.B + first + l;
        lo[l] = lab::bitonic::comparator_pos(g, p.stride);  // the global position: b * L + the tile's pos
        hi[l] = lo[l] + p.stride;
        dir[l] = lab::bitonic::comparator_dir(lo[l], p.size);
        const std::uint32_t ia = kv ? I[lo[l]] : 0u, ib = kv ? I[hi[l]] : 0u;
        swap[l] = lab::bitonic::comes_after(K[lo[l]], ia, K[hi[l]], ib, type, desc, kv) == dir[l];
      }
      std::int32_t a[32];
      if (shared)  // the reads of both elements (keys, then indices after the tile's L keys)
        for (std::int32_t w = 0; w < words(); ++w)
          for (int side = 0; side < 2; ++side) {
            for (int l = 0; l < lanes; ++l) a[l] = w * s.L + (side ? hi[l] : lo[l]) - b * s.L;
            run.shared_access(a, lanes);
          }
      run.branch(swap, lanes);
      if (shared)  // the writes where the comparator swapped
        for (std::int32_t w = 0; w < words(); ++w)
          for (int side = 0; side < 2; ++side) {
            for (int l = 0; l < lanes; ++l) a[l] = swap[l] ? w * s.L + (side ? hi[l] : lo[l]) - b * s.L : -1;
            run.shared_access(a, lanes);
          }
      for (int l = 0; l < lanes; ++l) {
        if (swap[l]) {
          std::swap(K[lo[l]], K[hi[l]]);
          if (kv) std::swap(I[lo[l]], I[hi[l]]);
        }
        const bool first_lo = dir[l] != desc;
        run.compare_swap(b * s.B + first + l, 0, row, first_lo ? lo[l] : hi[l], first_lo ? hi[l] : lo[l], swap[l] != 0);
        if (!shared) {
          c.global_read_bytes += 8 * words();
          c.global_write_bytes += 8 * words();
        }
      }
    });
  }

  void pad(std::int32_t n, std::uint32_t pad_key, const LaunchShape& launch) {
    cpu::for_each_warp(launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      int live[32];
      for (int l = 0; l < lanes; ++l) live[l] = n + b * launch.threads + first + l < s.N;
      run.branch(live, lanes);
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t g = b * launch.threads + first + l, i = n + g;
        if (i >= s.N) continue;
        key[i] = pad_key;
        run.op(g, 0, OpKind::Write, kRowMain, -1, kRowMain, i);
        run.count().global_write_bytes += 4;
      }
    });
  }
};

}  // namespace

void cpu_bitonic_sort(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const Shape s(cfg.n, cfg.block);
  const lab::bitonic::RowIds r(cfg.key_value);
  Sort sort{run,
            s,
            r,
            t.type,
            cfg.descending,
            cfg.key_value,
            run.row(kRowMain),
            cfg.key_value ? run.row(r.values) : nullptr,
            run.row(r.shared),
            cfg.key_value ? run.row(r.shared_values) : nullptr};
  std::copy(input.begin(), input.end(), sort.key);
  run.snapshot_initial();
  const std::uint32_t pad = lab::bitonic::pad_key(t.type, cfg.descending);
  const std::vector<Pass> passes = lab::bitonic::schedule(s, cfg.n);
  for (std::size_t st = 1; st < t.steps.size(); ++st) {
    run.begin(st);
    const Pass& p = passes[st - 1];
    if (p.kind == Kind::Pad)
      sort.pad(cfg.n, pad, t.steps[st].launch);
    else if (p.kind == Kind::Load || p.kind == Kind::Store)
      sort.move_tiles(p);
    else
      sort.compare(p, t.steps[st].launch);
    run.end();
  }
}

}  // namespace primlab::steppers
