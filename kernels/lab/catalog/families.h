// Each algorithm family registers its stepped algorithms (kernels/lab/catalog/<family>.cpp).
#pragma once
#include <vector>

#include "lab/catalog.h"
#include "lab/run/steppers.h"

// The row fields plan, run_cpu, run_cuda of a stepper declared with PRIMLAB_DECLARE_STEPPER.
#ifdef PRIMLAB_HAVE_CUDA
#define PRIMLAB_STEPPERS(name) &steppers::plan_##name, &steppers::cpu_##name, &steppers::cuda_##name
#else
#define PRIMLAB_STEPPERS(name) &steppers::plan_##name, &steppers::cpu_##name, nullptr
#endif

// The TimedForm fields workspace_bytes, run of a timed kernel (its folder's <algo>_timed.cu).
#ifdef PRIMLAB_HAVE_CUDA
#define PRIMLAB_TIMED(bytes, run) &steppers::bytes, &steppers::run
#else
#define PRIMLAB_TIMED(bytes, run) nullptr, nullptr
#endif

namespace primlab::steppers {
std::size_t timed_bytes_scan_naive(const TimedArgs& a);
Status timed_scan_naive(const TimedArgs& a);
std::size_t timed_bytes_scan_blelloch(const TimedArgs& a);
Status timed_scan_blelloch(const TimedArgs& a);
std::size_t timed_bytes_scan_shared(const TimedArgs& a);
Status timed_scan_shared(const TimedArgs& a);
std::size_t timed_bytes_reduce(const TimedArgs& a);
Status timed_reduce1(const TimedArgs& a);
Status timed_reduce2(const TimedArgs& a);
Status timed_reduce3(const TimedArgs& a);
Status timed_reduce4(const TimedArgs& a);
Status timed_reduce5(const TimedArgs& a);
Status timed_reduce_shuffle(const TimedArgs& a);
std::size_t timed_bytes_histogram(const TimedArgs& a);
Status timed_histogram_atomic(const TimedArgs& a);
Status timed_histogram_shared(const TimedArgs& a);
std::size_t timed_bytes_bitonic_sort(const TimedArgs& a);
Status timed_bitonic_sort(const TimedArgs& a);
std::size_t timed_bytes_radix_split(const TimedArgs& a);
Status timed_radix_split(const TimedArgs& a);
}  // namespace primlab::steppers

namespace primlab::registry {
inline const std::vector<std::string> kTimedNumeric = {"i32", "u32", "f32"};

void add_scans(std::vector<Algorithm>& v);
void add_reductions(std::vector<Algorithm>& v);
void add_compaction(std::vector<Algorithm>& v);
void add_histograms(std::vector<Algorithm>& v);
void add_bitonic(std::vector<Algorithm>& v);
void add_radix_sorts(std::vector<Algorithm>& v);
void add_partitions(std::vector<Algorithm>& v);
}  // namespace primlab::registry
