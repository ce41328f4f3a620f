// Who touched one element in one step, from the step's op slots.
#include "model/element_access.h"

#include <algorithm>
#include <cctype>

namespace primlab::ui {
namespace {

bool touch_says_written(const Trace& t, int step, int row, int index) {
  if (row >= 16 || !t.rows[std::size_t(row)].element_space || index >= t.width) return false;
  return (t.row(std::size_t(step), kRowTouch)[index] & touch_bits(kTouchWrite, row)) != 0u;
}

// Whether an op's row r is row `row`: a row that shows another row's cells in another form is
// touched by that row's ops.
auto row_test(const Trace& t, int row) {
  const int of = t.rows[std::size_t(row)].cells_of;
  return [row, of](int r) { return r == row || (of >= 0 && r == of); };
}

}  // namespace

std::string row_ref(const Trace& t, int row, int index) {
  const std::string& name = t.rows[std::size_t(row)].name;
  std::size_t end = 0;
  while (end < name.size() && (std::isalnum((unsigned char)name[end]) || name[end] == '_')) ++end;
  return (end ? name.substr(0, end) : name) + "[" + std::to_string(index) + "]";
}

bool step_names_row(const Trace& t, int step, int row) {
  if (step < 0 || step >= int(t.steps.size()) || t.ops.empty()) return false;
  const Step& st = t.steps[std::size_t(step)];
  const auto is_row = row_test(t, row);
  for (std::int64_t k = 0; k < st.op_count(); ++k) {
    const Op& op = t.ops[std::size_t(st.op_begin + k)];
    if (kind_of(op.kind) == OpKind::None) continue;
    if ((op.src >= 0 && is_row(src_row_of(op.kind))) || (op.dst >= 0 && is_row(dst_row_of(op.kind)))) return true;
  }
  return false;
}

std::vector<ElementAccess> element_accesses(const Trace& t, int step, int row, int index) {
  std::vector<ElementAccess> out;
  if (step < 0 || step >= int(t.steps.size()) || t.ops.empty()) return out;
  const Step& st = t.steps[std::size_t(step)];
  const auto is_row = row_test(t, row);
  for (std::int64_t k = 0; k < st.op_count(); ++k) {
    const Op& op = t.ops[std::size_t(st.op_begin + k)];
    const OpKind kind = kind_of(op.kind);
    if (kind == OpKind::None) continue;
    const bool at_src = op.src == index && is_row(src_row_of(op.kind));
    const bool at_dst = op.dst == index && is_row(dst_row_of(op.kind));
    if (!at_src && !at_dst) continue;
    ElementAccess a{op};
    switch (kind) {
      case OpKind::Read: a.reads = true; break;
      case OpKind::Write: a.writes = at_dst; break;
      case OpKind::Move: a.reads = at_src; a.writes = at_dst; break;
      case OpKind::Add:
      case OpKind::Atomic: a.reads = true; a.writes = at_dst; break;
      case OpKind::CompareSwap: a.reads = true; a.writes = touch_says_written(t, step, row, index); break;
      case OpKind::None: break;
    }
    out.push_back(a);
  }
  return out;
}

std::string describe_access(const Trace& t, const ElementAccess& a) {
  const int thread = a.op.thread, block = std::max(1, t.block);
  std::string s = "thread " + std::to_string(thread) + " (block " + std::to_string(thread / block) + ", warp " +
                  std::to_string(thread % block / 32) + ", lane " + std::to_string(thread % block % 32) + ") ";
  s += a.reads && a.writes ? "reads and writes" : a.writes ? "writes" : "reads";
  const OpKind kind = kind_of(a.op.kind);
  s += std::string(": ") + op_kind_name(kind);
  if (a.op.src >= 0) s += " " + row_ref(t, src_row_of(a.op.kind), a.op.src);
  if (a.op.dst >= 0 && kind != OpKind::Read) s += (a.op.src >= 0 ? " -> " : " ") + row_ref(t, dst_row_of(a.op.kind), a.op.dst);
  return s;
}

}  // namespace primlab::ui
