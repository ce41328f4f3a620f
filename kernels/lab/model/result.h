// The lab's one error style: every lab call that can fail (validate, plan, build a trace, run a
// CUDA stepper) returns a Result, ok or failed with a user-facing message that says what went
// wrong and what to change. The library below returns Status; the app shows the message.
#pragma once
#include <string>
#include <utility>

namespace primlab {

class [[nodiscard]] Result {
 public:
  Result() = default;  // ok
  static Result failure(std::string message) { return Result(std::move(message)); }

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }  // empty when ok

 private:
  explicit Result(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace primlab
