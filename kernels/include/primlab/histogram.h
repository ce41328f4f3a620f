// Histograms: even bins over a level range, and digit histograms (a bit range of the key).
// Conventions: see primlab/ops.h. Counters are uint32 and are overwritten (not accumulated);
// n must stay below 2^32 (else Unsupported).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "primlab/status.h"

namespace primlab {

// The level type of a sample type: wide enough that [lower, upper) can span the whole range
// of the samples (u32 samples over [0, 2^32) take uint64 levels).
template <class T> struct HistogramLevel { using type = T; };
template <> struct HistogramLevel<std::uint8_t> { using type = int; };
template <> struct HistogramLevel<std::int32_t> { using type = std::int64_t; };
template <> struct HistogramLevel<std::uint32_t> { using type = std::uint64_t; };
template <class T> using histogram_level_t = typename HistogramLevel<T>::type;

// Bytes of workspace histogram_even needs (0 today; call it anyway).
template <class T>
std::size_t histogram_even_workspace_bytes(int num_bins, std::int64_t n);

// num_bins equal-width bins over [lower, upper): sample x falls in bin
// floor((x - lower) * num_bins / (upper - lower)), computed exactly for integers (no
// rounding) and as (x - lower) * (num_bins / (upper - lower)) clamped to num_bins - 1 for
// floats. Samples outside the range and NaN are not counted.
// T: uint8, int32, uint32, float, double. 1 <= num_bins <= 65536; lower < upper, else
// InvalidArgument.
template <class T>
Status histogram_even(const T* d_samples, std::uint32_t* d_histogram, int num_bins,
                      histogram_level_t<T> lower, histogram_level_t<T> upper, std::int64_t n,
                      Workspace ws, cudaStream_t stream);

// Bytes of workspace histogram_digits needs (0 today; call it anyway).
template <class K>
std::size_t histogram_digits_workspace_bytes(int num_bits, std::int64_t n);

// d_histogram[d] = number of keys whose digit (bits [begin_bit, begin_bit + num_bits) of the
// key's radix-ordered unsigned image) is d; 2^num_bits counters. The radix-ordered image flips
// the sign bit of signed integers, and of floats flips all bits of negatives and the sign bit
// of the rest (the order radix sort uses). K: uint32, int32, float, uint64, int64, double.
// 1 <= num_bits <= 8 and begin_bit + num_bits <= 8 * sizeof(K), else InvalidArgument.
template <class K>
Status histogram_digits(const K* d_keys, std::uint32_t* d_histogram, int begin_bit, int num_bits,
                        std::int64_t n, Workspace ws, cudaStream_t stream);

}  // namespace primlab
