// Stream compaction (seeds 001, 002): the plan (one step a launch of compact.cuh's host code, and
// between them the chosen scan's own steps) and the CPU reference. Map each element to a flag
// (non-zero, even, or greater than a threshold), exclusive-scan the flags with the scan row the
// variant names (its own plan and CPU reference, spliced in), scatter the kept elements to their
// scanned index; the count is the last index plus the last flag.
#include "lab/algorithms/compact/compact_common.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace compact;
}  // namespace

Result plan_compact(const StepConfig& cfg, Trace& t) {
  const Layout L = make_layout(cfg);
  if (!L.error.empty()) return Result::failure(L.error);
  const Trace& s = L.scan;
  const std::int32_t n = cfg.n, B = cfg.block, blocks = plan::div_up(n, B);
  t.title = "Stream compaction (map, " + s.title + ", scatter)";
  t.width = s.width;
  t.elems_per_thread = 1;
  // The map and scatter kernels and their host code (compact.cuh), then the scan's own listing.
  const plan::Code code = plan::code(t, "compact");
  const int scan_line0 = int(t.code.size());
  t.code.insert(t.code.end(), s.code.begin(), s.code.end());
  t.code_tags.insert(t.code_tags.end(), s.code_tags.begin(), s.code_tags.end());
  t.code_sources.insert(t.code_sources.end(), s.code_sources.begin(), s.code_sources.end());
  plan::standard_rows(t, "x (input)", n, cfg.type);
  plan::add_row(t, "flags = keep(x)", RowKind::Flags, n, ElemType::I32);
  plan::add_row(t, "idx = exclusive scan of flags", RowKind::Index, s.rows[kRowMain].length, ElemType::I32);
  for (std::size_t r = kStdRows; r < s.rows.size(); ++r)
    if (L.row_map[r] >= kScanAux)
      plan::add_row(t, "scan: " + s.rows[r].name, s.rows[r].kind, s.rows[r].length, s.rows[r].type,
                    s.rows[r].element_space);
  plan::add_row(t, "out (compacted)", RowKind::Values, n, cfg.type);
  plan::add_row(t, "count", RowKind::Values, 1, ElemType::I32, false);
  plan::initial_step(t);
  plan::add_step(t, "map: flags[i] = keep(x[i]), keep(v) = " + predicate_text(cfg), "map", code.line("map"), blocks, B,
                 n, 1, kFlags)
      .explain = "Each thread tests its element and writes a flag: 1 to keep it, 0 to drop it.";
  for (std::size_t k = 1; k < s.steps.size(); ++k) {
    const Step& st = s.steps[k];
    Step& step = plan::add_step(t, "scan: " + st.label, "scan: " + st.phase,
                                st.code_line < 0 ? -1 : st.code_line + scan_line0, st.launch.blocks, st.launch.threads,
                                st.launch.active, st.ops_per_thread, L.row_map[st.focus_row]);
    step.barrier = st.barrier;
    for (int line : st.also_lit) step.also_lit.push_back(line + scan_line0);
    step.explain = "Scanning the flags: " + st.explain +
                   (k + 1 == s.steps.size() ? " The scanned flag of a kept element is its index in the output." : "");
  }
  plan::add_step(t, "scatter: if (flags[i]) out[idx[i]] = x[i]", "scatter", code.line("scatter"), blocks, B, n, 1,
                 L.output_row)
      .explain = "Each kept element is written to out at its scanned index: kept elements pack together, in order, "
                 "with no two threads writing the same place.";
  plan::add_step(t, "count = idx[" + std::to_string(n - 1) + "] + flags[" + std::to_string(n - 1) + "]", "count",
                 code.line("count"), 1, 1, 1, 2, L.output_row)
      .explain = "The number kept is the last scanned index plus the last flag (the exclusive scan leaves the last "
                 "element out).";
  return {};
}

