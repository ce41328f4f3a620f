// radix-onesweep on the CPU reference: one digit pass of the library's Onesweep sort orders the keys
// stably by the digit of their radix image (int32, uint32, float; ascending and descending; every
// digit width and start; blocks of 32 and 64); its rows hold what the kernels leave (the digit
// counts, the tiles' look-back words and digit bases, the ranks); the plan follows the host code
// (two launches, the kernels' barriers); the fixed order's look-back adds the left neighbour's
// inclusive prefix; the four ranking paths; bad configs are refused with a message.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "lab/algorithms/radix/onesweep/radix_onesweep.h"
#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;
using namespace primlab::lab;

namespace {

const Algorithm& row() { return *find_algorithm("radix-onesweep"); }

StepConfig config(std::int32_t n, std::int32_t block, std::int32_t digits, std::int32_t start, ElemType type,
                  bool descending) {
  StepConfig cfg;
  cfg.n = n;
  cfg.block = block;
  cfg.bins = digits;
  cfg.digit_start = start;
  cfg.type = type;
  cfg.descending = descending;
  return cfg;
}

Trace build(StepConfig cfg, const std::vector<std::uint32_t>& in) {
  cfg.input = &in;
  Trace t;
  const Result r = build_trace_cpu(row(), cfg, in, t);
  EXPECT_TRUE(ok(r));
  return t;
}

std::vector<std::uint32_t> final_row(const Trace& t, int r, std::int32_t length) {
  const std::uint32_t* p = t.row(t.steps.size() - 1, std::size_t(r));
  return std::vector<std::uint32_t>(p, p + length);
}

// The pass's result computed on the host: the keys stably ordered by the digit of their flipped bits.
std::vector<std::uint32_t> by_digit(const std::vector<std::uint32_t>& in, const OnesweepShape& sh, const OsCodec& c) {
  std::vector<std::uint32_t> out = in;
  std::stable_sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
    return sh.digit(os_flip(a, c.enc0, c.enc1)) < sh.digit(os_flip(b, c.enc0, c.enc1));
  });
  return out;
}

TEST(RadixOnesweep, OnePassOrdersTheKeysStablyByTheirDigit) {
  int runs = 0;
  for (std::int32_t n : {1, 2, 31, 63, 64, 65, 127, 128, 129, 300, 1000, 2049, 4095, 4096})
    for (std::int32_t block : {32, 64})
      for (ElemType type : {ElemType::I32, ElemType::U32, ElemType::F32})
        for (std::int32_t digits : {2, 16, 32}) {
          const bool desc = (n + digits) % 3 == 0;
          const std::int32_t start = type == ElemType::F32 ? 32 - 5 : n % 4;
          const StepConfig cfg = config(n, block, digits, start, type, desc);
          auto in = make_input(InputKind(runs % 5), n, type, std::uint32_t(n + block));
          if (type != ElemType::F32)
            for (auto& w : in) w = w * 0x9E3779B9u + std::uint32_t(runs);  // the whole 32-bit range
          SCOPED_TRACE("n=" + std::to_string(n) + " block=" + std::to_string(block) + " digits=" +
                       std::to_string(digits) + " type=" + elem_type_name(type) + " desc=" + std::to_string(desc));
          const Trace t = build(cfg, in);
          const OnesweepShape sh = onesweep_shape(n, block, digits, start);
          ASSERT_EQ(final_row(t, kOsOut, n), by_digit(in, sh, os_codec(type, desc)));
          ++runs;
        }
  EXPECT_GT(runs, 200);
}

