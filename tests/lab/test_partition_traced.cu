// Radix partitions on the GPU against the CPU reference and the host (GPU label: needs a CUDA
// device). partition-stable is deterministic: the CUDA trace equals the CPU trace bit for bit and its
// output equals std::stable_sort by digit. partition-atomic is not: its histogram, offsets, cursors
// and counters equal the CPU's, every partition holds the host's multiset, and only the order inside
// a partition (the output row, the reorder's op slots and the owners) may differ.
#include <gtest/gtest.h>

#include <algorithm>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/run/backend.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

using namespace primlab;

namespace {

struct Case {
  std::string algo;
  int n, block, parts, start;
  ElemType type;
  InputKind kind;
  std::uint32_t seed;
};

std::string name_of(const ::testing::TestParamInfo<Case>& i) {
  const Case& c = i.param;
  std::string s = c.algo + "_n" + std::to_string(c.n) + "_b" + std::to_string(c.block) + "_p" +
                  std::to_string(c.parts) + "_at" + std::to_string(c.start) +
                  (c.type == ElemType::U32 ? "_u32" : "_i32") + "_k" + std::to_string(int(c.kind)) + "_s" +
                  std::to_string(c.seed);
  for (char& ch : s)
    if (!isalnum((unsigned char)ch)) ch = '_';
  return s;
}

int row_index(const Trace& t, const std::string& prefix) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].name.rfind(prefix, 0) == 0) return int(r);
  return -1;
}

std::vector<std::uint32_t> final_row(const Trace& t, int r) {
  const std::uint32_t* p = t.row(t.steps.size() - 1, std::size_t(r));
  return {p, p + t.rows[std::size_t(r)].length};
}

void blank_row(Trace& t, int r) {
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    std::fill(t.row(s, std::size_t(r)), t.row(s, std::size_t(r)) + t.width, 0u);
}

class PartitionTraced : public ::testing::TestWithParam<Case> {};

TEST_P(PartitionTraced, MatchesCpuAndHost) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Case c = GetParam();
  const Algorithm* a = find_algorithm(c.algo);
  ASSERT_NE(a, nullptr);
  StepConfig cfg;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.bins = c.parts;
  cfg.digit_start = c.start;
  cfg.type = c.type;
  cfg.seed = c.seed;
  auto in = make_input(c.kind, c.n, c.type, c.seed);
  if (c.seed % 2) {
    for (auto& w : in) w = w * 0x9E3779B9u + c.seed;  // the whole 32-bit range
  }
  const std::uint32_t mask = std::uint32_t(c.parts - 1);
  auto digit = [&](std::uint32_t k) { return (k >> c.start) & mask; };
  std::vector<std::uint32_t> want = in;
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t x, std::uint32_t y) { return digit(x) < digit(y); });

  Trace cpu, gpu;
  ASSERT_TRUE(ok(build_trace_cpu(*a, cfg, in, cpu)));
  ASSERT_TRUE(ok(build_trace_cuda(*a, cfg, in, gpu)));
  const int out = row_index(gpu, "output");
  ASSERT_GE(out, 0);
  if (a->deterministic) {
    EXPECT_EQ(final_row(gpu, out), want);
    EXPECT_TRUE(ok(compare_traces(cpu, gpu)));
    return;
  }
  // Same multiset in every partition, at the host's offsets.
  const auto offs = final_row(gpu, row_index(gpu, "partition offsets"));
  auto got = final_row(gpu, out);
  for (int d = 0; d < c.parts; ++d) {
    const std::size_t lo = offs[std::size_t(d)], hi = d + 1 < c.parts ? offs[std::size_t(d + 1)] : std::size_t(c.n);
    ASSERT_LE(lo, hi);
    ASSERT_LE(hi, std::size_t(c.n));
    std::sort(got.begin() + lo, got.begin() + hi);
    std::sort(want.begin() + lo, want.begin() + hi);
  }
  EXPECT_EQ(got, want);
  // Everything else equals the CPU trace: blank the order-dependent rows and skip the op slots.
  for (Trace* t : {&cpu, &gpu}) {
    blank_row(*t, out);
    blank_row(*t, kRowOwner);
  }
  EXPECT_TRUE(ok(compare_traces(cpu, gpu, false)));
}

std::vector<Case> cases() {
  std::vector<Case> v;
  const InputKind kinds[] = {InputKind::Random, InputKind::AllEqual, InputKind::Sorted, InputKind::FewDistinct,
                             InputKind::Reversed};
  std::uint32_t seed = 1;
  for (const char* algo : test::family("partition"))
    for (int n : {1, 2, 31, 32, 33, 100, 256, 1000, 1024, 4095, 4096})
      for (int block : {1, 7, 32, 64, 96, 256, 1024})
        for (int parts : {2, 16, 256, 4096}) {
          if (block == 1 && n > 256) continue;
          ++seed;
          const int bits = __builtin_ctz(unsigned(parts));
          const int start = (seed % 4 == 0) ? 32 - bits : int(seed % 5);
          v.push_back({algo, n, block, parts, std::min(start, 32 - bits), seed % 3 == 0 ? ElemType::U32 : ElemType::I32,
                       kinds[seed % 5], seed});
        }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Partitions, PartitionTraced, ::testing::ValuesIn(cases()), name_of);

}  // namespace
