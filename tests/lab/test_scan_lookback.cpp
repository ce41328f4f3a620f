// scan-lookback on the CPU reference: the library kernel's one launch and four barriers, its tiles
// and look-back windows, the scan against the host, the tile-state words and the look-back's rows
// in the reference's fixed order (every tile publishes, then the tiles look back in tile order), the
// counters that every run does alike, and the row's limits.
#include <gtest/gtest.h>

#include <numeric>

#include "lab/algorithms/scan/lookback/scan_lookback.h"
#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;
using namespace primlab::lab;

namespace {

const Algorithm& row() { return *find_algorithm("scan-lookback"); }

Trace cpu_trace(std::int32_t n, std::int32_t block, bool inclusive, const std::vector<std::uint32_t>& in,
                ElemType type = ElemType::I32) {
  StepConfig cfg;
  cfg.n = n;
  cfg.block = block;
  cfg.inclusive = inclusive;
  cfg.type = type;
  Trace t;
  const Result r = build_trace_cpu(row(), cfg, in, t);
  EXPECT_TRUE(r.ok()) << r.message();
  return t;
}

std::vector<std::uint32_t> host_scan(const std::vector<std::uint32_t>& in, bool inclusive) {
  std::vector<std::uint32_t> out(in.size());
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!inclusive) out[i] = acc;
    acc += in[i];
    if (inclusive) out[i] = acc;
  }
  return out;
}

std::vector<std::uint32_t> final_row(const Trace& t, int r, std::int32_t length) {
  const std::uint32_t* p = t.row(t.steps.size() - 1, std::size_t(r));
  return {p, p + length};
}

TEST(ScanLookback, OneLaunchOfTheLibraryKernelWithItsFourBarriers) {
  const Trace t = cpu_trace(4096, 32, false, make_input(InputKind::Random, 4096, ElemType::I32, 1));
  ASSERT_EQ(t.steps.size(), 6u);
  EXPECT_EQ(t.totals(t.steps.size() - 1).launches, 1);
  const char* phases[] = {"input", "load", "reduce", "publish", "look-back", "scan"};
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    EXPECT_EQ(t.steps[s].phase, phases[s]);
    if (s > 0) {
      EXPECT_EQ(t.steps[s].barrier, s > 1) << s;
      EXPECT_EQ(t.steps[s].launch.blocks, 128) << s;  // 4096 elements in tiles of 32
      EXPECT_EQ(t.steps[s].launch.threads, 32) << s;
    }
  }
  // Tile 127 may fold aggregates back to tile 0: windows of predecessors 126..95, ..., 30..0.
  EXPECT_EQ(t.steps[4].ops_per_thread, kLbWindowSlot + 4);
  EXPECT_EQ(t.rows[kLbValue].length, 128);
  EXPECT_EQ(t.code.front().rfind("// scan_kernel.cuh:", 0), 0u) << t.code.front();  // the library's source
}

TEST(ScanLookback, ScansLikeTheHostAtTheRowsLimits) {
  for (const test::RowConfig& rc : test::configs_for(row())) {
    SCOPED_TRACE(rc.what);
    for (bool inclusive : {false, true}) {
      StepConfig cfg = rc.cfg;
      cfg.inclusive = inclusive;
      auto in = make_input(InputKind::Random, cfg.n, cfg.type, cfg.seed);
      for (auto& w : in) w = w * 0x9E3779B9u + 7u;  // the whole 32-bit range: the adds wrap
      Trace t;
      ASSERT_TRUE(ok(build_trace_cpu(row(), cfg, in, t)));
      EXPECT_EQ(final_row(t, kLbOut, cfg.n), host_scan(in, inclusive));
    }
  }
}

