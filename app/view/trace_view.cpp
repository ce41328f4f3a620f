// TraceView: layout, shader programs and the draw calls of the trace view.
#include "view/trace_view.h"

#include <algorithm>
#include <cmath>

#include "view/palette.h"
#include "view/step_labels.h"

namespace primlab::view {

namespace {
// The overview strip is drawn when the row has this many elements, or when zoomed in.
constexpr int kOverviewFrom = 64;
// Under the overview, a line for its hint (drawn by the UI).
constexpr float kOverviewHintH = 14.f;
// The view's parts at their roomiest, and squeezed for a short view (a race pane, a small screen).
struct Spacing {
  float overview_h, overview_gap, arc_room, strip_h, strip_gap;
};
constexpr Spacing kRoomy{24.f, 6.f, 44.f, 20.f, 6.f}, kTight{18.f, 3.f, 26.f, 15.f, 2.f};
constexpr float kLabelH = 14.f, kBottom = 8.f;
// The bars keep at least this height; strips that do not fit beside it are left out.
constexpr float kMinBars = 40.f;
}  // namespace

Axis element_axis(const Trace& meta) {
  // Padding that moves with the keys holds no place of its own: every place is one unit.
  if (meta.has_pad_key) return padded_axis(element_extent(meta), 0);
  return padded_axis(meta.n, element_extent(meta) - meta.n);
}

Axis row_axis(const Trace& meta, std::size_t row) {
  if (row >= meta.rows.size()) return padded_axis(std::max(meta.width, 1), 0);
  const RowInfo& r = meta.rows[row];
  if (!r.element_space) return padded_axis(std::max(r.length, 1), 0);
  return element_axis(meta);
}

bool follows_window(const Trace& meta, int step, std::size_t row) {
  if (meta.steps.empty() || row >= meta.rows.size()) return false;
  const RowInfo& f = meta.rows[std::size_t(meta.steps[std::size_t(step)].focus_row)];
  const RowInfo& r = meta.rows[row];
  return f.element_space ? r.element_space : !r.element_space && r.length == f.length;
}

ViewLayout layout_view(const Trace& meta, int step, Rect rect, const ViewOptions& opt) {
  ViewLayout l;
  const int focus = meta.steps.empty() ? 0 : meta.steps[std::size_t(step)].focus_row;
  const float name_w = opt.name_w > 0 ? std::min(opt.name_w, rect.w * 0.5f) : std::min(120.f, rect.w * 0.2f);
  l.axis = row_axis(meta, std::size_t(focus));
  l.window = clamp_window(opt.window, l.axis.units());
  // The overview of the whole focus row: for a long row, or one zoomed in.
  bool overview = l.axis.cells() >= kOverviewFrom || !whole_row(opt.window, l.axis.units());
  std::vector<std::size_t> strip_rows;
  for (std::size_t r = 0; r < meta.rows.size(); ++r)
    if (int(r) != focus && r != kRowTouch && r != kRowOwner) strip_rows.push_back(r);
  // [SECTION] Sorting network: a panel of about 40% of the height under the strips.
  const float net_h = meta.network ? std::max(60.f, rect.h * 0.4f) : 0.f;
  // The bars' height with spacing z and the first k strips.
  auto bars_h = [&](const Spacing& z, std::size_t k) {
    const float top = overview ? z.overview_h + z.overview_gap + kOverviewHintH : 0.f;
    return rect.h - top - z.arc_room - kLabelH - 6.f - float(k) * (z.strip_h + z.strip_gap) - kBottom - net_h;
  };
  const Spacing z = bars_h(kRoomy, strip_rows.size()) >= kMinBars ? kRoomy : kTight;
  // A view too short for the bars beside the overview leaves the overview out (the wheel still
  // zooms).
  if (overview && bars_h(z, 0) < kMinBars) overview = false;
  std::size_t shown = strip_rows.size();
  // Strips left out: the last ones, and one more slot for the line that says so (where there is
  // room for it).
  auto with_note = [&](std::size_t k) { return k + (k < strip_rows.size() ? 1 : 0); };
  while (shown > 0 && bars_h(z, with_note(shown)) < kMinBars) --shown;
  l.hidden_rows = int(strip_rows.size() - shown);
  const bool note = l.hidden_rows > 0 && bars_h(z, shown + 1) >= kMinBars;
  const float overview_h = overview ? z.overview_h : 0.f, top = rect.y + (overview ? overview_h + z.overview_gap + kOverviewHintH : 0.f);
  l.strip_h = z.strip_h;
  if (overview) l.overview = {rect.x + name_w, rect.y + 2.f, rect.w - name_w - 8.f, overview_h - 2.f};
  const std::size_t slots = shown + (note ? 1 : 0);
  l.bars = {rect.x + name_w, top + z.arc_room, rect.w - name_w - 8.f, std::max(8.f, bars_h(z, slots))};
  if (l.axis.padding > 0) {
    const float px = l.bars.w / l.window.count;
    const float x0 = std::max(l.bars.x + (float(l.axis.real) - l.window.first) * px, l.bars.x);
    const float x1 = std::min(l.bars.x + (l.axis.units() - l.window.first) * px, l.bars.x + l.bars.w);
    if (x1 > x0) l.padding = {x0, l.bars.y, x1 - x0, l.bars.h};
  }
  l.arcs_y = top;
  l.label_y = l.bars.y + l.bars.h + 3.f;
  l.label_h = kLabelH;
  l.row_y.assign(meta.rows.size(), -1.f);
  float y = l.label_y + kLabelH + 6.f;
  for (std::size_t k = 0; k < shown; ++k) {
    l.row_y[strip_rows[k]] = y;
    y += l.strip_h + z.strip_gap;
  }
  if (note) {
    l.hidden_y = y;
    y += l.strip_h + z.strip_gap;
  }
  if (meta.network) {
    // A title line (drawn by the UI), then the passes.
    l.network = {l.bars.x, y + 2.f + kNetworkTitleH, l.bars.w, net_h - 8.f - kNetworkTitleH};
    y += net_h;
  }
  l.bottom = y;
  return l;
}

float RowGeometry::unit_of(float i) const {
  return padded && i > float(real) ? float(real) + (i - float(real)) * pad_k : i;
}

float RowGeometry::cell_of(float u) const {
  return padded && u > float(real) ? float(real) + (u - float(real)) / pad_k : u;
}

RowGeometry row_geometry(const Trace& meta, int step, const ViewLayout& l, std::size_t row) {
  RowGeometry g;
  g.bars_x = l.bars.x;
  g.bars_w = l.bars.w;
  if (row >= meta.rows.size()) return g;
  const RowInfo& r = meta.rows[row];
  const Axis elems = element_axis(meta);
  g.padded = r.element_space && elems.padding > 0;
  g.real = g.padded ? elems.real : r.length;
  g.cells = r.element_space ? std::min(r.length, elems.cells()) : r.length;
  g.pad_k = elems.pad_width();
  const float units = g.padded ? elems.units() : float(std::max(r.length, 1));
  g.win = follows_window(meta, step, row) ? l.window : ViewWindow{0.f, units};
  return g;
}

int cell_at(const Trace& meta, int step, const ViewLayout& l, std::size_t row, float x) {
  if (row >= meta.rows.size() || x < l.bars.x || x >= l.bars.x + l.bars.w) return -1;
  const RowGeometry g = row_geometry(meta, step, l, row);
  const int i = int(std::floor(g.index_at(x)));
  return i >= 0 && i < g.cells ? i : -1;
}

std::vector<ValueLabel> value_labels(const Trace& meta, int step, const ViewLayout& l, const ViewOptions& opt,
                                     const TraceBuffers& buf) {
  std::vector<ValueLabel> out;
  const std::vector<LabelTexel>& texels = buf.step_label_texels();
  if (!opt.labels || meta.steps.empty() || texels.size() < meta.step_words()) return out;
  const std::vector<int>& chars = buf.label_chars();
  auto row_labels = [&](std::size_t r, float y0, float h) {
    const RowGeometry g = row_geometry(meta, step, l, r);
    const int longest = r < chars.size() ? chars[r] : 0;
    const float s = std::floor(std::min(h / 7.f, (g.unit_w() - 2.f) / float(4 * longest + 1)));
    if (s < 1.f) return;
    const int first = std::max(0, int(std::floor(g.index_at(l.bars.x)))),
              last = std::min(std::min(g.cells, meta.width), int(std::ceil(g.index_at(l.bars.x + l.bars.w))) + 1);
    for (int i = first; i < last; ++i) {
      const LabelTexel& tx = texels[r * std::size_t(meta.width) + std::size_t(i)];
      const int len = label_length(tx);
      const float cw = g.cell_w(i);
      if (len == 0 || s * float(4 * len + 1) + 2.f > cw) continue;
      const float w = (4.f * float(len) - 1.f) * s, gh = 5.f * s;
      const float x = std::floor(g.cell_left(i) + 0.5f * (cw - w) + 0.5f), y = std::floor(y0 + 0.5f * (h - gh) + 0.5f);
      // Only whole labels: one that the bars' edge would cut is left out (common.glsl's label_of).
      if (x < l.bars.x || x + w > l.bars.x + l.bars.w) continue;
      out.push_back({Rect{x, y, w, gh}, unpack_label(tx), int(r), i});
    }
  };
  row_labels(std::size_t(meta.steps[std::size_t(step)].focus_row), l.label_y, l.label_h);
  for (std::size_t r = 0; r < meta.rows.size() && r < 16; ++r)
    if (l.row_y[r] >= 0) row_labels(r, l.row_y[r], l.strip_h);
  return out;
}

RowRange bar_range(const TraceBuffers& buf, std::size_t row, const ViewOptions& opt) {
  const std::vector<RowRange>& r = opt.scale_per_step && !buf.step_ranges().empty() ? buf.step_ranges() : buf.ranges;
  return row < r.size() ? r[row] : RowRange{};
}

namespace {
// Compiles one shader into `shader`; a failure carries the compiler's log.
Result compile(GLenum kind, const std::string& src, GLuint& shader) {
  GLuint s = glCreateShader(kind);
  const char* p = src.c_str();
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    glDeleteShader(s);
    return Result::failure(log);
  }
  shader = s;
  return {};
}
}  // namespace

