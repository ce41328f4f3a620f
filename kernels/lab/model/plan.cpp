// Trace planning helpers shared by every stepped algorithm.
#include "lab/model/plan.h"

#include "lab/model/listing.h"

namespace primlab::plan {

void standard_rows(Trace& t, const std::string& main_name, std::int32_t length, ElemType type) {
  t.rows.clear();
  t.rows.push_back({main_name, RowKind::Values, length, type, true});
  t.rows.push_back({"touched", RowKind::Flags, length, ElemType::U32, true});
  t.rows.push_back({"owner thread", RowKind::Index, length, ElemType::I32, true});
}

int add_row(Trace& t, const std::string& name, RowKind kind, std::int32_t length, ElemType type,
            bool element_space) {
  t.rows.push_back({name, kind, length, type, element_space});
  return int(t.rows.size()) - 1;
}

Step& add_step(Trace& t, std::string label, std::string phase, int code_line, std::int32_t blocks,
               std::int32_t threads, std::int32_t active, int ops_per_thread, int focus_row) {
  Step s;
  s.label = std::move(label);
  s.phase = std::move(phase);
  s.code_line = code_line;
  s.launch = {blocks, threads, active};
  s.ops_per_thread = ops_per_thread;
  s.focus_row = focus_row;
  t.steps.push_back(std::move(s));
  return t.steps.back();
}

void initial_step(Trace& t, int focus_row) {
  add_step(t, "input", "input", -1, 0, 0, 0, 0, focus_row).explain =
      "The input in global memory, before the first kernel runs.";
}

int Code::line(const std::string& tag) const { return listing::line_of(name, tag); }

Code code(Trace& t, const std::string& name) {
  t.code = listing::lines(name);
  return {name};
}

}  // namespace primlab::plan
