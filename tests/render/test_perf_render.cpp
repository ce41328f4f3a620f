// The Performance tab drawn headless through EGL with a CPU sweep's results: the plot shows its
// axes and at least two series in their colours; the plot's PNG export leaves the app's ImGui
// context and GL state as they were and says which machine drew the lines; the buttons stay put
// while a sweep runs and after a save; the progress text stays in its bar; the readout gives the
// ratio to CUB in words; noisy rows get a band and a warning; every pair of series in one plot has
// colours far apart.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "engine/table.h"
#include "headless/png.h"
#include "ui/item_rects.h"
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
  EXPECT_EQ(perf::verdict(s), "fastest at n = 2^20: cub 10 us; scan-shared b=256 20 us (2.00x slower than CUB)");
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

// [SECTION] Issue 25, item 10
namespace {

// A backend whose rows wait until released, with a long implementation name (the progress text),
// and a noisy row (p90 = 5 x p10) for "cpu-par".
class HeldBackend : public perf::Backend {
 public:
  static constexpr const char* kLong = "scan-naive-shared-with-a-long-name-for-the-progress-bar";
  std::vector<perf::Entry> entries() const override {
    return {perf::Entry{"scan_exclusive", kLong, {"u32"}, false, false, false, "long"},
            perf::Entry{"scan_exclusive", "cpu-par", {"u32"}, false, false, false, "noisy"},
            perf::Entry{"scan_exclusive", "cub", {"u32"}, false, false, false, "CUB"}};
  }
  bool has_gpu() const override { return false; }
  std::string device() const override { return "no CUDA device: GPU rows need a CUDA device"; }
  void begin(perf::Results& h) override {
    h.gpu = "none (CPU only)";
    h.host = "testhost, 2 CPU threads";
    h.date = "2026-11-26";
    h.copy_gbps = 12;
  }
  perf::Row run(const perf::Job& j, const std::atomic<bool>& cancel) override {
    {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return released || cancel.load(); });
    }
    perf::Row r{j.primitive, j.impl, j.type, j.n, j.block, j.items, 10};
    r.median_ms = scale * (j.impl == "cub" ? 0.01 : j.impl == "cpu-par" ? 0.5 : 0.02);
    r.p10_ms = j.impl == "cpu-par" ? scale * 0.2 : r.median_ms * 0.95;
    r.p90_ms = j.impl == "cpu-par" ? scale * 1.0 : r.median_ms * 1.05;
    r.items_per_s = double(j.n) / (r.median_ms * 1e-3);
    r.gbps = 8 * r.items_per_s / 1e9;
    return r;
  }
  void release() {
    std::lock_guard<std::mutex> lock(m);
    released = true;
    cv.notify_all();
  }
  std::mutex m;
  std::condition_variable cv;
  bool released = false;
  double scale = 1;  // every time times this
};

// A finished sweep of 2^10..2^14 on a released HeldBackend whose times are `scale` times its own.
void sweep_held(perf::PerfState& s, double scale = 1) {
  auto backend = std::make_shared<HeldBackend>();
  backend->scale = scale;
  backend->release();
  perf::init_perf(s, backend);
  s.plan.log2_min = 10;
  s.plan.log2_max = 14;
  ASSERT_TRUE(perf::start_sweep(s));
  s.worker->join();
  perf::poll_sweep(s);
}

const char* kButtons[] = {"perf run", "perf clear results", "perf progress", "perf export dir", "perf save",
                          "perf png", "perf baseline path", "perf load baseline", "perf clear baseline"};

std::map<std::string, std::array<float, 4>> button_rects() {
  std::map<std::string, std::array<float, 4>> out;
  for (const char* name : kButtons) {
    auto it = ui::item_rects().find(name);
    EXPECT_NE(it, ui::item_rects().end()) << name << " was not drawn";
    if (it != ui::item_rects().end()) out[name] = it->second;
  }
  return out;
}

std::string rects_text(const std::map<std::string, std::array<float, 4>>& r) {
  std::string t;
  for (const auto& [name, v] : r)
    t += name + " [" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ", " +
         std::to_string(v[3]) + "]\n";
  return t;
}

const perf::TextLabel* find_label(const std::vector<perf::TextLabel>& labels, const std::string& prefix) {
  for (const perf::TextLabel& l : labels)
    if (l.text.rfind(prefix, 0) == 0) return &l;
  return nullptr;
}