Result TraceView::build(GlObject& p, const char* vert, const char* frag) {
  const std::string head = std::string("#version 330 core\n") + palette_glsl() + shader_source("common.glsl");
  GLuint vs = 0, fs = 0;
  if (Result r = compile(GL_VERTEX_SHADER, head + shader_source(vert), vs); !r.ok())
    return Result::failure(std::string(vert) + ": " + r.message());
  if (Result r = compile(GL_FRAGMENT_SHADER, head + shader_source(frag), fs); !r.ok()) {
    glDeleteShader(vs);
    return Result::failure(std::string(frag) + ": " + r.message());
  }
  p = GlObject(GlKind::Program);
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    return Result::failure(std::string(vert) + " + " + frag + ": " + log);
  }
  return {};
}

Result TraceView::init() {
  const struct {
    GlObject* program;
    const char *vert, *frag;
  } programs[] = {{&bands_, "quad.vert", "bands.frag"},
                  {&bars_, "quad.vert", "bars.frag"},
                  {&ops_, "ops.vert", "ops.frag"},
                  {&labels_, "labels.vert", "labels.frag"},
                  {&network_, "network.vert", "network.frag"}};
  for (const auto& p : programs)
    if (Result r = build(*p.program, p.vert, p.frag); !r.ok()) return r;
  vao_ = GlObject(GlKind::VertexArray);
  return {};
}

