// CUDA–OpenGL interop (GPU label): the traced CUDA steppers write the GL buffers through
// cudaGraphicsGLRegisterBuffer, and the view drawn from them is the CPU reference's, pixel for
// pixel, for every algorithm.
#include <gtest/gtest.h>

#include "headless/frame.h"
#include "interop/interop.h"
#include "lab/run/backend.h"
#include "render_test_util.h"

using namespace primlab;
using namespace primlab::testing;

TEST(Interop, CudaWrittenBuffersDrawTheCpuReferencesPixels) {
  std::string err;
  ASSERT_TRUE(headless_gl(err)) << err;
  ASSERT_TRUE(interop::cuda_available()) << backend().reason;
  for (const Algorithm& a : algorithms()) {
    if (!a.deterministic) continue;
    for (int n : {5, 64, 300}) {
      ui::AppState cuda, cpu;
      for (ui::AppState* s : {&cuda, &cpu}) {
        s->step.choice.algo = a.name;
        s->step.choice.cfg.n = n;
        s->step.choice.cfg.block = 8;
        s->step.choice.prefer_cuda = s == &cuda;
        ASSERT_TRUE(ui::init_app(*s)) << s->view_error << s->step.message;
      }
      ASSERT_EQ(cuda.step.backend.rfind("CUDA", 0), 0u) << cuda.step.backend << " " << cuda.step.message;
      ASSERT_EQ(cpu.step.trace().steps.size(), cuda.step.trace().steps.size());
      for (int s = 0; s < int(cpu.step.trace().steps.size()); ++s) {
        cuda.step.go(s);
        cpu.step.go(s);
        ASSERT_EQ(headless::render_view(cuda, 900, 420), headless::render_view(cpu, 900, 420))
            << a.name << " n=" << n << " step " << s;
      }
      // Reading the GL buffer back gives the CPU trace's values word for word.
      EXPECT_EQ(cuda.step.host_trace().values, cpu.step.host_trace().values) << a.name;
    }
  }
}
