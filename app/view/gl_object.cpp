// Creating and deleting GL objects by kind.
#include "view/gl_object.h"

namespace primlab::view {

GlObject::GlObject(GlKind kind) : kind_(kind) {
  switch (kind) {
    case GlKind::Buffer: glGenBuffers(1, &id_); break;
    case GlKind::Texture: glGenTextures(1, &id_); break;
    case GlKind::Framebuffer: glGenFramebuffers(1, &id_); break;
    case GlKind::VertexArray: glGenVertexArrays(1, &id_); break;
    case GlKind::Program: id_ = glCreateProgram(); break;
  }
}

void GlObject::reset() {
  if (!id_) return;
  switch (kind_) {
    case GlKind::Buffer: glDeleteBuffers(1, &id_); break;
    case GlKind::Texture: glDeleteTextures(1, &id_); break;
    case GlKind::Framebuffer: glDeleteFramebuffers(1, &id_); break;
    case GlKind::VertexArray: glDeleteVertexArrays(1, &id_); break;
    case GlKind::Program: glDeleteProgram(id_); break;
  }
  id_ = 0;
}

}  // namespace primlab::view