void TraceView::set_common(GLuint prog, const Trace& meta, const TraceBuffers& buf, int step, const ViewLayout& l,
                           const ViewOptions& opt, float fb_w, float fb_h) {
  auto loc = [&](const char* n) { return glGetUniformLocation(prog, n); };
  const ViewWindow win = clamp_window(opt.window, l.axis.units());
  const Axis elems = element_axis(meta);
  glUniform2f(loc("u_viewport"), fb_w, fb_h);
  glUniform4f(loc("u_bars"), l.bars.x, l.bars.y, l.bars.w, l.bars.h);
  glUniform2f(loc("u_win"), win.first, win.count);
  glUniform1i(loc("u_values"), 0);
  glUniform1i(loc("u_ops"), 1);
  glUniform1i(loc("u_labels"), 2);
  glUniform1i(loc("u_touch"), 3);
  glUniform1i(loc("u_width"), meta.width);
  glUniform1i(loc("u_n"), elems.real);  // the places before the padding (all of them where pads move)
  glUniform1i(loc("u_elems"), elems.cells());
  glUniform1ui(loc("u_pad_key"), meta.pad_key);
  // As is_padding tells it (lab/model/trace.h).
  const bool by_key = meta.has_pad_key && step >= meta.pad_step;
  glUniform1i(loc("u_pad_mode"), !by_key ? 0 : meta.pad_key_in_input ? 2 : 1);
  glUniform1i(loc("u_pad_from"), meta.n);
  glUniform1f(loc("u_pad_k"), elems.pad_width());
  glUniform1i(loc("u_labels_on"), opt.labels);
  glUniform1f(loc("u_label_y"), l.label_y);
  glUniform1f(loc("u_label_h"), l.label_h);
  glUniform1i(loc("u_step"), step);
  glUniform1i(loc("u_step_words"), GLint(meta.step_words()));
  glUniform1i(loc("u_focus"), meta.steps[std::size_t(step)].focus_row);
  glUniform1i(loc("u_block"), meta.block);
  glUniform1i(loc("u_ept"), meta.elems_per_thread);
  glUniform1f(loc("u_strip_h"), l.strip_h);
  glUniform1f(loc("u_min_band_px"), kMinBandPx);
  const std::size_t rows = std::min<std::size_t>(meta.rows.size(), 16);
  float row_y[16], range[32];
  GLint type[16], len[16], elem[16], follows[16], chars[16], pad_key[16];
  for (std::size_t r = 0; r < 16; ++r) {
    const bool have = r < rows;
    const RowRange rr = have ? bar_range(buf, r, opt) : RowRange{};
    row_y[r] = have ? l.row_y[r] : -1.f;
    type[r] = !have                                   ? 0
              : meta.rows[r].kind == RowKind::TagCount ? 3
              : meta.rows[r].type == ElemType::F32     ? 1
              : meta.rows[r].type == ElemType::U32     ? 2
                                                       : 0;
    len[r] = have ? meta.rows[r].length : 0;
    elem[r] = have ? meta.rows[r].element_space : 0;
    follows[r] = have && follows_window(meta, step, r);
    pad_key[r] = have && pads_by_key(meta, r);
    chars[r] = r < buf.label_chars().size() ? buf.label_chars()[r] : 0;
    range[2 * r] = rr.lo;
    range[2 * r + 1] = rr.hi;
  }
  glUniform1fv(loc("u_row_y"), 16, row_y);
  glUniform1iv(loc("u_row_type"), 16, type);
  glUniform1iv(loc("u_row_len"), 16, len);
  glUniform1iv(loc("u_row_elem"), 16, elem);
  glUniform1iv(loc("u_row_win"), 16, follows);
  glUniform1iv(loc("u_row_pad_key"), 16, pad_key);
  glUniform1iv(loc("u_label_chars"), 16, chars);
  glUniform2fv(loc("u_range"), 16, range);
}

