// The Performance tab over PerfState: controls on the left, the plots and the table on the right.
#include "ui/perf_tab.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "engine/table.h"
#include "ui/labels.h"
#include "ui/perf_render.h"

namespace primlab::perf {
namespace {

const ImVec4 kWarn(1.0f, 0.78f, 0.35f, 1.0f);
const ImVec4 kDim(0.65f, 0.65f, 0.70f, 1.0f);

void wrapped(const ImVec4& col, const std::string& text) { ui::text_wrapped(col, text); }

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

// Series in the order of the table's entries (stable legend order), then any others.
std::vector<Series> group(const PerfState& s, const Results& r, const std::function<bool(const Row&)>& keep,
                          const std::function<double(const Row&)>& x, const std::function<double(const Row&)>& y,
                          bool dashed) {
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
      se.x.push_back(x(*row));
      se.y.push_back(y(*row));
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
          [&](const Row& x) { return view == kTimeVsN ? x.median_ms : gbps ? x.gbps : x.items_per_s; }, base == 1);
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
          const double y = se.y[0];
          se.x.clear();
          se.y.clear();
          for (int b : block_sizes()) se.x.push_back(double(b)), se.y.push_back(y);
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

PlotSpec view_spec(const PerfState& s, int view) {
  PlotSpec p;
  const std::string what = s.plan.primitive + ", " + s.plan.type;
  const std::string& gpu = s.results.gpu;
  const std::string where = gpu.empty() ? std::string() : gpu.rfind("none", 0) == 0 ? " (CPU only)" : " on " + gpu;
  p.x = Axis{"n (elements)", true, TickFormat::Pow2};
  p.ratio_to = "cub";
  p.y_is_time = view != kThroughputVsN;
  if (view == kTimeVsN) {
    p.title = "time vs n: " + what + where + " (lower is faster)";
    p.y = Axis{"median time", true, TickFormat::Time};
  } else if (view == kThroughputVsN) {
    p.title = "throughput vs n: " + what + where + " (higher is faster)";
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
    p.title = "time vs block size at n = " + format_n(std::int64_t(1) << s.plan.block_sweep_log2_n) + ": " + what + where;
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
    if (cub > 0 && r.impl != "cub") {
      char buf[32];
      std::snprintf(buf, sizeof buf, " (x%.2f CUB)", cub / r.median_ms);
      out += buf;
    }
  }
  return out;
}

void draw_view_plot(const PerfState& s, int view, ImVec2 size) {
  draw_plot(view == kTimeVsN ? "##time" : view == kThroughputVsN ? "##rate" : "##block", view_spec(s, view),
            view_series(s, view), size);
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

void controls(PerfState& s) {
  const bool running = s.progress.running;
  // The device, or the one notice that there is none (which says that GPU rows need one).
  if (s.has_gpu) ImGui::TextWrapped("%s", s.device.c_str());
  else wrapped(kWarn, s.device);
  if (s.results.copy_gbps > 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s copy: %.0f GB/s (the throughput ceiling)", s.has_gpu ? "device" : "host",
                  s.results.copy_gbps);
    wrapped(kDim, buf);
  }
  ImGui::Separator();

  ImGui::BeginDisabled(running);
  // The primitive without its distribution, then the distributions the table has for it.
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
  ImGui::TextUnformatted("implementations");
  ImGui::SameLine();
  if (ImGui::SmallButton("all")) select_all(s);
  ImGui::SameLine();
  if (ImGui::SmallButton("none")) s.plan.impls.clear();
  for (const Entry& e : s.entries) {
    if (e.primitive != s.plan.primitive) continue;
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
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s%s%s%s", e.note.c_str(), e.takes_block ? "; takes a block size" : "",
                        e.takes_items ? "; takes items per thread" : "",
                        runnable ? "" : "\nGPU rows need a CUDA device");
  }

  const auto types = types_of(s.entries, s.plan.primitive);
  ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
  if (ImGui::BeginCombo("element type", s.plan.type.c_str())) {
    for (const std::string& t : types)
      if (ImGui::Selectable(t.c_str(), t == s.plan.type)) s.plan.type = t;
    ImGui::EndCombo();
  }
  const auto dists = distributions_of(s.entries, base);
  if (dists.size() > 1) {
    ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
    if (ImGui::BeginCombo("distribution", dist.c_str())) {
      for (const std::string& d : dists)
        if (ImGui::Selectable(d.c_str(), d == dist)) {
          s.plan.primitive = with_distribution(base, d);
          select_all(s);
        }
      ImGui::EndCombo();
    }
  } else {
    wrapped(kDim, "inputs: seeded uniform random (the bench's)");
  }

