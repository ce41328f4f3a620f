// The Race's choices as plain data: the whole traces' figures side by side with those that differ
// (by more than 10 %, counters_differ), and the size and block a race opens at when the user left
// them unset: the smallest where the two variants differ, found by running both rows of the
// catalog on the CPU, so that a race shows its lesson whatever the rows' kernels count.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/trace.h"
#include "model/step_choice.h"

namespace primlab::ui {

// One figure of a whole trace for both sides: "divergent warps" 24 vs 96.
struct RaceFigure {
  const char* name;
  long long a, b;
  bool differs;  // more than 10 % apart
};
// Work (adds + atomics), depth (steps), launches, then every counter of the counters table, over
// the whole traces.
std::vector<RaceFigure> race_figures(const Trace& a, const Trace& b);
bool any_differs(const std::vector<RaceFigure>& figures);

// What the command line fixed of a race's start: the size (--n, --input or a preset's) and the
// block (--block or a preset's). The rest is the race's to pick.
struct RaceFixed {
  bool n = false, block = false;
};
RaceFixed race_fixed_by(const StepOptions& given);

// The sizes a race tries, smallest first, and the smallest block it tries (a smaller one is
// tried only where a row takes no larger).
inline constexpr std::int32_t kRaceSizes[] = {32, 64, 128, 256, 512, 1024};
inline constexpr std::int32_t kRaceMinBlock = 8;

// Sets a.cfg.n and the blocks of both sides (the same block) to the smallest size, then block, of
// kRaceSizes and the powers of two from kRaceMinBlock where both rows run and their whole traces'
// figures differ; what `fixed` says stays. False, with the choices untouched, when none differs.
bool pick_race_size(StepChoice& a, StepChoice& b, RaceFixed fixed);

}  // namespace primlab::ui