void cpu_compact(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  Layout L = make_layout(cfg);
  cpu::CpuRun run(t);
  const std::int32_t n = t.n, B = t.block;
  std::uint32_t* x = run.row(kRowMain);
  std::uint32_t* flags = run.row(kFlags);
  std::uint32_t* idx = run.row(kScanned);
  std::uint32_t* out = run.row(L.output_row);
  std::copy(input.begin(), input.end(), x);
  run.snapshot_initial();

  // Map.
  run.begin(1);
  cpu::for_each_warp(t.steps[1].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
    int paths[32];
    for (int l = 0; l < lanes; ++l) {
      const std::int32_t i = b * B + first + l;
      paths[l] = i < n;
      if (i >= n) continue;
      flags[i] = keep(x[i], t.type, cfg.predicate, cfg.threshold) ? 1u : 0u;
      run.op(i, 0, OpKind::Move, kRowMain, i, kFlags, i);
      run.count().global_read_bytes += 4;
      run.count().global_write_bytes += 4;
    }
    run.branch(paths, lanes);
  });
  run.end();

  // The scan's own CPU stepper on the flags, spliced step by step.
  const std::vector<std::uint32_t> f(flags, flags + n);
  const Trace& s = L.scan;
  scan_algo(cfg.variant).run_cpu(L.scan_cfg, f, L.scan);
  const int rows = int(s.rows.size());
  for (std::size_t k = 1; k <= L.scan_steps; ++k) {
    const std::size_t step = 1 + k;
    run.begin(step);
    for (int r = 0; r < rows; ++r)
      if (L.row_map[std::size_t(r)] >= 0) std::copy(s.row(k, r), s.row(k, r) + t.width, run.row(L.row_map[std::size_t(r)]));
    for (std::int32_t i = 0; i < t.width; ++i) {
      run.row(kRowTouch)[i] = remap_touch(s.row(k, kRowTouch)[i], L.row_map.data(), rows);
      run.row(kRowOwner)[i] = s.row(k, kRowOwner)[i];
    }
    const Step& ss = s.steps[k];
    for (std::int64_t o = 0; o < ss.op_count(); ++o) {
      Op op = s.ops[std::size_t(ss.op_begin + o)];
      op.kind = op.kind ? remap_kind(op.kind, L.row_map.data(), rows) : 0;
      t.ops[std::size_t(t.steps[step].op_begin + o)] = op;
    }
    run.count() = ss.counters;
    t.steps[step].accesses = ss.accesses;
    run.end();
  }

  // Scatter.
  const std::size_t scatter = 2 + L.scan_steps;
  run.begin(scatter);
  cpu::for_each_warp(t.steps[scatter].launch, [&](std::int32_t b, std::int32_t first, int lanes) {
    int paths[32];
    for (int l = 0; l < lanes; ++l) {
      const std::int32_t i = b * B + first + l;
      paths[l] = i < n && flags[i] != 0;
      if (i >= n) continue;
      run.count().global_read_bytes += 4;
      if (!flags[i]) continue;
      out[idx[i]] = x[i];
      run.op(i, 0, OpKind::Move, kRowMain, i, L.output_row, std::int32_t(idx[i]));
      run.count().global_read_bytes += 8;
      run.count().global_write_bytes += 4;
    }
    run.branch(paths, lanes);
  });
  run.end();

  // Count.
  run.begin(scatter + 1);
  std::uint32_t* count = run.row(L.count_row);
  count[0] = idx[n - 1] + flags[n - 1];
  run.op(0, 0, OpKind::Move, kScanned, n - 1, L.count_row, 0);
  run.op(0, 1, OpKind::Add, kFlags, n - 1, L.count_row, 0);
  run.count().adds = 1;
  run.count().global_read_bytes = 8;
  run.count().global_write_bytes = 4;
  run.end();
  t.steps.back().label += " = " + std::to_string(count[0]) + " kept of " + std::to_string(n);
}

}  // namespace primlab::steppers
