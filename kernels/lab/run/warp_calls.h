// The warp-wide calls of a stepped CUDA run (probe.branch, probe.shared_access) as the lanes record
// them, and how StepRun::finish puts them together into the warp's calls that the CPU reference
// counts (lab/run/cpu_run.h). Host code: CPU builds compile and test it too.
#pragma once
#include <cstdint>
#include <vector>

#include "lab/model/trace.h"

namespace primlab::stepped {

// A lane's record of a warp-wide call: its step, its warp (in the launch), the call (source line
// x 2 + LaneCall), and the lane | value << 5 (the branch's path, or the access's word address, -1
// where the lane takes part and accesses nothing).
constexpr int kLaneWords = 4;
enum LaneCall : int { kBranchCall = 0, kAccessCall = 1 };

// Puts the lanes' records together into warp calls and counts them into the trace's steps as the CPU
// reference does: one warp call is the lanes of one warp that made the call on one line for the k-th
// time in a step (a lane's records are in its program order). A branch whose lanes differ is a
// divergent warp; an access adds its lanes to the shared accesses, its bank-conflict degree to the
// step's worst, and its addresses to the step's accesses.
void fold_warp_calls(const std::vector<std::int32_t>& records, Trace& t);

}  // namespace primlab::stepped