TEST(RadixOnesweep, RowsHoldWhatTheKernelsLeave) {
  const std::int32_t n = 300, block = 64, digits = 16;
  const StepConfig cfg = config(n, block, digits, 0, ElemType::U32, false);
  const auto in = make_input(InputKind::Random, n, ElemType::U32, 5);
  const Trace t = build(cfg, in);
  const OnesweepShape sh = onesweep_shape(n, block, digits, 0);
  ASSERT_EQ(sh.tiles, 3);
  // The histogram: the digits of all keys, in hist and in the one histogram block's s_hist.
  std::vector<std::uint32_t> hist(std::size_t(sh.slots()), 0u);
  for (std::uint32_t k : in) ++hist[sh.digit(k)];
  EXPECT_EQ(final_row(t, kOsHist, sh.slots()), hist);
  EXPECT_EQ(final_row(t, kOsSHist, sh.slots()), hist);
  // Per tile and digit slot: the count (the last tile's padding has the largest digit), and the
  // inclusive prefix every look-back word ends with.
  std::vector<std::uint32_t> count(std::size_t(sh.tiles * sh.slots()), 0u);
  for (std::int32_t i = 0; i < sh.width(); ++i)
    ++count[std::size_t(sh.slot(i / sh.tile, std::int32_t(i < n ? sh.digit(in[std::size_t(i)]) : sh.mask)))];
  const auto flag = final_row(t, kOsFlag, sh.tiles * sh.slots());
  const auto value = final_row(t, kOsValue, sh.tiles * sh.slots());
  const auto base = final_row(t, kOsBase, sh.tiles * sh.slots());
  for (std::int32_t d = 0; d < sh.slots(); ++d) {
    std::uint32_t before = 0, glob = 0;
    for (std::int32_t e = 0; e < d; ++e) glob += hist[std::size_t(e)];
    for (std::int32_t tile = 0; tile < sh.tiles; ++tile) {
      const std::size_t i = std::size_t(sh.slot(tile, d));
      std::uint32_t tile_start = 0;
      for (std::int32_t e = 0; e < d; ++e) tile_start += count[std::size_t(sh.slot(tile, e))];
      EXPECT_EQ(flag[i], 2u) << "tile " << tile << " digit " << d;
      EXPECT_EQ(value[i], before + count[i]) << "tile " << tile << " digit " << d;
      EXPECT_EQ(base[i], glob + before - tile_start) << "tile " << tile << " digit " << d;
      before += count[i];
    }
  }
  // Every key's rank is its place in its tile's digit order, where s_keys holds it.
  const auto rank = final_row(t, kOsRank, sh.width());
  const auto keys = final_row(t, kOsKey, sh.width());
  const auto exchange = final_row(t, kOsExchange, sh.width());
  for (std::int32_t i = 0; i < sh.width(); ++i) {
    ASSERT_LT(rank[std::size_t(i)], std::uint32_t(sh.tile));
    const std::int32_t to = (i / sh.tile) * sh.tile + std::int32_t(rank[std::size_t(i)]);
    EXPECT_EQ(exchange[std::size_t(to)], keys[std::size_t(i)]);
  }
  for (std::int32_t tile = 0; tile < sh.tiles; ++tile)
    for (std::int32_t j = 1; j < sh.tile; ++j)
      EXPECT_LE(sh.digit(exchange[std::size_t(tile * sh.tile + j - 1)]),
                sh.digit(exchange[std::size_t(tile * sh.tile + j)]));
}

TEST(RadixOnesweep, StepsFollowTheHostCodeAndTheKernelsBarriers) {
  const Trace t =
      build(config(1000, 32, 16, 0, ElemType::I32, false), make_input(InputKind::Random, 1000, ElemType::I32, 1));
  const std::vector<std::string> phases = {"input", "hist clear", "hist count", "hist merge", "clear", "load",
                                           "publish", "starts", "rank", "look-back", "scatter"};
  ASSERT_EQ(t.steps.size(), phases.size());
  int launches = 0;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    EXPECT_EQ(t.steps[s].phase, phases[s]);
    launches += int(t.steps[s].counters.launches);
  }
  EXPECT_EQ(launches, 2);
  EXPECT_FALSE(t.steps[1].barrier);
  EXPECT_FALSE(t.steps[4].barrier);
  for (std::size_t s : {2u, 3u, 5u, 6u, 7u, 8u, 9u, 10u}) EXPECT_TRUE(t.steps[s].barrier) << s;
  EXPECT_EQ(t.steps[1].launch.blocks, 1);
  EXPECT_EQ(t.steps[1].launch.threads, kOsHistThreads);
  EXPECT_EQ(t.steps[4].launch.blocks, 16);  // 1000 keys in tiles of 64
  EXPECT_EQ(t.steps[4].launch.threads, 32);
  // Past 2048 keys the dispatch's formula gives the histogram a second block.
  const Trace big =
      build(config(3000, 64, 16, 0, ElemType::I32, false), make_input(InputKind::Random, 3000, ElemType::I32, 1));
  EXPECT_EQ(big.steps[1].launch.blocks, 2);
  EXPECT_EQ(big.steps[4].launch.blocks, 24);
}

TEST(RadixOnesweep, CountersOfTheHistogramAndTheScatter) {
  const std::int32_t n = 1000;
  const Trace t = build(config(n, 32, 16, 0, ElemType::U32, false), make_input(InputKind::Random, n, ElemType::U32, 2));
  EXPECT_EQ(t.steps[2].counters.atomics, n);                // a shared atomicAdd a key
  EXPECT_EQ(t.steps[2].counters.global_read_bytes, 4 * n);  // 16-byte loads, then the tail
  EXPECT_EQ(t.steps[5].counters.global_read_bytes, 4 * n);  // the pass loads the real keys
  EXPECT_EQ(t.steps[10].counters.global_write_bytes, 4 * n);
  // Thread d of every tile reads hist[d] as the pass starts, publishes its aggregate (tile 0: its
  // inclusive prefix) once the tile is counted, and the tiles after the first publish their
  // inclusive prefixes in the look-back.
  EXPECT_EQ(t.steps[4].counters.global_read_bytes, 4 * 16 * 32);
  EXPECT_EQ(t.steps[6].counters.global_write_bytes, 4 * 16 * 32);
  EXPECT_EQ(t.steps[6].counters.global_read_bytes, 0);
  EXPECT_EQ(t.steps[9].counters.global_write_bytes, 4 * 15 * 32);
  for (std::size_t s = 1; s < t.steps.size(); ++s) EXPECT_GE(t.steps[s].counters.bank_conflict, 1) << s;
}

