// StepChoice: what the user picked for stepping (algorithm, config, input), shared by the window,
// `trace` and `render`; and the command-line options that set it. No GL here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/catalog.h"
#include "lab/model/input.h"

namespace CLI {
class App;
}

namespace primlab::ui {

struct StepChoice {
  std::string algo = "scan-blelloch";
  StepConfig cfg;
  InputKind input = InputKind::Random;
  std::uint32_t seed = 1;
  std::string typed = "3 1 7 0 4 1 6 3";
  bool prefer_cuda = true;
  std::string preset;  // the preset this choice was loaded from, until the user changes it ("": none)
};

// The input words for a choice, or a failure with a one-line message.
Result make_choice_input(const StepChoice& c, std::vector<std::uint32_t>& out);

// Command-line options for a StepChoice (raw strings, checked by resolve_step_options).
struct StepOptions {
  std::string preset;          // a named preset (assets/presets.json): replaces the options below
  std::string algo = "scan-blelloch";
  std::optional<std::string> input;  // a typed list; sets n (given but empty: an error)
  std::string n = "16";
  std::string dist = "random";
  std::string type = "int";
  std::string backend = "auto";  // auto, cpu, cuda
  std::uint32_t seed = 1;
  std::string block = "8";
  bool inclusive = false;
  bool no_offsets = false;
  int digit_bits = 4, bins = 16, predicate = 0, threshold = 0, variant = 0, digit_start = 0;
  bool bins_given = false;  // else the default bins are fitted to the algorithm (a distributed sort takes 2-8 GPUs)
  bool n_given = false;     // else a race picks its size (model/race_choice.h)
  bool block_given = false; // else the default block is fitted to the algorithm, and a race picks its block
  bool descending = false, key_value = false;
};

void add_step_options(CLI::App& app, StepOptions& o);
// Parses an image size "WIDTHxHEIGHT" within [min_w, 8192] x [min_h, 8192].
bool parse_size(const std::string& text, int min_w, int min_h, int& w, int& h);
// Checks the options and fills `out` (and whether CUDA is wanted); a one-line message on failure.
Result resolve_step_options(const StepOptions& o, StepChoice& out);

}  // namespace primlab::ui
