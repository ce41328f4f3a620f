// scan-lookback: the library's single-pass scan with decoupled look-back (agent/scan_kernel.cuh,
// block/tile_state.cuh), stepped on tiles of one item a lane. The plan is the kernel's one launch
// and its four barriers; the CPU reference runs the same tiles in a fixed order (every tile loads,
// scans and publishes, then tile 1, 2, ... look back one after another), where the GPU runs them
// at once and its trace shows the order the hardware took.
#include "lab/algorithms/scan/lookback/scan_lookback.h"

#include <string>

#include "lab/model/listing.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab;

const char kListing[] = "scan-lookback";

// Lights every line of the tags of `phase` ("look-back" lights "look-back (poll)" too), or of the
// one tag `only`.
void light(Step& st, const std::string& phase, const std::string& only = "") {
  const listing::Listing* l = listing::find(kListing);
  if (!l) return;
  for (const listing::Tag& g : l->tags) {
    const bool in_phase = only.empty() ? g.name.substr(0, g.name.find(" (")) == phase : g.name == only;
    if (!in_phase) continue;
    for (int line : g.lines)
      if (line != st.code_line) st.also_lit.push_back(line);
  }
}

std::string str(std::int64_t v) { return std::to_string(v); }

const char kOrderNote[] =
    " The tiles run at once on the GPU; the CPU reference runs them in a fixed order (every tile up to here, "
    "then the look-backs in tile order).";

}  // namespace

