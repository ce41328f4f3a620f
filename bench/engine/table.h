// The measuring engine's table: every timed implementation of every primitive, as rows that the
// sweep (engine/session.h) runs on one shared case of buffers. Plain C++ with no CUDA header, so
// that a build without CUDA holds the same types and the CPU rows.
//
// Rows come from four places, each adding to the table:
//   add_cpu_rows     engine/cpu_rows.cpp     the CPU on one thread ("cpu") and on all ("cpu-par")
//   add_lab_rows     engine/lab_rows.cpp     the lab's timed kernels, from the catalog
//   add_device_rows  engine/device.cu        primlab's fast path, CUB and Thrust (CUDA builds)
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab/model/result.h"
#include "primlab/status.h"

// CUDA's stream handle is `CUstream_st*`; declaring the struct keeps cuda_runtime_api.h out.
struct CUstream_st;

namespace primlab::bench {

enum class Type { u8, i32, u32, f32, i64, f64, u64 };
constexpr Type kTypes[] = {Type::u8, Type::i32, Type::u32, Type::f32, Type::i64, Type::f64, Type::u64};
const char* type_name(Type t);
bool parse_type(const std::string& s, Type* out);
std::size_t type_size(Type t);

// Calls f(T{}) with the C++ type of t.
template <class F>
auto with_type(Type t, F&& f) {
  switch (t) {
    case Type::u8: return f(std::uint8_t{});
    case Type::i32: return f(std::int32_t{});
    case Type::u32: return f(std::uint32_t{});
    case Type::f32: return f(float{});
    case Type::i64: return f(std::int64_t{});
    case Type::f64: return f(double{});
    case Type::u64: break;
  }
  return f(std::uint64_t{});
}

// The minimum bytes per element a primitive must move, the same for every implementation of it
// (GB/s = this * n / time); 0 for a primitive the engine does not know.
double min_bytes_per_elem(const std::string& primitive, Type t);

// The buffers of one (primitive, type, n) case, shared by every implementation of it. The
// sweep fills the inputs with the seeded generator (engine/inputs.h) and, on the device, rotates
// between input sets from run to run when one set fits in L2.
struct Case {
  std::string primitive;
  Type type = Type::u32;
  std::int64_t n = 0;
  const void* d_in = nullptr;             // the current input set: n elements of type
  const void* d_in2 = nullptr;            // a second input (values for key-value sorts)
  const std::uint8_t* d_flags = nullptr;  // n random 0/1 flags (about half set), same rotation
  void* d_out = nullptr;                  // n elements of type (and room for 2^16 counters)
  void* d_out2 = nullptr;                 // a second output of n elements (values)
  void* d_scalar = nullptr;               // 64 bytes: a reduction's result, a selected count
  void* d_ws = nullptr;                   // workspace: the largest query of the case's rows
  std::size_t ws_bytes = 0;
  const void* h_in = nullptr;             // host input (host rows): n elements of type
  void* h_out = nullptr;                  // host output: n elements of type, or 256 bins
  int block = 0;                          // 0: the implementation's default
  int items = 0;                          // 0: the implementation's default
  CUstream_st* stream = nullptr;          // the session's stream (a cudaStream_t)
  int threads = 1;                        // host rows that run in parallel: threads to use
  const std::atomic<bool>* cancel = nullptr;  // host rows poll it between chunks
};

// One timed implementation of one primitive.
struct Impl {
  std::string primitive;    // e.g. "scan_exclusive", "reduce_sum", "histogram_even", "sort_keys"
  std::string impl;         // "primlab", "cub", "thrust", "cpu", "cpu-par", or a catalog name
  std::string note;         // one line: where it comes from (the Performance tab's tooltip)
  std::vector<Type> types;  // element types it supports
  bool takes_block = false;
  bool takes_items = false;
  bool on_host = false;     // timed with a host clock on h_in/h_out (CPU rows)
  // The block sizes a row that takes one accepts (the lab's rows: the catalog's limits).
  int min_block = 32, max_block = 1024;
  bool block_pow2 = true;
  // Workspace the run needs for this case (null: none); called before buffers exist.
  std::function<std::size_t(const Case&)> workspace_bytes;
  // Enqueues one run on c.stream (or runs it on the host when on_host).
  std::function<Status(const Case&)> run;
};
using Table = std::vector<Impl>;

void add_cpu_rows(Table& table);
void add_lab_rows(Table& table);
void add_device_rows(Table& table);  // nothing in a build without CUDA
// Every row of this build, each primitive's rows together (primitives in a fixed order).
Table make_table();

// Ok when `block` (0: the default) is one that `im` accepts, else a failure saying why not.
Result check_block(const Impl& im, int block);
const Impl* find_impl(const Table& table, const std::string& primitive, const std::string& impl);

}  // namespace primlab::bench
