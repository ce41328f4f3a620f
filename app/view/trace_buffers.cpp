// TraceBuffers: allocation and CPU upload of the trace's GL buffers.
#include "view/trace_buffers.h"

#include <cmath>

namespace primlab::view {

void TraceBuffers::release() {
  for (GlObject* o : {&values_tex_, &ops_tex_, &values_buf_, &ops_buf_}) o->reset();
  words_ = slots_ = 0;
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

std::vector<RowRange> host_ranges(const Trace& t) {
  std::vector<RowRange> r(t.rows.size());
  for (std::size_t row = 0; row < t.rows.size(); ++row) {
    float lo = INFINITY, hi = -INFINITY;
    const std::int32_t len = t.rows[row].element_space ? std::min(t.n, t.rows[row].length) : t.rows[row].length;
    for (std::size_t s = 0; s < t.steps.size(); ++s) {
      const std::uint32_t* v = t.row(s, row);
      for (std::int32_t i = 0; i < len; ++i) {
        float f = t.rows[row].type == ElemType::F32 ? word_to_float(v[i])
                  : t.rows[row].type == ElemType::U32 ? float(v[i])
                                                      : float(std::int32_t(v[i]));
        if (!std::isfinite(f)) continue;
        lo = std::min(lo, f);
        hi = std::max(hi, f);
      }
    }
    if (lo > hi) lo = 0, hi = 1;
    r[row] = {lo, hi};
  }
  return r;
}

}  // namespace primlab::view
