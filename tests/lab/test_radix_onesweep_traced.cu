// radix-onesweep on the GPU (GPU label): the library's own kernels with the row's recording probe.
// Against the CPU reference: the same steps, launch shapes, counters and shared accesses, the same
// final keys, counts, ranks and prefixes, and every line that recorded an op lit by its step
// (test::expect_backends_agree). The race the GPU trace records must be one that gives the result:
// each look-back adds its predecessors' words nearest first, down to an inclusive prefix that was
// published before its own, and what it added is its tile's prefix.
#include <gtest/gtest.h>

#include <set>

#include "lab/algorithms/radix/onesweep/radix_onesweep.h"
#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"

using namespace primlab;
using namespace primlab::lab;

namespace {

struct Case {
  std::int32_t n, block, digits, start;
  ElemType type;
  bool descending;
  InputKind kind;
};

const Case kCases[] = {
    {160, 32, 16, 0, ElemType::U32, false, InputKind::Random},       // a few tiles
    {4096, 32, 32, 0, ElemType::I32, false, InputKind::Random},      // 64 tiles: long look-backs
    {4096, 64, 16, 2, ElemType::U32, true, InputKind::FewDistinct},  // two warps a tile, few digits
    {256, 64, 4, 0, ElemType::I32, false, InputKind::AllEqual},      // one digit: no match at all
    {1000, 32, 32, 27, ElemType::F32, false, InputKind::Random},     // the flip of floats
    {1000, 64, 8, 27, ElemType::F32, true, InputKind::Reversed},
    {37, 32, 2, 31, ElemType::I32, false, InputKind::Random},        // one partial tile, the sign bit
};

StepConfig config_of(const Case& c) {
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.bins = c.digits;
  cfg.digit_start = c.start;
  cfg.type = c.type;
  cfg.descending = c.descending;
  return cfg;
}

std::string what(const Case& c) {
  return "n=" + std::to_string(c.n) + " block=" + std::to_string(c.block) + " digits=" + std::to_string(c.digits) +
         " start=" + std::to_string(c.start) + " " + elem_type_name(c.type) + (c.descending ? " desc " : " ") +
         input_kind_name(c.kind);
}

TEST(RadixOnesweepTraced, AgreesWithTheCpuReference) {
  ASSERT_TRUE(backend().cuda) << backend().reason;
  for (const Case& c : kCases) {
    SCOPED_TRACE(what(c));
    StepConfig cfg = config_of(c);
    const auto in = make_input(c.kind, c.n, c.type, 11);
    cfg.input = &in;
    test::expect_backends_agree(*find_algorithm("radix-onesweep"), cfg, in);
    // The output is deterministic: equal word for word, not only as a multiset.
    Trace cpu, gpu;
    ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("radix-onesweep"), cfg, in, cpu)));
    ASSERT_TRUE(ok(build_trace_cuda(*find_algorithm("radix-onesweep"), cfg, in, gpu)));
    const std::size_t last = cpu.steps.size() - 1;
    for (int r : {int(kOsOut), int(kOsKey), int(kOsRank), int(kOsExchange), int(kOsValue), int(kOsBase)})
      for (std::int32_t i = 0; i < cpu.rows[std::size_t(r)].length; ++i)
        ASSERT_EQ(cpu.row(last, std::size_t(r))[i], gpu.row(last, std::size_t(r))[i])
            << cpu.rows[std::size_t(r)].name << " " << i;
  }
}