Result plan_scan_lookback(const StepConfig& cfg, Trace& t) {
  const LookbackShape sh = lookback_shape(cfg.n, cfg.block);
  const std::int32_t n = cfg.n, B = cfg.block, W = sh.warps, T = sh.tiles;
  const bool exclusive = !cfg.inclusive;
  t.title = "Single-pass scan, decoupled look-back (the library's kernel)";
  t.width = sh.width();
  t.elems_per_thread = 1;
  const plan::Code code = plan::code(t, kListing);
  plan::standard_rows(t, std::string("d_out (") + (exclusive ? "exclusive" : "inclusive") + " scan)", n, cfg.type);
  plan::add_row(t, "d_in", RowKind::Values, n, cfg.type);
  plan::add_row(t, "x (each lane's register)", RowKind::Values, n, cfg.type);
  plan::add_row(t, "row_prefix (the sum before the lane in its warp)", RowKind::Values, n, cfg.type);
  plan::add_row(t, "s_warp (shared, " + str(W) + " a tile)", RowKind::Values, T * W, cfg.type, false);
  plan::add_row(t, "tile status (0 invalid, 1 aggregate, 2 inclusive prefix)", RowKind::Index, T, ElemType::I32, false);
  plan::add_row(t, "tile value", RowKind::Values, T, cfg.type, false);
  plan::add_row(t, "tile_prefix (what the look-back returned)", RowKind::Values, T, cfg.type, false);
  plan::add_row(t, "look-back polls", RowKind::Index, T, ElemType::I32, false);
  plan::add_row(t, "tile-state words read", RowKind::Index, T, ElemType::I32, false);
  plan::add_row(t, "stopped at the inclusive prefix of tile", RowKind::Index, T, ElemType::I32, false);
  plan::add_row(t, "aggregate published at event", RowKind::Index, T, ElemType::I32, false);
  plan::add_row(t, "inclusive prefix published at event", RowKind::Index, T, ElemType::I32, false);
  plan::initial_step(t, kLbIn);

  const std::string tiles = str(T) + (T == 1 ? " tile" : " tiles");
  Step& load = plan::add_step(t,
                              "load: x[k][j] = i < n ? d_in[i] : ident, i = wbase + lane, wbase = tile * " +
                                  str(B) + (W > 1 ? " + warp * 32" : "") + "; " + tiles + " of " + str(B) +
                                  ", one item a lane",
                              "load", code.line("load"), T, B, n, 1, kLbX);
  light(load, "load");
  load.explain = "One block a tile: scan_kernel loads its tile into registers, one item x a lane (this run's tuning: " +
                 str(B) + " threads, kVectors = kVec = 1, so that " + counted(n, "element") + (n == 1 ? " makes " : " make ") + tiles +
                 "). Lanes past n hold the identity. The step ends where each warp's lanes meet.";

  Step& reduce = plan::add_step(t,
                                "reduce: inc = warp_inclusive_scan(x), row_prefix[k] = exc (lane 0: ident), "
                                "s_warp[warp] = carry, the warp's total",
                                "reduce", code.line("reduce"), T, B, T * B, 2, kLbRowPrefix);
  reduce.barrier = true;
  light(reduce, "reduce");
  reduce.explain = "Each warp scans its 32 items with shuffles (offsets 1, 2, 4, 8, 16): row_prefix is the sum of "
                   "the lanes before, and lane 0 writes the warp's total to s_warp. __syncthreads() ends the step.";

  Step& publish = plan::add_step(
      t,
      T > 1 ? "publish: warp 0 scans s_warp to tile_total; tile 0 publishes (inclusive prefix, tile_total), tiles 1.." +
                  str(T - 1) + " publish (aggregate, tile_total)"
            : std::string("publish: warp 0 scans s_warp to tile_total; one tile, no word to publish"),
      "publish", code.line("publish"), T, B, T * 32, 2, kLbValue);
  publish.barrier = true;
  light(publish, "publish");
  publish.explain =
      "Warp 0 of each tile scans the warp totals (s_warp) to the tile's total. Lane 0 publishes the tile's word, "
      "status and value in one 64-bit store: tile 0 knows its inclusive prefix already (status 2), every other tile "
      "only its own sum, the aggregate (status 1), so that its successors need not wait for its look-back. The step "
      "ends at warp 0's own barrier." +
      std::string(kOrderNote) + " The event numbers say in which order the words were published.";

  Step& look = plan::add_step(
      t,
      T > 1 ? "look-back: tiles 1.." + str(T - 1) +
                  ": lane reads the word of tile base - lane, the warp folds the values up to the nearest inclusive "
                  "prefix; publish (inclusive prefix, tile_prefix + tile_total); s_warp[lane] = the warps' prefixes"
            : std::string("look-back: one tile, no predecessor; s_warp[lane] = the warps' prefixes"),
      "look-back", code.line(T > 1 ? "look-back" : "look-back (warp prefixes)"), T, B, T * 32,
      kLbWindowSlot + sh.windows, kLbValue);
  look.barrier = true;
  if (T > 1) light(look, "look-back");
  else light(look, "", "look-back (warp prefixes)");
  look.explain =
      "Each tile after the first looks back: lane l of warp 0 reads the word of tile base - l (base = tile - 1, a "
      "window of 32), polls again while any word of the window is still invalid, then folds the values up to the "
      "nearest tile whose status is an inclusive prefix (aggregates are added, the inclusive prefix ends the sum); "
      "with none in the window it moves the window 32 tiles back. The tile publishes its own inclusive prefix and "
      "warp 0 writes each warp's prefix to s_warp. Rows: the polls, the words read, the tile whose inclusive prefix "
      "stopped the look-back (ops: added values, and words read past it), and when each word was published." +
      std::string(kOrderNote) +
      " In that order each tile finds its left neighbour's inclusive prefix at once; on the GPU a tile may find "
      "aggregates, or wait for an invalid word.";

  Step& scan = plan::add_step(t,
                              std::string("scan: d_out[i] = s_warp[warp] + row_prefix[k]") +
                                  (exclusive ? "" : " + x[k][j]") + " for i < n",
                              "scan", code.line("scan"), T, B, n, 1, kLbOut);
  scan.barrier = true;
  light(scan, "scan");
  scan.explain = std::string("Every lane adds its warp's prefix in the whole array (s_warp) to its prefix in the warp") +
                 (exclusive ? "" : " and its own item") + " and stores the " + (exclusive ? "exclusive" : "inclusive") +
                 " scan. The result is the same whatever order the tiles ran in.";
  return {};
}

