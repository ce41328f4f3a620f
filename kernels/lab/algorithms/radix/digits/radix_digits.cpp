// radix-digits: the plan (one step a launch of radix_digits.cuh's host code and one a barrier inside
// its kernels) and the CPU reference, which runs the same launches warp by warp. The rows are the
// code's arrays (radix_digits_rows.h); the values of a key-value sort are the keys' indices in the
// input, so that the stability shows.
#include <string>

#include "lab/algorithms/radix/digits/radix_digits_rows.h"
#include "lab/algorithms/radix/radix_steps.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab::radix;

// The key rows (kernel rows) pass p reads and writes: the last pass writes out.
int pass_dst(const DigitShape& s, int p) { return (s.passes - 1 - p) % 2 == 0 ? kDigitsOut : kDigitsAlt; }
int pass_src(const DigitShape& s, int p) { return p == 0 ? kDigitsIn : pass_dst(s, p - 1); }
int values_of(int keys_row) {
  return keys_row == kDigitsIn ? kDigitsValuesIn : keys_row == kDigitsOut ? kDigitsValuesOut : kDigitsValuesAlt;
}
std::string key_row_name(int r) { return r == kDigitsIn ? "keys_in" : r == kDigitsOut ? "keys_out" : "keys_alt"; }

}  // namespace