// CIEDE2000 between two sRGB colours (what a reader of the plot tells apart).
double lab_f(double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; }
std::array<double, 3> lab(ImU32 c) {
  auto lin = [](int v) {
    const double u = v / 255.0;
    return u <= 0.04045 ? u / 12.92 : std::pow((u + 0.055) / 1.055, 2.4);
  };
  const double r = lin(int(c & 255)), g = lin(int((c >> 8) & 255)), b = lin(int((c >> 16) & 255));
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
               z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  return {116 * lab_f(y) - 16, 500 * (lab_f(x) - lab_f(y)), 200 * (lab_f(y) - lab_f(z))};
}
double ciede2000(ImU32 c1, ImU32 c2) {
  const double kPi = 3.14159265358979323846;
  auto rad = [&](double d) { return d * kPi / 180; };
  auto deg = [&](double r) { return r * 180 / kPi; };
  const auto [L1, a1, b1] = lab(c1);
  const auto [L2, a2, b2] = lab(c2);
  const double cb = (std::hypot(a1, b1) + std::hypot(a2, b2)) / 2;
  const double g = 0.5 * (1 - std::sqrt(std::pow(cb, 7) / (std::pow(cb, 7) + std::pow(25.0, 7))));
  const double a1p = (1 + g) * a1, a2p = (1 + g) * a2;
  const double c1p = std::hypot(a1p, b1), c2p = std::hypot(a2p, b2);
  auto hue = [&](double b, double a) {
    const double h = deg(std::atan2(b, a));
    return h < 0 ? h + 360 : h;
  };
  const double h1 = hue(b1, a1p), h2 = hue(b2, a2p);
  double dh = c1p * c2p == 0 ? 0 : h2 - h1;
  if (dh > 180) dh -= 360;
  if (dh < -180) dh += 360;
  const double dL = L2 - L1, dC = c2p - c1p, dH = 2 * std::sqrt(c1p * c2p) * std::sin(rad(dh / 2));
  const double lb = (L1 + L2) / 2, cbp = (c1p + c2p) / 2;
  double hb = h1 + h2;
  if (c1p * c2p != 0) hb = std::fabs(h1 - h2) <= 180 ? (h1 + h2) / 2 : (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2;
  const double t = 1 - 0.17 * std::cos(rad(hb - 30)) + 0.24 * std::cos(rad(2 * hb)) + 0.32 * std::cos(rad(3 * hb + 6)) -
                   0.20 * std::cos(rad(4 * hb - 63));
  const double dth = 30 * std::exp(-std::pow((hb - 275) / 25, 2));
  const double rc = 2 * std::sqrt(std::pow(cbp, 7) / (std::pow(cbp, 7) + std::pow(25.0, 7)));
  const double sl = 1 + 0.015 * std::pow(lb - 50, 2) / std::sqrt(20 + std::pow(lb - 50, 2));
  const double sc = 1 + 0.045 * cbp, sh = 1 + 0.015 * cbp * t, rt = -std::sin(rad(2 * dth)) * rc;
  return std::sqrt(std::pow(dL / sl, 2) + std::pow(dC / sc, 2) + std::pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh));
}

}  // namespace

TEST(PerfTab, ButtonsStayWhileASweepRunsEndsAndAfterASave) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  auto backend = std::make_shared<HeldBackend>();
  perf::PerfState s;
  perf::init_perf(s, backend);
  s.plan.log2_min = s.plan.log2_max = 10;
  const std::string dir = ::testing::TempDir() + "perf_buttons";
  std::snprintf(s.export_dir, sizeof s.export_dir, "%s", dir.c_str());
  static_cast<void>(perf::render_perf_tab(s, 1024, 768));
  const auto idle = button_rects();
  ASSERT_TRUE(perf::start_sweep(s)) << s.message;
  for (int i = 0; i < 500 && s.worker->poll(nullptr, nullptr).current.empty(); ++i)  // the first row has begun
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  auto px = perf::render_perf_tab(s, 1024, 768);
  static_cast<void>(headless::write_png("perf_running_render_test.png", 1024, 768, px));
  EXPECT_EQ(rects_text(button_rects()), rects_text(idle)) << "the buttons moved when Run started";
  // The progress text is cut to its bar, whole inside it.
  const auto bar = ui::item_rects().at("perf progress");
  const perf::TextLabel* progress = find_label(perf::drawn_texts().labels, "0/3");
  ASSERT_NE(progress, nullptr) << "no progress text";
  EXPECT_GE(progress->x0, bar[0]);
  EXPECT_LE(progress->x1, bar[2]);
  EXPECT_GE(progress->y0, bar[1]);
  EXPECT_LE(progress->y1, bar[3]);
  EXPECT_NE(progress->text.find("..."), std::string::npos) << progress->text;
  backend->release();
  s.worker->join();
  px = perf::render_perf_tab(s, 1024, 768);
  EXPECT_EQ(rects_text(button_rects()), rects_text(idle)) << "the buttons moved when the sweep ended";
  ASSERT_TRUE(perf::export_results(s, dir, false)) << s.message;
  px = perf::render_perf_tab(s, 1024, 768);
  static_cast<void>(headless::write_png("perf_saved_render_test.png", 1024, 768, px));
  EXPECT_NE(find_label(perf::drawn_texts().labels, "wrote "), nullptr) << "the save's message is shown";
  EXPECT_EQ(rects_text(button_rects()), rects_text(idle)) << "the buttons moved after Save";
}

