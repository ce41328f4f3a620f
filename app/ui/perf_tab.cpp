// The Performance tab over PerfState: controls on the left, the plots and the table on the right.
#include "ui/perf_tab.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>

#include "engine/table.h"
#include "ui/item_rects.h"
#include "ui/perf_render.h"

namespace primlab::perf {
namespace {

const ImVec4 kWarn(1.0f, 0.78f, 0.35f, 1.0f);
const ImVec4 kDim(0.65f, 0.65f, 0.70f, 1.0f);

// Notes the last widget's rectangle with its text for the --state-file, when the widget is wholly
// in view (a widget scrolled out of its panel, even partly, is not shown whole).
void note_widget(const std::string& text) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImDrawList* dl = ImGui::GetWindowDrawList();
  if (a.y < dl->GetClipRectMin().y - 0.5f || b.y > dl->GetClipRectMax().y + 0.5f) return;
  note_text(a, b, text);
}

void wrapped(const ImVec4& col, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, col);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
  note_widget(text);
}

void text(const std::string& t) {
  ImGui::TextUnformatted(t.c_str());
  note_widget(t);
}

// Keeps what `draw` shows `lines` text lines tall, however many it takes, so that the widgets under
// it stay where they are when it changes (the copy bandwidth arrives after Run starts).
template <class F>
void fixed_lines(float lines, F&& draw) {
  const float y0 = ImGui::GetCursorPosY();
  draw();
  const float want = lines * ImGui::GetTextLineHeightWithSpacing();
  if (ImGui::GetCursorPosY() - y0 < want) {
    ImGui::SetCursorPosY(y0 + want - ImGui::GetStyle().ItemSpacing.y);
    ImGui::Dummy(ImVec2(0, 0));
  }
}

// "1.73x faster" / "2.10x slower" for a ratio where > 1 is faster.
std::string faster_words(double faster) {
  char buf[48];
  if (std::fabs(faster - 1) < 0.005) return "as fast";
  std::snprintf(buf, sizeof buf, faster > 1 ? "%.2fx faster" : "%.2fx slower", faster > 1 ? faster : 1 / faster);
  return buf;
}

// Rows whose p90 is more than this many times their p10 are noisy: their plots shade p10..p90.
constexpr double kNoisySpread = 3.0;

