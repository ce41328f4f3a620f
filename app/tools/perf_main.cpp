// perf: the Performance tab without a window. Runs a sweep through the tab's own state and worker
// (the measuring engine's session, on its own CUDA stream where there is a device), writes the results as JSON (the
// bench's format) and CSV, and draws the tab and its plots to PNG through EGL, as `render` does.
//   perf --prim scan_exclusive --impl scan-naive,scan-blelloch,scan-shared,primlab,cub,thrust,cpu,cpu-par
//        --type u32 --n 2^10..2^28 --out DIR [--n-factor 4] [--block-sweep --n 2^20] [--baseline FILE]
// Its command line is the tools' one grammar (bench/cli/grammar.h).
#include <CLI/CLI.hpp>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include "tools/command_line.h"
#include "model/step_choice.h"
#include "headless/egl_context.h"
#include "headless/png.h"
#include "ui/perf_render.h"
#include "ui/perf_tab.h"

namespace {

using namespace primlab::perf;
using primlab::Result;

// The implementations and the type must be in the table for the primitive; a one-line failure.
Result check_plan(const PerfState& s) {
  bool type_known = false;
  for (const Entry& e : s.entries)
    if (e.primitive == s.plan.primitive)
      type_known = type_known || std::find(e.types.begin(), e.types.end(), s.plan.type) != e.types.end();
  if (!type_known) {
    return Result::failure("no implementation of " + s.plan.primitive + " takes --type '" + s.plan.type +
                           "' (see --list)");
  }
  for (const std::string& impl : s.plan.impls) {
    if (!find_entry(s.entries, s.plan.primitive, impl)) {
      return Result::failure("unknown --impl '" + impl + "' for " + s.plan.primitive + " (see --list)");
    }
  }
  return {};
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = primlab::cli;
  CLI::App app{"perf: run a sweep of the Performance tab headless; write JSON, CSV and PNG"};
  PerfState s;
  std::string impls, type = s.plan.type, sizes = "2^10..2^28", out = "perf-results", size = "1600x1000", baseline;
  std::string block = "0", host_max_n = "2^28";
  int factor = 2, old_step = 0, old_block_n = -1;
  double cancel_after = 0;
  bool block_sweep = false, list = false, no_png = false, live = false;
  app.add_option("--prim", s.plan.primitive, "primitive (scan_exclusive, reduce_sum, ...; --list)");
  app.add_option("--impl", impls, "implementations, comma-separated (default: every one that runs here; --list)");
  app.add_option("--type", type, "element type: u8, i32, u32, f32, i64, f64, u64 (--list: each one's types)");
  app.add_option("--n", sizes, "sizes: 4096, 2^20, 1<<20, ranges 2^10..2^28, lists 2^16,2^20 (1 to 2^34); with "
                               "--block-sweep one power of two");
  app.add_option("--n-factor", factor, "each n of a range is this many times the last: 2 or 4")
      ->check(CLI::IsMember({2, 4}));
  app.add_option("--step", old_step, "the old name of --n-factor (1: x2, 2: x4), kept for one release")
      ->check(CLI::Range(1, 2));
  app.add_flag("--block-sweep", block_sweep, "sweep the block size (32..1024) at the one n of --n");
  app.add_option("--block-n", old_block_n, "the old name of --n 2^K (with --block-sweep; without it, the n of "
                                           "the answer line), kept for one release")
      ->check(CLI::Range(0, 34));
  app.add_option("--block", block, "block size for the variants that take one (0: default; up to 1024)");
  app.add_option("--items", s.plan.items, "items per thread for the variants that take it (0: default)")
      ->check(CLI::Range(0, 64));
  app.add_option("--runs", s.plan.runs, "GPU runs per row (0: automatic, about 0.3 s per row)")
      ->check(CLI::Range(0, 100000));
  app.add_option("--host-max-n", host_max_n, "CPU rows above this n are skipped (a size, up to 2^34)");
  app.add_option("--out", out, "folder for perf-<prim>-<type>.{json,csv,png} and perf-tab.png");
  app.add_option("--size", size, "WIDTHxHEIGHT of the tab PNG");
  app.add_option("--baseline", baseline, "a saved JSON to compare against (dashed in the plots)");
  app.add_flag("--live", live, "draw the tab every 50 ms while the sweep runs and report frame times");
  app.add_option("--cancel-after", cancel_after, "press Cancel after this many seconds (and time the stop)")
      ->check(CLI::Range(0.0, 1e6));
  app.add_flag("--no-png", no_png, "write JSON and CSV only (no EGL)");
  app.add_flag("--list", list, "list the primitives and implementations and exit");
  using primlab::ui::fail;
  if (auto code = cli::parse(app, "perf", argc, argv)) return *code;
  if (list) {
    cli::print_list(stdout, {cli::implementations_list(primlab::bench::make_table())});
    return 0;
  }
  int w = 0, h = 0;
  if (!primlab::ui::parse_size(size, 320, 240, w, h))
    return fail("perf", "--size must be WIDTHxHEIGHT between 320x240 and 8192x8192 (got '" + size + "')");
  if (old_step) factor = old_step == 1 ? 2 : 4;
  if (old_block_n >= 0 && block_sweep) sizes = "2^" + std::to_string(old_block_n);
  std::vector<std::int64_t> ns;
  std::int64_t v = 0;
  primlab::bench::Type t;
  Result checked = cli::parse_sizes("--n", sizes, 1, std::int64_t(1) << 34, factor, ns);
  if (checked.ok() && !cli::parse_type_name(type, &t))
    checked = Result::failure("--type: unknown type '" + type + "' (u8, i32, u32, f32, i64, f64, u64)");
  if (checked.ok()) checked = cli::parse_size("--block", block, 0, 1024, v);
  s.plan.block = int(v);
  if (checked.ok()) checked = cli::parse_size("--host-max-n", host_max_n, 0, std::int64_t(1) << 34, s.plan.host_max_n);
  if (checked.ok() && block_sweep && (ns.size() != 1 || (ns[0] & (ns[0] - 1)) != 0))
    checked = Result::failure("--block-sweep takes one power-of-two size in --n (got '" + sizes + "')");
  if (!checked.ok()) return fail("perf", checked.message());
  const Plan asked = s.plan;
  init_perf(s, make_default_backend());
  s.plan.primitive = asked.primitive;
  s.plan.type = primlab::bench::type_name(t);
  const auto prims = primitives_of(s.entries);
  if (std::find(prims.begin(), prims.end(), s.plan.primitive) == prims.end())
    return fail("perf", "unknown primitive '" + s.plan.primitive + "' (see --list)");
  if (impls.empty()) {
    const std::string kept = s.plan.type;
    select_all(s);
    s.plan.type = kept;
  } else {
    s.plan.impls = cli::split_list(impls);
  }
  if (Result r = check_plan(s); !r.ok()) return fail("perf", r.message());
  s.plan.sizes = ns;
  s.plan.log2_step = factor == 4 ? 2 : 1;
  s.plan.mode = block_sweep ? SweepMode::BlockSizes : SweepMode::Sizes;
  // The sliders of the tab drawn to perf-tab.png show the range's powers of two.
  auto log2_floor = [](std::int64_t n) {
    int k = 0;
    while ((std::int64_t(2) << k) <= n) ++k;
    return k;
  };
  s.plan.log2_min = log2_floor(*std::min_element(ns.begin(), ns.end()));
  s.plan.log2_max = log2_floor(*std::max_element(ns.begin(), ns.end()));
  // The answer line's n: the block sweep's, else --block-n or 2^20 inside the swept range.
  s.plan.block_sweep_log2_n = block_sweep ? log2_floor(ns[0])
                                          : std::clamp(old_block_n >= 0 ? old_block_n : 20, s.plan.log2_min, s.plan.log2_max);
  std::snprintf(s.export_dir, sizeof s.export_dir, "%s", out.c_str());
  if (!baseline.empty() && !load_baseline(s, baseline)) return fail("perf", s.message);
  // The output folder now, so that a bad one fails before the sweep rather than after it.
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec || !std::filesystem::is_directory(out, ec))
    return fail("perf", "cannot create the --out folder '" + out + "'");
  // Progress and facts go to stdout with the rows; stderr carries only the one-line error.
  std::printf("perf: %s\n", s.device.c_str());

