// TraceBuffers: allocation and CPU upload of the trace's GL buffers.
#include "view/trace_buffers.h"

#include <algorithm>
#include <cmath>

#include "view/step_labels.h"

namespace primlab::view {

void TraceBuffers::release() {
  for (GlObject* o : {&values_tex_, &ops_tex_, &labels_tex_, &touch_tex_, &values_buf_, &ops_buf_, &labels_buf_, &touch_buf_})
    o->reset();
  words_ = slots_ = 0;
  prepared_step_ = -1;
}

Result TraceBuffers::allocate(const Trace& meta) {
  release();
  words_ = meta.steps.size() * meta.step_words();
  slots_ = 0;
  for (const Step& s : meta.steps) slots_ += std::size_t(s.op_count());
  GLint max_texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
  if (words_ > std::size_t(max_texels) || slots_ > std::size_t(max_texels)) {
    return Result::failure("the trace is too large for this OpenGL's texture buffers (" + std::to_string(words_) +
                           " words, limit " + std::to_string(max_texels) + ")");
  }
  values_buf_ = GlObject(GlKind::Buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, values_buf_);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(std::max<std::size_t>(words_, 1) * 4), nullptr, GL_DYNAMIC_DRAW);
  ops_buf_ = GlObject(GlKind::Buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, ops_buf_);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(std::max<std::size_t>(slots_, 1) * sizeof(Op)), nullptr, GL_DYNAMIC_DRAW);
  values_tex_ = GlObject(GlKind::Texture);
  glBindTexture(GL_TEXTURE_BUFFER, values_tex_);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R32UI, values_buf_);
  ops_tex_ = GlObject(GlKind::Texture);
  glBindTexture(GL_TEXTURE_BUFFER, ops_tex_);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32I, ops_buf_);
  labels_buf_ = GlObject(GlKind::Buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, labels_buf_);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(std::max<std::size_t>(meta.step_words(), 1) * sizeof(LabelTexel)), nullptr,
               GL_DYNAMIC_DRAW);
  labels_tex_ = GlObject(GlKind::Texture);
  glBindTexture(GL_TEXTURE_BUFFER, labels_tex_);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32UI, labels_buf_);
  touch_buf_ = GlObject(GlKind::Buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, touch_buf_);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(std::max<std::size_t>(meta.step_words(), 1) * 4), nullptr, GL_DYNAMIC_DRAW);
  touch_tex_ = GlObject(GlKind::Texture);
  glBindTexture(GL_TEXTURE_BUFFER, touch_tex_);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R32UI, touch_buf_);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  if (GLenum e = glGetError(); e != GL_NO_ERROR) {
    release();
    return Result::failure("OpenGL error " + std::to_string(e) + " allocating the trace buffers");
  }
  return {};
}

Result TraceBuffers::upload(const Trace& t) {
  if (Result r = allocate(t); !r.ok()) return r;
  glBindBuffer(GL_TEXTURE_BUFFER, values_buf_);
  if (!t.values.empty()) glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(t.values.size() * 4), t.values.data());
  glBindBuffer(GL_TEXTURE_BUFFER, ops_buf_);
  if (!t.ops.empty()) glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(t.ops.size() * sizeof(Op)), t.ops.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  ranges = host_ranges(t);
  if (GLenum e = glGetError(); e != GL_NO_ERROR) {
    return Result::failure("OpenGL error " + std::to_string(e) + " uploading the trace");
  }
  return {};
}

void TraceBuffers::read_back(const Trace& meta, std::vector<std::uint32_t>& values, std::vector<Op>& ops) const {
  values.assign(meta.steps.size() * meta.step_words(), 0u);
  std::size_t slots = 0;
  for (const Step& s : meta.steps) slots += std::size_t(s.op_count());
  ops.assign(slots, Op{});
  glBindBuffer(GL_TEXTURE_BUFFER, values_buf_);
  glGetBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(values.size() * 4), values.data());
  glBindBuffer(GL_TEXTURE_BUFFER, ops_buf_);
  if (slots) glGetBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(slots * sizeof(Op)), ops.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void TraceBuffers::prepare_step(const Trace& meta, int step) {
  if (step == prepared_step_ || step < 0 || step >= int(meta.steps.size()) || !labels_buf_) return;
  const Step& st = meta.steps[std::size_t(step)];
  const std::size_t slots = std::size_t(st.op_count());
  std::vector<std::uint32_t> read_values;
  std::vector<Op> read_ops;
  const std::uint32_t* values = nullptr;
  const Op* ops = nullptr;
  if (!meta.values.empty()) {
    values = meta.row(std::size_t(step), 0);
    ops = meta.ops.data() + st.op_begin;
  } else {
    read_values.resize(meta.step_words());
    glBindBuffer(GL_TEXTURE_BUFFER, values_buf_);
    glGetBufferSubData(GL_TEXTURE_BUFFER, GLintptr(std::size_t(step) * meta.step_words() * 4),
                       GLsizeiptr(read_values.size() * 4), read_values.data());
    values = read_values.data();
    read_ops.resize(slots);
    glBindBuffer(GL_TEXTURE_BUFFER, ops_buf_);
    if (slots)
      glGetBufferSubData(GL_TEXTURE_BUFFER, GLintptr(st.op_begin * std::int64_t(sizeof(Op))), GLsizeiptr(slots * sizeof(Op)),
                         read_ops.data());
    ops = read_ops.data();
  }
  step_ranges_ = view::step_ranges(meta, step, values);
  step_labels_ = step_labels(meta, step, values);
  const std::vector<LabelTexel>& labels = step_labels_;
  label_chars_.assign(meta.rows.size(), 0);
  for (std::size_t r = 0; r < meta.rows.size(); ++r)
    for (std::size_t i = 0; i < std::size_t(meta.width); ++i)
      label_chars_[r] = std::max(label_chars_[r], label_length(labels[r * std::size_t(meta.width) + i]));
  const std::vector<std::uint32_t> touch = step_touch(meta, values, ops, slots);
  glBindBuffer(GL_TEXTURE_BUFFER, labels_buf_);
  if (!labels.empty()) glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(labels.size() * sizeof(LabelTexel)), labels.data());
  glBindBuffer(GL_TEXTURE_BUFFER, touch_buf_);
  if (!touch.empty()) glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(touch.size() * 4), touch.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  prepared_step_ = step;
}

