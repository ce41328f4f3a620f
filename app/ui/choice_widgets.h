// The widgets that edit a StepChoice (algorithm, options, block size, input, preset), shared by the
// Step and Race tabs. Each returns true when it changed the choice.
#pragma once
#include <string>

#include "lab/catalog.h"
#include "model/step_choice.h"

namespace primlab::ui {

// The catalog's algorithms by family. A new algorithm drops options it does not take.
bool algorithm_combo(StepChoice& c);
// The algorithm's own options (exclusive/inclusive, element type, variant, digit bits, ...).
bool options(StepChoice& c, const Algorithm& a);
bool block_choice(StepChoice& c, const Algorithm& a);
// The input kind, n and seed, or a typed list.
bool input_controls(StepChoice& c);
// Loads a named example (assets/presets.json), listed by family with its description as a
// tooltip; the loaded one's name stays in the combo and its description under it while
// c.preset names it. A preset that does not resolve leaves the choice and sets `message`.
bool preset_combo(StepChoice& c, std::string& message);

}  // namespace primlab::ui
