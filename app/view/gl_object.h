// GlObject: owns one OpenGL object (a buffer, texture, framebuffer, vertex array or program) and
// deletes it once. Move-only, so that the types built of them (TraceBuffers, TraceView,
// Framebuffer) are move-only with no copy or move code of their own.
#pragma once
#include <utility>

#include "view/gl.h"

namespace primlab::view {

enum class GlKind { Buffer, Texture, Framebuffer, VertexArray, Program };

class GlObject {
 public:
  GlObject() = default;
  // Creates a new object of `kind` in the current context.
  explicit GlObject(GlKind kind);
  ~GlObject() { reset(); }
  GlObject(GlObject&& other) noexcept : kind_(other.kind_), id_(std::exchange(other.id_, 0)) {}
  GlObject& operator=(GlObject&& other) noexcept {
    if (this != &other) {
      reset();
      kind_ = other.kind_;
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;

  // The object's name, for GL calls (0: none).
  operator GLuint() const { return id_; }
  void reset();

 private:
  GlKind kind_ = GlKind::Buffer;
  GLuint id_ = 0;
};

}  // namespace primlab::view
