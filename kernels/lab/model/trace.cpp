// Trace helpers: allocation, totals, word formatting and bit-for-bit comparison.
#include "lab/model/trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace primlab {

const char* elem_type_name(ElemType t) {
  switch (t) {
    case ElemType::I32: return "int32";
    case ElemType::F32: return "float";
    case ElemType::U32: return "uint32";
  }
  return "?";
}

const char* op_kind_name(OpKind k) {
  switch (k) {
    case OpKind::None: return "none";
    case OpKind::Read: return "read";
    case OpKind::Write: return "write";
    case OpKind::Add: return "add";
    case OpKind::Move: return "move";
    case OpKind::CompareSwap: return "compare-swap";
    case OpKind::Atomic: return "atomic";
  }
  return "?";
}

bool Counters::operator==(const Counters& o) const {
  return adds == o.adds && global_read_bytes == o.global_read_bytes && global_write_bytes == o.global_write_bytes &&
         shared_accesses == o.shared_accesses && bank_conflict == o.bank_conflict &&
         divergent_warps == o.divergent_warps && atomics == o.atomics && launches == o.launches;
}

Counters& Counters::operator+=(const Counters& o) {
  adds += o.adds;
  global_read_bytes += o.global_read_bytes;
  global_write_bytes += o.global_write_bytes;
  shared_accesses += o.shared_accesses;
  bank_conflict = std::max(bank_conflict, o.bank_conflict);
  divergent_warps += o.divergent_warps;
  atomics += o.atomics;
  launches += o.launches;
  return *this;
}

void Trace::allocate() {
  std::int64_t slots = 0;
  for (Step& s : steps) {
    s.op_begin = slots;
    slots += s.op_count();
  }
  values.assign(steps.size() * step_words(), 0u);
  ops.assign(std::size_t(slots), Op{});
}

Counters Trace::totals(std::size_t upto_step) const {
  Counters c;
  for (std::size_t s = 0; s <= upto_step && s < steps.size(); ++s) c += steps[s].counters;
  return c;
}

std::int32_t element_extent(const Trace& t) {
  std::int32_t e = t.n;
  for (const RowInfo& r : t.rows)
    if (r.element_space) e = std::max(e, r.length);
  return std::min(e, std::max(t.width, t.n));
}

bool pads_by_key(const Trace& t, std::size_t row) {
  if (!t.has_pad_key || row >= t.rows.size()) return false;
  const RowInfo& r = t.rows[row];
  return r.element_space && r.kind == RowKind::Values && r.type == t.type;
}

bool is_padding(const Trace& t, int step, std::size_t row, std::int32_t i, std::uint32_t word) {
  if (row >= t.rows.size() || !t.rows[row].element_space) return false;
  if (!t.has_pad_key || step < t.pad_step) return i >= t.n;
  return pads_by_key(t, row) && !t.pad_key_in_input && word == t.pad_key;
}

namespace {
// The lines around `line` that carry its tag, reaching over untagged lines (the `} else {` or
// `if (...) {` between two statements of one step) up to a line of another tag (compaction joins
// two listings, which may reuse a tag name).
void add_tag_span(const Trace& t, int line, std::vector<int>& v) {
  if (line < 0 || line >= int(t.code.size())) return;
  if (std::size_t(line) >= t.code_tags.size() || t.code_tags[std::size_t(line)].empty()) {
    v.push_back(line);
    return;
  }
  const std::string& tag = t.code_tags[std::size_t(line)];
  const int lines = int(std::min(t.code.size(), t.code_tags.size()));
  for (int dir : {-1, 1})
    for (int i = dir < 0 ? line : line + 1; i >= 0 && i < lines; i += dir) {
      const std::string& here = t.code_tags[std::size_t(i)];
      if (here == tag) v.push_back(i);
      else if (!here.empty()) break;
    }
}
}  // namespace