TEST(RadixOnesweep, FixedOrderLookBackAddsTheLeftNeighboursInclusivePrefix) {
  const std::int32_t n = 640, block = 32;  // 10 tiles
  const Trace t =
      build(config(n, block, 16, 0, ElemType::I32, false), make_input(InputKind::Random, n, ElemType::I32, 3));
  const OnesweepShape sh = onesweep_shape(n, block, 16, 0);
  const Step& look = t.steps[9];
  ASSERT_EQ(look.phase, "look-back");
  for (std::int32_t tile = 0; tile < sh.tiles; ++tile)
    for (std::int32_t d = 0; d < sh.slots(); ++d) {
      const std::int64_t thread = std::int64_t(tile) * block + d;
      const Op* ops = t.ops.data() + look.op_begin + thread * look.ops_per_thread;
      if (tile == 0) {
        EXPECT_EQ(kind_of(ops[kOsItems].kind), OpKind::None);
        continue;
      }
      // One add (the neighbour's inclusive prefix), then the rest of the window read past it.
      EXPECT_EQ(kind_of(ops[kOsItems].kind), OpKind::Add);
      EXPECT_EQ(ops[kOsItems].src, sh.slot(tile - 1, d));
      EXPECT_EQ(ops[kOsItems].dst, sh.slot(tile, d));
      for (int w = 1; w < kOsWindow; ++w) {
        const Op& o = ops[kOsItems + w];
        if (w < tile) {
          EXPECT_EQ(kind_of(o.kind), OpKind::Read);
          EXPECT_EQ(o.src, sh.slot(tile - 1 - w, d));
        } else {
          EXPECT_EQ(kind_of(o.kind), OpKind::None);
        }
      }
    }
  // The fixed order's event numbers: every aggregate (tile 0: its inclusive prefix) in tile order,
  // then the inclusive prefixes of tiles 1.. in tile order.
  const std::uint32_t* published = t.row(6, kOsEvent);
  const auto last = final_row(t, kOsEvent, sh.tiles * sh.slots());
  for (std::int32_t i = 0; i < sh.tiles * sh.slots(); ++i) {
    EXPECT_EQ(published[i], std::uint32_t(i));
    const std::int32_t inclusive_at = i < sh.slots() ? i : sh.tiles * sh.slots() - sh.slots() + i;
    EXPECT_EQ(last[std::size_t(i)], std::uint32_t(inclusive_at));
  }
  EXPECT_EQ(t.row(6, kOsFlag)[sh.slot(1, 0)], 1u);  // an aggregate after the publish step
  EXPECT_EQ(t.row(6, kOsFlag)[sh.slot(0, 0)], 2u);
  EXPECT_EQ(t.row(0, kOsEvent)[0], 0xffffffffu);    // not yet published
}