void cpu_scan_lookback(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  const LookbackShape sh = lookback_shape(cfg.n, cfg.block);
  const std::int32_t n = cfg.n, B = cfg.block, W = sh.warps, T = sh.tiles;
  const bool exclusive = !cfg.inclusive;
  const ElemType type = t.type;
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kLbIn));
  lookback_unset_rows(run.row(0), t.width);
  run.snapshot_initial();
  std::uint32_t* out = run.row(kLbOut);
  std::uint32_t* x_row = run.row(kLbX);
  std::uint32_t* prefix_row = run.row(kLbRowPrefix);
  std::uint32_t* s_warp = run.row(kLbWarp);
  std::uint32_t* status = run.row(kLbStatus);
  std::uint32_t* value = run.row(kLbValue);
  std::uint32_t* tile_prefix = run.row(kLbTilePrefix);
  auto add = [type](std::uint32_t a, std::uint32_t b) { return cpu::add_words(a, b, type); };
  // The registers of every lane (padding lanes hold the identity, 0).
  const std::int64_t lanes = std::int64_t(T) * B;
  std::vector<std::uint32_t> x(std::size_t(lanes), 0u), row_prefix(std::size_t(lanes), 0u);
  std::vector<std::uint32_t> tile_total(std::size_t(T), 0u), wexc(std::size_t(T) * W, 0u);
  std::uint32_t event = 0;  // publications in this order: the event numbers
  std::int32_t addrs[32];

  // [load]
  run.begin(1);
  for (std::int64_t g = 0; g < lanes; ++g) {
    if (g >= n) continue;
    x[std::size_t(g)] = x_row[g] = run.row(kLbIn)[g];
    run.op(g, 0, OpKind::Move, kLbIn, std::int32_t(g), kLbX, std::int32_t(g));
    run.count().global_read_bytes += 4;
  }
  run.end();

  // [reduce] Each warp: an inclusive scan over its lanes, row_prefix the exclusive one, the total to s_warp.
  run.begin(2);
  for (std::int32_t tile = 0; tile < T; ++tile)
    for (std::int32_t w = 0; w < W; ++w) {
      const std::int64_t first = std::int64_t(tile) * B + w * 32;
      std::uint32_t inc = 0;
      for (int l = 0; l < 32; ++l) {
        const std::int64_t g = first + l;
        row_prefix[std::size_t(g)] = inc;
        inc = add(inc, x[std::size_t(g)]);
        run.count().adds += warp_scan_adds(l);
        if (g < n) {
          prefix_row[g] = row_prefix[std::size_t(g)];
          run.op(g, 0, OpKind::Write, kLbRowPrefix, -1, kLbRowPrefix, std::int32_t(g));
        }
      }
      s_warp[tile * W + w] = inc;
      run.op(first, 1, OpKind::Write, kLbWarp, -1, kLbWarp, tile * W + w);
      for (int l = 0; l < 32; ++l) addrs[l] = l == 0 ? w : -1;
      run.shared_access(addrs, 32);
    }
  run.end();

  // [publish] Warp 0 of each tile scans the warp totals; lane 0 publishes the tile's word.
  run.begin(3);
  for (std::int32_t tile = 0; tile < T; ++tile) {
    const std::int64_t first = std::int64_t(tile) * B;
    std::uint32_t winc = 0;
    for (int l = 0; l < 32; ++l) {
      run.count().adds += warp_scan_adds(l);
      addrs[l] = l < W ? l : -1;
      if (l >= W) continue;
      wexc[std::size_t(tile) * W + l] = winc;
      winc = add(winc, s_warp[tile * W + l]);
      run.op(first + l, 0, OpKind::Read, kLbWarp, tile * W + l, kLbWarp, tile * W + l);
    }
    run.shared_access(addrs, 32);
    tile_total[std::size_t(tile)] = winc;
    if (T == 1) continue;
    const bool inclusive_word = tile == 0;  // tile 0's prefix is init (exclusive) or nothing
    status[tile] = inclusive_word ? 2u : 1u;
    value[tile] = winc;
    if (inclusive_word && exclusive) run.count().adds += 1;  // init + tile_total, init = 0
    run.row(inclusive_word ? kLbInclusiveAt : kLbAggregateAt)[tile] = event++;
    run.op(first, 1, OpKind::Write, kLbValue, -1, kLbValue, tile);
    run.count().global_write_bytes += 8;
  }
  run.end();

  // [look-back] In tile order: each tile reads windows of 32 predecessors until one holds an
  // inclusive prefix (here always its left neighbour's), publishes its own, writes the warps' prefixes.
  run.begin(4);
  for (std::int32_t tile = 0; tile < T; ++tile) {
    const std::int64_t first = std::int64_t(tile) * B;
    if (tile > 0) {
      std::int64_t base = tile - 1;
      std::uint32_t prefix = 0;
      std::int32_t polls = 0, words = 0;
      for (int window = 0;; ++window, base -= 32) {
        ++polls;  // one poll: every word of the window has been published already
        int stop = -1;
        std::uint32_t folded = 0;
        for (int l = 0; l < 32 && stop < 0; ++l) {
          const std::int64_t pred = base - l;
          if (pred < 0 || status[pred] == 2u) stop = l;
        }
        for (int l = 0; l < 32; ++l) {
          const std::int64_t pred = base - l;
          if (pred < 0) continue;
          ++words;
          const bool in_sum = stop < 0 || l <= stop;
          if (in_sum) folded = add(value[pred], folded);
          if (in_sum)
            run.op(first + l, kLbWindowSlot + window, OpKind::Add, kLbValue, std::int32_t(pred), kLbTilePrefix, tile);
          else
            run.op(first + l, kLbWindowSlot + window, OpKind::Read, kLbValue, std::int32_t(pred), kLbValue,
                   std::int32_t(pred));
        }
        prefix = window == 0 ? folded : add(folded, prefix);
        if (stop >= 0) {
          run.row(kLbStop)[tile] = std::uint32_t(base - stop);
          break;
        }
      }
      tile_prefix[tile] = prefix;
      run.row(kLbPolls)[tile] = std::uint32_t(polls);
      run.row(kLbWords)[tile] = std::uint32_t(words);
      status[tile] = 2u;
      value[tile] = add(prefix, tile_total[std::size_t(tile)]);
      run.count().adds += 1;
      run.row(kLbInclusiveAt)[tile] = event++;
      run.op(first, 0, OpKind::Write, kLbValue, -1, kLbValue, tile);
      run.count().global_write_bytes += 8;
    }
    const bool has_prefix = tile > 0 || exclusive;
    for (int l = 0; l < 32; ++l) {
      addrs[l] = l < W ? l : -1;
      if (l >= W) continue;
      const std::uint32_t wx = wexc[std::size_t(tile) * W + l];
      s_warp[tile * W + l] = l == 0 ? tile_prefix[tile] : has_prefix ? add(tile_prefix[tile], wx) : wx;
      if (l > 0 && has_prefix) run.count().adds += 1;
      run.op(first + l, 1, OpKind::Write, kLbWarp, -1, kLbWarp, tile * W + l);
    }
    run.shared_access(addrs, 32);
  }
  run.end();

  // [scan] Every lane: its warp's prefix + its prefix in the warp (+ its item, inclusive).
  run.begin(5);
  for (std::int64_t g = 0; g < lanes; ++g) {
    const std::int32_t tile = std::int32_t(g / B), w = std::int32_t(g % B) / 32;
    if (g % 32 == 0) {
      for (int l = 0; l < 32; ++l) addrs[l] = w;
      run.shared_access(addrs, 32);
    }
    const std::uint32_t run_sum = add(s_warp[tile * W + w], row_prefix[std::size_t(g)]);
    const std::uint32_t y = exclusive ? run_sum : add(run_sum, x[std::size_t(g)]);
    run.count().adds += exclusive ? 1 : 2;
    if (g >= n) continue;
    out[g] = y;
    run.op(g, 0, OpKind::Add, kLbWarp, tile * W + w, kLbOut, std::int32_t(g));
    run.count().global_write_bytes += 4;
  }
  run.end();
}

}  // namespace primlab::steppers
