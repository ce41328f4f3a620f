// The distributed sort's CUDA stepped form against its CPU reference (GPU label: needs a CUDA
// device): the same trace bit for bit (values of every row, op slots, launch shapes, counters,
// shared accesses, labels; the lines lit are the lines that ran) on 2 to 8 virtual GPUs, narrow
// and wide digits, int32 and uint32 keys, and inputs that take each path of the splitter search:
// cuts on a bucket edge, cuts refined by the next digit, runs of equal keys split by position,
// partition first on 4 GPUs turned to sort first by a cut its first round left open, fewer keys
// than GPUs, and shards of more than 1024 keys (a GPU's threads loop).
// The catalog-driven test (test_catalog_traced.cu) covers the row's limits and sweep as well.
#include <gtest/gtest.h>

#include <random>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"

using namespace primlab;

namespace {

struct Input {
  std::string what;
  std::vector<std::uint32_t> keys;
};

std::vector<Input> inputs() {
  std::vector<Input> v;
  for (std::int32_t n : {1, 3, 7, 48, 300, 1000, 2049, 4096})
    for (InputKind k : {InputKind::Random, InputKind::AllEqual, InputKind::FewDistinct, InputKind::Reversed})
      v.push_back({std::string(input_kind_name(k)) + " n=" + std::to_string(n), make_input(k, n, ElemType::U32, 11)});
  // 45 of 48 keys share the top digit 0 (the preset distributed-zipf): refined, then split by position.
  v.push_back({"zipf 48", {7, 3, 12, 1, 2, 0, 3, 66, 3, 1, 0, 3, 1, 3, 7, 0, 12, 2, 3, 7, 12, 12, 1, 5,
                           97, 1, 7, 3, 7, 12, 255, 5, 3, 3, 7, 3, 1, 3, 3, 3, 0, 3, 3, 3, 14, 3, 1, 1}});
  std::mt19937 rng(5);
  std::vector<std::uint32_t> zipf(2000), wide(3000);
  for (auto& k : zipf) k = std::uint32_t(1000.0 / (1 + rng() % 1000));  // heavy on 1, 2, 3, ...
  for (auto& k : wide) k = rng();  // the whole 32-bit range, int32 negatives included
  v.push_back({"zipf 2000", zipf});
  v.push_back({"full range 3000", wide});
  return v;
}

TEST(DistributedTraced, CudaTraceMatchesCpu) {
  ASSERT_TRUE(backend().cuda) << "no CUDA device: " << backend().reason;
  const Algorithm& a = *find_algorithm("distributed-sort");
  ASSERT_NE(a.run_cuda, nullptr);
  int refined = 0, turned = 0, compared = 0;
  constexpr int kBits[] = {2, 4, 8};
  const std::vector<Input> all = inputs();
  for (std::size_t k = 0; k < all.size(); ++k)
    for (int gpus = 2; gpus <= a.max_bins; ++gpus) {
      // Each input on every G, the digit width and key type rotating with G and the input.
      StepConfig cfg;
      cfg.n = std::int32_t(all[k].keys.size());
      cfg.bins = gpus;
      cfg.digit_bits = kBits[(std::size_t(gpus) + k) % 3];
      cfg.type = (std::size_t(gpus) + k) % 2 ? ElemType::I32 : ElemType::U32;
      SCOPED_TRACE(all[k].what + " G=" + std::to_string(gpus) + " digit bits=" + std::to_string(cfg.digit_bits) +
                   " " + elem_type_name(cfg.type));
      test::expect_backends_agree(a, cfg, all[k].keys);
      Trace t;
      ASSERT_TRUE(build_trace_cpu(a, cfg, all[k].keys, t).ok());
      int rounds = 0;
      for (const Step& s : t.steps) rounds += s.phase == "splitters";
      refined += rounds > 1;
      turned += t.title.find("partition first, then sort first") != std::string::npos;
      ++compared;
      if (::testing::Test::HasFailure()) return;  // the first config that differs says enough
    }
  EXPECT_GT(compared, 0);
  EXPECT_GT(refined, 0) << "no config took the refine path";
  EXPECT_GT(turned, 0) << "no config turned partition first to sort first";
}

}  // namespace
