// The host half of the input generator, and the table's type names and minimum bytes.
#include "engine/inputs.h"

#include "engine/parallel.h"

namespace primlab::bench {

const char* type_name(Type t) {
  switch (t) {
    case Type::u8: return "u8";
    case Type::i32: return "i32";
    case Type::u32: return "u32";
    case Type::f32: return "f32";
    case Type::i64: return "i64";
    case Type::f64: return "f64";
    case Type::u64: return "u64";
  }
  return "?";
}

bool parse_type(const std::string& s, Type* out) {
  for (Type t : kTypes)
    if (s == type_name(t)) {
      *out = t;
      return true;
    }
  return false;
}

std::size_t type_size(Type t) {
  return with_type(t, [](auto x) { return sizeof(x); });
}

double min_bytes_per_elem(const std::string& p, Type t) {
  const double e = double(type_size(t));
  // One Onesweep radix sort reads the keys once for its histogram, then reads and writes them
  // (and the values) once per 8-bit pass.
  const double radix_keys = e + 2.0 * e * e, radix_values = 2.0 * e * e;
  if (p == "reduce_sum" || p == "histogram_even") return e;
  if (p == "scan_exclusive" || p == "scan_inclusive") return 2 * e;
  if (p == "select_if") return 1.5 * e;  // read all, write the half kept
  if (p == "select_flagged") return 1.5 * e + 1;
  if (p.rfind("sort_keys", 0) == 0) return radix_keys;  // and its skewed inputs (sort_keys_zipf...)
  if (p == "sort_pairs") return radix_keys + radix_values;
  if (p == "radix_partition_keys") return 3 * e;
  if (p == "radix_partition_pairs") return 5 * e;
  if (p == "bitonic_sort_keys" || p == "segmented_sort_1024") return 2 * e;
  return 0;
}

void fill_host(Type t, void* h, std::int64_t n, std::uint64_t seed, int threads) {
  with_type(t, [&](auto x) {
    using T = decltype(x);
    T* d = static_cast<T*>(h);
    parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int) {
      for (std::int64_t i = b; i < e; ++i) d[i] = input_value<T>(input_bits(seed, i));
    });
    return 0;
  });
}

}  // namespace primlab::bench
