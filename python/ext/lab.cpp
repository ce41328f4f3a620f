// primlab.lab's C++ side: the catalog and its presets, and traces built from the same step
// options as the `trace` tool (app/model/step_choice), on the CPU reference or the CUDA steppers.
// A trace's arrays reach Python as NumPy views of its own memory.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "glue.h"
#include "lab/catalog.h"
#include "lab/model/trace_io.h"
#include "lab_trace.h"
#include "model/presets.h"
#include "model/step_choice.h"

namespace primlab::python {
namespace {

// "NVIDIA H200 (sm_90)", or empty without a usable device.
std::string cuda_device_name() {
  int count = 0, device = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess) return {};
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ")";
}

// The tool's option names with underscores (--digit-bits is digit_bits); values as Python gives them.
ui::StepOptions step_options(const nb::dict& given) {
  ui::StepOptions o;
  auto text = [](nb::handle v) { return std::string(nb::str(v).c_str()); };
  for (auto [key, value] : given) {
    const std::string k = nb::cast<std::string>(key);
    if (k == "preset") o.preset = text(value);
    else if (k == "algo") o.algo = text(value);
    else if (k == "input") o.input = text(value);
    else if (k == "n") o.n = text(value), o.n_given = true;
    else if (k == "dist") o.dist = text(value);
    else if (k == "type") o.type = text(value);
    else if (k == "block") o.block = text(value);
    else if (k == "seed") o.seed = nb::cast<std::uint32_t>(value);
    else if (k == "inclusive") o.inclusive = nb::cast<bool>(value);
    else if (k == "no_offsets") o.no_offsets = nb::cast<bool>(value);
    else if (k == "digit_bits") o.digit_bits = nb::cast<int>(value);
    else if (k == "bins") o.bins = nb::cast<int>(value), o.bins_given = true;
    else if (k == "digit_start") o.digit_start = nb::cast<int>(value);
    else if (k == "predicate") o.predicate = nb::cast<int>(value);
    else if (k == "threshold") o.threshold = nb::cast<int>(value);
    else if (k == "variant") o.variant = nb::cast<int>(value);
    else if (k == "descending") o.descending = nb::cast<bool>(value);
    else if (k == "kv") o.key_value = nb::cast<bool>(value);
    else raise(PyExc_TypeError, "primlab.lab.trace: unknown option '" + k + "'");
  }
  return o;
}

LabTrace* build(const nb::dict& options, const std::string& backend) {
  const char* fn = "primlab.lab.trace";
  if (backend != "auto" && backend != "cpu" && backend != "cuda") {
    raise(PyExc_ValueError, std::string(fn) + ": backend='" + backend + "'; it takes 'auto', 'cpu' or 'cuda'");
  }
  ui::StepChoice c;
  if (Result r = ui::resolve_step_options(step_options(options), c); !r.ok()) raise(PyExc_ValueError, std::string(fn) + ": " + r.message());
  const std::string gpu = backend == "cpu" ? std::string() : cuda_device_name();
  if (backend == "cuda" && gpu.empty()) raise(PyExc_ValueError, std::string(fn) + ": backend='cuda', and there is no CUDA device");
  std::vector<std::uint32_t> input;
  if (Result r = ui::make_choice_input(c, input); !r.ok()) raise(PyExc_ValueError, std::string(fn) + ": " + r.message());
  const Algorithm& a = *find_algorithm(c.algo);
  if (backend == "cuda" && !a.run_cuda) raise(PyExc_ValueError, std::string(fn) + ": " + a.name + " has no CUDA stepper");
  const bool cuda = !gpu.empty() && a.run_cuda;
  auto out = std::make_unique<LabTrace>();
  Result built;
  {
    nb::gil_scoped_release unlocked;
    built = cuda ? build_trace_cuda(a, c.cfg, input, out->trace) : build_trace_cpu(a, c.cfg, input, out->trace);
  }
  if (!built.ok()) raise(PyExc_RuntimeError, std::string(fn) + ": " + built.message());
  out->backend = cuda ? "CUDA: " + gpu : "CPU reference";
  return out.release();
}

nb::dict counters(const Counters& c) {
  nb::dict d;
  d["adds"] = c.adds;
  d["global_read_bytes"] = c.global_read_bytes;
  d["global_write_bytes"] = c.global_write_bytes;
  d["shared_accesses"] = c.shared_accesses;
  d["bank_conflict"] = c.bank_conflict;
  d["divergent_warps"] = c.divergent_warps;
  d["atomics"] = c.atomics;
  d["launches"] = c.launches;
  return d;
}

const char* row_kind(RowKind k) {
  switch (k) {
    case RowKind::Values: return "values";
    case RowKind::Flags: return "flags";
    case RowKind::Index: return "index";
    case RowKind::Bits: return "bits";
    case RowKind::TagCount: return "tag_count";
  }
  return "?";
}

// NumPy's name of an element type (the lab's "float" is float32).
const char* numpy_type(ElemType t) { return t == ElemType::F32 ? "float32" : t == ElemType::U32 ? "uint32" : "int32"; }

nb::dict step_dict(const Trace& t, std::size_t s) {
  const Step& st = t.steps[s];
  nb::dict d;
  d["label"] = st.label;
  d["phase"] = st.phase;
  d["explain"] = st.explain;
  d["barrier"] = st.barrier;
  d["code_line"] = st.code_line;
  d["code_lines"] = step_code_lines(t, s);
  d["focus_row"] = st.focus_row;
  d["launch"] = nb::make_tuple(st.launch.blocks, st.launch.threads, st.launch.active);
  d["counters"] = counters(st.counters);
  d["op_begin"] = st.op_begin;
  d["op_count"] = st.op_count();
  d["bands"] = st.bands;
  nb::list accesses;
  for (const WarpAccess& w : st.accesses) {
    accesses.append(nb::make_tuple(w.warps, w.degree(), std::vector<std::int32_t>(w.addr.begin(), w.addr.end())));
  }
  d["shared_accesses"] = accesses;
  return d;
}

nb::list algorithm_list() {
  static const std::pair<unsigned, const char*> kOptions[] = {
      {kOptInclusive, "inclusive"}, {kOptConflictOffsets, "no_offsets"}, {kOptFloat, "float"},
      {kOptDigitBits, "digit_bits"}, {kOptBins, "bins"}, {kOptPredicate, "predicate"},
      {kOptDescending, "descending"}, {kOptKeyValue, "kv"}, {kOptU32, "uint"},
      {kOptVariant, "variant"}, {kOptDigitStart, "digit_start"}};
  nb::list out;
  for (const Algorithm& a : algorithms()) {
    nb::dict d;
    d["name"] = a.name;
    d["family"] = a.family;
    d["title"] = a.title;
    d["description"] = a.description;
    nb::list options;
    for (const auto& [bit, name] : kOptions)
      if (a.options & bit) options.append(name);
    d["options"] = options;
    nb::list variants;
    for (const char* v = a.variant_names; v && *v; v += std::char_traits<char>::length(v) + 1) variants.append(v);
    d["variants"] = variants;
    d["max_n"] = a.max_n;
    d["deterministic"] = a.deterministic;
    d["cuda_stepper"] = a.run_cuda != nullptr;
    out.append(d);
  }
  return out;
}

nb::list preset_list() {
  nb::list out;
  for (const ui::Preset& p : ui::presets()) {
    nb::dict d;
    d["name"] = p.name;
    d["algo"] = p.options.algo;
    d["description"] = p.description;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_lab(nb::module_& m) {
  using U32Array = nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<3>, nb::c_contig>;
  using OpArray = nb::ndarray<nb::numpy, const std::int32_t, nb::ndim<2>, nb::c_contig>;
  nb::class_<LabTrace>(m, "LabTrace")
      .def_prop_ro("algo", [](const LabTrace& t) { return t.trace.algo; })
      .def_prop_ro("title", [](const LabTrace& t) { return t.trace.title; })
      .def_prop_ro("type", [](const LabTrace& t) { return numpy_type(t.trace.type); })
      .def_prop_ro("n", [](const LabTrace& t) { return t.trace.n; })
      .def_prop_ro("width", [](const LabTrace& t) { return t.trace.width; })
      .def_prop_ro("block", [](const LabTrace& t) { return t.trace.block; })
      .def_prop_ro("backend", [](const LabTrace& t) { return t.backend; })
      .def_prop_ro("code", [](const LabTrace& t) { return t.trace.code; })
      .def_prop_ro("step_count", [](const LabTrace& t) { return t.trace.steps.size(); })
      .def_prop_ro("rows", [](const LabTrace& t) {
        nb::list rows;
        for (const RowInfo& r : t.trace.rows) {
          nb::dict d;
          d["name"] = r.name;
          d["kind"] = row_kind(r.kind);
          d["length"] = r.length;
          d["type"] = numpy_type(r.type);
          d["element_space"] = r.element_space;
          rows.append(d);
        }
        return rows;
      })
      // steps x rows x width words, read as each row's type by primlab.lab.
      .def_prop_ro("values", [](const LabTrace& t) {
        const Trace& tr = t.trace;
        return U32Array(tr.values.data(), {tr.steps.size(), tr.rows.size(), std::size_t(tr.width)});
      }, nb::rv_policy::reference_internal)
      // Every op slot: thread, packed kind (OpKind | src row << 8 | dst row << 16 | swapped << 24), src, dst.
      .def_prop_ro("ops", [](const LabTrace& t) {
        return OpArray(reinterpret_cast<const std::int32_t*>(t.trace.ops.data()), {t.trace.ops.size(), std::size_t(4)});
      }, nb::rv_policy::reference_internal)
      .def("step", [](const LabTrace& t, std::size_t s) {
        if (s >= t.trace.steps.size()) raise(PyExc_IndexError, "step " + std::to_string(s) + " of " + std::to_string(t.trace.steps.size()));
        return step_dict(t.trace, s);
      })
      .def("totals", [](const LabTrace& t, std::size_t upto) { return counters(t.trace.totals(upto)); })
      .def("json", [](const LabTrace& t) {
        std::ostringstream o;
        write_trace_json(o, t.trace, t.backend);
        return o.str();
      })
      .def("text", [](const LabTrace& t, bool all_rows) {
        std::ostringstream o;
        write_trace_text(o, t.trace, t.backend, all_rows);
        return o.str();
      });
  m.def("build_trace", &build, nb::rv_policy::take_ownership);
  m.def("algorithms", &algorithm_list);
  m.def("presets", &preset_list);
  m.def("op_kind_name", [](int kind) { return op_kind_name(kind_of(kind)); });
}

}  // namespace primlab::python
