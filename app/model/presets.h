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

// The presets of one family of the catalog ("scan", "reduce", ...).
struct PresetGroup {
  std::string family;
  std::vector<const Preset*> presets;
};
// Every preset once, grouped by its algorithm's family, the families in the catalog's order and
// the presets of a family in the file's order (the preset menu).
std::vector<PresetGroup> presets_by_family();
// Parses a presets JSON text; a failure with a message on malformed input.
Result parse_presets(const std::string& text, std::vector<Preset>& out);

}  // namespace primlab::ui