// The chosen implementations that ignore the block size: "cpu, cpu-par, cub" ("" when none).
std::string ignoring_block(const PerfState& s) {
  std::string out;
  for (const std::string& name : s.plan.impls) {
    const Entry* e = find_entry(s.entries, s.plan.primitive, name);
    if (e && !e->takes_block) out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

bool takes(const PerfState& s, bool block) {
  for (const std::string& name : s.plan.impls) {
    const Entry* e = find_entry(s.entries, s.plan.primitive, name);
    if (e && (block ? e->takes_block : e->takes_items)) return true;
  }
  return false;
}

// The rows of the plan's primitive and type that belong to the n sweep at the sliders' settings.
bool in_size_view(const PerfState& s, const Row& r) {
  if (r.primitive != s.plan.primitive || r.type != s.plan.type || !r.ok()) return false;
  const Entry* e = find_entry(s.entries, r.primitive, r.impl);
  const int block = e && e->takes_block ? s.plan.block : 0;
  const int items = e && e->takes_items ? s.plan.items : 0;
  return r.block == block && r.items == items;
}

std::string series_label(const PerfState& s, const std::string& impl) {
  const Entry* e = find_entry(s.entries, s.plan.primitive, impl);
  std::string l = impl;
  if (e && e->takes_block && s.plan.block) l += " b=" + std::to_string(s.plan.block);
  if (e && e->takes_items && s.plan.items) l += " i=" + std::to_string(s.plan.items);
  return l;
}

// Series in the order of the table's entries (stable legend order), then any others. Each point
// carries its p10..p90 spread in the plot's unit (time, or a rate: the spread inverted); a series
// with a point spread over kNoisySpread draws its band.
std::vector<Series> group(const PerfState& s, const Results& r, const std::function<bool(const Row&)>& keep,
                          const std::function<double(const Row&)>& x, const std::function<double(const Row&)>& y,
                          bool dashed, bool time = true) {
  std::map<std::string, std::vector<const Row*>> by;
  std::vector<std::string> order;
  for (const Entry& e : s.entries)
    if (e.primitive == s.plan.primitive) order.push_back(e.impl);
  for (const Row& row : r.rows) {
    if (!keep(row)) continue;
    if (std::find(order.begin(), order.end(), row.impl) == order.end()) order.push_back(row.impl);
    by[row.impl].push_back(&row);
  }
  std::vector<Series> out;
  for (const std::string& impl : order) {
    auto it = by.find(impl);
    if (it == by.end()) continue;
    std::vector<const Row*> rows = it->second;
    std::sort(rows.begin(), rows.end(), [&](const Row* a, const Row* b) { return x(*a) < x(*b); });
    Series se;
    se.label = series_label(s, impl) + (dashed ? " (baseline)" : "");
    se.colour = series_colour(impl);
    se.dashed = dashed;
    for (const Row* row : rows) {
      const double v = y(*row);
      const bool spread = row->p10_ms > 0 && row->p90_ms >= row->p10_ms && row->median_ms > 0;
      se.x.push_back(x(*row));
      se.y.push_back(v);
      se.lo.push_back(!spread ? 0 : time ? row->p10_ms : v * row->median_ms / row->p90_ms);
      se.hi.push_back(!spread ? 0 : time ? row->p90_ms : v * row->median_ms / row->p10_ms);
      se.band = se.band || (spread && row->p90_ms > kNoisySpread * row->p10_ms);
    }
    out.push_back(std::move(se));
  }
  return out;
}

std::string slug(const std::string& v) {
  std::string r;
  for (char c : v) r += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '-';
  return r;
}

}  // namespace

// [SECTION] Views: series and axes
std::vector<Series> view_series(const PerfState& s, int view) {
  std::vector<Series> out;
  const bool gbps = s.throughput_gbps;
  for (int base = 0; base < 2; ++base) {
    const Results& r = base ? s.baseline : s.results;
    std::vector<Series> part;
    if (view == kTimeVsN || view == kThroughputVsN) {
      part = group(
          s, r, [&](const Row& x) { return in_size_view(s, x); }, [](const Row& x) { return double(x.n); },
          [&](const Row& x) { return view == kTimeVsN ? x.median_ms : gbps ? x.gbps : x.items_per_s; }, base == 1,
          view == kTimeVsN);
    } else if (view == kTimeVsBlock) {
      const std::int64_t n = std::int64_t(1) << s.plan.block_sweep_log2_n;
      auto keep = [&](const Row& x) {
        if (x.primitive != s.plan.primitive || x.type != s.plan.type || x.n != n || !x.ok()) return false;
        const Entry* e = find_entry(s.entries, x.primitive, x.impl);
        if (e && e->takes_block) return x.block > 0 && x.items == (e->takes_items ? s.plan.items : 0);
        return x.block == 0;
      };
      part = group(s, r, keep, [](const Row& x) { return double(x.block); }, [](const Row& x) { return x.median_ms; },
                   base == 1);
      // Entries without a block size: a flat line across the slider's range (a point at each
      // block size, so that the hover readout lists them too).
      for (Series& se : part)
        if (se.x.size() == 1 && se.x[0] == 0) {
          const double y = se.y[0], lo = se.lo[0], hi = se.hi[0];
          se.x.clear();
          se.y.clear();
          se.lo.clear();
          se.hi.clear();
          for (int b : block_sizes())
            se.x.push_back(double(b)), se.y.push_back(y), se.lo.push_back(lo), se.hi.push_back(hi);
        }
      for (Series& se : part) {
        const std::string impl = se.label.substr(0, se.label.find(' '));
        se.label = impl + (base ? " (baseline)" : "");
      }
    }
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

std::string machine(const Results& r) {
  std::string m = r.gpu.empty() ? "an unnamed machine" : r.gpu.rfind("none", 0) == 0 ? "CPU only" : r.gpu;
  if (!r.host.empty()) m += ", host " + r.host;
  if (!r.date.empty()) m += ", " + r.date;
  return m;
}

std::vector<std::string> machines_footer(const PerfState& s) {
  std::vector<std::string> f;
  if (!s.results.rows.empty()) f.push_back("solid lines: " + machine(s.results));
  if (!s.baseline.rows.empty()) f.push_back("dashed lines (baseline): " + machine(s.baseline));
  return f;
}

PlotSpec view_spec(const PerfState& s, int view) {
  PlotSpec p;
  const std::string what = s.plan.primitive + ", " + s.plan.type;
  p.x = Axis{"n (elements)", true, TickFormat::Pow2};
  p.ratio_to = "cub";
  p.ratio_name = "CUB";
  p.y_is_time = view != kThroughputVsN;
  p.footer = machines_footer(s);
  if (view == kTimeVsN) {
    p.title = "time vs n: " + what + " (lower is faster)";
    p.y = Axis{"median time", true, TickFormat::Time};
  } else if (view == kThroughputVsN) {
    p.title = "throughput vs n: " + what + " (higher is faster)";
    const bool host = s.results.gpu.empty() || s.results.gpu.rfind("none", 0) == 0;
    bench::Type type;
    const double bytes = bench::parse_type(s.plan.type, &type) ? bench::min_bytes_per_elem(s.plan.primitive, type) : 0;
    if (s.throughput_gbps) {
      p.y = Axis{"GB/s of the minimum bytes moved", true, TickFormat::Bytes};
      p.ceiling = s.results.copy_gbps;
    } else {
      p.y = Axis{"elements/s", true, TickFormat::Rate};
      p.ceiling = bytes > 0 ? s.results.copy_gbps * 1e9 / bytes : 0;
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s copy bandwidth %.0f GB/s", host ? "host" : "device", s.results.copy_gbps);
    p.ceiling_label = buf;
  } else {
    p.title = "time vs block size at n = " + format_n(std::int64_t(1) << s.plan.block_sweep_log2_n) + ": " + what;
    p.x = Axis{"block size (threads)", true, TickFormat::Plain};
    p.y = Axis{"median time", true, TickFormat::Time};
  }
  return p;
}

std::string verdict(const PerfState& s) {
  const std::int64_t n = std::int64_t(1) << s.plan.block_sweep_log2_n;
  std::map<std::string, const Row*> best;
  double cub = 0;
  for (const Row& r : s.results.rows) {
    if (r.primitive != s.plan.primitive || r.type != s.plan.type || r.n != n || !r.ok()) continue;
    const Row*& b = best[r.impl];
    if (!b || r.median_ms < b->median_ms) b = &r;
    if (r.impl == "cub") cub = cub > 0 ? std::min(cub, r.median_ms) : r.median_ms;
  }
  if (best.empty()) return "no results at n = " + format_n(n) + " yet";
  std::vector<const Row*> order;
  for (auto& [impl, r] : best) order.push_back(r);
  std::sort(order.begin(), order.end(), [](const Row* a, const Row* b) { return a->median_ms < b->median_ms; });
  std::string out = "fastest at n = " + format_n(n) + ": ";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Row& r = *order[i];
    out += (i ? "; " : "") + r.impl;
    if (r.block) out += " b=" + std::to_string(r.block);
    if (r.items) out += " i=" + std::to_string(r.items);
    out += " " + format_ms(r.median_ms);
    if (cub > 0 && r.impl != "cub") out += " (" + faster_words(cub / r.median_ms) + " than CUB)";
  }
  return out;
}

std::string noise_warning(const std::vector<Series>& series) {
  std::string names;
  double worst = 0;
  for (const Series& se : series) {
    if (!se.band) continue;
    names += (names.empty() ? "" : ", ") + se.label;
    for (std::size_t i = 0; i < se.lo.size() && i < se.hi.size(); ++i)
      if (se.lo[i] > 0) worst = std::max(worst, se.hi[i] / se.lo[i]);
  }
  if (names.empty()) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "noisy, p90 up to %.1fx p10 (shaded): ", worst);
  return buf + names + "; run again before comparing";
}

std::string baseline_summary(const PerfState& s) {
  const auto d = diff(s.results, s.baseline);
  if (d.empty()) return "no row matches the baseline yet (same primitive, impl, type, n, block)";
  std::vector<double> sp;
  for (const Diff& x : d) sp.push_back(x.speedup);
  std::sort(sp.begin(), sp.end());
  const double median = sp.size() % 2 ? sp[sp.size() / 2] : std::sqrt(sp[sp.size() / 2 - 1] * sp[sp.size() / 2]);
  return "this run is " + faster_words(median) + (std::fabs(median - 1) < 0.005 ? " as" : " than") +
         " the baseline (median of " + std::to_string(d.size()) + " matching row" + (d.size() == 1 ? "" : "s") +
         " of the same implementation, type and n)";
}

void draw_view_plot(const PerfState& s, int view, ImVec2 size) {
  const std::vector<Series> series = view_series(s, view);
  PlotSpec spec = view_spec(s, view);
  spec.warning = noise_warning(series);
  draw_plot(view == kTimeVsN ? "##time" : view == kThroughputVsN ? "##rate" : "##block", spec, series, size);
  ui::note_item("perf plot");
}

// [SECTION] Export and import
bool export_results(PerfState& s, const std::string& dir, bool png) {
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) {
    s.message = "cannot create " + dir + ": " + ec.message();
    return false;
  }
  const std::string stem = (dir.empty() ? std::string(".") : dir) + "/perf-" + slug(s.plan.primitive) + "-" + s.plan.type;
  Result r = write_json(s.results, stem + ".json");
  if (r.ok()) r = write_csv(s.results, stem + ".csv");
  if (!r.ok()) {
    s.message = r.message();
    return false;
  }
  s.message = "wrote " + stem + ".json and .csv";
  if (png) {
    const int view = s.view == kTable ? kTimeVsN : s.view;
    if (r = export_plot_png(s, view, stem + ".png", 1400, 800); !r.ok()) {
      s.message += "; PNG failed: " + r.message();
      return false;
    }
    s.message = "wrote " + stem + ".json, .csv and .png";
  }
  return true;
}

bool load_baseline(PerfState& s, const std::string& path) {
  Results r;
  if (Result read = read_json(path, &r); !read.ok()) {
    s.message = "baseline not loaded: " + read.message();
    return false;
  }
  s.baseline = std::move(r);
  if (path != s.baseline_path) std::snprintf(s.baseline_path, sizeof s.baseline_path, "%s", path.c_str());
  s.message = "baseline " + path + ": " + std::to_string(s.baseline.rows.size()) + " rows" +
              (s.baseline.gpu.empty() ? std::string() : " from " + s.baseline.gpu + " " + s.baseline.date);
  return true;
}

// [SECTION] Controls
namespace {

// The controls stack in a fixed order and keep their height while a sweep runs, ends, or a file
// is written: messages go under every button (status()), and the one line that arrives with the
// first results (the copy bandwidth) has its room from the start.

// The device (or the one notice that there is none) and the measured copy bandwidth.
void device_lines(PerfState& s) {
  if (s.has_gpu) {
    ImGui::TextWrapped("%s", s.device.c_str());
    note_widget(s.device);
  } else {
    wrapped(kWarn, s.device);
  }
  fixed_lines(2, [&] {
    char buf[96];
    if (s.results.copy_gbps > 0)
      std::snprintf(buf, sizeof buf, "%s copy: %.0f GB/s (the throughput ceiling)", s.has_gpu ? "device" : "host",
                    s.results.copy_gbps);
    else
      std::snprintf(buf, sizeof buf, "copy bandwidth: measured by the first Run");
    wrapped(kDim, buf);
  });
}

void implementation_box(PerfState& s, const Entry& e) {
  auto it = std::find(s.plan.impls.begin(), s.plan.impls.end(), e.impl);
  const bool runnable = s.has_gpu || !e.gpu;
  bool on = it != s.plan.impls.end() && runnable;
  ImGui::BeginDisabled(!runnable);
  ImGui::PushStyleColor(ImGuiCol_CheckMark, ImGui::ColorConvertU32ToFloat4(series_colour(e.impl)));
  if (ImGui::Checkbox(e.impl.c_str(), &on)) {
    if (on && it == s.plan.impls.end()) s.plan.impls.push_back(e.impl);
    else if (!on && it != s.plan.impls.end()) s.plan.impls.erase(it);
  }
  ImGui::PopStyleColor();
  ImGui::EndDisabled();
  note_widget(e.impl);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s%s%s%s", e.note.c_str(), e.takes_block ? "; takes a block size" : "",
                      e.takes_items ? "; takes items per thread" : "", runnable ? "" : "\nGPU rows need a CUDA device");
}

// The primitive, its implementations (ticked in their plot colours), type and distribution.
void choose_rows(PerfState& s) {
  std::vector<std::string> bases;
  for (const std::string& p : primitives_of(s.entries))
    if (std::find(bases.begin(), bases.end(), base_primitive(p)) == bases.end()) bases.push_back(base_primitive(p));
  const std::string base = base_primitive(s.plan.primitive), dist = distribution_of(s.plan.primitive);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##primitive", base.c_str())) {
    for (const std::string& b : bases)
      if (ImGui::Selectable(b.c_str(), b == base)) {
        s.plan.primitive = b;
        select_all(s);
      }
    ImGui::EndCombo();
  }
  note_widget(base);
  text("implementations");
  ImGui::SameLine();
  if (ImGui::SmallButton("all")) select_all(s);
  note_widget("all");
  ImGui::SameLine();
  if (ImGui::SmallButton("none")) s.plan.impls.clear();
  note_widget("none");
  for (const Entry& e : s.entries)
    if (e.primitive == s.plan.primitive) implementation_box(s, e);
  const auto types = types_of(s.entries, s.plan.primitive);
  ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
  if (ImGui::BeginCombo("element type", s.plan.type.c_str())) {
    for (const std::string& t : types)
      if (ImGui::Selectable(t.c_str(), t == s.plan.type)) s.plan.type = t;
    ImGui::EndCombo();
  }
  note_widget(s.plan.type + " element type");
  const auto dists = distributions_of(s.entries, base);
  if (dists.size() <= 1) return wrapped(kDim, "inputs: seeded uniform random (the bench's)");
  ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
  if (ImGui::BeginCombo("distribution", dist.c_str())) {
    for (const std::string& d : dists)
      if (ImGui::Selectable(d.c_str(), d == dist)) {
        s.plan.primitive = with_distribution(base, d);
        select_all(s);
      }
    ImGui::EndCombo();
  }
  note_widget(dist + " distribution");
}

