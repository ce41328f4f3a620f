// CUDA–OpenGL interop (GPU label): the traced CUDA steppers write the GL buffers through
// cudaGraphicsGLRegisterBuffer, and the view drawn from them is the CPU reference's, pixel for
// pixel, for every algorithm that has a CUDA stepper.
#include <gtest/gtest.h>

#include "interop/interop.h"
#include "lab/run/backend.h"
#include "render_test_util.h"

using namespace primlab;
using namespace primlab::testing;

TEST(Interop, CudaWrittenBuffersDrawTheCpuReferencesPixels) {
  const Result gl = headless_gl();
  ASSERT_TRUE(gl.ok()) << gl.message();
  ASSERT_TRUE(interop::cuda_available()) << backend().reason;
  for (const Algorithm& a : algorithms()) {
    if (!a.deterministic) continue;
    for (int n : {5, 64, 300}) {
      ui::AppState cuda, cpu;
      for (ui::AppState* s : {&cuda, &cpu}) {
        s->step.session.choice.algo = a.name;
        s->step.session.choice.cfg.n = n;
        s->step.session.choice.cfg.block = 8;
        s->step.session.choice.prefer_cuda = s == &cuda;
        ASSERT_TRUE(ui::init_app(*s)) << s->view.error << s->step.session.message;
      }
      ASSERT_EQ(cuda.step.session.backend.rfind("CUDA", 0), 0u) << cuda.step.session.backend << " " << cuda.step.session.message;
      ASSERT_EQ(cpu.step.session.trace().steps.size(), cuda.step.session.trace().steps.size());
      for (int s = 0; s < int(cpu.step.session.trace().steps.size()); ++s) {
        cuda.step.session.go(s);
        cpu.step.session.go(s);
        ASSERT_EQ(ui::render_step_view(cuda, 900, 420), ui::render_step_view(cpu, 900, 420))
            << a.name << " n=" << n << " step " << s;
      }
      // Reading the GL buffer back gives the CPU trace's values word for word.
      EXPECT_EQ(ui::host_trace(cuda.step).values, ui::host_trace(cpu.step).values) << a.name;
    }
  }
}
