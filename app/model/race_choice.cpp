// The Race's figures and the size it opens at.
#include "model/race_choice.h"

#include <algorithm>

#include "lab/catalog.h"
#include "model/counter_rows.h"
#include "model/presets.h"

namespace primlab::ui {

std::vector<RaceFigure> race_figures(const Trace& a, const Trace& b) {
  std::vector<RaceFigure> out;
  auto add = [&](const char* name, long long x, long long y) { out.push_back({name, x, y, counters_differ(x, y)}); };
  const Counters ca = a.totals(a.steps.size()), cb = b.totals(b.steps.size());
  add("work", ca.adds + ca.atomics, cb.adds + cb.atomics);
  add("depth", (long long)a.steps.size() - 1, (long long)b.steps.size() - 1);
  const int last_a = std::max(0, int(a.steps.size()) - 1), last_b = std::max(0, int(b.steps.size()) - 1);
  if (a.steps.empty() || b.steps.empty()) return out;
  const std::vector<CounterRow> ra = counter_rows(a, last_a), rb = counter_rows(b, last_b);
  for (std::size_t r = 0; r < ra.size() && r < rb.size(); ++r) add(ra[r].name, ra[r].so_far, rb[r].so_far);
  return out;
}

bool any_differs(const std::vector<RaceFigure>& figures) {
  return std::any_of(figures.begin(), figures.end(), [](const RaceFigure& f) { return f.differs; });
}

RaceFixed race_fixed_by(const StepOptions& given) {
  const Preset* p = given.preset.empty() ? nullptr : find_preset(given.preset);
  const StepOptions& o = p ? p->options : given;
  return {o.n_given || o.input.has_value(), o.block_given};
}

namespace {

bool figures_differ(const StepChoice& a, const StepChoice& b, std::int32_t n, std::int32_t block) {
  const Algorithm* alg_a = find_algorithm(a.algo);
  const Algorithm* alg_b = find_algorithm(b.algo);
  if (!alg_a || !alg_b) return false;
  StepChoice ca = a;
  ca.cfg.n = n;
  std::vector<std::uint32_t> in;
  if (!make_choice_input(ca, in).ok()) return false;
  StepConfig cfg_a = ca.cfg, cfg_b = b.cfg;
  cfg_a.n = cfg_b.n = std::int32_t(in.size());
  cfg_a.block = cfg_b.block = block;
  cfg_b.type = cfg_a.type;
  Trace ta, tb;
  if (!build_trace_cpu(*alg_a, cfg_a, in, ta).ok() || !build_trace_cpu(*alg_b, cfg_b, in, tb).ok()) return false;
  return any_differs(race_figures(ta, tb));
}

}  // namespace

bool pick_race_size(StepChoice& a, StepChoice& b, RaceFixed fixed) {
  const Algorithm* alg_a = find_algorithm(a.algo);
  const Algorithm* alg_b = find_algorithm(b.algo);
  if (!alg_a || !alg_b || (fixed.n && fixed.block)) return false;
  std::vector<std::int32_t> sizes, blocks;
  if (fixed.n || a.input == InputKind::Typed) sizes.push_back(a.cfg.n);
  else
    for (std::int32_t n : kRaceSizes)
      if (n <= std::min(alg_a->max_n, alg_b->max_n)) sizes.push_back(n);
  const std::int32_t lo = std::max(alg_a->min_block, alg_b->min_block), hi = std::min(alg_a->max_block, alg_b->max_block);
  if (fixed.block) blocks.push_back(a.cfg.block);
  else
    for (std::int32_t blk = 1; blk <= hi; blk *= 2)
      if (blk >= lo && (blk >= kRaceMinBlock || blk * 2 > hi)) blocks.push_back(blk);
  for (std::int32_t n : sizes)
    for (std::int32_t blk : blocks)
      if ((fixed.block || blk <= std::max(n, kRaceMinBlock)) && figures_differ(a, b, n, blk)) {
        if (a.input != InputKind::Typed) a.cfg.n = n;
        a.cfg.block = b.cfg.block = blk;
        return true;
      }
  return false;
}

}  // namespace primlab::ui