// Skewed keys: 3 of 4 on one digit, the rest on every digit of 16, so that the pass has a hot digit
// and warps of two blocks' widths rank it by ballot (the CPU reference's label counts those warps)
// beside peer masks; the GPU's trace, counters and shared accesses are the CPU reference's. (The
// all-equal and few-distinct cases above run the hot pass too, on its other paths.)
TEST(RadixOnesweepTraced, AHotDigitAgreesWithTheCpuReference) {
  ASSERT_TRUE(backend().cuda) << backend().reason;
  for (const std::int32_t block : {32, 64}) {
    SCOPED_TRACE("block " + std::to_string(block));
    const std::int32_t n = 1000;
    std::vector<std::uint32_t> in(std::size_t(n), 0);
    for (std::int32_t i = 0; i < n; ++i)
      in[std::size_t(i)] = (std::uint32_t(i) * 2654435761u >> 7) % 4 ? 9u : (std::uint32_t(i) * 40503u >> 5) % 16;
    StepConfig cfg = config_of({n, block, 16, 0, ElemType::U32, false, InputKind::Typed});
    cfg.input = &in;
    Trace cpu;
    ASSERT_TRUE(ok(build_trace_cpu(*find_algorithm("radix-onesweep"), cfg, in, cpu)));
    const std::string& label = cpu.steps[8].label;
    EXPECT_EQ(label.find(" 0 hot digit"), std::string::npos) << label;
    test::expect_backends_agree(*find_algorithm("radix-onesweep"), cfg, in);
  }
}

TEST(RadixOnesweepTraced, TheRecordedRaceGivesTheResult) {
  ASSERT_TRUE(backend().cuda) << backend().reason;
  for (const Case& c : kCases) {
    SCOPED_TRACE(what(c));
    StepConfig cfg = config_of(c);
    const auto in = make_input(c.kind, c.n, c.type, 11);
    cfg.input = &in;
    Trace t;
    ASSERT_TRUE(ok(build_trace_cuda(*find_algorithm("radix-onesweep"), cfg, in, t)));
    const OnesweepShape sh = onesweep_shape(c.n, c.block, c.digits, c.start);
    const std::size_t publish = 6, look = 9, last = t.steps.size() - 1;
    ASSERT_EQ(t.steps[publish].phase, "publish");
    ASSERT_EQ(t.steps[look].phase, "look-back");
    const std::int32_t words = sh.tiles * sh.slots();
    const std::uint32_t* count = t.row(publish, kOsValue);  // each tile's counts (tile 0: its prefix, the same)
    const std::uint32_t* first_event = t.row(publish, kOsEvent);
    const std::uint32_t* event = t.row(last, kOsEvent);
    const std::uint32_t* prefix = t.row(last, kOsValue);
    // Every publication has its own number.
    std::set<std::uint32_t> numbers(first_event, first_event + words);
    numbers.insert(event, event + words);
    EXPECT_EQ(numbers.size(), std::size_t(2 * words - sh.slots()));
    for (std::int32_t tile = 1; tile < sh.tiles; ++tile)
      for (std::int32_t d = 0; d < sh.slots(); ++d) {
        const std::int32_t i = sh.slot(tile, d);
        EXPECT_LT(first_event[i], event[i]) << "the aggregate before the inclusive prefix";
        const Step& st = t.steps[look];
        const Op* ops = t.ops.data() + st.op_begin + (std::int64_t(tile) * sh.block + d) * st.ops_per_thread;
        std::int32_t expect_src = tile - 1, stop = -1;
        std::uint32_t sum = 0;
        for (int k = kOsItems; k < kOsItems + sh.tiles - 1; ++k) {
          const OpKind kind = kind_of(ops[k].kind);
          if (kind != OpKind::Add) break;
          ASSERT_EQ(ops[k].src, sh.slot(expect_src, d)) << "tile " << tile << " digit " << d << ": nearest first";
          stop = expect_src--;
          sum += count[sh.slot(stop, d)];
        }
        ASSERT_GE(stop, 0) << "tile " << tile << " digit " << d << " added no word";
        // The last word added was an inclusive prefix: published before this tile's own.
        EXPECT_LT(event[sh.slot(stop, d)], event[i]) << "tile " << tile << " digit " << d << " stopped at " << stop;
        sum += prefix[sh.slot(stop, d)] - count[sh.slot(stop, d)];
        EXPECT_EQ(sum + count[i], prefix[i]) << "tile " << tile << " digit " << d;
      }
  }
}

}  // namespace