// Tile t's word ends as (inclusive prefix, the sum of tiles 0..t); tile_prefix is the sum before it.
TEST(ScanLookback, TileWordsHoldTheAggregatesThenTheInclusivePrefixes) {
  const std::int32_t n = 200, block = 64, tiles = 4;
  const auto in = make_input(InputKind::Random, n, ElemType::I32, 3);
  const Trace t = cpu_trace(n, block, false, in);
  std::vector<std::uint32_t> sums(tiles, 0u);
  for (std::int32_t i = 0; i < n; ++i) sums[std::size_t(i / block)] += in[std::size_t(i)];
  std::uint32_t before = 0;
  for (std::int32_t tile = 0; tile < tiles; ++tile) {
    SCOPED_TRACE("tile " + std::to_string(tile));
    // After the publish step: tile 0 an inclusive prefix, the others their aggregates.
    EXPECT_EQ(t.row(3, kLbStatus)[tile], tile == 0 ? 2u : 1u);
    EXPECT_EQ(t.row(3, kLbValue)[tile], sums[std::size_t(tile)]);
    // After the look-back: every word an inclusive prefix.
    EXPECT_EQ(t.row(4, kLbStatus)[tile], 2u);
    EXPECT_EQ(t.row(4, kLbValue)[tile], before + sums[std::size_t(tile)]);
    EXPECT_EQ(t.row(4, kLbTilePrefix)[tile], before);
    // s_warp after the look-back: each warp's prefix in the whole array.
    std::uint32_t warp0 = 0;
    for (std::int32_t i = tile * block; i < std::min(n, tile * block + 32); ++i) warp0 += in[std::size_t(i)];
    EXPECT_EQ(t.row(4, kLbWarp)[tile * 2], before);
    EXPECT_EQ(t.row(4, kLbWarp)[tile * 2 + 1], before + warp0);
    before += sums[std::size_t(tile)];
  }
  // Not published before the publish step; the word before the look-back is not an inclusive prefix.
  EXPECT_EQ(t.row(2, kLbStatus)[1], 0u);
}

// The reference runs the look-backs in tile order: each finds its left neighbour's inclusive prefix
// in its first poll, after reading one word per predecessor in the window.
TEST(ScanLookback, InTileOrderEachTileStopsAtItsLeftNeighbour) {
  const std::int32_t n = 4096, tiles = 128;
  const Trace t = cpu_trace(n, 32, true, make_input(InputKind::Random, n, ElemType::I32, 4));
  const std::size_t last = t.steps.size() - 1;
  EXPECT_EQ(t.row(last, kLbStop)[0], 0xffffffffu);  // tile 0 does not look back
  EXPECT_EQ(t.row(last, kLbPolls)[0], 0u);
  for (std::int32_t tile = 1; tile < tiles; ++tile) {
    EXPECT_EQ(t.row(last, kLbStop)[tile], std::uint32_t(tile - 1)) << tile;
    EXPECT_EQ(t.row(last, kLbPolls)[tile], 1u) << tile;
    EXPECT_EQ(t.row(last, kLbWords)[tile], std::uint32_t(std::min(32, tile))) << tile;
    // Event numbers: tile 0's inclusive prefix, the aggregates of tiles 1.., then the inclusive prefixes.
    EXPECT_EQ(t.row(last, kLbAggregateAt)[tile], std::uint32_t(tile)) << tile;
    EXPECT_EQ(t.row(last, kLbInclusiveAt)[tile], std::uint32_t(tiles - 1 + tile)) << tile;
  }
  EXPECT_EQ(t.row(last, kLbInclusiveAt)[0], 0u);
  EXPECT_EQ(t.row(last, kLbAggregateAt)[0], 0xffffffffu);  // tile 0 publishes no aggregate
  // The look-back's ops of tile 40 (lanes 0..31 of block 40 read tiles 39..8): lane 0 adds tile 39's
  // inclusive prefix into tile_prefix[40], the others read past it.
  const Step& look = t.steps[4];
  for (int lane = 0; lane < 32; ++lane) {
    const Op& o = t.ops[std::size_t(look.op_begin + (40 * 32 + lane) * look.ops_per_thread + kLbWindowSlot)];
    EXPECT_EQ(o.src, 39 - lane) << lane;
    EXPECT_EQ(kind_of(o.kind), lane == 0 ? OpKind::Add : OpKind::Read) << lane;
    EXPECT_EQ(src_row_of(o.kind), kLbValue);
    EXPECT_EQ(dst_row_of(o.kind), lane == 0 ? kLbTilePrefix : kLbValue);
  }
  // No second window.
  const Op& second = t.ops[std::size_t(look.op_begin + (40 * 32) * look.ops_per_thread + kLbWindowSlot + 1)];
  EXPECT_EQ(kind_of(second.kind), OpKind::None);
}