  int mode = int(s.plan.mode);
  ImGui::RadioButton("sweep n", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("sweep block size", &mode, 1);
  s.plan.mode = SweepMode(mode);
  const float w = 10 * ImGui::GetFontSize();
  if (s.plan.mode == SweepMode::Sizes) {
    ImGui::SetNextItemWidth(w);
    ImGui::SliderInt("from n = 2^", &s.plan.log2_min, 0, 30);
    ImGui::SetNextItemWidth(w);
    ImGui::SliderInt("to n = 2^", &s.plan.log2_max, 0, 30);
    s.plan.log2_max = std::max(s.plan.log2_max, s.plan.log2_min);
    int step = s.plan.log2_step - 1;
    ImGui::RadioButton("n x2", &step, 0);
    ImGui::SameLine();
    ImGui::RadioButton("n x4", &step, 1);
    s.plan.log2_step = step + 1;
  } else {
    ImGui::SetNextItemWidth(w);
    ImGui::SliderInt("n = 2^", &s.plan.block_sweep_log2_n, 10, 30);
  }
  ImGui::SetNextItemWidth(w);
  char runs_label[32];
  std::snprintf(runs_label, sizeof runs_label, s.plan.runs ? "%d runs" : "auto (~0.3 s)", s.plan.runs);
  ImGui::SliderInt("GPU runs/row", &s.plan.runs, 0, 100, runs_label);
  ImGui::EndDisabled();

  // The sliders of the variants that take them; releasing one re-runs those variants.
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
    if (ImGui::IsItemDeactivatedAfterEdit() && !running) rerun_tunable(s);
  }

  ImGui::Separator();
  if (!running) {
    if (ImGui::Button("Run", ImVec2(6 * ImGui::GetFontSize(), 0))) start_sweep(s);
  } else {
    ImGui::BeginDisabled(s.progress.cancelling);
    if (ImGui::Button(s.progress.cancelling ? "Cancelling" : "Cancel", ImVec2(6 * ImGui::GetFontSize(), 0)))
      cancel_sweep(s);
    ImGui::EndDisabled();
  }
  ImGui::SameLine();
  if (ImGui::Button("Clear results") && !running) {
    s.results.rows.clear();
    s.skipped.clear();
  }
  char overlay[160];
  if (running)
    std::snprintf(overlay, sizeof overlay, "%d/%d  %s", s.progress.done, s.progress.total, s.progress.current.c_str());
  else if (s.progress.total)
    std::snprintf(overlay, sizeof overlay, "%d/%d done in %.1f s", s.progress.done, s.progress.total, s.progress.elapsed_s);
  else
    std::snprintf(overlay, sizeof overlay, "idle");
  ImGui::ProgressBar(s.progress.total ? float(s.progress.done) / float(s.progress.total) : 0.f, ImVec2(-FLT_MIN, 0),
                     overlay);
  if (!s.message.empty()) ImGui::TextWrapped("%s", s.message.c_str());
  // Rows that failed or were skipped, with the reason.
  int errors = 0;
  for (const Row& r : s.results.rows) errors += !r.error.empty();
  if ((errors || !s.skipped.empty()) &&
      ImGui::TreeNodeEx("skipped / failed", ImGuiTreeNodeFlags_DefaultOpen, "skipped or failed (%d)",
                        errors + int(s.skipped.size()))) {
    for (const std::string& k : s.skipped) wrapped(kWarn, k);
    for (const Row& r : s.results.rows)
      if (!r.error.empty()) wrapped(kWarn, r.impl + " at n = " + format_n(r.n) + ": " + r.error);
    ImGui::TreePop();
  }