// What to sweep: n from..to by x2 or x4, or the block size at one n; the GPU runs per row.
void sweep_settings(PerfState& s) {
  int mode = int(s.plan.mode);
  ImGui::RadioButton("sweep n", &mode, 0);
  note_widget("sweep n");
  ImGui::SameLine();
  ImGui::RadioButton("sweep block size", &mode, 1);
  note_widget("sweep block size");
  s.plan.mode = SweepMode(mode);
  const float w = 10 * ImGui::GetFontSize();
  auto slider = [&](const char* label, const char* item, int* v, int lo, int hi) {
    ImGui::SetNextItemWidth(w);
    // Moving a slider replaces sizes typed on perf's command line with the sliders' range.
    if (ImGui::SliderInt(label, v, lo, hi)) s.plan.sizes.clear();
    ui::note_item(item);
    note_widget(std::to_string(*v) + " " + label);
  };
  if (s.plan.mode == SweepMode::Sizes) {
    slider("from n = 2^", "perf from n", &s.plan.log2_min, 0, 30);
    slider("to n = 2^", "perf to n", &s.plan.log2_max, 0, 30);
    s.plan.log2_max = std::max(s.plan.log2_max, s.plan.log2_min);
    int step = s.plan.log2_step - 1;
    ImGui::RadioButton("n x2", &step, 0);
    note_widget("n x2");
    ImGui::SameLine();
    ImGui::RadioButton("n x4", &step, 1);
    note_widget("n x4");
    s.plan.log2_step = step + 1;
  } else {
    slider("n = 2^", "perf block n", &s.plan.block_sweep_log2_n, 10, 30);
  }
  ImGui::SetNextItemWidth(w);
  char runs_label[32];
  std::snprintf(runs_label, sizeof runs_label, s.plan.runs ? "%d runs" : "auto (~0.3 s)", s.plan.runs);
  ImGui::SliderInt("GPU runs/row", &s.plan.runs, 0, 100, runs_label);
  note_widget(std::string(runs_label) + " GPU runs/row");
}

