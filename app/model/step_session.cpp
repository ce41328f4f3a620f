// StepSession: rebuilding traces from the user's choice, and the transport.
#include "model/step_session.h"

#include <algorithm>

#include "interop/interop.h"
#include "lab/run/backend.h"

namespace primlab::ui {

bool StepSession::rebuild() {
  auto fail = [&](const std::string& e) {
    message = e;
    if (has_trace()) choice = last_good_;
    return false;
  };
  const Algorithm* a = find_algorithm(choice.algo);
  if (!a) return fail("unknown algorithm '" + choice.algo + "'");
  std::vector<std::uint32_t> in;
  std::string error;
  if (!make_choice_input(choice, in, error)) return fail(error);
  StepConfig cfg = choice.cfg;
  cfg.n = std::int32_t(in.size());
  if (Result r = validate(*a, cfg); !r.ok()) return fail(r.message());

  Trace meta;
  std::string note;
  if (choice.prefer_cuda && interop::cuda_available() && a->run_cuda) {
    auto fresh = std::make_unique<view::TraceBuffers>();
    std::string e = interop::fill_cuda(*a, cfg, in, meta, *fresh);
    if (e.empty()) {
      buf_ = std::move(fresh);
      backend = "CUDA: " + primlab::backend().name;
      host_complete_ = false;
    } else {
      note = "CUDA failed (" + e + "); showing the CPU reference";
    }
  }
  if (meta.steps.empty()) {
    if (Result r = build_trace_cpu(*a, cfg, in, meta); !r.ok()) return fail(r.message());
    auto fresh = std::make_unique<view::TraceBuffers>();
    if (!fresh->upload(meta, error)) return fail(error);
    buf_ = std::move(fresh);
    backend = primlab::backend().cuda ? "CPU reference (a CUDA device is present)" : primlab::backend().name;
    host_complete_ = true;
  }
  const bool same_shape = meta_.algo == meta.algo && meta_.steps.size() == meta.steps.size();
  meta_ = std::move(meta);
  input_ = std::move(in);
  choice.cfg.n = cfg.n;
  last_good_ = choice;
  message = note;
  if (!same_shape) transport.step = std::min<int>(transport.step, int(meta_.steps.size()) - 1);
  go(transport.step);
  return true;
}

void StepSession::go(int step) {
  const int last = std::max(0, int(meta_.steps.size()) - 1);
  transport.step = std::clamp(step, 0, last);
}

void StepSession::tick(double dt) {
  if (!transport.playing || !has_trace()) return;
  transport.accum += dt;
  const double period = 1.0 / std::max(0.1f, transport.speed);
  while (transport.accum >= period && transport.playing) {
    transport.accum -= period;
    if (transport.step + 1 >= int(meta_.steps.size())) {
      transport.playing = false;
      break;
    }
    ++transport.step;
  }
}

const Trace& StepSession::host_trace() {
  if (!host_complete_ && has_trace()) {
    meta_.values.assign(meta_.steps.size() * meta_.step_words(), 0u);
    std::size_t slots = 0;
    for (const Step& s : meta_.steps) slots += std::size_t(s.op_count());
    meta_.ops.assign(slots, Op{});
    glBindBuffer(GL_TEXTURE_BUFFER, buf_->values_buffer());
    glGetBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(meta_.values.size() * 4), meta_.values.data());
    glBindBuffer(GL_TEXTURE_BUFFER, buf_->ops_buffer());
    if (slots) glGetBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(slots * sizeof(Op)), meta_.ops.data());
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    host_complete_ = true;
  }
  return meta_;
}

}  // namespace primlab::ui
