// primlab_fuzz_load: reads one file with one of the app's loaders, as the fuzz test's target for
// loaders that no command reads from a path.
//   primlab_fuzz_load presets FILE   - parse_presets, then every preset through the CLI's checks
//                                      and, when they pass, a CPU trace
//   primlab_fuzz_load results FILE   - the bench results / baseline format
// Exit 0 when the file loads, else one line on stderr and exit 2.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/command_line.h"
#include "model/presets.h"
#include "engine/results.h"
#include "lab/catalog.h"

namespace {

bool load_presets(const std::string& text, std::string& error) {
  using namespace primlab;
  std::vector<ui::Preset> presets;
  if (!ui::parse_presets(text, presets, error)) return false;
  for (const ui::Preset& p : presets) {
    ui::StepChoice c;
    if (!ui::resolve_step_options(p.options, c, error)) {
      error = "preset '" + p.name + "': " + error;
      return false;
    }
    std::vector<std::uint32_t> in;
    Trace t;
    if (ui::make_choice_input(c, in, error)) error = build_trace_cpu(*find_algorithm(c.algo), c.cfg, in, t).message();
    if (!error.empty()) {
      error = "preset '" + p.name + "': " + error;
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using primlab::ui::fail;
  if (argc != 3) return fail("primlab_fuzz_load", "usage: primlab_fuzz_load presets|results FILE");
  const std::string kind = argv[1], path = argv[2];
  std::ifstream f(path, std::ios::binary);
  if (!f) return fail("primlab_fuzz_load", "cannot open '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();  // a read error (a folder) leaves the text empty, as in the app's loaders
  const std::string text = ss.str();
  std::string error;
  primlab::bench::Results results;
  if (kind == "presets") {
    if (!load_presets(text, error)) return fail("primlab_fuzz_load", error);
  } else if (kind == "results") {
    if (!primlab::bench::parse_json(text, &results, &error)) return fail("primlab_fuzz_load", error);
  } else {
    return fail("primlab_fuzz_load", "unknown loader '" + kind + "'");
  }
  return 0;
}
