// Runs a catalog row's timed form (TimedForm) on device buffers with the workspace it asks for:
// the timed kernels' tests reach them only through the catalog, as the engine does.
#pragma once
#include <gtest/gtest.h>

#include "lab/catalog.h"
#include "library/test_util.h"

namespace test {

template <class T> const char* timed_type();
template <> inline const char* timed_type<std::int32_t>() { return "i32"; }
template <> inline const char* timed_type<std::uint32_t>() { return "u32"; }
template <> inline const char* timed_type<float>() { return "f32"; }
template <> inline const char* timed_type<std::uint8_t>() { return "u8"; }

// The row's timed form; fails the test when the row or its form is missing.
inline const primlab::TimedForm& timed_form(const std::string& name) {
  const primlab::Algorithm* a = primlab::find_algorithm(name);
  EXPECT_TRUE(a && a->timed.run) << name << " has no timed form";
  static const primlab::TimedForm none{};
  return a ? a->timed : none;
}

// Sizes the workspace from the form, runs it on the stream 0 and returns its Status.
inline primlab::Status run_timed(const std::string& name, primlab::TimedArgs args, WorkspaceHolder& ws) {
  const primlab::TimedForm& f = timed_form(name);
  if (!f.run) return primlab::Status::Unsupported;
  const primlab::Workspace w = ws.get(f.workspace_bytes(args));
  args.d_ws = w.ptr;
  args.ws_bytes = w.bytes;
  return f.run(args);
}

}  // namespace test
