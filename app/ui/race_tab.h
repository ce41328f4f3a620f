// The Race tab: two variants stepping in lockstep on one input, each in its own pane, under one
// transport, with their counters side by side.
#pragma once
#include <cstdint>
#include <string>

#include "model/transport.h"
#include "ui/step_pane.h"
#include "ui/widgets.h"

namespace primlab::ui {

struct RaceState {
  StepPane a, b;
  Transport transport;  // the shared step; each side stops at its own last step
  bool started = false;
};

// Starts a race of two algorithms (catalog names) on a's input. False with the reason in a's or
// b's message when either cannot run.
bool start_race(RaceState& r, const std::string& algo_a, const std::string& algo_b);
// Elements of a race whose input the user did not size (the tab's first pair, --race without --n).
inline constexpr std::int32_t kRaceDefaultN = 32;
// Why start_race() failed: a's message, else b's.
const std::string& race_error(const RaceState& r);
// The last step of the longer side.
int race_last_step(const RaceState& r);
// Shows the shared step on both sides (each clamps to its own last step).
void sync_race(RaceState& r);
void draw_race_tab(RaceState& r, ViewPrograms& programs);

}  // namespace primlab::ui