std::vector<int> step_code_lines(const Trace& t, std::size_t s) {
  std::vector<int> v;
  add_tag_span(t, t.steps[s].code_line, v);
  if (v.empty()) return v;
  for (int line : t.steps[s].also_lit) add_tag_span(t, line, v);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

int bank_conflict_degree(const std::int32_t* addrs, int lanes) {
  int worst = 0;
  for (int bank = 0; bank < 32; ++bank) {
    int distinct = 0;
    for (int l = 0; l < lanes; ++l) {
      if (addrs[l] < 0 || addrs[l] % 32 != bank) continue;
      bool seen = false;
      for (int m = 0; m < l && !seen; ++m) seen = addrs[m] == addrs[l];
      distinct += !seen;
    }
    worst = std::max(worst, distinct);
  }
  return worst;
}

int WarpAccess::degree() const { return bank_conflict_degree(addr.data(), 32); }

int WarpAccess::active_lanes() const {
  int n = 0;
  for (std::int32_t a : addr) n += a >= 0;
  return n;
}

void record_access(std::vector<WarpAccess>& step_accesses, const std::int32_t* addrs, int lanes, std::int32_t warps) {
  WarpAccess w;
  bool any = false;
  for (int l = 0; l < lanes && l < 32; ++l) {
    w.addr[std::size_t(l)] = addrs[l] < 0 ? -1 : addrs[l];
    any |= addrs[l] >= 0;
  }
  if (!any || warps <= 0) return;
  const auto by_addr = [](const WarpAccess& x, const WarpAccess& y) { return x.addr < y.addr; };
  auto it = std::lower_bound(step_accesses.begin(), step_accesses.end(), w, by_addr);
  if (it != step_accesses.end() && it->addr == w.addr) {
    it->warps += warps;
    return;
  }
  w.warps = warps;
  step_accesses.insert(it, w);
}

std::int64_t extra_wavefronts(const std::vector<WarpAccess>& step_accesses) {
  std::int64_t extra = 0;
  for (const WarpAccess& w : step_accesses) extra += std::int64_t(w.warps) * (w.degree() - 1);
  return extra;
}

std::uint32_t to_word(float v) {
  std::uint32_t w;
  std::memcpy(&w, &v, 4);
  return w;
}

float word_to_float(std::uint32_t w) {
  float v;
  std::memcpy(&v, &w, 4);
  return v;
}

std::string format_word(std::uint32_t w, ElemType t) {
  char buf[48];
  switch (t) {
    case ElemType::I32: std::snprintf(buf, sizeof buf, "%d", std::int32_t(w)); break;
    case ElemType::U32: std::snprintf(buf, sizeof buf, "%u", w); break;
    case ElemType::F32: {
      float f = word_to_float(w);
      if (std::isnan(f)) return std::signbit(f) ? "-nan" : "nan";
      if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
      if (f == 0.0f && std::signbit(f)) return "-0";
      std::snprintf(buf, sizeof buf, "%g", double(f));
      break;
    }
  }
  return buf;
}

std::string format_cell(std::uint32_t w, const RowInfo& row) {
  if (row.kind == RowKind::TagCount) return "t" + std::to_string(w >> 27) + "|" + std::to_string(w & 0x07FFFFFFu);
  return format_word(w, row.type);
}

std::string counted(std::int64_t count, const std::string& noun, const std::string& plural) {
  return std::to_string(count) + " " + (count == 1 ? noun : plural.empty() ? noun + "s" : plural);
}

namespace {
std::string counters_text(const Counters& c) {
  std::ostringstream o;
  o << "adds=" << c.adds << " gread=" << c.global_read_bytes << " gwrite=" << c.global_write_bytes
    << " shared=" << c.shared_accesses << " conflict=" << c.bank_conflict << " divergent=" << c.divergent_warps
    << " atomics=" << c.atomics << " launches=" << c.launches;
  return o.str();
}
}  // namespace

Result compare_traces(const Trace& a, const Trace& b, bool compare_ops) {
  std::ostringstream o;
  if (a.steps.size() != b.steps.size()) {
    o << "step count " << a.steps.size() << " vs " << b.steps.size();
    return Result::failure(o.str());
  }
  if (a.width != b.width || a.rows.size() != b.rows.size()) return Result::failure("layout differs");
  for (std::size_t s = 0; s < a.steps.size(); ++s) {
    for (std::size_t r = 0; r < a.rows.size(); ++r) {
      const std::uint32_t* x = a.row(s, r);
      const std::uint32_t* y = b.row(s, r);
      for (std::int32_t i = 0; i < a.width; ++i)
        if (x[i] != y[i]) {
          o << "step " << s << " (" << a.steps[s].label << ") row '" << a.rows[r].name << "' [" << i
            << "]: " << format_word(x[i], a.rows[r].type) << " vs " << format_word(y[i], b.rows[r].type);
          return Result::failure(o.str());
        }
    }
    if (!(a.steps[s].counters == b.steps[s].counters)) {
      o << "step " << s << " (" << a.steps[s].label << ") counters: " << counters_text(a.steps[s].counters)
        << " vs " << counters_text(b.steps[s].counters);
      return Result::failure(o.str());
    }
    if (!(a.steps[s].launch == b.steps[s].launch))
      return Result::failure("step " + std::to_string(s) + " launch shape differs");
    if (!(a.steps[s].accesses == b.steps[s].accesses)) {
      o << "step " << s << " (" << a.steps[s].label << ") shared accesses: " << a.steps[s].accesses.size()
        << " distinct, " << extra_wavefronts(a.steps[s].accesses) << " extra wavefronts vs "
        << b.steps[s].accesses.size() << ", " << extra_wavefronts(b.steps[s].accesses);
      return Result::failure(o.str());
    }
  }
  if (compare_ops) {
    if (a.ops.size() != b.ops.size()) return Result::failure("op slot count differs");
    for (std::size_t i = 0; i < a.ops.size(); ++i)
      if (!(a.ops[i] == b.ops[i])) {
        std::size_t s = 0;
        while (s + 1 < a.steps.size() && std::int64_t(i) >= a.steps[s + 1].op_begin) ++s;
        const Op& p = a.ops[i];
        const Op& q = b.ops[i];
        o << "step " << s << " op slot " << (i - a.steps[s].op_begin) << ": {t" << p.thread << " k" << p.kind << " "
          << p.src << "->" << p.dst << "} vs {t" << q.thread << " k" << q.kind << " " << q.src << "->" << q.dst
          << "}";
        return Result::failure(o.str());
      }
  }
  return {};
}

}  // namespace primlab
