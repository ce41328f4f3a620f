// Teaching: histograms with one global atomicAdd per sample, and with a per-block shared
// histogram merged by global atomics (the lecture's two atomic variants). Integer bins by a
// plain 64-bit division (the same rule as primlab::histogram_even).
#include <cstdint>
#include <type_traits>

#include "util/cuda_check.cuh"
#include "thread/histogram_bins.cuh"
#include "lab/run/timed_args.cuh"
#include "primlab/histogram.h"

namespace primlab::teaching {
namespace {

template <class T>
struct DivBinner {
  std::int64_t lower;
  std::uint64_t range;
  int bins;
  __device__ int operator()(T x) const {
    const std::uint64_t diff = std::uint64_t(std::int64_t(x) - lower);
    return diff < range ? int(diff * std::uint64_t(bins) / range) : -1;
  }
};

template <class T, class Binner>
__global__ void global_atomic_kernel(const T* __restrict__ in, std::int64_t n,
                                     std::uint32_t* hist, Binner binner) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const int b = binner(in[i]);
    if (b >= 0) atomicAdd(&hist[b], 1u);
  }
}

template <class T, class Binner>
__global__ void shared_atomic_kernel(const T* __restrict__ in, std::int64_t n, std::uint32_t* hist,
                                     int bins, Binner binner) {
  extern __shared__ std::uint32_t s_hist[];
  for (int i = threadIdx.x; i < bins; i += blockDim.x) s_hist[i] = 0;
  __syncthreads();
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const int b = binner(in[i]);
    if (b >= 0) atomicAdd(&s_hist[b], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < bins; i += blockDim.x)
    if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]);
}

template <class T>
Status run(bool shared, const T* d_in, std::uint32_t* d_hist, int bins, histogram_level_t<T> lower,
           histogram_level_t<T> upper, std::int64_t n, int block, cudaStream_t stream) {
  if (n < 0 || !d_hist || (n > 0 && !d_in) || block < 1 || block > 1024 || bins < 1 ||
      bins > (shared ? 8192 : 65536) || !(lower < upper))
    return Status::InvalidArgument;
  const std::uint64_t range = std::uint64_t(std::int64_t(upper) - std::int64_t(lower));
  if (range > (std::uint64_t(1) << 32)) return Status::InvalidArgument;
  PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_hist, 0, std::size_t(bins) * 4, stream));
  if (n == 0) return Status::Success;
  DivBinner<T> b{std::int64_t(lower), range, bins};
  std::int64_t grid = (n + block - 1) / block;
  if (grid > 65536) grid = 65536;
  if (shared)
    shared_atomic_kernel<<<unsigned(grid), block, std::size_t(bins) * 4, stream>>>(d_in, n, d_hist,
                                                                                 bins, b);
  else
    global_atomic_kernel<<<unsigned(grid), block, 0, stream>>>(d_in, n, d_hist, b);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

}  // namespace

template <class T>
Status histogram_global_atomic(const T* d_samples, std::uint32_t* d_histogram, int num_bins,
                               histogram_level_t<T> lower, histogram_level_t<T> upper,
                               std::int64_t n, int block, cudaStream_t stream) {
  return run<T>(false, d_samples, d_histogram, num_bins, lower, upper, n, block, stream);
}

template <class T>
Status histogram_shared_atomic(const T* d_samples, std::uint32_t* d_histogram, int num_bins,
                               histogram_level_t<T> lower, histogram_level_t<T> upper,
                               std::int64_t n, int block, cudaStream_t stream) {
  return run<T>(true, d_samples, d_histogram, num_bins, lower, upper, n, block, stream);
}

}  // namespace primlab::teaching

// [SECTION] The catalog's timed form: TimedArgs in, Status out
namespace primlab::steppers {

namespace {
template <class T>
Status run_histogram(bool shared, const TimedArgs& a) {
  const auto lower = histogram_level_t<T>(a.lower), upper = histogram_level_t<T>(a.upper);
  const T* in = static_cast<const T*>(a.d_in);
  std::uint32_t* bins = static_cast<std::uint32_t*>(a.d_out);
  return shared ? teaching::histogram_shared_atomic<T>(in, bins, a.bins, lower, upper, a.n, timed::block_of(a),
                                                       timed::stream_of(a))
                : teaching::histogram_global_atomic<T>(in, bins, a.bins, lower, upper, a.n, timed::block_of(a),
                                                       timed::stream_of(a));
}
}  // namespace

// Both count straight into the bins: no workspace.
std::size_t timed_bytes_histogram_atomic(const TimedArgs&) { return 0; }
std::size_t timed_bytes_histogram_shared(const TimedArgs&) { return 0; }

Status timed_histogram_atomic(const TimedArgs& a) {
  return timed::on_type<std::uint8_t, std::uint32_t>(a, Status::InvalidArgument,
                                                     [&](auto x) { return run_histogram<decltype(x)>(false, a); });
}

Status timed_histogram_shared(const TimedArgs& a) {
  return timed::on_type<std::uint8_t, std::uint32_t>(a, Status::InvalidArgument,
                                                     [&](auto x) { return run_histogram<decltype(x)>(true, a); });
}

}  // namespace primlab::steppers
