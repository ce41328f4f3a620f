// The CPU rows: one thread ("cpu": the C++ standard algorithms) and all threads ("cpu-par":
// std::thread, one chunk each) of scan, reduce, select, histogram and sort, with the rules of
// engine/inputs.h. They poll the cancel flag between chunks of 2^18 elements. Plain C++.
#pragma once
#include <atomic>
#include <cstdint>

#include "engine/table.h"

namespace primlab::bench {

// Runs one CPU baseline once on `in` (n elements of t) into `out` (room for n elements and
// kBins counters); false when cancelled or when this (primitive, type) has no CPU row.
// *out_count: the number of elements select_if kept.
bool run_cpu_primitive(const std::string& primitive, Type t, bool parallel, int threads, const void* in, void* out,
                       std::int64_t n, const std::atomic<bool>& cancel, std::int64_t* out_count = nullptr);

}  // namespace primlab::bench
