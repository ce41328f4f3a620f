// scan-lookback on the GPU (GPU label): the library's own scan_kernel, stepped with the row's
// recording probe, agrees with the CPU reference where the race cannot matter (the catalog test's
// contract), lights the lines that ran, and its race rows hold together: every publication has one
// event number, a tile numbers its aggregate before its inclusive prefix, its look-back stopped at
// an earlier tile, read at least its first window and polled at least once a window.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "lab/algorithms/scan/lookback/scan_lookback.h"
#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"

using namespace primlab;
using namespace primlab::lab;

namespace {

TEST(ScanLookbackTraced, AgreesWithTheCpuAndItsRaceRowsHoldTogether) {
  ASSERT_TRUE(backend().cuda) << backend().reason;
  const Algorithm& a = *find_algorithm("scan-lookback");
  for (int n : {64, 1000, 4096})
    for (int block : {32, 64})
      for (bool inclusive : {false, true}) {
        StepConfig cfg;
        cfg.n = n;
        cfg.block = block;
        cfg.inclusive = inclusive;
        cfg.type = n == 1000 ? ElemType::U32 : ElemType::I32;
        SCOPED_TRACE("n=" + std::to_string(n) + " block=" + std::to_string(block) + (inclusive ? " inclusive" : ""));
        const auto in = make_input(InputKind::Random, n, cfg.type, 11);
        test::expect_backends_agree(a, cfg, in);
        Trace t;
        ASSERT_TRUE(ok(build_trace_cuda(a, cfg, in, t)));
        for (std::size_t s = 1; s < t.steps.size(); ++s)
          EXPECT_FALSE(t.steps[s].source_lines.empty()) << "step " << s << " recorded no line";
        const std::size_t last = t.steps.size() - 1;
        const std::int32_t tiles = (n + block - 1) / block;
        auto at = [&](int r, std::int32_t tile) { return std::int32_t(t.row(last, std::size_t(r))[tile]); };
        if (tiles == 1) {  // no predecessor, no word published
          EXPECT_EQ(at(kLbStatus, 0), 0);
          continue;
        }
        // Every publication took one event number: 0 .. 2 tiles - 2 (tile 0 publishes no aggregate).
        std::vector<std::int32_t> events;
        for (std::int32_t tile = 0; tile < tiles; ++tile) {
          events.push_back(at(kLbInclusiveAt, tile));
          if (tile > 0) events.push_back(at(kLbAggregateAt, tile));
        }
        std::sort(events.begin(), events.end());
        std::vector<std::int32_t> want(events.size());
        std::iota(want.begin(), want.end(), 0);
        EXPECT_EQ(events, want);
        std::uint32_t before = 0;
        for (std::int32_t tile = 0; tile < tiles; ++tile) {
          SCOPED_TRACE("tile " + std::to_string(tile));
          EXPECT_EQ(t.row(last, kLbTilePrefix)[tile], before);
          for (std::int32_t i = tile * block; i < std::min(n, (tile + 1) * block); ++i) before += in[std::size_t(i)];
          EXPECT_EQ(t.row(last, kLbValue)[tile], before);
          EXPECT_EQ(at(kLbStatus, tile), 2);
          if (tile == 0) continue;
          // Lane 0 numbers its two publications in the order it made them.
          EXPECT_LT(at(kLbAggregateAt, tile), at(kLbInclusiveAt, tile));
          const std::int32_t stop = at(kLbStop, tile);
          ASSERT_GE(stop, 0);
          ASSERT_LT(stop, tile);
          // The first poll reads every word of the first window; every window takes a poll at least.
          EXPECT_GE(at(kLbWords, tile), std::min(32, tile));
          EXPECT_GE(at(kLbPolls, tile), (tile - 1 - stop) / 32 + 1);
        }
      }
}

}  // namespace