// The sliders of the variants that take them; releasing one re-runs those variants.
void tunables(PerfState& s, bool running) {
  const float w = 10 * ImGui::GetFontSize();
  if (takes(s, true) && s.plan.mode == SweepMode::Sizes) {
    const auto sizes = block_sizes();
    int k = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] == s.plan.block) k = int(i) + 1;
    char label[32];
    if (k) std::snprintf(label, sizeof label, "%d threads", sizes[std::size_t(k) - 1]);
    else std::snprintf(label, sizeof label, "default");
    ImGui::SetNextItemWidth(w);
    ImGui::SliderInt("block size", &k, 0, int(sizes.size()), label);
    note_widget(std::string(label) + " block size");
    s.plan.block = k ? sizes[std::size_t(k) - 1] : 0;
    if (ImGui::IsItemDeactivatedAfterEdit() && !running) rerun_tunable(s);
  }
  if (takes(s, true)) {
    const std::string fixed = ignoring_block(s);
    if (!fixed.empty()) wrapped(kDim, "ignore the block size: " + fixed);
  }
  if (takes(s, false)) {
    char label[32];
    std::snprintf(label, sizeof label, s.plan.items ? "%d" : "default", s.plan.items);
    ImGui::SetNextItemWidth(w);
    ImGui::SliderInt("items/thread", &s.plan.items, 0, 32, label);
    note_widget(std::string(label) + " items/thread");
    if (ImGui::IsItemDeactivatedAfterEdit() && !running) rerun_tunable(s);
  }
}

