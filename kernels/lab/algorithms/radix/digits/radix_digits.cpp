// LSD radix sort with multi-bit digits (2..8 bits): plan, listing and CPU reference. Keys go through
// the lecture's flip first (floats: flipFloat; int32: the sign bit; descending: all bits inverted),
// shown as the "sortable key" row; per digit: each block's tile histogram (thread d counts digit d,
// no atomics), an exclusive scan of the counts laid out digit-major over blocks (counts[d * blocks +
// b]), and a stable scatter (rank = earlier keys of the tile with the same digit), ping-pong A/B.
// n is padded to a power of two with copies of the input's last key in the order (hatched); the sort
// is stable, so the padding stays behind the real keys.
// Float NaNs: after the flip, positive NaNs sort after +inf and negative NaNs before -inf. The flip is
// applied where the digit is read (as CUB does), so no unflip pass is needed: the buffers hold keys.
#include <string>

#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/algorithms/radix/digits/radix_digits_shape.h"
#include "lab/algorithms/radix/radix_steps.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using radix::DigitShape;
using radix::DigitRows;
}  // namespace

Result plan_radix_digits(const StepConfig& cfg, Trace& t) {
  if (cfg.digit_bits < 2 || cfg.digit_bits > 8)
    return Result::failure("digit bits must be between 2 and 8 (got " + std::to_string(cfg.digit_bits) + ")");
  const DigitShape s(cfg.n, cfg.block, cfg.digit_bits);
  const DigitRows r(cfg.key_value);
  t.title = "Radix sort, " + std::to_string(s.D) + "-bit digits (histogram, scan, stable scatter)";
  t.width = s.W;
  t.block = cfg.block;
  t.elems_per_thread = s.ept;
  const plan::Code code = plan::code(t, "radix-digits");  // radix_digits_traced.cu
  const std::string dir = cfg.descending ? "descending" : "ascending";
  plan::standard_rows(t, "keys A (" + dir + ")", s.W, cfg.type);
  plan::add_row(t, "keys B", RowKind::Values, s.W, cfg.type);
  if (cfg.key_value) {
    plan::add_row(t, "values A (original index)", RowKind::Index, s.W, ElemType::I32);
    plan::add_row(t, "values B", RowKind::Index, s.W, ElemType::I32);
  }
  plan::add_row(t, cfg.type == ElemType::F32 ? "sortable key (flipFloat)" : "sortable key", RowKind::Bits, s.W,
                ElemType::U32);
  plan::add_row(t, "digit bits (binary)", RowKind::Bits, s.W, ElemType::U32);
  plan::add_row(t, "digit", RowKind::Values, s.W, ElemType::I32);
  plan::add_row(t, "counts[digit * blocks + block]", RowKind::Values, s.C, ElemType::I32, false);
  plan::add_row(t, "offsets = scan(counts)", RowKind::Index, s.C, ElemType::I32, false);
  plan::add_row(t, "destination", RowKind::Index, s.W, ElemType::I32);
  plan::initial_step(t);
  if (s.W > cfg.n) t.steps[0].label = "input, padded to " + std::to_string(s.W) + " with copies of the last key (stable: padding stays behind)";
  const int dpt = std::max(1, s.R / cfg.block);
  for (int p = 0; p < s.passes; ++p) {
    const int shift = p * s.D, hi = std::min(31, shift + s.D - 1);
    const std::string in = p % 2 ? "B" : "A", out = p % 2 ? "A" : "B";
    const std::string dg = "digit " + std::to_string(p) + " (bits " + std::to_string(shift) + "-" + std::to_string(hi) +
                           ")";
    plan::add_step(t, dg + ": d = (sortable(k) >> " + std::to_string(shift) + ") & " + std::to_string(s.R - 1),
                   "digits", code.line("digits"), s.nb, cfg.block, s.nb * cfg.block, s.ept, r.digit)
        .explain = "Pass " + std::to_string(p) + ": each key is made sortable as unsigned bits (sign flipped) and its " +
                   std::to_string(s.R) + "-way digit extracted. Passes run from the lowest digit up.";
    plan::add_step(t, dg + ": per-block histograms, " + std::to_string(s.R) + " bins x " + std::to_string(s.nb) +
                          " blocks",
                   "histogram", code.line("histogram"), s.nb, cfg.block, s.nb * std::min(cfg.block, s.R), dpt,
                   r.counts)
        .explain = "Each block counts how many of its keys have each digit, stored digit-major: counts[digit][block].";
    plan::add_step(t, dg + ": offsets = exclusive scan of the counts (digit-major, Blelloch, " +
                          std::to_string(radix::scan_launches(s.C)) + " launches)",
                   "scan", code.line("scan"), plan::div_up(s.C, cfg.block), cfg.block, s.C, 1, r.offsets)
        .explain = "An exclusive scan of the counts, digit-major, gives each (digit, block) its first output position: "
                   "after every smaller digit, and after the same digit of earlier blocks.";
    plan::add_step(t, dg + ": stable scatter " + in + " -> " + out + " at offsets[d][block] + rank", "scatter",
                   code.line("scatter"), s.nb, cfg.block, s.nb * cfg.block, s.ept, p % 2 ? kRowMain : r.keys_b)
        .explain = "Each key moves to its (digit, block) offset plus its rank among equal digits earlier in its "
                   "block: a stable scatter, so the order the lower digits set is kept.";
  }
  if (s.passes % 2)
    plan::add_step(t, "copy B -> A (the last pass wrote B)", "copy back", code.line("copy back"), s.nb, cfg.block,
                   s.nb * cfg.block, s.ept, kRowMain)
        .explain = "An odd number of passes left the sorted keys in buffer B: they are copied back to A.";
  return {};
}