Result plan_radix_digits(const StepConfig& cfg, Trace& t) {
  if (cfg.digit_bits < 2 || cfg.digit_bits > 8)
    return Result::failure("digit bits must be between 2 and 8 (got " + std::to_string(cfg.digit_bits) + ")");
  const DigitShape s(cfg.n, cfg.block, cfg.digit_bits);
  const DigitRows r(cfg.key_value);
  const std::int32_t n = cfg.n, B = cfg.block;
  t.title = "Radix sort, " + std::to_string(s.D) + "-bit digits (histogram, scan, stable scatter)";
  t.width = s.width(n, B);
  t.block = B;
  t.elems_per_thread = s.ept;
  const plan::Code code = plan::code(t, "radix-digits");
  const std::string dir = cfg.descending ? "descending" : "ascending";
  plan::standard_rows(t, "keys_in (" + dir + ")", n, cfg.type);
  plan::add_row(t, "keys_alt", RowKind::Values, n, cfg.type);
  plan::add_row(t, "keys_out", RowKind::Values, n, cfg.type);
  if (cfg.key_value) {
    plan::add_row(t, "values_in (the keys' indices)", RowKind::Index, n, ElemType::I32);
    plan::add_row(t, "values_alt", RowKind::Index, n, ElemType::I32);
    plan::add_row(t, "values_out", RowKind::Index, n, ElemType::I32);
  }
  plan::add_row(t, cfg.type == ElemType::F32 ? "sortable bits (flipFloat)" : "sortable bits", RowKind::Bits, n,
                ElemType::U32);
  plan::add_row(t, "s_digit (the tile's digits; R past n)", RowKind::Values, s.nb * s.T, ElemType::I32);
  plan::add_row(t, "counts[d * blocks + block]", RowKind::Values, s.C, ElemType::I32, false);
  plan::add_row(t, "offsets = scan(counts)", RowKind::Index, s.C, ElemType::I32, false);
  plan::add_row(t, "temp (the scan's shared memory)", RowKind::Values, std::int32_t(scan_row_width(s.C, B)),
                ElemType::I32, false);
  plan::add_row(t, "sums (the scan's block sums)", RowKind::Values, std::int32_t(radix_scan_scratch_words(s.C, B)),
                ElemType::I32, false);
  plan::add_row(t, "dst = offsets[d * blocks + block] + rank", RowKind::Index, n, ElemType::I32);
  plan::initial_step(t);
  const int per_thread = (s.R + B - 1) / B;
  const ScanRows scan_rows{r[kDigitsCounts], r[kDigitsOffsets], r[kDigitsTemp], r[kDigitsSums]};
  for (int p = 0; p < s.passes; ++p) {
    const int shift = p * s.D, hi = std::min(31, shift + s.D - 1);
    const std::string in = key_row_name(pass_src(s, p)), out = key_row_name(pass_dst(s, p));
    const std::string dg =
        "digit " + std::to_string(p) + " (bits " + std::to_string(shift) + "-" + std::to_string(hi) + ")";
    const std::string load = ": s_digit[p] = (sortable(" + in + "[base + p]) >> " + std::to_string(shift) + ") & " +
                             std::to_string(s.R - 1) + ", p = tid + j * " + std::to_string(B);
    plan::add_step(t, dg + ", digit_histogram_kernel" + load, "digits", code.line("digits"), s.nb, B, s.nb * B, s.ept,
                   r[kDigitsDigit])
        .explain = "Pass " + std::to_string(p) + ": each block puts the " + std::to_string(s.R) +
                   "-way digit of each key of its tile of " + std::to_string(s.T) +
                   " into shared memory, the key made sortable as unsigned bits first (" + dir +
                   "); positions past n get " + std::to_string(s.R) +
                   ", a digit no key has. Passes run from the lowest "
                   "digit up.";
    Step& h = plan::add_step(t,
                             dg + ": counts[d * " + std::to_string(s.nb) +
                                 " + blockIdx.x] = keys of the tile with digit "
                                 "d, d = tid + j * " +
                                 std::to_string(B) + " < " + std::to_string(s.R),
                             "histogram", code.line("histogram"), s.nb, B, s.nb * std::min(B, s.R), per_thread,
                             r[kDigitsCounts]);
    h.barrier = true;
    h.explain =
        "Thread d of each block counts the keys of its tile whose digit is d (no atomics: the lanes read the "
        "tile's words together, one broadcast a word, which the counters leave out) and stores the count "
        "digit-major: counts[d][block].";
    plan_scan(t, code, s.C, B, scan_rows, dg + ": offsets = scan(counts)");
    plan::add_step(t, dg + ", digit_scatter_kernel" + load, "digits", code.line("digits"), s.nb, B, s.nb * B, s.ept,
                   r[kDigitsDigit])
        .explain = "digit_scatter_kernel loads the tile's digits again, the same way, to rank each key in its tile.";
    Step& sc = plan::add_step(t,
                              dg + ": rank = keys before p in the tile with its digit d; " + out + "[offsets[d * " +
                                  std::to_string(s.nb) + " + blockIdx.x] + rank] = " + in + "[i]",
                              "scatter", code.line("scatter"), s.nb, B, n, s.ept, r[pass_dst(s, p)]);
    sc.barrier = true;
    sc.explain =
        "Each key moves to its (digit, block) offset plus its rank among the keys of its tile before it with the "
        "same digit" +
        std::string(cfg.key_value ? ", its value with it" : "") +
        ": a stable scatter, so the order the lower digits set is kept.";
  }
  return {};
}

