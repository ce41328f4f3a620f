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
}  // namespace

namespace {
// The view's parts at their roomiest, and squeezed for a short view (a race pane, a small screen).
struct Spacing {
  float overview_h, overview_gap, arc_room, strip_h, strip_gap;
};
constexpr Spacing kRoomy{24.f, 6.f, 44.f, 20.f, 6.f}, kTight{18.f, 3.f, 26.f, 15.f, 2.f};
constexpr float kLabelH = 14.f, kBottom = 8.f;
// The bars keep at least this height; strips that do not fit beside it are left out.
constexpr float kMinBars = 40.f;
}  // namespace

ViewLayout layout_view(const Trace& meta, int step, Rect rect, const ViewOptions& opt) {
  ViewLayout l;
  const int focus = meta.steps.empty() ? 0 : meta.steps[std::size_t(step)].focus_row;
  const float name_w = opt.name_w > 0 ? std::min(opt.name_w, rect.w * 0.5f) : std::min(120.f, rect.w * 0.2f);
  // Only a row in element space has a window to show (bins and block sums are always whole).
  const bool elements = meta.rows.empty() || meta.rows[std::size_t(focus)].element_space;
  bool overview = elements && (meta.width >= kOverviewFrom || !whole_row(opt.window, meta.width));
  std::vector<std::size_t> strip_rows;
  for (std::size_t r = 0; r < meta.rows.size(); ++r)
    if (int(r) != focus && r != kRowTouch && r != kRowOwner) strip_rows.push_back(r);
  // [SECTION] Sorting network: a panel of about 40% of the height under the strips.
  const float net_h = meta.network ? std::max(60.f, rect.h * 0.4f) : 0.f;
  // The bars' height with spacing z and the first k strips.
  auto bars_h = [&](const Spacing& z, std::size_t k) {
    const float top = overview ? z.overview_h + z.overview_gap : 0.f;
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
  const float overview_h = overview ? z.overview_h : 0.f, top = rect.y + (overview ? overview_h + z.overview_gap : 0.f);
  l.strip_h = z.strip_h;
  if (overview) l.overview = {rect.x + name_w, rect.y + 2.f, rect.w - name_w - 8.f, overview_h - 2.f};
  const std::size_t slots = shown + (note ? 1 : 0);
  l.bars = {rect.x + name_w, top + z.arc_room, rect.w - name_w - 8.f, std::max(8.f, bars_h(z, slots))};
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
    l.network = {l.bars.x, y + 2.f, l.bars.w, net_h - 8.f};
    y += net_h;
  }
  l.bottom = y;
  return l;
}

