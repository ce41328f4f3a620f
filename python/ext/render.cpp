// primlab._render: step.png(), one step of a trace drawn by the app's trace view (app/view) into
// an offscreen framebuffer through EGL (NVIDIA's device on a GPU server, Mesa's surfaceless
// llvmpipe elsewhere), as PNG bytes. Its own module, so that `import primlab` needs no libEGL.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>

#include "headless/egl_context.h"
#include "headless/frame.h"
#include "headless/png.h"
#include "lab_trace.h"
#include "view/trace_buffers.h"
#include "view/trace_view.h"

namespace nb = nanobind;

namespace {

[[noreturn]] void fail(const std::string& what) {
  PyErr_SetString(PyExc_RuntimeError, ("primlab.lab: " + what).c_str());
  throw nb::python_error();
}

// The context and the view's shaders, made on the first drawing and kept: the context is current
// on the thread that made it.
struct Renderer {
  primlab::headless::EglContext egl;
  primlab::view::TraceView view;
  std::string description;
};

Renderer& renderer() {
  static Renderer* r = [] {
    auto* made = new Renderer;
    if (primlab::Result e = made->egl.create(); !e.ok()) fail("no headless OpenGL: " + e.message());
    if (primlab::Result e = made->view.init(); !e.ok()) fail("the trace view: " + e.message());
    made->description = made->egl.description();
    return made;
  }();
  return *r;
}

nb::bytes png(const primlab::python::LabTrace& t, int step, int width, int height) {
  if (step < 0 || step >= int(t.trace.steps.size())) fail("no step " + std::to_string(step));
  if (width < 64 || height < 64 || width > 8192 || height > 8192) fail("the size must be 64 to 8192 pixels a side");
  Renderer& r = renderer();
  primlab::view::TraceBuffers buffers;
  if (primlab::Result e = buffers.upload(t.trace); !e.ok()) fail(e.message());
  const auto rgba = primlab::headless::render_view(r.view, t.trace, buffers, step, primlab::view::ViewOptions{}, width, height);
  const auto bytes = primlab::headless::encode_png(width, height, rgba);
  if (bytes.empty()) fail("PNG encoding failed");
  return nb::bytes(bytes.data(), bytes.size());
}

}  // namespace

NB_MODULE(_render, m) {
  m.def("png", &png);
  m.def("context", [] { return renderer().description; });
}
