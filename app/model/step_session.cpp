// StepSession: checking the choice and taking the trace built for it.
#include "model/step_session.h"

namespace primlab::ui {

bool StepSession::reject(const std::string& error) {
  message = error;
  if (has_trace()) {
    // The typed list stays as written, beside the message that says what is wrong with it; the
    // other choices return to those of the trace shown.
    std::string typed = std::move(choice.typed);
    const bool typing = choice.input == InputKind::Typed;
    choice = last_good_;
    choice.typed = std::move(typed);
    if (typing) choice.input = InputKind::Typed;
  }
  return false;
}

bool StepSession::check(TraceRequest& out) {
  const Algorithm* a = find_algorithm(choice.algo);
  if (!a) return reject("unknown algorithm '" + choice.algo + "'");
  std::vector<std::uint32_t> in;
  if (Result r = make_choice_input(choice, in); !r.ok()) return reject(r.message());
  StepConfig cfg = choice.cfg;
  cfg.n = std::int32_t(in.size());
  if (Result r = validate(*a, cfg); !r.ok()) return reject(r.message());
  out = {a, cfg, std::move(in), choice.prefer_cuda};
  return true;
}

void StepSession::accept(TraceRequest&& req, Trace&& meta, std::string used_backend, std::string note,
                         bool host_values) {
  // A new algorithm or input starts at step 0; other changes keep the step where they can.
  const bool same = meta_.algo == meta.algo && input_ == req.input;
  meta_ = std::move(meta);
  input_ = std::move(req.input);
  host_values_ = host_values;
  backend = std::move(used_backend);
  choice.cfg.n = req.cfg.n;
  last_good_ = choice;
  message = std::move(note);
  if (same) transport.refit(last_step());  // a shorter trace clamps the step, a longer one gives it back
  else go(0);
}

void StepSession::set_host_values(std::vector<std::uint32_t> values, std::vector<Op> ops) {
  meta_.values = std::move(values);
  meta_.ops = std::move(ops);
  host_values_ = true;
}

}  // namespace primlab::ui
