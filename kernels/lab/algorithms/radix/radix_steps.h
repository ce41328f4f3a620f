// Shared by the stepped radix sorts (radix_split.cpp, radix_digits.cpp and their CUDA steppers):
// the key transform to order-preserving unsigned bits, and the one-step exclusive scan (Blelloch,
// 2 log P + 2 launches counted in one step) with the counters its launches produce.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lab/catalog.h"
#include "lab/model/trace.h"

#ifdef __CUDACC__
#define PRIMLAB_HD __host__ __device__
#else
#define PRIMLAB_HD
#endif

namespace primlab::radix {

// The lecture's flipFloat for floats (positive: set the sign bit; negative: flip every bit), the sign
// bit flipped for int32, nothing for uint32; all bits complemented for a descending sort. After the
// flip, positive NaNs sort after +inf and negative NaNs before -inf.
PRIMLAB_HD inline std::uint32_t sortable(std::uint32_t k, ElemType t, bool desc) {
  std::uint32_t s = k;
  if (t == ElemType::I32) s = k ^ 0x80000000u;
  if (t == ElemType::F32) s = k ^ ((0u - (k >> 31)) | 0x80000000u);
  return desc ? ~s : s;
}
// The padding key: the input's last key in the sort order (largest sortable image). A stable sort keeps
// padding (higher indices) behind the equal real keys, and the bars keep the data's range.
inline std::uint32_t pad_key(const std::vector<std::uint32_t>& in, ElemType t, bool desc) {
  std::uint32_t best = in.empty() ? 0u : in[0];
  for (std::uint32_t k : in)
    if (sortable(k, t, desc) > sortable(best, t, desc)) best = k;
  return best;
}

inline int log2_exact(std::int32_t p) {
  int l = 0;
  while ((1 << l) < p) ++l;
  return l;
}
// Launches of the one-step scan over P (a power of two) words: copy, log P up-sweep levels, clear,
// log P down-sweep levels.
inline int scan_launches(std::int32_t P) { return 2 + 2 * log2_exact(P); }

// Warps of a launch of div_up(m, B) blocks of B threads in which `if (k < m)` diverges.
inline std::int64_t divergent_warps(std::int64_t m, std::int32_t B) {
  std::int64_t d = 0;
  const std::int64_t blocks = (m + B - 1) / B;
  for (std::int64_t b = 0; b < blocks; ++b)
    for (std::int32_t w = 0; w * 32 < B; ++w) {
      const std::int64_t first = b * B + w * 32, last = first + std::min(32, B - w * 32) - 1;
      d += first < m && last >= m;
    }
  return d;
}

// The CPU side of the one-step scan: f = exclusive scan of e over P words (e beyond len is 0),
// counters as the CUDA launches count them. Adds are of int words (counts and flags).
inline void scan_cpu(const std::uint32_t* e, std::uint32_t* f, std::int32_t len, std::int32_t P, std::int32_t B,
                     Counters& c) {
  c.launches = scan_launches(P);
  for (std::int32_t k = 0; k < P; ++k) f[k] = k < len ? e[k] : 0u;
  c.global_read_bytes += 4ll * len;
  c.global_write_bytes += 4ll * P;
  c.divergent_warps += divergent_warps(P, B);
  const int L = log2_exact(P);
  for (int d = 0; d < L; ++d) {
    const std::int32_t off = 1 << d, m = P >> (d + 1);
    for (std::int32_t k = 0; k < m; ++k) f[(2 * k + 2) * off - 1] += f[(2 * k + 1) * off - 1];
    c.adds += m;
    c.global_read_bytes += 8ll * m;
    c.global_write_bytes += 4ll * m;
    c.divergent_warps += divergent_warps(m, B);
  }
  f[P - 1] = 0;
  c.global_write_bytes += 4;
  c.divergent_warps += divergent_warps(1, B);
  for (int d = L - 1; d >= 0; --d) {
    const std::int32_t off = 1 << d, m = P >> (d + 1);
    for (std::int32_t k = 0; k < m; ++k) {
      const std::int32_t a = (2 * k + 1) * off - 1, b = (2 * k + 2) * off - 1;
      const std::uint32_t t = f[a];
      f[a] = f[b];
      f[b] += t;
    }
    c.adds += m;
    c.global_read_bytes += 8ll * m;
    c.global_write_bytes += 8ll * m;
    c.divergent_warps += divergent_warps(m, B);
  }
}

}  // namespace primlab::radix