std::vector<LabelTexel> TraceBuffers::read_labels() const {
  GLint bytes = 0;
  glBindBuffer(GL_TEXTURE_BUFFER, labels_buf_);
  glGetBufferParameteriv(GL_TEXTURE_BUFFER, GL_BUFFER_SIZE, &bytes);
  std::vector<LabelTexel> out(std::size_t(bytes) / sizeof(LabelTexel));
  if (!out.empty()) glGetBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(out.size() * sizeof(LabelTexel)), out.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  return out;
}

std::vector<std::uint32_t> step_touch(const Trace& meta, const std::uint32_t* values, const Op* ops, std::size_t count) {
  const std::size_t w = std::size_t(meta.width);
  std::vector<std::uint32_t> out(meta.step_words(), 0u);
  for (std::size_t r = 0; r < meta.rows.size() && r < 16; ++r)
    if (meta.rows[r].element_space)
      for (std::size_t i = 0; i < w; ++i) out[r * w + i] = (values[kRowTouch * w + i] >> (2 * r)) & 3u;
  auto mark = [&](int row, std::int32_t i, std::uint32_t bits) {
    if (row < int(meta.rows.size()) && !meta.rows[std::size_t(row)].element_space && i >= 0 && i < meta.width)
      out[std::size_t(row) * w + std::size_t(i)] |= bits;
  };
  for (std::size_t k = 0; k < count; ++k) {
    const Op& op = ops[k];
    const OpKind kind = kind_of(op.kind);
    if (kind == OpKind::None) continue;
    mark(src_row_of(op.kind), op.src, kTouchRead);
    if (kind != OpKind::Read)
      mark(dst_row_of(op.kind), op.dst, kTouchWrite | (kind == OpKind::Add || kind == OpKind::Atomic ? kTouchRead : 0u));
  }
  for (std::size_t r = 0; r < meta.rows.size() && r < 16; ++r) {
    const std::int32_t of = meta.rows[r].cells_of;
    if (of < 0 || of >= std::int32_t(meta.rows.size()) || of >= 16) continue;
    for (std::size_t i = 0; i < w; ++i) out[r * w + i] |= out[std::size_t(of) * w + i];
  }
  return out;
}

namespace {
// Widens `r` by the finite values of row `ri` at step `step` (its words `v`), padding left out.
void widen(RowRange& r, const Trace& t, int step, std::size_t ri, const std::uint32_t* v) {
  const RowInfo& row = t.rows[ri];
  const std::int32_t len = std::min(row.length, t.width);
  for (std::int32_t i = 0; i < len; ++i) {
    if (is_padding(t, step, ri, i, v[i])) continue;
    const float f = row.kind == RowKind::TagCount ? float(v[i] & 0x07FFFFFFu)
                    : row.type == ElemType::F32 ? word_to_float(v[i])
                    : row.type == ElemType::U32 ? float(v[i])
                                                : float(std::int32_t(v[i]));
    if (!std::isfinite(f)) continue;
    r.lo = std::min(r.lo, f);
    r.hi = std::max(r.hi, f);
  }
}
void settle(std::vector<RowRange>& ranges) {
  for (RowRange& r : ranges)
    if (r.lo > r.hi) r = {0.f, 1.f};
}
}  // namespace

std::vector<RowRange> step_ranges(const Trace& meta, int step, const std::uint32_t* values) {
  std::vector<RowRange> r(meta.rows.size(), RowRange{INFINITY, -INFINITY});
  for (std::size_t row = 0; row < meta.rows.size(); ++row)
    widen(r[row], meta, step, row, values + row * std::size_t(meta.width));
  settle(r);
  return r;
}

std::vector<RowRange> host_ranges(const Trace& t) {
  std::vector<RowRange> r(t.rows.size(), RowRange{INFINITY, -INFINITY});
  for (std::size_t row = 0; row < t.rows.size(); ++row)
    for (std::size_t s = 0; s < t.steps.size(); ++s) widen(r[row], t, int(s), row, t.row(s, row));
  settle(r);
  return r;
}

}  // namespace primlab::view