std::vector<ValueLabel> value_labels(const Trace& meta, int step, const ViewLayout& l, const ViewOptions& opt,
                                     const TraceBuffers& buf) {
  std::vector<ValueLabel> out;
  const auto& texels = buf.step_label_texels();
  if (!opt.labels || meta.steps.empty() || texels.size() < meta.step_words()) return out;
  const ViewWindow win = clamp_window(opt.window, meta.width);
  const int first = int(win.first);
  const int visible = int(std::min<float>(float(meta.width - first), std::ceil(win.count) + 1.f));
  // As labels.vert places a cell and labels.frag fits a 3x5 font scaled by a whole s into it.
  auto row_labels = [&](std::size_t r, float y0, float h) {
    const RowInfo& ri = meta.rows[r];
    const float cw = ri.element_space ? l.bars.w / win.count : l.bars.w / float(std::max(ri.length, 1));
    const int from = ri.element_space ? first : 0, count = ri.element_space ? visible : ri.length;
    for (int i = from; i < from + count && i < meta.width; ++i) {
      const std::string text = unpack_label(texels[r * std::size_t(meta.width) + std::size_t(i)]);
      if (text.empty()) continue;
      const float len = float(text.size());
      const float s = std::floor(std::min(h / 7.f, (cw - 1.f) / (4.f * len)));
      if (s < 1.f) continue;
      const float w = (4.f * len - 1.f) * s, gh = 5.f * s;
      const float x0 = l.bars.x + (float(i) - float(ri.element_space ? win.first : 0.f)) * cw;
      const float x = std::floor(x0 + 0.5f * (cw - w) + 0.5f), y = std::floor(y0 + 0.5f * (h - gh) + 0.5f);
      out.push_back({Rect{x, y, w, gh}, text});
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
  const ViewWindow win = clamp_window(opt.window, meta.width);
  glUniform2f(loc("u_viewport"), fb_w, fb_h);
  glUniform4f(loc("u_bars"), l.bars.x, l.bars.y, l.bars.w, l.bars.h);
  glUniform2f(loc("u_win"), win.first, win.count);
  glUniform1i(loc("u_values"), 0);
  glUniform1i(loc("u_ops"), 1);
  glUniform1i(loc("u_labels"), 2);
  glUniform1i(loc("u_touch"), 3);
  glUniform1i(loc("u_width"), meta.width);
  glUniform1i(loc("u_n"), meta.n);
  glUniform1i(loc("u_step"), step);
  glUniform1i(loc("u_step_words"), GLint(meta.step_words()));
  glUniform1i(loc("u_focus"), meta.steps[std::size_t(step)].focus_row);
  glUniform1i(loc("u_block"), meta.block);
  glUniform1i(loc("u_ept"), meta.elems_per_thread);
  glUniform1f(loc("u_strip_h"), l.strip_h);
  glUniform1f(loc("u_min_band_px"), kMinBandPx);
  const std::size_t rows = std::min<std::size_t>(meta.rows.size(), 16);
  float row_y[16], range[32];
  GLint type[16], len[16], elem[16];
  for (std::size_t r = 0; r < 16; ++r) {
    const bool have = r < rows;
    const RowRange rr = have ? bar_range(buf, r, opt) : RowRange{};
    row_y[r] = have ? l.row_y[r] : -1.f;
    type[r] = have ? GLint(meta.rows[r].type == ElemType::F32 ? 1 : meta.rows[r].type == ElemType::U32 ? 2 : 0) : 0;
    len[r] = have ? meta.rows[r].length : 0;
    elem[r] = have ? meta.rows[r].element_space : 0;
    range[2 * r] = rr.lo;
    range[2 * r + 1] = rr.hi;
  }
  glUniform1fv(loc("u_row_y"), 16, row_y);
  glUniform1iv(loc("u_row_type"), 16, type);
  glUniform1iv(loc("u_row_len"), 16, len);
  glUniform1iv(loc("u_row_elem"), 16, elem);
  glUniform2fv(loc("u_range"), 16, range);
}

void TraceView::draw(const Trace& meta, TraceBuffers& buf, int step, const ViewOptions& opt, float fb_w, float fb_h,
                     Rect rect) {
  if (meta.steps.empty() || step < 0 || step >= int(meta.steps.size()) || meta.width <= 0) return;
  buf.prepare_step(meta, step);
  const int focus = meta.steps[std::size_t(step)].focus_row;
  const ViewLayout l = layout_view(meta, step, rect, opt);
  const ViewWindow win = clamp_window(opt.window, meta.width);
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
    // Element rows draw only the labels of the visible window.
    const GLint first = GLint(win.first);
    const GLsizei visible = GLsizei(std::min<float>(float(meta.width - first), std::ceil(win.count) + 1.f));
    glUniform1f(glGetUniformLocation(labels_, "u_label_y"), l.label_y);
    glUniform1f(glGetUniformLocation(labels_, "u_label_h"), l.label_h);
    auto draw_row = [&](std::size_t r) {
      const bool elem = meta.rows[r].element_space;
      glUniform1i(row, GLint(r));
      glUniform1i(base, elem ? first : 0);
      glDrawArraysInstanced(GL_TRIANGLES, 0, 6, elem ? visible : meta.rows[r].length);
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
void TraceView::draw_network(const Trace& meta, const TraceBuffers& buf, int step, const ViewLayout& l,
                             const ViewOptions& opt, float fb_w, float fb_h) {
  constexpr int kMaxPasses = 128;
  GLint begin[kMaxPasses], steps[kMaxPasses], flags[kMaxPasses];
  int passes = 0, current = -1;
  GLsizei comps = 0;
  std::string prev_stage;
  for (std::size_t s = 0; s < meta.steps.size() && passes < kMaxPasses; ++s) {
    const Step& st = meta.steps[s];
    const std::string& ph = st.phase;
    if (ph.size() < 4 || ph.compare(ph.size() - 4, 4, "pass") != 0 || st.ops_per_thread != 1) continue;
    const std::string stage = st.label.substr(0, st.label.find(','));
    begin[passes] = GLint(st.op_begin);
    steps[passes] = GLint(s);
    if (int(s) == step) current = passes;
    flags[passes] = (stage != prev_stage ? 1 : 0) | (ph.rfind("global", 0) == 0 ? 2 : 0);
    prev_stage = stage;
    comps = std::max(comps, GLsizei(st.op_count()));
    ++passes;
  }
  if (passes == 0) return;
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
