// LSD radix sort by 1-bit splits (seed 000, the lecture's radix slides): plan, listing and CPU
// reference. A parallel max reduction first (the seed's kernFindMax loop, one step per level) finds
// how many low bits the keys need; then per bit: b = bit, e = !b, f = exclusive scan of e, totalFalses
// = e[n-1] + f[n-1], t = i - f + totalFalses, scatter to d = b ? t : f, ping-pong buffers A and B.
// Negative int32 keys: the max is taken over k ^ (k >> 31) (the bits that differ from the sign), and a
// last pass splits on the flipped sign bit, so negatives come first (the lecture's flip, for ints).
#include <string>

#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/algorithms/radix/radix_steps.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
constexpr int kBufB = kStdRows, kMax = kStdRows + 1, kBit = kStdRows + 2, kFalse = kStdRows + 3, kScanned = kStdRows + 4,
              kTotal = kStdRows + 5, kTrue = kStdRows + 6, kDest = kStdRows + 7;


struct Pass {
  int bit;     // 0..30, or 31 for the flipped sign
  bool from_a; // reads buffer A (writes B)
};

// The bits the keys need: bit length of the max of k ^ (k >> 31) (int32) or k (uint32).
int needed_bits(const StepConfig& cfg, std::uint32_t& max_out) {
  max_out = 0;
  if (!cfg.input) return cfg.type == ElemType::I32 ? 31 : 32;
  for (std::uint32_t k : *cfg.input) {
    const std::uint32_t m = cfg.type == ElemType::I32 ? k ^ std::uint32_t(std::int32_t(k) >> 31) : k;
    max_out = std::max(max_out, m);
  }
  int L = 0;
  while (L < 32 && (max_out >> L) != 0) ++L;
  return L;
}

std::vector<Pass> passes_of(const Trace& t) {
  std::vector<Pass> v;
  for (const Step& s : t.steps)
    if (s.phase == "bits") v.push_back({std::stoi(s.label.substr(4)), v.size() % 2 == 0});
  return v;
}
}  // namespace

