// The Race tab: two variants stepping in lockstep on one input, each in its own pane, under one
// transport, with their counters side by side.
#pragma once
#include <cstdint>
#include <string>

#include "model/race_choice.h"
#include "model/transport.h"
#include "ui/step_pane.h"
#include "ui/widgets.h"

namespace primlab::ui {

struct RaceState {
  StepPane a, b;
  Transport transport;  // the shared step; each side stops at its own last step
  bool started = false;
};

// Starts a race of two algorithms (catalog names) on a's input; each side keeps its own block.
// With `pick` (the tab's first race, its pairs' buttons, --race), the size and block that `pick`
// leaves free are the smallest where the two differ (pick_race_size; both sides then take that
// block), else n is kRaceDefaultN. False with the reason in a's or b's message when either
// cannot run.
bool start_race(RaceState& r, const std::string& algo_a, const std::string& algo_b, const RaceFixed* pick = nullptr);
// --race A,B: both sides take the command line's choice (its input, options and block: --block
// sets both sides), and what it leaves unset is picked as above.
bool start_race_from(RaceState& r, const StepChoice& choice, const StepOptions& given, const std::string& algo_a,
                     const std::string& algo_b);
// Elements of a race where no size makes the two differ.
inline constexpr std::int32_t kRaceDefaultN = 32;
// Why start_race() failed: a's message, else b's.
const std::string& race_error(const RaceState& r);
// The last step of the longer side.
int race_last_step(const RaceState& r);
// Shows the shared step on both sides (each clamps to its own last step).
void sync_race(RaceState& r);
void draw_race_tab(RaceState& r, ViewPrograms& programs);

}  // namespace primlab::ui
