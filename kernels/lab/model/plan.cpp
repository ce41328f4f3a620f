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

namespace {
// Appends the lines of listing NAME and their tags to t's code; returns its first line.
int append_lines(Trace& t, const std::string& name) {
  const std::size_t at = t.code.size();
  const std::vector<std::string>& lines = listing::lines(name);
  t.code.insert(t.code.end(), lines.begin(), lines.end());
  t.code_tags.resize(at);
  t.code_tags.resize(t.code.size());
  t.code_sources.resize(at);
  if (const listing::Listing* l = listing::find(name)) {
    for (const listing::Tag& g : l->tags)
      for (int line : g.lines) t.code_tags[at + std::size_t(line)] = g.name;
    t.code_sources.insert(t.code_sources.end(), l->sources.begin(), l->sources.end());
  }
  t.code_sources.resize(t.code.size());
  return int(at);
}
}  // namespace

int append_code(Trace& t, const std::string& name, const std::string& tag) {
  const int at = append_lines(t, name);
  return at + listing::line_of(name, tag);
}

Code code(Trace& t, const std::string& name) {
  t.code.clear();
  t.code_tags.clear();
  t.code_sources.clear();
  append_lines(t, name);
  return {name};
}

}  // namespace primlab::plan