// Run (Cancel while running) and Clear, then the progress bar with its text fitted inside.
void run_and_progress(PerfState& s, bool running) {
  const ImVec2 button(6 * ImGui::GetFontSize(), 0);
  if (!running) {
    if (ImGui::Button("Run", button)) start_sweep(s);
    ui::note_item("perf run");
    note_widget("Run");
  } else {
    ImGui::BeginDisabled(s.progress.cancelling);
    const char* label = s.progress.cancelling ? "Cancelling" : "Cancel";
    if (ImGui::Button(label, button)) cancel_sweep(s);
    ImGui::EndDisabled();
    ui::note_item("perf run");
    note_widget(label);
  }
  ImGui::SameLine();
  if (ImGui::Button("Clear results") && !running) {
    s.results.rows.clear();
    s.skipped.clear();
  }
  ui::note_item("perf clear results");
  note_widget("Clear results");
  char overlay[192];
  if (running)
    std::snprintf(overlay, sizeof overlay, "%d/%d  %s", s.progress.done, s.progress.total, s.progress.current.c_str());
  else if (s.progress.total)
    std::snprintf(overlay, sizeof overlay, "%d/%d done in %.1f s", s.progress.done, s.progress.total, s.progress.elapsed_s);
  else
    std::snprintf(overlay, sizeof overlay, "idle");
  // A blue fill rather than ImGui's yellow, so that the white text reads over it.
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImVec4(0.22f, 0.42f, 0.70f, 1.0f));
  ImGui::ProgressBar(s.progress.total ? float(s.progress.done) / float(s.progress.total) : 0.f, ImVec2(-FLT_MIN, 0), "");
  ImGui::PopStyleColor();
  ui::note_item("perf progress");
  const ImVec2 b0 = ImGui::GetItemRectMin(), b1 = ImGui::GetItemRectMax();
  const float pad = ImGui::GetStyle().FramePadding.x;
  const std::string shown = fit_text(overlay, b1.x - b0.x - 2 * pad);
  const ImVec2 ts = ImGui::CalcTextSize(shown.c_str());
  const ImVec2 at(b0.x + std::max(pad, (b1.x - b0.x - ts.x) / 2), (b0.y + b1.y - ts.y) / 2);
  ImGui::GetWindowDrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), shown.c_str());
  note_text(at, ImVec2(at.x + ts.x, at.y + ts.y), shown);
  if (shown != overlay && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", overlay);
}