TEST(PerfTab, NoisyRowsGetABandAWarningAndTheTableSaysSo) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  perf::PerfState s;
  sweep_held(s);
  const auto series = perf::view_series(s, perf::kTimeVsN);
  ASSERT_EQ(series.size(), 3u);
  for (const perf::Series& se : series) EXPECT_EQ(se.band, se.label == "cpu-par") << se.label;
  const std::string warning = perf::noise_warning(series);
  EXPECT_EQ(warning, "noisy, p90 up to 5.0x p10 (shaded): cpu-par; run again before comparing");
  const auto px = perf::render_plot(s, perf::kTimeVsN, 1000, 600);
  static_cast<void>(headless::write_png("perf_noisy_render_test.png", 1000, 600, px));
  // The band: cpu-par's colour at alpha 70 over the plot's background (24, 24, 28).
  const ImU32 c = perf::series_colour("cpu-par");
  auto blend = [](int fg, int bg) { return bg + (fg - bg) * 70 / 255; };
  const Rgb band{blend(int(c & 255), 24), blend(int((c >> 8) & 255), 24), blend(int((c >> 16) & 255), 28)};
  EXPECT_GT(count_near(px, band, 6), 2000u) << "no shaded band";
  EXPECT_NE(find_label(perf::plot_png_texts().labels, warning), nullptr) << "no warning on the plot";
  EXPECT_NE(find_label(perf::plot_png_texts().labels, "cpu-par (noisy)"), nullptr) << "the legend does not say it";
  s.view_request = perf::kTable;
  static_cast<void>(perf::render_perf_tab(s, 1280, 800));
  EXPECT_NE(find_label(perf::drawn_texts().labels, "200 us..1 ms noisy"), nullptr) << "the table does not say it";
}

// No two texts of a plot overlap wherever the data puts the y ticks: a tick label at the plot area's
// top edge stays clear of the y axis's label on the row above it (at the bottom, of the x ticks).
// The times are swept over two decades in steps of 10^(1/48), so that ticks land at every height.
TEST(PerfTab, APlotsTextsNeverOverlapWhereverItsTicksFall) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  for (int k = 0; k < 96; ++k) {
    const double scale = std::pow(10.0, k / 48.0);
    perf::PerfState s;
    sweep_held(s, scale);
    static_cast<void>(perf::render_plot(s, perf::kTimeVsN, 1000, 600));
    const std::vector<perf::TextLabel>& labels = perf::plot_png_texts().labels;
    for (std::size_t i = 0; i < labels.size(); ++i)
      for (std::size_t j = i + 1; j < labels.size(); ++j)
        EXPECT_FALSE(texts_overlap(labels[i], labels[j]))
            << "times x" << scale << ": '" << labels[i].text << "' and '" << labels[j].text << "'";
  }
}

TEST(PerfTab, TheExportedPlotSaysWhichMachineDrewWhichLines) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  perf::PerfState& s = cpu_sweep();
  char host[256] = "";
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  EXPECT_EQ(s.results.host, std::string(host) + ", 4 CPU threads");
  const std::vector<std::string> lines = perf::view_spec(s, perf::kTimeVsN).footer;
  ASSERT_EQ(lines.size(), 1u);
  const std::string footer = lines[0];
  EXPECT_EQ(footer, "solid lines: CPU only, host " + std::string(host) + ", 4 CPU threads, " + s.results.date) << footer;
  const std::string path = ::testing::TempDir() + "perf_machine.png";
  ASSERT_TRUE(perf::export_plot_png(s, perf::kThroughputVsN, path, 1400, 800).ok());
  EXPECT_NE(find_label(perf::plot_png_texts().labels, footer), nullptr) << "the PNG lacks '" << footer << "'";
  // With a baseline, the dashed lines' machine too.
  perf::PerfState b;
  perf::init_perf(b, std::make_shared<SyntheticGpu>());
  ASSERT_TRUE(perf::load_baseline(b, std::string(PRIMLAB_SOURCE_DIR) + "/bench/results/nvidia-h200-2026-11-23-perf-scan.json"))
      << b.message;
  ASSERT_TRUE(perf::start_sweep(b));
  b.worker->join();
  perf::poll_sweep(b);
  EXPECT_EQ(perf::view_spec(b, perf::kTimeVsN).footer,
            (std::vector<std::string>{"solid lines: Synthetic GPU", "dashed lines (baseline): NVIDIA H200, 2026-11-23"}));
}

