// The Performance tab drawn headless through EGL with a CPU sweep's results: the plot shows its
// axes and at least two series in their colours; the plot's PNG export leaves the app's ImGui
// context and GL state as they were.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "headless/png.h"
#include "ui/perf_render.h"
#include "ui/perf_tab.h"
#include "render_test_util.h"

using namespace primlab;
using namespace primlab::testing;

namespace {

Rgb rgb(ImU32 c) { return Rgb{int(c & 255), int((c >> 8) & 255), int((c >> 16) & 255)}; }

perf::PerfState& cpu_sweep() {
  static perf::PerfState* s = nullptr;
  if (s) return *s;
  s = new perf::PerfState;
  perf::init_perf(*s, perf::make_default_backend(4));
  s->plan.primitive = "scan_exclusive";
  s->plan.type = "u32";
  s->plan.impls = {"cpu", "cpu-par"};
  s->plan.log2_min = 10;
  s->plan.log2_max = 18;
  EXPECT_TRUE(perf::start_sweep(*s)) << s->message;
  for (int i = 0; i < 3000 && s->progress.running; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    perf::poll_sweep(*s);
  }
  s->worker->join();
  perf::poll_sweep(*s);
  EXPECT_EQ(s->results.rows.size(), 18u);
  return *s;
}

// Synthetic GPU rows (no device needed): a lab kernel that takes a block size, and CUB.
class SyntheticGpu : public perf::Backend {
 public:
  std::vector<perf::Entry> entries() const override {
    perf::Entry a{"scan_exclusive", "scan-shared", {"u32"}, true, false, true, "the lab's timed kernel"};
    perf::Entry b{"scan_exclusive", "cub", {"u32"}, false, false, true, "CUB"};
    return {a, b};
  }
  bool has_gpu() const override { return true; }
  std::string device() const override { return "Synthetic GPU"; }
  void begin(perf::Results& h) override {
    h.gpu = "Synthetic GPU";
    h.copy_gbps = 4000;
  }
  perf::Row run(const perf::Job& j, const std::atomic<bool>&) override {
    perf::Row r{j.primitive, j.impl, j.type, j.n, j.block, j.items, 10};
    const double b = j.block ? j.block : 256;
    r.median_ms = j.impl == "cub" ? 0.01 : 0.02 * (1 + std::abs(std::log2(b / 256.0)) / 2);
    r.p10_ms = r.p90_ms = r.median_ms;
    r.items_per_s = double(j.n) / (r.median_ms * 1e-3);
    r.gbps = 8 * r.items_per_s / 1e9;
    return r;
  }
};

}  // namespace

TEST(PerfRender, BlockSweepViewAndTableDraw) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  perf::PerfState s;
  perf::init_perf(s, std::make_shared<SyntheticGpu>());
  s.plan.mode = perf::SweepMode::BlockSizes;
  ASSERT_TRUE(perf::start_sweep(s)) << s.message;
  s.worker->join();
  perf::poll_sweep(s);
  ASSERT_EQ(s.results.rows.size(), 1 + perf::block_sizes().size());
  EXPECT_EQ(perf::verdict(s), "fastest at n = 2^20: cub 10 us; scan-shared b=256 20 us (x0.50 CUB)");
  s.view_request = perf::kTimeVsBlock;
  auto px = perf::render_perf_tab(s, 1280, 800);
  // The PNGs are for a person to look at; the test checks the pixels.
  static_cast<void>(headless::write_png("perf_block_render_test.png", 1280, 800, px));
  EXPECT_GT(count_near(px, rgb(perf::series_colour("scan-shared")), 8), 150u);
  EXPECT_GT(count_near(px, rgb(perf::series_colour("cub")), 8), 150u);
  // Hovering the plot draws the readout (a tooltip over it).
  ImGui::GetIO().MousePos = ImVec2(905, 400);
  const auto hovered = perf::render_perf_tab(s, 1280, 800);
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  static_cast<void>(headless::write_png("perf_hover_render_test.png", 1280, 800, hovered));
  EXPECT_NE(hovered, px);
  s.view_request = perf::kTable;
  px = perf::render_perf_tab(s, 1280, 800);
  static_cast<void>(headless::write_png("perf_table_render_test.png", 1280, 800, px));
  EXPECT_GT(distinct_colours(px), 30u);
}

TEST(PerfRender, TheTabDrawsAPlotWithAxesAndTwoSeries) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  perf::PerfState& s = cpu_sweep();
  s.view_request = perf::kTimeVsN;
  const auto px = perf::render_perf_tab(s, 1280, 800);
  ASSERT_EQ(px.size(), 1280u * 800u * 4u);
  // For a person to look at; the test checks the pixels.
  static_cast<void>(headless::write_png("perf_tab_render_test.png", 1280, 800, px));
  EXPECT_GT(count_near(px, rgb(perf::series_colour("cpu")), 8), 150u);
  EXPECT_GT(count_near(px, rgb(perf::series_colour("cpu-par")), 8), 150u);
  EXPECT_GT(count_near(px, Rgb{60, 60, 68}, 2), 1500u);  // the grid of the log axes
  EXPECT_GT(distinct_colours(px), 40u);                    // text, controls, lines
}

TEST(PerfRender, ThroughputPlotDrawsTheCeilingAndTheExportKeepsTheAppContext) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  perf::PerfState& s = cpu_sweep();
  s.view_request = perf::kTimeVsN;
  const auto before = perf::render_perf_tab(s, 1024, 700);
  // The export runs in its own ImGui context; the app's frame is unchanged afterwards.
  const auto plot = perf::render_plot(s, perf::kThroughputVsN, 900, 500);
  ASSERT_EQ(plot.size(), 900u * 500u * 4u);
  EXPECT_GT(count_near(plot, Rgb{235, 235, 235}, 25), 100u);  // the copy-bandwidth ceiling (dashed)
  EXPECT_GT(count_near(plot, rgb(perf::series_colour("cpu-par")), 8), 100u);
  s.view_request = perf::kTimeVsN;
  const auto after = perf::render_perf_tab(s, 1024, 700);
  EXPECT_EQ(distinct_colours(before) > 40u, distinct_colours(after) > 40u);
  EXPECT_GT(distinct_colours(after), 40u);
  std::string path = ::testing::TempDir() + "perf_plot.png";
  const Result wrote = perf::export_plot_png(s, perf::kTimeVsN, path, 800, 450);
  EXPECT_TRUE(wrote.ok()) << wrote.message();
}
