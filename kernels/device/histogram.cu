// Histograms with even bins and digit histograms: lane-private shared-memory copies (no bank
// conflicts among a warp's atomics), 16-byte loads, exact integer bin arithmetic.
#include <cstdint>
#include <type_traits>

#include "util/cuda_check.cuh"
#include "util/device_properties.cuh"
#include "thread/histogram_bins.cuh"
#include "agent/histogram_kernel.cuh"
#include "tuning/histogram.cuh"
#include "primlab/histogram.h"

namespace primlab {
namespace detail {

// [SECTION] Dispatch
template <class T, class Binner>
Status histogram_run(const T* d_in, std::uint32_t* d_hist, int bins, std::int64_t n,
                     const Binner& binner, cudaStream_t stream) {
  using Tuning = HistogramTuning;
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_hist, 0, std::size_t(bins) * sizeof(std::uint32_t), stream));
  if (n == 0) return Status::Success;
  DeviceFacts facts;
  Status s = device_facts(facts);
  if (s != Status::Success) return s;
  const bool vector_ok = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0;
  const std::int64_t per_block = std::int64_t(Tuning::kThreads) * (16 / sizeof(T)) * Tuning::kUnroll;
  std::int64_t grid = (n + per_block - 1) / per_block;
  const std::int64_t cap = std::int64_t(facts.sm_count) * Tuning::kBlocksPerSm;
  if (grid > cap) grid = cap;
  if constexpr (sizeof(T) == 1 && std::is_same_v<Binner, IntBinner<T>>) {
    if (bins == 256 && binner.lower == 0 && binner.range == 256) {
      using Id = HistogramTuning::Identity;
      std::int64_t g = (n + std::int64_t(Id::kThreads) * 16 * Id::kUnroll - 1) /
                       (std::int64_t(Id::kThreads) * 16 * Id::kUnroll);
      const std::int64_t cap_id = std::int64_t(facts.sm_count) * Id::kBlocksPerSm;
      if (g > cap_id) g = cap_id;
      histogram_kernel<0, Id, true><<<unsigned(g), Id::kThreads, 256 * 32 * 4, stream>>>(
          d_in, n, d_hist, bins, binner, vector_ok);
      PRIMLAB_LAUNCH_TRY();
      return Status::Success;
    }
  }
  if (bins <= Tuning::kLaneBins) {
    histogram_kernel<0, Tuning, false><<<unsigned(grid), Tuning::kThreads, bins * 32 * 4, stream>>>(
        d_in, n, d_hist, bins, binner, vector_ok);
  } else if (bins <= Tuning::kBlockBins) {
    histogram_kernel<1, Tuning, false><<<unsigned(grid), Tuning::kThreads, bins * 4, stream>>>(
        d_in, n, d_hist, bins, binner, vector_ok);
  } else {
    histogram_kernel<2, Tuning, false><<<unsigned(grid), Tuning::kThreads, 0, stream>>>(
        d_in, n, d_hist, bins, binner, vector_ok);
  }
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

template <class T>
Status check_histogram_args(const T* d_in, std::uint32_t* d_hist, std::int64_t n, Workspace ws) {
  (void)ws;
  if (n < 0 || !d_hist) return Status::InvalidArgument;
  if (n > 0 && !d_in) return Status::InvalidArgument;
  if (n > std::int64_t(0xffffffffu)) return Status::Unsupported;
  return Status::Success;
}

}  // namespace detail

// [SECTION] Public entry points
template <class T>
std::size_t histogram_even_workspace_bytes(int, std::int64_t) { return 0; }

template <class T>
Status histogram_even(const T* d_samples, std::uint32_t* d_histogram, int num_bins,
                      histogram_level_t<T> lower, histogram_level_t<T> upper, std::int64_t n,
                      Workspace ws, cudaStream_t stream) {
  Status s = detail::check_histogram_args(d_samples, d_histogram, n, ws);
  if (s != Status::Success) return s;
  if (num_bins < 1 || num_bins > 65536) return Status::InvalidArgument;
  if constexpr (std::is_floating_point_v<T>) {
    if (!(lower < upper)) return Status::InvalidArgument;  // also NaN levels
    if (!(upper - lower < std::numeric_limits<T>::infinity())) return Status::InvalidArgument;
    detail::FloatBinner<T> b{lower, upper, T(num_bins) / (upper - lower), num_bins};
    return detail::histogram_run(d_samples, d_histogram, num_bins, n, b, stream);
  } else {
    if (!(lower < upper)) return Status::InvalidArgument;
    const std::int64_t lo = std::int64_t(lower), hi = std::int64_t(upper);
    if (std::uint64_t(hi - lo) > (std::uint64_t(1) << 32)) return Status::InvalidArgument;
    return detail::histogram_run(d_samples, d_histogram, num_bins, n,
                                 detail::make_int_binner<T>(lo, hi, num_bins), stream);
  }
}

template <class K>
std::size_t histogram_digits_workspace_bytes(int, std::int64_t) { return 0; }

template <class K>
Status histogram_digits(const K* d_keys, std::uint32_t* d_histogram, int begin_bit, int num_bits,
                        std::int64_t n, Workspace ws, cudaStream_t stream) {
  Status s = detail::check_histogram_args(d_keys, d_histogram, n, ws);
  if (s != Status::Success) return s;
  if (num_bits < 1 || num_bits > 8 || begin_bit < 0 || begin_bit + num_bits > int(8 * sizeof(K)))
    return Status::InvalidArgument;
  detail::DigitBinner<K> b{begin_bit, (1u << num_bits) - 1};
  return detail::histogram_run(d_keys, d_histogram, 1 << num_bits, n, b, stream);
}

#define PRIMLAB_HISTOGRAM_EVEN_INSTANTIATE(T)                                                  \
  template std::size_t histogram_even_workspace_bytes<T>(int, std::int64_t);                   \
  template Status histogram_even<T>(const T*, std::uint32_t*, int, histogram_level_t<T>,       \
                                    histogram_level_t<T>, std::int64_t, Workspace,             \
                                    cudaStream_t);
#define PRIMLAB_HISTOGRAM_DIGITS_INSTANTIATE(K)                                                \
  template std::size_t histogram_digits_workspace_bytes<K>(int, std::int64_t);                 \
  template Status histogram_digits<K>(const K*, std::uint32_t*, int, int, std::int64_t,        \
                                      Workspace, cudaStream_t);

PRIMLAB_HISTOGRAM_EVEN_INSTANTIATE(std::uint8_t)
PRIMLAB_HISTOGRAM_EVEN_INSTANTIATE(std::int32_t)
PRIMLAB_HISTOGRAM_EVEN_INSTANTIATE(std::uint32_t)
PRIMLAB_HISTOGRAM_EVEN_INSTANTIATE(float)
PRIMLAB_HISTOGRAM_EVEN_INSTANTIATE(double)
PRIMLAB_HISTOGRAM_DIGITS_INSTANTIATE(std::uint32_t)
PRIMLAB_HISTOGRAM_DIGITS_INSTANTIATE(std::int32_t)
PRIMLAB_HISTOGRAM_DIGITS_INSTANTIATE(float)
PRIMLAB_HISTOGRAM_DIGITS_INSTANTIATE(std::uint64_t)
PRIMLAB_HISTOGRAM_DIGITS_INSTANTIATE(std::int64_t)
PRIMLAB_HISTOGRAM_DIGITS_INSTANTIATE(double)

}  // namespace primlab