// What every run does alike, whatever the race: loads, stores, publications, the warp scans' adds
// and the s_warp accesses.
TEST(ScanLookback, CountersHoldTheWorkEveryRunDoes) {
  const std::int32_t n = 300, block = 64, tiles = 5, warps = 2;
  for (bool inclusive : {false, true}) {
    SCOPED_TRACE(inclusive ? "inclusive" : "exclusive");
    const Trace t = cpu_trace(n, block, inclusive, make_input(InputKind::Random, n, ElemType::I32, 6));
    const Counters &load = t.steps[1].counters, &reduce = t.steps[2].counters, &publish = t.steps[3].counters,
                   &look = t.steps[4].counters, &scan = t.steps[5].counters;
    EXPECT_EQ(load.global_read_bytes, 4 * n);
    EXPECT_EQ(reduce.adds, tiles * warps * 129);  // a warp scan: lanes 1, 2-3, 4-7, 8-15, 16-31 add 1..5 times
    EXPECT_EQ(reduce.shared_accesses, tiles * warps);
    EXPECT_EQ(publish.adds, tiles * 129 + (inclusive ? 0 : 1));
    EXPECT_EQ(publish.global_write_bytes, 8 * tiles);
    EXPECT_EQ(publish.shared_accesses, tiles * warps);
    EXPECT_EQ(look.global_write_bytes, 8 * (tiles - 1));
    EXPECT_EQ(look.adds, (tiles - 1) * warps + (inclusive ? 0 : warps - 1));
    EXPECT_EQ(look.global_read_bytes, 0);  // the look-back's reads are the rows, not a counter
    EXPECT_EQ(scan.adds, tiles * block * (inclusive ? 2 : 1));
    EXPECT_EQ(scan.global_write_bytes, 4 * n);
    EXPECT_EQ(scan.shared_accesses, tiles * block);
    for (const Step& s : t.steps) EXPECT_LE(s.counters.bank_conflict, 1) << s.label;
  }
}

TEST(ScanLookback, OneTilePublishesNothingAndDoesNotLookBack) {
  const Trace t = cpu_trace(20, 32, false, make_input(InputKind::Random, 20, ElemType::U32, 2), ElemType::U32);
  const std::size_t last = t.steps.size() - 1;
  EXPECT_EQ(t.row(last, kLbStatus)[0], 0u);
  EXPECT_EQ(t.steps[3].counters.global_write_bytes, 0);
  EXPECT_EQ(t.steps[4].counters.global_write_bytes, 0);
  EXPECT_EQ(t.steps[4].ops_per_thread, kLbWindowSlot);
  EXPECT_NE(t.steps[4].label.find("one tile"), std::string::npos) << t.steps[4].label;
}

TEST(ScanLookback, BadConfigsAreRefusedWithTheRowsLimits) {
  Trace t;
  StepConfig cfg;
  cfg.n = 64;
  const auto in = std::vector<std::uint32_t>(64, 1u);
  for (int block : {1, 16, 48, 128}) {
    cfg.block = block;
    const Result r = build_trace_cpu(row(), cfg, in, t);
    EXPECT_FALSE(r.ok()) << block;
    EXPECT_FALSE(r.message().empty());
  }
  cfg.block = 32;
  cfg.type = ElemType::F32;  // float adds in the race's order would differ from run to run
  EXPECT_FALSE(build_trace_cpu(row(), cfg, in, t).ok());
  cfg.type = ElemType::I32;
  cfg.n = 4097;
  EXPECT_FALSE(build_trace_cpu(row(), cfg, std::vector<std::uint32_t>(4097, 1u), t).ok());
  cfg.n = 0;
  EXPECT_FALSE(build_trace_cpu(row(), cfg, {}, t).ok());
}

}  // namespace
