// Runs a function over contiguous ranges of [0, n) on several host threads (the CPU rows and
// the host input generator).
#pragma once
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace primlab::bench {

// The number of ranges parallel_ranges cuts [0, n) into: `threads`, but no range under 4096.
inline int range_count(std::int64_t n, int threads) {
  return int(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, (n + 4095) / 4096)));
}

// Calls f(begin, end, index) for range_count(n, threads) ranges, in parallel.
template <class F>
void parallel_ranges(std::int64_t n, int threads, F&& f) {
  const int t = range_count(n, threads);
  std::vector<std::thread> pool;
  for (int i = 1; i < t; ++i) pool.emplace_back([&, i] { f(n * i / t, n * (i + 1) / t, i); });
  f(0, n / t, 0);
  for (auto& th : pool) th.join();
}

}  // namespace primlab::bench