Result plan_radix_split(const StepConfig& cfg, Trace& t) {
  if (cfg.type == ElemType::F32)
    return Result::failure("radix-split sorts int32 and uint32 keys (radix-digits takes floats)");
  const std::int32_t n = cfg.n, B = cfg.block, W = plan::next_pow2(n), blocks = plan::div_up(n, B);
  t.title = "Radix sort, 1-bit split (scan of the false flags)";
  t.width = W;
  // radix_split_timed.cu (the max, the bit maps and the scatter) and radix_split_traced.cu (the copy back)
  const plan::Code code = plan::code(t, "radix-split");
  plan::standard_rows(t, "buffer A (keys)", n, cfg.type);
  plan::add_row(t, "buffer B (keys)", RowKind::Values, n, cfg.type);
  plan::add_row(t, cfg.type == ElemType::I32 ? "m = k ^ (k >> 31) (max tree)" : "m = k (max tree)", RowKind::Values,
                W, ElemType::U32);
  plan::add_row(t, "b = bit k", RowKind::Bits, n, ElemType::I32);
  plan::add_row(t, "e = !b", RowKind::Flags, W, ElemType::I32);
  plan::add_row(t, "f = scan(e)", RowKind::Index, W, ElemType::I32);
  plan::add_row(t, "totalFalses", RowKind::Values, 1, ElemType::I32, false);
  plan::add_row(t, "t = i - f + totalFalses", RowKind::Index, n, ElemType::I32);
  plan::add_row(t, "d = b ? t : f", RowKind::Index, n, ElemType::I32);
  plan::initial_step(t);
  std::uint32_t maxv = 0;
  const int L = needed_bits(cfg, maxv);
  plan::add_step(t, "max reduction: m[i] = " + std::string(cfg.type == ElemType::I32 ? "k ^ (k >> 31)" : "k") +
                        " (the bits each key needs)",
                 "max keys", code.line("max keys"), plan::div_up(W, B), B, W, 1, kMax)
      .explain = "Each key is reduced to the bits it needs (negative ints flipped); a max over them tells how many "
                 "bit passes the sort needs: bits above the largest key's top bit are 0 in every key.";
  const int levels = plan::log2_floor(W);
  for (int d = 1; d <= levels; ++d) {
    const std::int32_t m = W >> d;
    std::string label = "max d=" + std::to_string(d) + ": m[k] = max(m[k], m[k-" + std::to_string(1 << (d - 1)) + "])";
    if (d == levels && cfg.input)
      label += " -> max " + std::to_string(maxv) + ": " + std::to_string(L) + " bit" + (L == 1 ? "" : "s");
    plan::add_step(t, label, "find max", code.line("find max"), plan::div_up(m, B), B, m, 1, kMax).explain =
        "Max tree, level " + std::to_string(d) + ": " + std::to_string(m) + " threads each keep the larger of two "
        "values " + std::to_string(1 << (d - 1)) + " apart, halving the candidates.";
  }
  std::vector<int> bits;
  for (int k = 0; k < L && k < 31 + (cfg.type == ElemType::U32); ++k) bits.push_back(k);
  if (cfg.type == ElemType::I32) bits.push_back(31);
  bool from_a = true;
  for (int k : bits) {
    const std::string in = from_a ? "A" : "B", out = from_a ? "B" : "A";
    const std::string bit = k == 31 && cfg.type == ElemType::I32 ? "31 (sign, flipped: negatives first)"
                                                                 : std::to_string(k);
    const int in_row = from_a ? kRowMain : kBufB, out_row = from_a ? kBufB : kRowMain;
    const std::string K = std::to_string(k);
    plan::add_step(t, "bit " + bit + ": b = bit of " + in + ", e = !b", "bits", code.line("bits"), blocks, B, n, 1,
                   in_row)
        .explain = "Pass for bit " + K + ": each thread reads its key's bit b and writes e = !b, 1 for the keys that "
                   "go first (the falses).";
    Step& scan = plan::add_step(t, "bit " + K + ": f = exclusive scan of e (Blelloch, " +
                                       std::to_string(radix::scan_launches(W)) + " launches)",
                                "scan", code.line("scan"), plan::div_up(W, B), B, n, 1, kScanned);
    scan.explain = "An exclusive scan of e gives each false key its destination f: the number of false keys before "
                   "it. The whole Blelloch scan runs in this one step (" +
                   std::to_string(radix::scan_launches(W)) + " launches).";
    plan::add_step(t, "bit " + K + ": totalFalses = e[n-1] + f[n-1]", "total", code.line("total"), 1, 1, 1, 2, kScanned)
        .explain = "One thread adds the last flag to the last scanned value: the number of false keys, where the true "
                   "keys start.";
    plan::add_step(t, "bit " + K + ": t = i - f + totalFalses", "true", code.line("true"), blocks, B, n, 1, kTrue)
        .explain = "Each thread computes the destination of a true key: totalFalses plus the number of true keys "
                   "before it, i - f.";
    plan::add_step(t, "bit " + K + ": scatter " + in + " -> " + out + " at d = b ? t : f", "scatter",
                   code.line("scatter"), blocks, B, n, 1, out_row)
        .explain = "Each key moves to f (bit 0) or t (bit 1) in the other buffer: the falses first, the trues after, "
                   "each group in its input order, so the split is stable and the earlier bits' order survives.";
    from_a = !from_a;
  }
  if (!from_a)
    plan::add_step(t, "copy B -> A (the result of the last pass is in B)", "copy back", code.line("copy back"),
                   blocks, B, n, 1, kRowMain)
        .explain = "An odd number of passes left the sorted keys in buffer B: they are copied back to A.";
  return {};
}