// The warps' ranking paths: all-equal keys (one digit: no atomics a key), few digits
// (__match_any_sync, one atomic a group), a pass's hot digit, which a quarter of the keys or more
// hold (its lanes by ballot, one atomic for them), any other (peer masks in shared memory).
TEST(RadixOnesweep, TheFourRankingPaths) {
  const std::int32_t n = 64;
  auto count_atomics = [&](const std::vector<std::uint32_t>& in) {
    const Trace t = build(config(n, 32, 16, 0, ElemType::U32, false), in);
    EXPECT_EQ(final_row(t, kOsOut, n), by_digit(in, onesweep_shape(n, 32, 16, 0), os_codec(ElemType::U32, false)));
    return std::make_pair(t.steps[5].counters.atomics, t.steps[8].counters.atomics);
  };
  const std::vector<std::uint32_t> equal(n, 7u);
  EXPECT_EQ(count_atomics(equal), std::make_pair(std::int64_t(1), std::int64_t(0)));
  std::vector<std::uint32_t> few(n);
  for (std::int32_t i = 0; i < n; ++i) few[std::size_t(i)] = std::uint32_t(i % 3);  // 3 digits a warp
  EXPECT_EQ(count_atomics(few), std::make_pair(std::int64_t(6), std::int64_t(6)));
  std::vector<std::uint32_t> many(n);
  for (std::int32_t i = 0; i < n; ++i) many[std::size_t(i)] = std::uint32_t(i % 8);  // 8 digits a warp
  // Counting: an atomic a key; ranking: 32 ORs and a group's add for each of the 2 items.
  EXPECT_EQ(count_atomics(many), std::make_pair(std::int64_t(64), std::int64_t(2 * (32 + 8))));
  // Digit 3 on 24 lanes of every item, lanes 0, 4, ..., 28 on digits 8..15, one each.
  std::vector<std::uint32_t> skewed(n);
  for (std::int32_t i = 0; i < n; ++i) skewed[std::size_t(i)] = i % 4 ? 3u : 8u + std::uint32_t(i / 4 % 8);
  // Counting: the hot lanes' leader and the 8 others, each item; ranking: 8 ORs and 9 groups' adds.
  EXPECT_EQ(count_atomics(skewed), std::make_pair(std::int64_t(2 * 9), std::int64_t(2 * (8 + 9))));
  // The label names the paths the warps took.
  std::vector<std::uint32_t> in = equal;
  const Trace t = build(config(n, 32, 16, 0, ElemType::U32, false), in);
  EXPECT_NE(t.steps[5].label.find("1 one digit, 0 few digits, 0 hot digit, 0 peer masks"), std::string::npos)
      << t.steps[5].label;
  const Trace th = build(config(n, 32, 16, 0, ElemType::U32, false), skewed);
  EXPECT_NE(th.steps[8].label.find("0 one digit, 0 few digits, 1 hot digit, 0 peer masks"), std::string::npos)
      << th.steps[8].label;
  EXPECT_NE(th.steps[5].explain.find("This pass's hot digit is 3."), std::string::npos) << th.steps[5].explain;
  // 8 digits of 16, each an eighth of the keys: no hot digit.
  EXPECT_NE(build(config(n, 32, 16, 0, ElemType::U32, false), many).steps[5].explain.find("no hot digit"),
            std::string::npos);
  // The peers row: the hot digit's lanes' ballot (every lane but 0, 4, ..., 28); the others have none.
  EXPECT_EQ(final_row(th, kOsPeers, n)[1], 0xeeeeeeeeu);
  // The peers row: the match of a few-digit warp.
  const Trace tf = build(config(n, 32, 16, 0, ElemType::U32, false), few);
  EXPECT_EQ(final_row(tf, kOsPeers, n)[0], 0x49249249u);  // lanes 0, 3, 6, ... hold digit 0
}

TEST(RadixOnesweep, FloatKeysShowTheFlip) {
  std::vector<std::uint32_t> in;
  ASSERT_TRUE(parse_input_list("1.5 -2 0 -0.0 inf -inf nan 3.25 -1e30 1e30", ElemType::F32, in).ok());
  for (bool desc : {false, true}) {
    const std::int32_t n = std::int32_t(in.size());
    const StepConfig cfg = config(n, 32, 32, 27, ElemType::F32, desc);
    const Trace t = build(cfg, in);
    const OsCodec c = os_codec(ElemType::F32, desc);
    const auto k = final_row(t, kOsKey, n);
    for (std::int32_t i = 0; i < n; ++i) {
      const std::uint32_t x = in[std::size_t(i)];
      const std::uint32_t flipped = x & 0x80000000u ? ~x : x | 0x80000000u;
      EXPECT_EQ(k[std::size_t(i)], desc ? ~flipped : flipped) << i;
      EXPECT_EQ(os_flip(k[std::size_t(i)], c.dec0, c.dec1), in[std::size_t(i)]) << "the store unflips " << i;
    }
    EXPECT_EQ(final_row(t, kOsOut, n), by_digit(in, onesweep_shape(n, 32, 32, 27), c));
  }
}

TEST(RadixOnesweep, BadConfigsAreRefusedWithAMessage) {
  const std::vector<std::uint32_t> in(16, 1u);
  auto refused = [&](StepConfig cfg, const char* why) {
    Trace t;
    const Result r = build_trace_cpu(row(), cfg, in, t);
    EXPECT_FALSE(r.ok()) << why;
    EXPECT_FALSE(r.message().empty()) << why;
    EXPECT_EQ(r.message().find('\n'), std::string::npos) << why;
  };
  StepConfig cfg = config(16, 32, 16, 0, ElemType::I32, false);
  ASSERT_TRUE(ok(validate(row(), cfg)));
  StepConfig c = cfg;
  c.digit_start = 29;  // bits 29..32: past the key
  refused(c, "a digit past bit 31");
  c.digit_start = -1;
  refused(c, "a negative start");
  c = cfg;
  c.bins = 64;
  refused(c, "more digits than a block of 32 threads owns");
  c.bins = 12;
  refused(c, "digits not a power of two");
  c = cfg;
  c.block = 128;
  refused(c, "a block the row does not step");
}

}  // namespace
