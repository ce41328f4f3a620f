// EglContext: device platform first (NVIDIA), then Mesa surfaceless, then the default display.
#include "headless/egl_context.h"

#include "view/gl.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <vector>

namespace primlab::headless {
namespace {

EGLDisplay open_display(std::string& how) {
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  if (get_platform_display && query_devices) {
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (query_devices(8, devices, &count) && count > 0) {
      auto query_string =
          reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(eglGetProcAddress("eglQueryDeviceStringEXT"));
      for (EGLint i = 0; i < count; ++i) {
        const char* ext = query_string ? query_string(devices[i], EGL_EXTENSIONS) : nullptr;
        // Skip Mesa's software device here; the surfaceless platform below covers it.
        if (ext && std::string(ext).find("EGL_MESA_device_software") != std::string::npos) continue;
        EGLDisplay d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        EGLint major = 0, minor = 0;
        if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
          how = "EGL device " + std::to_string(i);
          return d;
        }
      }
    }
  }
  if (get_platform_display) {
    EGLDisplay d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
      how = "EGL surfaceless (Mesa)";
      return d;
    }
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  EGLint major = 0, minor = 0;
  if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
    how = "EGL default display";
    return d;
  }
  return EGL_NO_DISPLAY;
}

}  // namespace

EglContext::~EglContext() {
  if (display_) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surface_) eglDestroySurface(display_, surface_);
    if (context_) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
}

Result EglContext::create() {
  std::string how;
  EGLDisplay d = open_display(how);
  if (d == EGL_NO_DISPLAY) {
    return Result::failure("no EGL display (neither an NVIDIA device nor Mesa's surfaceless platform)");
  }
  display_ = d;
  if (!eglBindAPI(EGL_OPENGL_API)) return Result::failure("eglBindAPI(EGL_OPENGL_API) failed");
  const EGLint cfg_attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                              EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  const bool have_config = eglChooseConfig(d, cfg_attrs, &config, 1, &n) && n > 0;
  const EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  context_ = eglCreateContext(d, have_config ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attrs);
  if (!context_) return Result::failure("eglCreateContext for OpenGL 3.3 core failed (" + how + ")");
  if (have_config) {
    const EGLint pb[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surface_ = eglCreatePbufferSurface(d, config, pb);
  }
  if (!eglMakeCurrent(d, surface_ ? surface_ : EGL_NO_SURFACE, surface_ ? surface_ : EGL_NO_SURFACE, context_)) {
    return Result::failure("eglMakeCurrent failed (" + how + ")");
  }
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    return Result::failure("could not load OpenGL functions through EGL");
  }
  description_ = how + ": " + reinterpret_cast<const char*>(glGetString(GL_RENDERER)) + ", OpenGL " +
                 reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return {};
}

}  // namespace primlab::headless
