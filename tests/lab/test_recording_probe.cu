// The recording probe against the plans (GPU label): a stepped run of the algorithm's own kernels
// and host code fills the CPU reference's trace, notes the source lines that ran, and refuses to
// fill a trace whose plan disagrees with what the host code and the kernels did.
#include <gtest/gtest.h>

#include <string>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"
#include "lab/run/backend.h"
#include "lab/traced_check.h"
#include "primlab/device_buffer.h"

using namespace primlab;

namespace {

// Runs the row's stepped CUDA form on a trace planned by the row, then edited by `edit`.
template <class Edit>
Result run_edited(const char* algo, const StepConfig& cfg, Edit edit) {
  const Algorithm& a = *find_algorithm(algo);
  const std::vector<std::uint32_t> in = make_input(InputKind::Random, cfg.n, cfg.type, 5);
  Trace t;
  if (Result r = plan_trace(a, cfg, in, t); !r.ok()) return r;
  edit(t);
  t.allocate();
  DeviceBuffer<std::uint32_t> values(t.values.size());
  DeviceBuffer<Op> ops(std::max<std::size_t>(t.ops.size(), 1));
  return a.run_cuda(cfg, in, t, {values.get(), ops.get()});
}

}  // namespace

TEST(RecordingProbe, BlellochStepsItsOwnKernelsAndLightsTheLinesThatRan) {
  ASSERT_TRUE(backend().cuda) << backend().reason;
  const Algorithm& a = *find_algorithm("scan-blelloch");
  for (int n : {1, 8, 37, 1000})
    for (int block : {1, 8, 32, 256})
      for (bool inclusive : {false, true}) {
        StepConfig cfg;
        cfg.n = n;
        cfg.block = block;
        cfg.inclusive = inclusive;
        SCOPED_TRACE("n=" + std::to_string(n) + " block=" + std::to_string(block) + (inclusive ? " inclusive" : ""));
        test::expect_backends_agree(a, cfg, make_input(InputKind::Random, n, cfg.type, 9));
        Trace gpu;
        ASSERT_TRUE(ok(build_trace_cuda(a, cfg, make_input(InputKind::Random, n, cfg.type, 9), gpu)));
        for (std::size_t s = 1; s < gpu.steps.size(); ++s)
          EXPECT_FALSE(gpu.steps[s].source_lines.empty()) << "step " << s << " recorded no line";
      }
}

TEST(RecordingProbe, APlanWithAStepTooFewOrTooManyFails) {
  ASSERT_TRUE(backend().cuda) << backend().reason;
  StepConfig cfg;
  cfg.n = 16;
  cfg.block = 4;
  // One launch less in the plan than the host code makes.
  const Result fewer = run_edited("scan-blelloch", cfg, [](Trace& t) { t.steps.pop_back(); });
  ASSERT_FALSE(fewer.ok());
  EXPECT_NE(fewer.message().find("launch"), std::string::npos) << fewer.message();
  // A launch planned as a barrier inside the launch before it.
  const Result barrier = run_edited("scan-blelloch", cfg, [](Trace& t) { t.steps[2].barrier = true; });
  ASSERT_FALSE(barrier.ok());
  // A step planned with another block size than the host code launches.
  const Result shape = run_edited("scan-blelloch", cfg, [](Trace& t) {
    t.steps[2].launch.threads *= 2;
  });
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.message().find("grid or block"), std::string::npos) << shape.message();
}