  ImGui::Separator();
  ImGui::TextWrapped("export: JSON (the bench's format), CSV, PNG of the plot");
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputText("##dir", s.export_dir, sizeof s.export_dir);
  if (ImGui::Button("Save JSON + CSV")) export_results(s, s.export_dir, false);
  ImGui::SameLine();
  if (ImGui::Button("+ PNG")) export_results(s, s.export_dir, true);
  ImGui::TextUnformatted("baseline (a saved JSON)");
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputText("##baseline", s.baseline_path, sizeof s.baseline_path);
  if (ImGui::Button("Load baseline")) load_baseline(s, s.baseline_path);
  ImGui::SameLine();
  if (ImGui::Button("Clear baseline")) s.baseline = Results{};
  if (!s.baseline.rows.empty()) {
    const auto d = diff(s.results, s.baseline);
    if (!d.empty()) {
      std::vector<double> sp;
      for (const Diff& x : d) sp.push_back(x.speedup);
      std::sort(sp.begin(), sp.end());
      char buf[128];
      std::snprintf(buf, sizeof buf, "%zu rows match the baseline; median speedup x%.2f", d.size(), sp[sp.size() / 2]);
      wrapped(kDim, buf);
    } else {
      wrapped(kDim, "no row matches the baseline yet (same primitive, impl, type, n, block)");
    }
  }
}

void table(PerfState& s) {
  ImGui::Checkbox("every primitive and type", &s.table_all);
  std::map<std::string, double> base;
  for (const Row& r : s.baseline.rows)
    if (r.ok()) base[row_key(r)] = r.median_ms;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("rows", 12, flags, ImVec2(0, -FLT_MIN))) return;
  for (const char* h : {"impl", "type", "n", "block", "items", "median", "p10..p90", "elements/s", "GB/s", "x CUB",
                        "vs baseline", "error"})
    ImGui::TableSetupColumn(h);
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableHeadersRow();
  for (const Row& r : s.results.rows) {
    if (!s.table_all && (r.primitive != s.plan.primitive || r.type != s.plan.type)) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series_colour(r.impl)), "%s", r.impl.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.type.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_n(r.n).c_str());
    ImGui::TableNextColumn();
    if (r.block) ImGui::Text("%d", r.block);
    ImGui::TableNextColumn();
    if (r.items) ImGui::Text("%d", r.items);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_ms(r.median_ms).c_str());
    ImGui::TableNextColumn();
    if (r.ok()) ImGui::Text("%s..%s", format_ms(r.p10_ms).c_str(), format_ms(r.p90_ms).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_rate(r.items_per_s).c_str());
    ImGui::TableNextColumn();
    if (r.gbps > 0) ImGui::Text("%.1f", r.gbps);
    ImGui::TableNextColumn();
    if (r.ratio_to_cub > 0) ImGui::Text("%.2f", r.ratio_to_cub);
    ImGui::TableNextColumn();
    auto it = base.find(row_key(r));
    if (it != base.end() && r.ok()) {
      const double sp = it->second / r.median_ms;
      ImGui::TextColored(sp >= 1 ? ImVec4(0.5f, 0.9f, 0.5f, 1) : ImVec4(1, 0.5f, 0.45f, 1), "x%.2f", sp);
    }
    ImGui::TableNextColumn();
    if (!r.error.empty()) ImGui::TextColored(kWarn, "%s", r.error.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

// [SECTION] The tab
void draw_perf_tab(PerfState& s) {
  poll_sweep(s);
  const float left = 22 * ImGui::GetFontSize();
  ImGui::BeginChild("perf_controls", ImVec2(left, 0), true);
  controls(s);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("perf_views", ImVec2(0, 0), false);
  if (ImGui::BeginTabBar("perf_view_tabs")) {
    const char* names[] = {"Time vs n", "Throughput vs n", "Time vs block size", "Table"};
    for (int v = 0; v < 4; ++v) {
      const ImGuiTabItemFlags f = s.view_request == v ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(names[v], nullptr, f)) {
        s.view = v;
        if (v == kThroughputVsN) {
          int g = s.throughput_gbps;
          ImGui::RadioButton("elements/s", &g, 0);
          ImGui::SameLine();
          ImGui::RadioButton("GB/s", &g, 1);
          s.throughput_gbps = g;
        }
        if (v == kTimeVsBlock && s.plan.mode != SweepMode::BlockSizes)
          ui::text(kDim, "choose 'sweep block size' and Run to fill this plot");
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
          ImGui::SameLine();
          ui::text_wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), verdict(s));
        }
        if (v == kTable) table(s);
        else draw_view_plot(s, v, ImVec2(-1, -1));
        ImGui::EndTabItem();
      }
    }
    s.view_request = -1;
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
}

}  // namespace primlab::perf
