// trace: prints a stepped algorithm's trace as text, or JSON with --json; --list names every
// algorithm. Needs no display and no GL.
#include <CLI/CLI.hpp>
#include <iostream>

#include "tools/command_line.h"
#include "model/step_choice.h"
#include "lab/run/backend.h"
#include "lab/model/trace_io.h"

int main(int argc, char** argv) {
  using namespace primlab;
  CLI::App app{"trace: print every step of a stepped algorithm"};
  ui::StepOptions opt;
  bool list = false, json = false, all_rows = false;
  add_step_options(app, opt);
  app.add_flag("--list", list, "list the algorithms and presets and exit");
  app.add_flag("--json", json, "print JSON instead of text");
  app.add_flag("--rows", all_rows, "print every row of every step");
  if (auto code = ui::parse_command_line(app, "trace", argc, argv)) return *code;
  if (list) {
    cli::print_list(stdout, ui::step_list());
    return 0;
  }
  ui::StepChoice c;
  Result r = ui::resolve_step_options(opt, c);
  if (r.ok()) r = ui::check_backend(opt.backend);
  if (!r.ok()) return ui::fail("trace", r.message());
  std::vector<std::uint32_t> in;
  static_cast<void>(ui::make_choice_input(c, in));  // checked by resolve_step_options
  const Algorithm& a = *find_algorithm(c.algo);
  const bool cuda = opt.backend == "cuda" || (opt.backend == "auto" && backend().cuda && a.run_cuda);
  Trace t;
  const Result built = cuda ? build_trace_cuda(a, c.cfg, in, t) : build_trace_cpu(a, c.cfg, in, t);
  if (!built.ok()) return ui::fail("trace", built.message(), 1);
  const std::string used = cuda ? "CUDA: " + backend().name : "CPU reference";
  if (json) write_trace_json(std::cout, t, used);
  else write_trace_text(std::cout, t, used, all_rows);
  return 0;
}