void TraceView::draw(const Trace& meta, TraceBuffers& buf, int step, const ViewOptions& opt, float fb_w, float fb_h,
                     Rect rect) {
  if (meta.steps.empty() || step < 0 || step >= int(meta.steps.size()) || meta.width <= 0) return;
  buf.prepare_step(meta, step);
  const int focus = meta.steps[std::size_t(step)].focus_row;
  const ViewLayout l = layout_view(meta, step, rect, opt);
  const ViewWindow win = l.window;
  const float elem_px = l.bars.w / win.count;
  glBindVertexArray(vao_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, buf.values_texture());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_BUFFER, buf.ops_texture());
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_BUFFER, buf.labels_texture());
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_BUFFER, buf.touch_texture());
  glActiveTexture(GL_TEXTURE0);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  auto quad = [&](GLuint prog, const Rect& area) {
    glUniform4f(glGetUniformLocation(prog, "u_area"), area.x, area.y, area.w, area.h);
    glDrawArrays(GL_TRIANGLES, 0, 6);
  };

  // The overview: the whole focus row in its own strip, the visible window marked.
  if (l.overview.h > 0) {
    glUseProgram(bars_);
    ViewLayout whole = l;
    whole.bars = l.overview;
    ViewOptions all = opt;
    all.window = {};
    set_common(bars_, meta, buf, step, whole, all, fb_w, fb_h);
    glUniform1i(glGetUniformLocation(bars_, "u_mode"), 2);
    glUniform2f(glGetUniformLocation(bars_, "u_sel"), win.first, win.count);
    quad(bars_, l.overview);
  }

  // Everything in element space is clipped to the columns of the bars.
  glEnable(GL_SCISSOR_TEST);
  glScissor(GLint(l.bars.x), 0, GLsizei(l.bars.w + 0.5f), GLsizei(fb_h));
  if (opt.bands && meta.rows[std::size_t(focus)].element_space) {
    glUseProgram(bands_);
    set_common(bands_, meta, buf, step, l, opt, fb_w, fb_h);
    const std::vector<std::int32_t>& seg = meta.steps[std::size_t(step)].bands;
    const bool own = seg.size() >= 2 && seg.size() <= 9;
    glUniform1i(glGetUniformLocation(bands_, "u_nseg"), own ? GLint(seg.size()) - 1 : 0);
    if (own) glUniform1iv(glGetUniformLocation(bands_, "u_seg"), GLsizei(seg.size()), seg.data());
    quad(bands_, l.bars);
  }

  glUseProgram(bars_);
  set_common(bars_, meta, buf, step, l, opt, fb_w, fb_h);
  const GLint bars_mode = glGetUniformLocation(bars_, "u_mode"), bars_row = glGetUniformLocation(bars_, "u_row");
  glUniform1i(bars_mode, 0);
  quad(bars_, l.bars);
  glUniform1i(bars_mode, 1);
  for (std::size_t r = 0; r < meta.rows.size() && r < 16; ++r) {
    if (l.row_y[r] < 0) continue;
    glUniform1i(bars_row, GLint(r));
    quad(bars_, Rect{l.bars.x, l.row_y[r], l.bars.w, l.strip_h});
  }

  if (opt.labels) {
    glUseProgram(labels_);
    set_common(labels_, meta, buf, step, l, opt, fb_w, fb_h);
    const GLint mode = glGetUniformLocation(labels_, "u_mode"), row = glGetUniformLocation(labels_, "u_row"),
                base = glGetUniformLocation(labels_, "u_base");
    // The rows that show the window draw only the labels in it.
    const GLint first = GLint(std::floor(l.axis.cell_of(win.first)));
    const GLint last = std::min(GLint(std::ceil(l.axis.cell_of(win.first + win.count))) + 1, GLint(l.axis.cells()));
    auto draw_row = [&](std::size_t r) {
      const bool windowed = follows_window(meta, step, r);
      glUniform1i(row, GLint(r));
      glUniform1i(base, windowed ? first : 0);
      const GLint count = windowed ? last - first : std::min(meta.rows[r].length, meta.width);
      if (count > 0) glDrawArraysInstanced(GL_TRIANGLES, 0, 6, count);
    };
    glUniform3f(glGetUniformLocation(labels_, "u_ink"), 0.92f, 0.92f, 0.95f);
    glUniform1i(mode, 0);
    draw_row(std::size_t(focus));
    glUniform3f(glGetUniformLocation(labels_, "u_ink"), 0.05f, 0.05f, 0.1f);
    glUniform1i(mode, 1);
    for (std::size_t r = 0; r < meta.rows.size() && r < 16; ++r)
      if (l.row_y[r] >= 0) draw_row(r);
  }

  const Step& st = meta.steps[std::size_t(step)];
  if (opt.arrows && st.op_count() > 0 && elem_px >= kMinArrowPx) {
    glUseProgram(ops_);
    set_common(ops_, meta, buf, step, l, opt, fb_w, fb_h);
    glUniform1i(glGetUniformLocation(ops_, "u_op_begin"), GLint(st.op_begin));
    glUniform1f(glGetUniformLocation(ops_, "u_arcs_top"), l.arcs_y);
    glUniform2i(glGetUniformLocation(ops_, "u_highlight"), opt.highlight_row, opt.highlight_index);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 12 * 6 + 3, GLsizei(st.op_count()));
  }
  if (meta.network && l.network.h > 0) draw_network(meta, buf, step, l, opt, fb_w, fb_h);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(0);
  glBindVertexArray(0);
}

