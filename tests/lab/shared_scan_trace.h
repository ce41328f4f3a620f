// The CPU trace of the preset shared-scan-bank-conflicts (n=1024, blocks of 512, random input of
// seed 1), with or without the GPU Gems 3 offsets: the shared-memory tests work their facts out on it.
#pragma once
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/result_check.h"

namespace test {

inline primlab::Trace shared_scan_trace(bool offsets) {
  primlab::StepConfig c;
  c.n = 1024;
  c.block = 512;
  c.conflict_offsets = offsets;
  primlab::Trace t;
  EXPECT_TRUE(ok(build_trace_cpu(*primlab::find_algorithm("scan-shared"), c,
                                 primlab::make_input(primlab::InputKind::Random, c.n, c.type, 1), t)));
  return t;
}

}  // namespace test
