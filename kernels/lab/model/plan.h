// Helpers for planning a trace: rows and steps, shared by the CPU and CUDA steppers.
#pragma once
#include <string>

#include "lab/model/forms.h"
#include "lab/model/trace.h"

namespace primlab::plan {

// The three standard rows (main, touch, owner) followed by nothing; add algorithm rows after.
void standard_rows(Trace& t, const std::string& main_name, std::int32_t length, ElemType type);
int add_row(Trace& t, const std::string& name, RowKind kind, std::int32_t length, ElemType type,
            bool element_space = true);

// Appends a step; blocks are derived from the thread count to launch.
Step& add_step(Trace& t, std::string label, std::string phase, int code_line, std::int32_t blocks,
               std::int32_t threads, std::int32_t active, int ops_per_thread, int focus_row = 0);
// Appends step 0, the input.
void initial_step(Trace& t, int focus_row = 0);

// A trace's code listing: the listing NAME marked in the kernel sources (lab/model/listing.h).
struct Code {
  std::string name;
  // The line a step tagged TAG highlights: the first line of the listing that carries the tag.
  int line(const std::string& tag) const;
};
// Shows the listing NAME as t's code.
Code code(Trace& t, const std::string& name);
// Appends the listing NAME to t's code (a variant's kernel after the main listing); returns the
// line of t.code that a step tagged TAG highlights.
int append_code(Trace& t, const std::string& name, const std::string& tag);

inline std::int32_t div_up(std::int64_t a, std::int64_t b) { return std::int32_t((a + b - 1) / b); }
inline std::int32_t next_pow2(std::int32_t v) {
  std::int32_t p = 1;
  while (p < v) p <<= 1;
  return p;
}
inline int log2_floor(std::int32_t v) {
  int l = 0;
  while ((1 << (l + 1)) <= v) ++l;
  return l;
}

}  // namespace primlab::plan