// [SECTION] Sorting network
// The passes of the network are the steps whose phase ends in "pass" (one CompareSwap op slot a
// thread, as bitonic sort plans them); each gets a row of the panel, in step order.
std::vector<NetworkPass> network_passes(const Trace& meta, int step, const Rect& panel) {
  std::vector<NetworkPass> out;
  std::string prev_stage;
  for (std::size_t s = 0; s < meta.steps.size() && out.size() < std::size_t(kMaxNetworkPasses); ++s) {
    const Step& st = meta.steps[s];
    const std::string& ph = st.phase;
    if (ph.size() < 4 || ph.compare(ph.size() - 4, 4, "pass") != 0 || st.ops_per_thread != 1) continue;
    NetworkPass p;
    p.step = int(s);
    p.stage = st.label.substr(0, st.label.find(','));
    const std::size_t at = st.label.find("stride ");
    p.pass = at == std::string::npos ? "" : st.label.substr(at, st.label.find_first_not_of("0123456789", at + 7) - at);
    p.stage_start = p.stage != prev_stage;
    p.global = ph.rfind("global", 0) == 0;
    prev_stage = p.stage;
    out.push_back(p);
  }
  // Rows top down in step order; the current pass gets kNetworkMagnify rows' height (network.vert).
  int current = -1;
  for (std::size_t k = 0; k < out.size(); ++k)
    if (out[k].step == step) current = int(k);
  const float unit = panel.h / (float(std::max<std::size_t>(out.size(), 1)) + (current >= 0 ? kNetworkMagnify - 1.f : 0.f));
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k].current = int(k) == current;
    out[k].y = panel.y + unit * (float(k) + (current >= 0 && int(k) > current ? kNetworkMagnify - 1.f : 0.f));
    out[k].h = unit * (out[k].current ? kNetworkMagnify : 1.f);
  }
  return out;
}

