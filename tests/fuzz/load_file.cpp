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

primlab::Result load_presets(const std::string& text) {
  using namespace primlab;
  std::vector<ui::Preset> presets;
  if (Result r = ui::parse_presets(text, presets); !r.ok()) return r;
  for (const ui::Preset& p : presets) {
    ui::StepChoice c;
    std::vector<std::uint32_t> in;
    Trace t;
    Result r = ui::resolve_step_options(p.options, c);
    if (r.ok()) r = ui::make_choice_input(c, in);
    if (r.ok()) r = build_trace_cpu(*find_algorithm(c.algo), c.cfg, in, t);
    if (!r.ok()) return Result::failure("preset '" + p.name + "': " + r.message());
  }
  return {};
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
  primlab::bench::Results results;
  primlab::Result r;
  if (kind == "presets") r = load_presets(text);
  else if (kind == "results") r = primlab::bench::parse_json(text, &results);
  else return fail("primlab_fuzz_load", "unknown loader '" + kind + "'");
  if (!r.ok()) return fail("primlab_fuzz_load", r.message());
  return 0;
}