void cpu_radix_digits(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const DigitShape s(cfg.n, cfg.block, cfg.digit_bits);
  const DigitRows r(cfg.key_value);
  const bool kv = cfg.key_value;
  const std::int32_t B = cfg.block;
  const std::uint32_t pad = radix::pad_key(input, t.type, cfg.descending);
  for (std::int32_t i = 0; i < s.W; ++i) {
    run.row(kRowMain)[i] = i < cfg.n ? input[std::size_t(i)] : pad;
    if (kv) run.row(r.values_a)[i] = std::uint32_t(i);
  }
  run.snapshot_initial();
  std::uint32_t* sk = run.row(r.sortable);
  std::uint32_t* digit = run.row(r.digit);
  std::uint32_t* counts = run.row(r.counts);
  std::uint32_t* offsets = run.row(r.offsets);
  std::uint32_t* dest = run.row(r.dest);
  int pass = -1;
  for (std::size_t st = 1; st < t.steps.size(); ++st) {
    run.begin(st);
    const Step& step = t.steps[st];
    Counters& c = run.count();
    if (step.phase == "digits") ++pass;
    const bool from_a = pass % 2 == 0;
    const int in_row = from_a ? kRowMain : r.keys_b, out_row = from_a ? r.keys_b : kRowMain;
    const int vin_row = from_a ? r.values_a : r.values_b, vout_row = from_a ? r.values_b : r.values_a;
    std::uint32_t* in = run.row(in_row);
    std::uint32_t* out = run.row(out_row);
    const int shift = pass * s.D;
    if (step.phase == "digits") {
      for (std::int32_t i = 0; i < s.W; ++i) {
        sk[i] = radix::sortable(in[i], t.type, cfg.descending);
        digit[i] = (sk[i] >> shift) & std::uint32_t(s.R - 1);
        run.row(r.bits)[i] = radix::binary_digits(digit[i]);
        run.op(i / s.ept, i % s.ept, OpKind::Move, in_row, i, r.digit, i);
      }
      c.global_read_bytes += 4ll * s.W;
      c.global_write_bytes += 12ll * s.W;
    } else if (step.phase == "histogram") {
      const int dpt = step.ops_per_thread;
      for (std::int32_t blk = 0; blk < s.nb; ++blk)
        for (int j = 0; j < dpt; ++j)
          for (std::int32_t first = 0; first < B; first += 32) {
            const int lanes = std::min(32, B - first);
            int paths[32];
            for (int l = 0; l < lanes; ++l) {
              const std::int32_t tid = first + l, d = tid + j * B;
              paths[l] = d < s.R;
              if (d >= s.R) continue;
              std::uint32_t cnt = 0;
              for (std::int32_t q = 0; q < s.T; ++q) cnt += digit[blk * s.T + q] == std::uint32_t(d);
              counts[d * s.nb + blk] = cnt;
              run.op(blk * B + tid, j, OpKind::Write, r.digit, -1, r.counts, d * s.nb + blk);
              c.global_read_bytes += 4ll * s.T;
              c.global_write_bytes += 4;
            }
            run.branch(paths, lanes);
          }
    } else if (step.phase == "scan") {
      radix::scan_cpu(counts, offsets, s.C, s.C, B, c);
      for (std::int32_t k = 0; k < s.C; ++k)
        run.op(k, 0, k == 0 ? OpKind::Write : OpKind::Add, r.counts, k - 1, r.offsets, k);
    } else if (step.phase == "scatter") {
      std::uint32_t* vin = kv ? run.row(vin_row) : nullptr;
      std::uint32_t* vout = kv ? run.row(vout_row) : nullptr;
      for (std::int32_t i = 0; i < s.W; ++i) {
        const std::int32_t blk = i / s.T, p = i % s.T, base = blk * s.T;
        const std::uint32_t d = digit[i];
        std::uint32_t rank = 0;
        for (std::int32_t q = 0; q < p; ++q) rank += digit[base + q] == d;
        const std::uint32_t dst = offsets[d * std::uint32_t(s.nb) + std::uint32_t(blk)] + rank;
        out[dst] = in[i];
        if (kv) vout[dst] = vin[i];
        dest[i] = dst;
        run.op(i / s.ept, i % s.ept, OpKind::Move, in_row, i, out_row, std::int32_t(dst));
        c.adds += 1;
        c.global_read_bytes += 12 + 4ll * p + (kv ? 4 : 0);
        c.global_write_bytes += 8 + (kv ? 4 : 0);
      }
    } else if (step.phase == "copy back") {
      std::uint32_t* a = run.row(kRowMain);
      const std::uint32_t* b = run.row(r.keys_b);
      for (std::int32_t i = 0; i < s.W; ++i) {
        a[i] = b[i];
        if (kv) run.row(r.values_a)[i] = run.row(r.values_b)[i];
        run.op(i / s.ept, i % s.ept, OpKind::Move, r.keys_b, i, kRowMain, i);
        c.global_read_bytes += kv ? 8 : 4;
        c.global_write_bytes += kv ? 8 : 4;
      }
    }
    run.end();
  }
}

}  // namespace primlab::steppers