void export_and_baseline(PerfState& s) {
  wrapped(kDim, "export: JSON (the bench's format), CSV, PNG of the plot");
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputText("##dir", s.export_dir, sizeof s.export_dir);
  ui::note_item("perf export dir");
  note_widget(s.export_dir);
  if (ImGui::Button("Save JSON + CSV")) export_results(s, s.export_dir, false);
  ui::note_item("perf save");
  note_widget("Save JSON + CSV");
  ImGui::SameLine();
  if (ImGui::Button("+ PNG")) export_results(s, s.export_dir, true);
  ui::note_item("perf png");
  note_widget("+ PNG");
  text("baseline (a saved JSON)");
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputText("##baseline", s.baseline_path, sizeof s.baseline_path);
  ui::note_item("perf baseline path");
  note_widget(s.baseline_path);
  if (ImGui::Button("Load baseline")) load_baseline(s, s.baseline_path);
  ui::note_item("perf load baseline");
  note_widget("Load baseline");
  ImGui::SameLine();
  if (ImGui::Button("Clear baseline")) s.baseline = Results{};
  ui::note_item("perf clear baseline");
  note_widget("Clear baseline");
  if (!s.baseline.rows.empty()) wrapped(kDim, baseline_summary(s));
}

// The last message (a file written, a load that failed) and the rows skipped or failed, with why.
void status(PerfState& s) {
  if (!s.message.empty()) {
    ImGui::TextWrapped("%s", s.message.c_str());
    note_widget(s.message);
  }
  int errors = 0;
  for (const Row& r : s.results.rows) errors += !r.error.empty();
  if (!errors && s.skipped.empty()) return;
  char head[64];
  std::snprintf(head, sizeof head, "skipped or failed (%d)", errors + int(s.skipped.size()));
  const bool open = ImGui::TreeNodeEx("skipped / failed", ImGuiTreeNodeFlags_DefaultOpen, "%s", head);
  note_widget(head);
  if (!open) return;
  for (const std::string& k : s.skipped) wrapped(kWarn, k);
  for (const Row& r : s.results.rows)
    if (!r.error.empty()) wrapped(kWarn, r.impl + " at n = " + format_n(r.n) + ": " + r.error);
  ImGui::TreePop();
}

