// The catalog-driven GPU test (GPU label: needs a CUDA device). For every row, over the configs the
// row's limits and options give (catalog_configs.h):
//   - deterministic rows: the CUDA trace equals the CPU reference's bit for bit (values of every
//     row, op slots, launch shapes, counters);
//   - the others (atomic order): the same steps, launch shapes and counters, and every value row's
//     final state as a multiset (atomics permute values inside a row; index rows such as owners and
//     tags name which lane won and may differ);
// and every timed form, over its types and the ends of the row's block limits, against a host
// reference of its primitive. A new row is covered with no edit here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/timed_run.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

TEST(CatalogTraced, CudaTraceMatchesCpuAtTheLimitsAndOptions) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  for (const Algorithm& a : algorithms()) {
    ASSERT_NE(a.run_cuda, nullptr) << a.name;
    for (const test::RowConfig& rc : test::configs_for(a)) {
      SCOPED_TRACE(rc.what);
      test::expect_backends_agree(a, rc.cfg, make_input(InputKind::Random, rc.cfg.n, rc.cfg.type, rc.cfg.seed));
    }
  }
}

TEST(CatalogTraced, CudaTraceMatchesCpuOverTheSweep) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  for (const Algorithm& a : algorithms()) {
    for (const test::SweepConfig& sc : test::sweep_for(a)) {
      SCOPED_TRACE(sc.rc.what);
      const StepConfig& c = sc.rc.cfg;
      auto in = make_input(sc.kind, c.n, c.type, c.seed);
      if (sc.full_range)
        for (auto& w : in) w = w * 0x9E3779B9u + c.seed;
      test::expect_backends_agree(a, c, in);
    }
  }
}

// [SECTION] Timed forms against host references of their primitive.
template <class T>
std::vector<T> host_input(std::int64_t n, bool small) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::uint32_t x = 12345;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = small ? T(x >> 28) : T(x);  // small: sums stay exact in float; else the whole range
  }
  return v;
}

template <class T>
void check_timed(const Algorithm& a, std::int64_t n, int block, test::WorkspaceHolder& ws) {
  SCOPED_TRACE(std::string(a.name) + " " + test::timed_type<T>() + " n=" + std::to_string(n) + " block=" +
               std::to_string(block));
  const std::string prim = a.timed.primitive;
  const bool hist = prim == "histogram_even";
  const auto h_in = host_input<T>(n, prim == "reduce_sum" || prim == "scan_exclusive");
  auto d_in = test::to_device(h_in);
  // A histogram writes 256 uint32 bins whatever its sample type; the others write n elements.
  const std::size_t out_words = hist ? 256 : (std::max<std::size_t>(std::size_t(n), 1) * sizeof(T) + 3) / 4;
  DeviceBuffer<std::uint32_t> d_out(out_words);
  DeviceBuffer<T> d_scalar(1);
  TimedArgs args;
  args.type = test::timed_type<T>();
  args.n = n;
  args.d_in = d_in.get();
  args.d_out = d_out.get();
  args.d_scalar = d_scalar.get();
  args.block = block;
  args.lower = 0;
  args.upper = sizeof(T) == 1 ? 256.0 : 4294967296.0;
  ASSERT_EQ(test::run_timed(a.name, args, ws), Status::Success);
  test::sync_ok();
  if (prim == "reduce_sum") {
    const T want = std::accumulate(h_in.begin(), h_in.end(), T(0));
    EXPECT_TRUE(test::same_value(test::to_host(d_scalar.get(), 1)[0], want));
  } else if (prim == "scan_exclusive") {
    std::vector<T> want(h_in.size());
    std::exclusive_scan(h_in.begin(), h_in.end(), want.begin(), T(0));
    EXPECT_EQ(test::first_mismatch(test::to_host(reinterpret_cast<T*>(d_out.get()), n), want), -1);
  } else if (hist) {
    std::vector<std::uint32_t> want(256, 0);
    for (T x : h_in) ++want[sizeof(T) == 1 ? std::uint32_t(x) : std::uint32_t(x) >> 24];
    EXPECT_EQ(test::first_mismatch(test::to_host(d_out.get(), 256), want), -1);
  } else {  // sorts
    std::vector<T> want = h_in;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(test::first_mismatch(test::to_host(reinterpret_cast<T*>(d_out.get()), n), want), -1);
  }
}

TEST(CatalogTimed, EveryTimedFormMatchesTheHostAtItsBlockLimits) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  test::WorkspaceHolder ws;
  for (const Algorithm& a : algorithms()) {
    if (!a.timed.primitive) continue;
    std::vector<int> blocks = {a.min_block, a.timed.default_block, a.max_block};
    if (!a.block_pow2 && a.min_block <= 3 && 3 <= a.max_block) blocks.push_back(3);
    for (const std::string& type : a.timed.types)
      for (int block : blocks)
        for (std::int64_t n : {0, 1, 31, 33, 1000, 1025, 4099, 65537, 300001}) {
          if (n > test::max_test_n() || (block < 32 && n > 65537)) continue;  // tiny blocks: slow to no purpose
          if (type == "i32") check_timed<std::int32_t>(a, n, block, ws);
          else if (type == "u32") check_timed<std::uint32_t>(a, n, block, ws);
          else if (type == "f32") check_timed<float>(a, n, block, ws);
          else if (type == "u8") check_timed<std::uint8_t>(a, n, block, ws);
          else ADD_FAILURE() << a.name << ": unknown timed type " << type;
        }
  }
}

}  // namespace