TEST(PerfTab, TheReadoutGivesTheRatioToCubInWordsFromTheBaselineWhereThisRunHasNone) {
  perf::PlotSpec spec;
  spec.ratio_to = "cub";
  spec.ratio_name = "CUB";
  spec.y = perf::Axis{"median time", true, perf::TickFormat::Time};
  auto one = [](const std::string& label, double y, bool dashed) {
    perf::Series s;
    s.label = label;
    s.x = {1024};
    s.y = {y};
    s.dashed = dashed;
    return s;
  };
  std::vector<perf::Series> series = {one("cpu-par", 2.0, false), one("primlab (baseline)", 0.005, true),
                                      one("cub (baseline)", 0.01, true)};
  EXPECT_EQ(perf::readout_line(spec, series, series[0], 0), "cpu-par: 2 ms, 200.00x slower than CUB (baseline)");
  EXPECT_EQ(perf::readout_line(spec, series, series[1], 0),
            "primlab (baseline): 5 us, 2.00x faster than CUB (baseline)");
  EXPECT_EQ(perf::readout_line(spec, series, series[2], 0), "cub (baseline): 10 us");
  series.push_back(one("cub", 1.0, false));  // this run's own CUB is the reference of its rows
  EXPECT_EQ(perf::readout_line(spec, series, series[0], 0), "cpu-par: 2 ms, 2.00x slower than CUB");
  spec.y_is_time = false;  // throughput: larger is faster
  EXPECT_EQ(perf::readout_line(spec, series, series[0], 0), "cpu-par: 2 ms, 2.00x faster than CUB");
}

TEST(PerfTab, TheReadoutOfTheRealTabShowsTheRatioToTheBaselinesCub) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  perf::PerfState& s = cpu_sweep();
  ASSERT_TRUE(perf::load_baseline(s, std::string(PRIMLAB_SOURCE_DIR) + "/bench/results/nvidia-h200-2026-11-23-perf-scan.json"))
      << s.message;
  s.view_request = perf::kTimeVsN;
  static_cast<void>(perf::render_perf_tab(s, 1280, 800));
  ImGui::GetIO().MousePos = ImVec2(600, 500);  // over n = 2^14, where this run has rows
  const auto px = perf::render_perf_tab(s, 1280, 800);
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  static_cast<void>(headless::write_png("perf_readout_render_test.png", 1280, 800, px));
  const auto& lines = perf::drawn_texts().readout;
  ASSERT_FALSE(lines.empty());
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  EXPECT_NE(all.find("cpu: "), std::string::npos) << all;
  EXPECT_NE(all.find("slower than CUB (baseline)"), std::string::npos) << all;
  EXPECT_NE(all.find("primlab (baseline): "), std::string::npos) << all;
  s.baseline = perf::Results{};
}

TEST(PerfTab, TheBaselineSummarySaysWhichWayItPoints) {
  perf::PerfState s;
  perf::Row now{"scan_exclusive", "cpu", "u32", 1024, 0, 0, 10};
  now.median_ms = 1.0;
  perf::Row base = now;
  base.median_ms = 1.73;
  s.results.rows = {now};
  s.baseline.rows = {base};
  EXPECT_EQ(perf::baseline_summary(s),
            "this run is 1.73x faster than the baseline (median of 1 matching row of the same implementation, type "
            "and n)");
  s.baseline.rows[0].median_ms = 0.5;
  EXPECT_EQ(perf::baseline_summary(s).substr(0, 42), "this run is 2.00x slower than the baseline");
}

TEST(PerfTab, EveryPairOfSeriesInOnePlotHasDistinctColours) {
  // The implementations of each primitive: this build's table and every committed result file.
  std::map<std::string, std::set<std::string>> impls;
  for (const bench::Impl& im : bench::make_table()) impls[im.primitive].insert(im.impl);
  for (const auto& f : std::filesystem::directory_iterator(std::string(PRIMLAB_SOURCE_DIR) + "/bench/results")) {
    if (f.path().extension() != ".json") continue;
    perf::Results r;
    if (!perf::read_json(f.path().string(), &r).ok()) continue;  // bench-multigpu's files have their own format
    for (const perf::Row& row : r.rows) impls[row.primitive].insert(row.impl);
  }
  std::string close;
  for (const auto& [prim, names] : impls)
    for (auto a = names.begin(); a != names.end(); ++a)
      for (auto b = std::next(a); b != names.end(); ++b) {
        const double d = ciede2000(perf::series_colour(*a), perf::series_colour(*b));
        if (d < 15) close += prim + ": " + *a + " and " + *b + " differ by " + std::to_string(d) + "\n";
      }
  EXPECT_EQ(close, "") << "series of one plot with near colours (CIEDE2000 < 15)";
}