void controls(PerfState& s) {
  const bool running = s.progress.running;
  device_lines(s);
  ImGui::Separator();
  ImGui::BeginDisabled(running);
  choose_rows(s);
  sweep_settings(s);
  ImGui::EndDisabled();
  tunables(s, running);
  ImGui::Separator();
  run_and_progress(s, running);
  ImGui::Separator();
  export_and_baseline(s);
  ImGui::Separator();
  status(s);
}

// One table cell's text in a colour (none: the default), noted for the --state-file.
void cell(const std::string& t, const ImVec4* col = nullptr) {
  ImGui::TableNextColumn();
  if (t.empty()) return;
  if (col) ImGui::TextColored(*col, "%s", t.c_str());
  else ImGui::TextUnformatted(t.c_str());
  note_widget(t);
}

// The table's columns: a header and each row's text and colour ("" leaves the cell empty). Columns
// that no shown row fills are left out, so that the others fit a 1024-pixel window.
struct Column {
  const char* header;
  std::function<std::string(const Row&)> text;
  std::function<const ImVec4*(const Row&)> colour;
};

std::vector<Column> table_columns(const std::map<std::string, double>& base) {
  static const ImVec4 faster(0.5f, 0.9f, 0.5f, 1), slower(1, 0.5f, 0.45f, 1);
  static ImVec4 impl_colour;
  auto none = [](const Row&) -> const ImVec4* { return nullptr; };
  auto noisy = [](const Row& r) { return r.ok() && r.p10_ms > 0 && r.p90_ms > kNoisySpread * r.p10_ms; };
  auto vs_base = [&base](const Row& r) {
    auto it = base.find(row_key(r));
    return it != base.end() && r.ok() ? it->second / r.median_ms : 0.0;
  };
  return {
      {"impl", [](const Row& r) { return r.impl; },
       [](const Row& r) { return &(impl_colour = ImGui::ColorConvertU32ToFloat4(series_colour(r.impl))); }},
      {"type", [](const Row& r) { return r.type; }, none},
      {"n", [](const Row& r) { return format_n(r.n); }, none},
      {"block", [](const Row& r) { return r.block ? std::to_string(r.block) : ""; }, none},
      {"items", [](const Row& r) { return r.items ? std::to_string(r.items) : ""; }, none},
      {"median", [](const Row& r) { return format_ms(r.median_ms); }, none},
      {"p10..p90",
       [noisy](const Row& r) {
         return r.ok() ? format_ms(r.p10_ms) + ".." + format_ms(r.p90_ms) + (noisy(r) ? " noisy" : "") : "";
       },
       [noisy](const Row& r) { return noisy(r) ? &kWarn : nullptr; }},
      {"elements/s", [](const Row& r) { return format_rate(r.items_per_s); }, none},
      {"GB/s",
       [](const Row& r) {
         char b[32] = "";
         if (r.gbps > 0) std::snprintf(b, sizeof b, "%.1f", r.gbps);
         return std::string(b);
       },
       none},
      {"vs CUB", [](const Row& r) { return r.ratio_to_cub > 0 ? faster_words(r.ratio_to_cub) : ""; },
       [](const Row& r) { return r.ratio_to_cub >= 1 ? &faster : &slower; }},
      {"vs baseline", [vs_base](const Row& r) { return vs_base(r) > 0 ? faster_words(vs_base(r)) : ""; },
       [vs_base](const Row& r) { return vs_base(r) >= 1 ? &faster : &slower; }},
      {"error", [](const Row& r) { return r.error; }, [](const Row&) { return &kWarn; }},
  };
}