void cpu_radix_digits(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu::CpuRun run(t);
  const DigitShape s(cfg.n, cfg.block, cfg.digit_bits);
  const DigitRows r(cfg.key_value);
  const std::int32_t n = cfg.n, B = cfg.block;
  const bool kv = cfg.key_value;
  std::copy(input.begin(), input.end(), run.row(kRowMain));
  if (kv)
    for (std::int32_t i = 0; i < n; ++i) run.row(r[kDigitsValuesIn])[i] = std::uint32_t(i);
  run.snapshot_initial();
  std::uint32_t* digit = run.row(r[kDigitsDigit]);
  std::uint32_t* sortable_row = run.row(r[kDigitsSortable]);
  std::uint32_t* counts = run.row(r[kDigitsCounts]);
  std::uint32_t* offsets = run.row(r[kDigitsOffsets]);
  const ScanRows scan_rows{r[kDigitsCounts], r[kDigitsOffsets], r[kDigitsTemp], r[kDigitsSums]};
  const std::uint32_t R = std::uint32_t(s.R);
  std::size_t st = 1;
  for (int p = 0; p < s.passes; ++p) {
    const int shift = p * s.D;
    const int in_row = r[pass_src(s, p)], out_row = r[pass_dst(s, p)];
    const std::uint32_t* in = run.row(in_row);
    std::uint32_t* out = run.row(out_row);
    // load_digits: the first step of both kernels
    auto load_digits = [&]() {
      run.begin(st);
      cpu::for_each_warp(t.steps[st].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        for (std::int32_t j = 0; j < s.ept; ++j) {
          std::int32_t a[32];
          for (int l = 0; l < lanes; ++l) {
            const std::int32_t pos = first + l + j * B;
            const std::int32_t i = b * s.T + pos;
            a[l] = pos;
            if (i < n) {
              sortable_row[i] = sortable(in[i], t.type, cfg.descending);
              digit[i] = (sortable_row[i] >> shift) & (R - 1);
              run.count().global_read_bytes += 4;
            } else {
              digit[i] = R;
            }
            run.op(std::int64_t(b) * B + first + l, j, i < n ? OpKind::Move : OpKind::Write, in_row, i < n ? i : -1,
                   r[kDigitsDigit], i);
          }
          run.shared_access(a, lanes);
        }
      });
      run.end();
      ++st;
    };
    load_digits();
    // digit_histogram_kernel's counts
    run.begin(st);
    cpu::for_each_warp(t.steps[st].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      for (std::int32_t j = 0; j < (s.R + B - 1) / B; ++j) {
        int paths[32];
        for (int l = 0; l < lanes; ++l) paths[l] = first + l + j * B < s.R;
        run.branch(paths, lanes);
        for (int l = 0; l < lanes; ++l) {
          const std::uint32_t d = std::uint32_t(first + l + j * B);
          if (d >= R) continue;
          std::uint32_t count = 0;
          for (std::int32_t q = 0; q < s.T; ++q) count += digit[b * s.T + q] == d;
          const std::int32_t c = std::int32_t(d) * s.nb + b;
          counts[c] = count;
          run.op(std::int64_t(b) * B + first + l, j, OpKind::Write, r[kDigitsDigit], -1, r[kDigitsCounts], c);
          run.count().global_write_bytes += 4;
        }
      }
    });
    run.end();
    ++st;
    st = run_scan(run, t, st, s.C, B, scan_rows);
    load_digits();
    // digit_scatter_kernel's scatter
    const std::uint32_t* vin = kv ? run.row(r[values_of(pass_src(s, p))]) : nullptr;
    std::uint32_t* vout = kv ? run.row(r[values_of(pass_dst(s, p))]) : nullptr;
    run.begin(st);
    cpu::for_each_warp(t.steps[st].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      for (std::int32_t j = 0; j < s.ept; ++j) {
        int paths[32];
        for (int l = 0; l < lanes; ++l) paths[l] = b * s.T + first + l + j * B < n;
        run.branch(paths, lanes);
        for (int l = 0; l < lanes; ++l) {
          const std::int32_t pos = first + l + j * B, i = b * s.T + pos;
          if (i >= n) continue;
          const std::uint32_t d = digit[i];
          std::uint32_t rank = 0;
          for (std::int32_t q = 0; q < pos; ++q) rank += digit[b * s.T + q] == d;
          const std::uint32_t dst = offsets[d * std::uint32_t(s.nb) + std::uint32_t(b)] + rank;
          run.row(r[kDigitsDest])[i] = dst;
          out[dst] = in[i];
          if (kv) vout[dst] = vin[i];
          run.op(std::int64_t(b) * B + first + l, j, OpKind::Move, in_row, i, out_row, std::int32_t(dst));
          run.count().adds += 1;
          run.count().global_read_bytes += 8 + (kv ? 4 : 0);
          run.count().global_write_bytes += 4 + (kv ? 4 : 0);
        }
      }
    });
    run.end();
    ++st;
  }
}

}  // namespace primlab::steppers