  // A GL context for the PNGs (and the live frames) before the sweep starts.
  primlab::headless::EglContext egl;
  bool gl = false;
  std::string no_png_reason;
  if (!no_png) {
    if (Result made = egl.create(); made.ok()) {
      ImGui::CreateContext();
      ImGui::GetIO().IniFilename = nullptr;
      gl = ImGui_ImplOpenGL3_Init("#version 330 core");
      std::printf("perf: %s\n", egl.description().c_str());
      if (!gl) no_png_reason = "the ImGui OpenGL3 backend could not start";
    } else {
      no_png_reason = made.message();
    }
  }

  if (!start_sweep(s)) return fail("perf", s.message, 1);
  for (const std::string& k : s.skipped) std::printf("perf: skipped %s\n", k.c_str());
  const double t0 = now_s();
  double cancel_at = 0;
  std::size_t printed = 0;
  std::vector<double> frame_ms;
  while (true) {
    if (live && gl) {
      const double f0 = now_s();
      render_perf_tab(s, w, h, 1);
      frame_ms.push_back((now_s() - f0) * 1e3);
    } else {
      poll_sweep(s);
    }
    for (; printed < s.results.rows.size(); ++printed) {
      const Row& r = s.results.rows[printed];
      std::printf("%-16s %-12s %-4s %6s %6d %12s %10s %8.1f GB/s %s\n", r.primitive.c_str(), r.impl.c_str(),
                  r.type.c_str(), format_n(r.n).c_str(), r.block, format_ms(r.median_ms).c_str(),
                  format_rate(r.items_per_s).c_str(), r.gbps, r.error.c_str());
      std::fflush(stdout);
    }
    if (!s.progress.running) break;
    if (cancel_after > 0 && cancel_at == 0 && now_s() - t0 >= cancel_after) {
      cancel_sweep(s);
      cancel_at = now_s();
      std::printf("perf: cancel pressed after %g s\n", cancel_after);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(live ? 50 : 20));
  }
  s.worker->join();
  poll_sweep(s);
  if (cancel_at > 0) std::printf("perf: the sweep stopped %.3f s after Cancel\n", now_s() - cancel_at);
  std::printf("perf: %d/%d rows in %.1f s; copy bandwidth %.0f GB/s\n", s.progress.done, s.progress.total,
              now_s() - t0, s.results.copy_gbps);
  if (!frame_ms.empty()) {
    std::sort(frame_ms.begin(), frame_ms.end());
    std::printf("perf: %zu live frames while running: median %.1f ms, max %.1f ms\n", frame_ms.size(),
                frame_ms[frame_ms.size() / 2], frame_ms.back());
  }