void table(PerfState& s) {
  ImGui::Checkbox("every primitive and type", &s.table_all);
  note_widget("every primitive and type");
  std::map<std::string, double> base;
  for (const Row& r : s.baseline.rows)
    if (r.ok()) base[row_key(r)] = r.median_ms;
  std::vector<const Row*> rows;
  for (const Row& r : s.results.rows)
    if (s.table_all || (r.primitive == s.plan.primitive && r.type == s.plan.type)) rows.push_back(&r);
  std::vector<Column> columns;
  for (Column& c : table_columns(base))
    if (std::any_of(rows.begin(), rows.end(), [&](const Row* r) { return !c.text(*r).empty(); }) || rows.empty())
      columns.push_back(std::move(c));
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("rows", int(columns.size()), flags, ImVec2(0, -FLT_MIN))) return;
  for (const Column& c : columns) ImGui::TableSetupColumn(c.header);
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (std::size_t i = 0; i < columns.size(); ++i) {
    ImGui::TableSetColumnIndex(int(i));
    ImGui::TableHeader(columns[i].header);
    note_widget(columns[i].header);
  }
  for (const Row* r : rows) {
    ImGui::TableNextRow();
    for (const Column& c : columns) {
      cell(c.text(*r), c.colour(*r));
      if (std::string(c.header) == "p10..p90" && c.colour(*r) && ImGui::IsItemHovered())
        ImGui::SetTooltip("p90 is %.1fx p10: the machine was busy or has few cores; run again before comparing",
                          r->p90_ms / r->p10_ms);
    }
  }
  ImGui::EndTable();
}

}  // namespace

// [SECTION] The tab
namespace {

// The lines over a plot: the GB/s switch, what the block plot needs, the n of the answer line.
void view_header(PerfState& s, int v) {
  if (v == kThroughputVsN) {
    int g = s.throughput_gbps;
    ImGui::RadioButton("elements/s", &g, 0);
    note_widget("elements/s");
    ImGui::SameLine();
    ImGui::RadioButton("GB/s", &g, 1);
    note_widget("GB/s");
    s.throughput_gbps = g;
  }
  if (v == kTimeVsBlock && s.plan.mode != SweepMode::BlockSizes)
    wrapped(kDim, "choose 'sweep block size' and Run to fill this plot");
  if (v == kTimeVsBlock) {
    std::string flat;  // series measured once, without a block size or at their default
    for (const Series& se : view_series(s, v))
      if (se.y.size() > 1 && std::all_of(se.y.begin(), se.y.end(), [&](double y) { return y == se.y[0]; }))
        flat += (flat.empty() ? "" : ", ") + se.label;
    if (!flat.empty())
      wrapped(kDim, "flat lines ignore the block size (one run without one or at the default, drawn at every "
                    "size): " + flat);
  }
  if (v == kTimeVsN || v == kTimeVsBlock) {
    ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
    ImGui::SliderInt("##focus", &s.plan.block_sweep_log2_n, 0, 30, "n = 2^%d");
    note_widget("n = 2^" + std::to_string(s.plan.block_sweep_log2_n));
    ImGui::SameLine();
    // Two lines kept for the answer, so that the plot under it does not jump as rows arrive.
    fixed_lines(2, [&] {
      const std::string answer = verdict(s);
      ImGui::TextWrapped("%s", answer.c_str());
      note_widget(answer);
    });
  }
}

}  // namespace

void draw_perf_tab(PerfState& s) {
  poll_sweep(s);
  drawn_texts() = DrawnTexts{};
  const float left = 22 * ImGui::GetFontSize();
  // The scrollbar's room is kept while the controls fit, so that a row of results or a loaded
  // baseline that makes them scroll does not narrow every field under the user's mouse.
  ImGui::BeginChild("perf_controls", ImVec2(left, 0), true, ImGuiWindowFlags_AlwaysVerticalScrollbar);
  controls(s);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("perf_views", ImVec2(0, 0), false);
  if (ImGui::BeginTabBar("perf_view_tabs")) {
    const char* names[] = {"Time vs n", "Throughput vs n", "Time vs block size", "Table"};
    for (int v = 0; v < 4; ++v) {
      const ImGuiTabItemFlags f = s.view_request == v ? ImGuiTabItemFlags_SetSelected : 0;
      const bool open = ImGui::BeginTabItem(names[v], nullptr, f);
      ui::note_item((std::string("perf view ") + names[v]).c_str());
      note_widget(names[v]);
      if (!open) continue;
      s.view = v;
      view_header(s, v);
      if (v == kTable) table(s);
      else draw_view_plot(s, v, ImVec2(-1, -1));
      ImGui::EndTabItem();
    }
    s.view_request = -1;
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
}

}  // namespace primlab::perf
