// The lab's timed kernels as rows: one per catalog algorithm that has a timed form, named by the
// catalog ("scan-naive", "reduce1", "histogram-atomic", ...), with the catalog's block limits.
// Plain C++: the catalog hands out function pointers (null in builds without CUDA: no rows then).
#include <utility>

#include "engine/inputs.h"
#include "engine/table.h"
#include "lab/catalog.h"

namespace primlab::bench {
namespace {

TimedArgs timed_args(const Case& c) {
  TimedArgs a;
  a.type = type_name(c.type);
  a.n = c.n;
  a.d_in = c.d_in;
  a.d_out = c.d_out;
  a.d_scalar = c.d_scalar;
  a.d_ws = c.d_ws;
  a.ws_bytes = c.ws_bytes;
  a.block = c.block;
  a.items = c.items;
  a.bins = kBins;
  with_type(c.type, [&](auto x) {
    a.lower = histogram_lower<decltype(x)>();
    a.upper = histogram_upper<decltype(x)>();
    return 0;
  });
  a.stream = c.stream;
  return a;
}

}  // namespace

void add_lab_rows(Table& table) {
  for (const Algorithm& alg : algorithms()) {
    const TimedForm& form = alg.timed;
    if (!form.primitive || !form.run) continue;
    Impl im;
    im.primitive = form.primitive;
    im.impl = alg.name;
    im.note = std::string("the lab's timed kernel: ") + alg.title;
    for (const std::string& name : form.types) {
      Type t;
      if (parse_type(name, &t)) im.types.push_back(t);
    }
    im.takes_block = true;
    im.takes_items = form.takes_items;
    im.min_block = alg.min_block;
    im.max_block = alg.max_block;
    im.block_pow2 = alg.block_pow2;
    if (form.workspace_bytes)
      im.workspace_bytes = [ws = form.workspace_bytes](const Case& c) { return ws(timed_args(c)); };
    im.run = [run = form.run](const Case& c) { return run(timed_args(c)); };
    table.push_back(std::move(im));
  }
}

}  // namespace primlab::bench