  std::printf("perf: %s\n", verdict(s).c_str());
  if (!export_results(s, out, false)) return fail("perf", s.message, 1);
  std::printf("perf: %s\n", s.message.c_str());
  if (no_png) return 0;
  if (!gl) return fail("perf", "no PNG: " + no_png_reason, 1);
  const std::string stem = out + "/perf-" + s.plan.primitive + "-" + s.plan.type;
  std::string png_errors;
  std::vector<std::pair<int, std::string>> plots;
  if (block_sweep) plots.push_back({kTimeVsBlock, stem + "-block.png"});
  else plots = {{kTimeVsN, stem + ".png"}, {kThroughputVsN, stem + "-throughput.png"}};
  for (auto& [view, path] : plots) {
    if (view == kThroughputVsN) s.throughput_gbps = true;
    if (Result wrote = export_plot_png(s, view, path, 1400, 800); wrote.ok())
      std::printf("perf: wrote %s\n", path.c_str());
    else
      png_errors += (png_errors.empty() ? "" : "; ") + wrote.message();
  }
  s.throughput_gbps = false;
  s.view_request = block_sweep ? kTimeVsBlock : kTimeVsN;
  const auto px = render_perf_tab(s, w, h, 3);
  const std::string tab = out + "/perf-tab.png";
  if (Result wrote = primlab::headless::write_png(tab, w, h, px); wrote.ok())
    std::printf("perf: wrote %s\n", tab.c_str());
  else
    png_errors += (png_errors.empty() ? "" : "; ") + wrote.message();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
  return png_errors.empty() ? 0 : fail("perf", png_errors, 1);
}
