// The one way app code includes OpenGL: the glad loader first, so that nothing pulls GL/gl.h before it.
#pragma once
#include <glad/gl.h>