void TraceView::draw_network(const Trace& meta, const TraceBuffers& buf, int step, const ViewLayout& l,
                             const ViewOptions& opt, float fb_w, float fb_h) {
  const std::vector<NetworkPass> net = network_passes(meta, step, l.network);
  if (net.empty()) return;
  GLint begin[kMaxNetworkPasses], steps[kMaxNetworkPasses], flags[kMaxNetworkPasses];
  int current = -1;
  GLsizei comps = 0;
  const int passes = int(net.size());
  for (int k = 0; k < passes; ++k) {
    const Step& st = meta.steps[std::size_t(net[std::size_t(k)].step)];
    begin[k] = GLint(st.op_begin);
    steps[k] = GLint(net[std::size_t(k)].step);
    if (net[std::size_t(k)].current) current = k;
    flags[k] = (net[std::size_t(k)].stage_start ? 1 : 0) | (net[std::size_t(k)].global ? 2 : 0);
    comps = std::max(comps, GLsizei(st.op_count()));
  }
  const GLuint p = network_;
  glUseProgram(p);
  set_common(p, meta, buf, step, l, opt, fb_w, fb_h);
  auto loc = [&](const char* n) { return glGetUniformLocation(p, n); };
  glUniform4f(loc("u_net"), l.network.x, l.network.y, l.network.w, l.network.h);
  glUniform1i(loc("u_net_passes"), passes);
  glUniform1i(loc("u_net_comps"), GLint(comps));
  glUniform1i(loc("u_net_current"), current);
  glUniform1iv(loc("u_net_begin"), passes, begin);
  glUniform1iv(loc("u_net_step"), passes, steps);
  glUniform1iv(loc("u_net_flags"), passes, flags);
  glUniform1i(loc("u_mode"), 0);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 12, passes);
  glUniform1i(loc("u_mode"), 1);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, meta.width);
  glUniform1i(loc("u_mode"), 2);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 15, GLsizei(passes) * comps);
}

bool Framebuffer::resize(int w, int h) {
  if (w == w_ && h == h_ && fbo_) return true;
  if (!fbo_) fbo_ = GlObject(GlKind::Framebuffer);
  if (!tex_) tex_ = GlObject(GlKind::Texture);
  glBindTexture(GL_TEXTURE_2D, tex_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_, 0);
  const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  w_ = w;
  h_ = h;
  return ok;
}

void Framebuffer::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, w_, h_);
}

std::vector<unsigned char> Framebuffer::read_rgba() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  std::vector<unsigned char> px = view::read_rgba(w_, h_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return px;
}

std::vector<unsigned char> read_rgba(int w, int h) {
  std::vector<unsigned char> px(std::size_t(w) * h * 4), flipped(px.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  const std::size_t stride = std::size_t(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy(px.begin() + std::ptrdiff_t(y * stride), px.begin() + std::ptrdiff_t((y + 1) * stride),
              flipped.begin() + std::ptrdiff_t((h - 1 - y) * stride));
  return flipped;
}

}  // namespace primlab::view
