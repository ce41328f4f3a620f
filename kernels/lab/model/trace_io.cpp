// Trace output as text and JSON.
#include "lab/model/trace_io.h"

#include <nlohmann/json.hpp>
#include <cmath>
#include <ostream>
#include <sstream>

namespace primlab {

std::string counters_summary(const Counters& c) {
  std::ostringstream o;
  o << "adds=" << c.adds << " global read=" << c.global_read_bytes << "B write=" << c.global_write_bytes
    << "B shared=" << c.shared_accesses;
  // A step without shared memory has no bank to conflict in.
  if (c.shared_accesses > 0 || c.bank_conflict > 0)
    o << " conflict=" << c.bank_conflict << "-way";
  else
    o << " conflict=none";
  o << " divergent warps=" << c.divergent_warps;
  if (c.atomics) o << " atomics=" << c.atomics;
  o << " launches=" << c.launches;
  return o.str();
}

std::string launch_summary(const LaunchShape& l) {
  return std::to_string(l.active) + " of " + counted(l.launched(), "thread") + " in " + counted(l.blocks, "block");
}

namespace {
std::string row_text(const Trace& t, std::size_t s, std::size_t r) {
  const RowInfo& info = t.rows[r];
  const std::uint32_t* v = t.row(s, r);
  std::ostringstream o;
  // Padding by position is set off with '|'; a pad key that moves with the keys is not.
  const bool by_position = !t.has_pad_key || std::int32_t(s) < t.pad_step;
  const std::int32_t real = info.element_space && by_position ? std::min(t.n, info.length) : info.length;
  for (std::int32_t i = 0; i < info.length; ++i) {
    if (i == real) o << " |";
    if (i) o << ' ';
    o << format_cell(v[i], info);
  }
  return o.str();
}
}  // namespace

void write_trace_text(std::ostream& os, const Trace& t, const std::string& backend, bool all_rows) {
  os << t.algo << " - " << t.title << ", " << elem_type_name(t.type) << ", n=" << t.n;
  if (element_extent(t) > t.n) os << " (padded to " << element_extent(t) << ")";
  os << ", block " << t.block << ", backend: " << backend << "\n";
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    const Step& st = t.steps[s];
    os << "step " << s << ": " << st.label;
    if (s > 0)
      os << "   [" << launch_summary(st.launch) << "; " << counters_summary(st.counters) << "]";
    os << "\n";
    if (!st.explain.empty()) os << "  " << st.explain << "\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      if (r == kRowTouch || r == kRowOwner) continue;
      if (!all_rows && int(r) != st.focus_row && r != kRowMain) continue;
      os << "  " << t.rows[r].name << ": " << row_text(t, s, r) << "\n";
    }
  }
}

void write_trace_json(std::ostream& os, const Trace& t, const std::string& backend) {
  using nlohmann::json;
  json j;
  j["algo"] = t.algo;
  j["title"] = t.title;
  j["type"] = elem_type_name(t.type);
  j["n"] = t.n;
  j["width"] = t.width;
  j["block"] = t.block;
  j["backend"] = backend;
  j["code"] = t.code;
  if (!t.shared_layout.empty()) j["shared_layout"] = t.shared_layout;
  if (t.has_pad_key) {
    j["pad_key"] = t.pad_key;
    j["pad_step"] = t.pad_step;
    j["pad_key_in_input"] = t.pad_key_in_input;
  }
  json rows = json::array();
  for (const RowInfo& r : t.rows) {
    rows.push_back({{"name", r.name}, {"length", r.length}, {"type", elem_type_name(r.type)},
                    {"element_space", r.element_space}});
    if (r.cells_of >= 0) rows.back()["cells_of"] = r.cells_of;
  }
  j["rows"] = rows;
  json steps = json::array();
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    const Step& st = t.steps[s];
    const Counters& c = st.counters;
    json js = {{"label", st.label},
               {"phase", st.phase},
               {"explain", st.explain},
               {"barrier", st.barrier},
               {"code_line", st.code_line},
               {"focus_row", st.focus_row},
               {"launch", {{"blocks", st.launch.blocks}, {"threads", st.launch.threads}, {"active", st.launch.active}}},
               {"counters",
                {{"adds", c.adds},
                 {"global_read_bytes", c.global_read_bytes},
                 {"global_write_bytes", c.global_write_bytes},
                 {"shared_accesses", c.shared_accesses},
                 {"bank_conflict", c.bank_conflict},
                 {"divergent_warps", c.divergent_warps},
                 {"atomics", c.atomics},
                 {"launches", c.launches}}}};
    json vals = json::object();
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const std::uint32_t* v = t.row(s, r);
      json a = json::array();
      for (std::int32_t i = 0; i < t.rows[r].length; ++i) {
        if (t.rows[r].type == ElemType::F32) {
          const float f = word_to_float(v[i]);
          if (std::isfinite(f)) a.push_back(f);
          else a.push_back(format_word(v[i], ElemType::F32));
        } else if (t.rows[r].type == ElemType::U32) {
          a.push_back(v[i]);
        } else {
          a.push_back(std::int32_t(v[i]));
        }
      }
      vals[t.rows[r].name] = a;
    }
    js["rows"] = vals;
    json ops = json::array();
    for (std::int64_t i = 0; i < st.op_count(); ++i) {
      const Op& o = t.ops[std::size_t(st.op_begin + i)];
      if (kind_of(o.kind) == OpKind::None) continue;
      json jo = {{"thread", o.thread},
                 {"kind", op_kind_name(kind_of(o.kind))},
                 {"src_row", src_row_of(o.kind)},
                 {"src", o.src},
                 {"dst_row", dst_row_of(o.kind)},
                 {"dst", o.dst}};
      if (kind_of(o.kind) == OpKind::CompareSwap) jo["swapped"] = swapped_of(o.kind);
      ops.push_back(jo);
    }
    js["ops"] = ops;
    json accesses = json::array();
    for (const WarpAccess& w : st.accesses)
      accesses.push_back({{"warps", w.warps}, {"degree", w.degree()}, {"addr", w.addr}});
    js["shared_accesses"] = accesses;
    steps.push_back(js);
  }
  j["steps"] = steps;
  os << j.dump(1) << "\n";
}

}  // namespace primlab