void cpu_radix_split(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const std::int32_t n = t.n, W = t.width, B = t.block;
  const bool i32 = t.type == ElemType::I32;
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  run.snapshot_initial();
  std::uint32_t* m = run.row(kMax);
  std::uint32_t* b = run.row(kBit);
  std::uint32_t* e = run.row(kFalse);
  std::uint32_t* f = run.row(kScanned);
  std::uint32_t* tr = run.row(kTrue);
  std::uint32_t* d = run.row(kDest);
  std::uint32_t& total = run.row(kTotal)[0];
  int level = 0, bit = 0;
  bool from_a = true;
  const std::vector<Pass> passes = passes_of(t);
  std::size_t pass = 0;
  (void)cfg;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = run.count();
    std::uint32_t* in = run.row(from_a ? kRowMain : kBufB);
    std::uint32_t* out = run.row(from_a ? kBufB : kRowMain);
    const int in_row = from_a ? kRowMain : kBufB, out_row = from_a ? kBufB : kRowMain;
    // `if (i >= n) return;` of the element kernels: its divergence.
    auto elem_branch = [&](std::int32_t count) { c.divergent_warps += radix::divergent_warps(count, B); };
    if (st.phase == "max keys") {
      elem_branch(W);
      for (std::int32_t i = 0; i < W; ++i) {
        if (i < n) {
          m[i] = i32 ? in[i] ^ std::uint32_t(std::int32_t(in[i]) >> 31) : in[i];
          run.op(i, 0, OpKind::Move, kRowMain, i, kMax, i);
          c.global_read_bytes += 4;
        } else {
          m[i] = 0;
        }
        c.global_write_bytes += 4;
      }
    } else if (st.phase == "find max") {
      ++level;
      const std::int32_t off1 = 1 << (level - 1), off2 = 1 << level, cnt = W >> level;
      elem_branch(cnt);
      cpu::for_each_warp(st.launch, [&](std::int32_t blk, std::int32_t first, int lanes) {
        int paths[32], live = 0;
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t j = blk * B + first + l;
          if (j >= cnt) continue;
          const std::int32_t a = (j + 1) * off2 - 1;
          const bool replace = m[a] < m[a - off1];
          paths[live++] = replace;
          c.global_read_bytes += 8;
          if (replace) {
            m[a] = m[a - off1];
            c.global_write_bytes += 4;
          }
          run.op(j, 0, OpKind::Add, kMax, a - off1, kMax, a);
        }
        if (live) run.branch(paths, live);
      });
    } else if (st.phase == "bits") {
      bit = passes[pass].bit;
      elem_branch(n);
      for (std::int32_t i = 0; i < n; ++i) {
        const std::uint32_t k = bit == 31 && i32 ? in[i] ^ 0x80000000u : in[i];
        b[i] = (k >> bit) & 1u;
        e[i] = 1u - b[i];
        run.op(i, 0, OpKind::Move, in_row, i, kBit, i);
        c.global_read_bytes += 4;
        c.global_write_bytes += 8;
      }
    } else if (st.phase == "scan") {
      radix::scan_cpu(e, f, n, W, B, c);
      for (std::int32_t i = 0; i < n; ++i)
        run.op(i, 0, i == 0 ? OpKind::Write : OpKind::Add, kFalse, i - 1, kScanned, i);
    } else if (st.phase == "total") {
      total = e[n - 1] + f[n - 1];
      run.op(0, 0, OpKind::Add, kFalse, n - 1, kTotal, 0);
      run.op(0, 1, OpKind::Add, kScanned, n - 1, kTotal, 0);
      c.adds += 1;
      c.global_read_bytes += 8;
      c.global_write_bytes += 4;
    } else if (st.phase == "true") {
      elem_branch(n);
      for (std::int32_t i = 0; i < n; ++i) {
        tr[i] = std::uint32_t(i) - f[i] + total;
        run.op(i, 0, OpKind::Add, kScanned, i, kTrue, i);
        c.adds += 2;
        c.global_read_bytes += 8;
        c.global_write_bytes += 4;
      }
    } else if (st.phase == "scatter") {
      elem_branch(n);
      for (std::int32_t i = 0; i < n; ++i) {
        d[i] = b[i] ? tr[i] : f[i];
        out[d[i]] = in[i];
        run.op(i, 0, OpKind::Move, in_row, i, out_row, std::int32_t(d[i]));
        c.global_read_bytes += 12;
        c.global_write_bytes += 8;
      }
      from_a = !from_a;
      ++pass;
    } else if (st.phase == "copy back") {
      elem_branch(n);
      std::uint32_t* a = run.row(kRowMain);
      const std::uint32_t* bb = run.row(kBufB);
      for (std::int32_t i = 0; i < n; ++i) {
        a[i] = bb[i];
        run.op(i, 0, OpKind::Move, kBufB, i, kRowMain, i);
        c.global_read_bytes += 4;
        c.global_write_bytes += 4;
      }
    }
    run.end();
  }
}

}  // namespace primlab::steppers
