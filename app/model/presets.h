// Presets: named example inputs and settings (assets/presets.json, embedded at build time),
// loadable by name in the app and with --preset in the command-line tools.
#pragma once
#include <string>
#include <vector>

#include "model/step_choice.h"

namespace primlab::ui {

struct Preset {
  std::string name, description;
  StepOptions options;
};

// The presets, parsed once. A malformed file is a programmer error: it fails the CPU tests.
const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);
// Parses a presets JSON text; a failure with a message on malformed input.
Result parse_presets(const std::string& text, std::vector<Preset>& out);

}  // namespace primlab::ui
