// StepRun: the host side of a stepped CUDA run (lab/run/recording_probe.cuh), and
// build_trace_cuda, which runs a row's stepped form into device memory and copies the trace back.
#include <algorithm>
#include <cstdio>

#include "lab/run/recording_probe.cuh"

namespace primlab::stepped {
namespace {

// Lanes' records of warp-wide calls one run may make (64 MiB); a run that makes more fails the trace.
constexpr unsigned kLaneCapacity = 1u << 22;

// Steps [first, last] start as a copy of step first - 1, with the live rows copied in again (the
// host code may have changed them between launches), no touch flags, no owners and no ops.
__global__ void start_launch_kernel(std::uint32_t* values, const std::uint32_t* state, std::int64_t step_words,
                                    std::int32_t width, std::uint32_t live_rows, int first, int last, Op* ops,
                                    std::int64_t op_begin, std::int64_t op_end) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t start = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint32_t* before = values + (first - 1) * step_words;
  for (int s = first; s <= last; ++s) {
    std::uint32_t* dst = values + s * step_words;
    for (std::int64_t w = start; w < step_words; w += stride) {
      const int r = int(w / width);
      std::uint32_t v = (live_rows >> r & 1u) ? state[w] : before[w];
      if (r == kRowTouch) v = 0u;
      if (r == kRowOwner) v = 0xffffffffu;
      dst[w] = v;
    }
  }
  for (std::int64_t i = op_begin + start; i < op_end; i += stride) ops[i] = Op{};
}

__global__ void copy_live_rows_kernel(std::uint32_t* dst, const std::uint32_t* state, std::int64_t step_words,
                                      std::int32_t width, std::uint32_t live_rows) {
  for (std::int64_t w = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; w < step_words;
       w += std::int64_t(gridDim.x) * blockDim.x)
    if (live_rows >> int(w / width) & 1u) dst[w] = state[w];
}

constexpr int kPrepBlocks = 64, kPrepThreads = 256;

}  // namespace

std::vector<std::uint32_t> initial_state(const Trace& t, const std::vector<std::uint32_t>& input,
                                         std::initializer_list<int> input_rows) {
  std::vector<std::uint32_t> s(t.step_words(), 0u);
  for (int r : input_rows) std::copy(input.begin(), input.end(), s.begin() + std::size_t(r) * t.width);
  std::fill(s.begin() + std::size_t(kRowOwner) * t.width, s.begin() + std::size_t(kRowOwner + 1) * t.width,
            0xffffffffu);
  return s;
}

StepRun::StepRun(Trace& t, DeviceTraceView out, std::initializer_list<int> on_chip_rows) : t_(t), out_(out) {
  for (std::size_t s = 1; s < t.steps.size(); ++s)
    if (!t.steps[s].barrier) launch_first_.push_back(int(s));
  std::vector<StepSlot> slots(t.steps.size());
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    slots[s] = {t.steps[s].op_begin, t.steps[s].ops_per_thread, t.steps[s].launch.blocks, t.steps[s].launch.threads};
  try {
    state_.resize(t.step_words());
    slots_.resize(slots.size());
    counters_.resize(t.steps.size() * kNumCounters);
    lane_records_.resize(std::size_t(kLaneCapacity) * kLaneWords);
    lane_count_.resize(1);
    lines_.resize(t.steps.size() * kLineWords);
    status_.resize(1 + std::max<std::size_t>(launch_first_.size(), 1));
  } catch (const DeviceError& e) {
    error_ = e.what();
    return;
  }
  PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(slots_.get(), slots.data(), slots_.bytes(), cudaMemcpyHostToDevice));
  PRIMLAB_STEPPED_CHECK(*this, cudaMemset(counters_.get(), 0, counters_.bytes()));
  PRIMLAB_STEPPED_CHECK(*this, cudaMemset(lane_count_.get(), 0, lane_count_.bytes()));
  PRIMLAB_STEPPED_CHECK(*this, cudaMemset(lines_.get(), 0, lines_.bytes()));
  PRIMLAB_STEPPED_CHECK(*this, cudaMemset(status_.get(), 0, status_.bytes()));

  RecordingProbe& p = probe_;
  p.state = state_.get();
  p.values = out.values;
  p.ops = out.ops;
  p.slots = slots_.get();
  p.counters = counters_.get();
  p.lane_records = lane_records_.get();
  p.lane_count = lane_count_.get();
  p.lane_capacity = kLaneCapacity;
  p.lines = lines_.get();
  p.status = status_.get();
  p.width = t.width;
  p.step_words = std::int64_t(t.step_words());
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (t.rows[r].element_space) p.element_rows |= 1u << r;
    if (r != kRowTouch && r != kRowOwner) p.live_rows |= 1u << r;
  }
  for (int r : on_chip_rows) p.live_rows &= ~(1u << r);
  p.type = t.type;
  p.run = this;
  for (int r = 0; r < kMaxRows; ++r) {
    p.rows[r] = std::int8_t(r < int(t.rows.size()) ? r : -1);
    p.at[r] = 0;
  }
}

void StepRun::map_rows(std::initializer_list<int> rows) {
  int k = 0;
  for (int r : rows) probe_.rows[k++] = std::int8_t(r);
  for (; k < kMaxRows; ++k) probe_.rows[k] = -1;
  for (int r = 0; r < kMaxRows; ++r) probe_.at[r] = 0;
}

bool StepRun::check(cudaError_t e, const char* file, int line) {
  if (!error_.empty()) return false;
  if (e == cudaSuccess) return true;
  cudaGetLastError();
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s:%d: %s", file, line, cudaGetErrorString(e));
  error_ = buf;
  return false;
}

bool StepRun::upload_initial(const std::vector<std::uint32_t>& state0) {
  if (!ok()) return false;
  return PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(state_.get(), state0.data(), state0.size() * 4,
                                                 cudaMemcpyHostToDevice)) &&
         PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(out_.values, state_.get(), state_.bytes(), cudaMemcpyDeviceToDevice));
}

void RecordingProbe::launch(cudaStream_t stream) { run->start_launch(*this, stream); }

void StepRun::copy_live_rows(int s, cudaStream_t stream) {
  copy_live_rows_kernel<<<kPrepBlocks, kPrepThreads, 0, stream>>>(out_.values + s * t_.step_words(), state_.get(),
                                                                  std::int64_t(t_.step_words()), t_.width,
                                                                  probe_.live_rows);
  PRIMLAB_STEPPED_CHECK(*this, cudaPeekAtLastError());
}

void StepRun::start_launch(RecordingProbe& p, cudaStream_t stream) {
  if (launch_ >= 0) copy_live_rows(launch_last_, last_stream_);  // after the launch before, in stream order
  const int l = ++launch_;
  last_stream_ = stream;
  p.launch_index = l;
  if (l >= int(launch_first_.size())) {
    if (ok()) error_ = "the host code launched more kernels than the plan's " + std::to_string(launch_first_.size());
    p.first = p.last = p.step = launch_last_ = int(t_.steps.size()) - 1;
    p.launch_index = int(launch_first_.size()) - 1;
    return;
  }
  p.first = p.step = launch_first_[std::size_t(l)];
  p.last = launch_last_ =
      l + 1 < int(launch_first_.size()) ? launch_first_[std::size_t(l) + 1] - 1 : int(t_.steps.size()) - 1;
  if (on_launch) on_launch(l, p);
  const Step& a = t_.steps[std::size_t(p.first)];
  const Step& b = t_.steps[std::size_t(p.last)];
  start_launch_kernel<<<kPrepBlocks, kPrepThreads, 0, stream>>>(
      out_.values, state_.get(), std::int64_t(t_.step_words()), t_.width, p.live_rows, p.first, p.last, out_.ops,
      a.op_begin, b.op_begin + b.op_count());
  PRIMLAB_STEPPED_CHECK(*this, cudaPeekAtLastError());
}

Result StepRun::finish(Status host_status) {
  if (ok() && host_status != Status::Success) {
    error_ = std::string("the algorithm's host code failed: ") + status_string(host_status);
    const cudaError_t e = cudaGetLastError();  // a launch the host code saw fail says why
    if (e != cudaSuccess) error_ += std::string(" (") + cudaGetErrorString(e) + ")";
  }
  if (ok() && launch_ >= 0) copy_live_rows(launch_last_, last_stream_);
  if (ok() && launch_ + 1 != int(launch_first_.size()))
    error_ = "the host code made " + std::to_string(launch_ + 1) + " launches, the plan has " +
             std::to_string(launch_first_.size());
  PRIMLAB_STEPPED_CHECK(*this, cudaDeviceSynchronize());
  if (!ok()) return Result::failure(error_);

  std::vector<unsigned> status(status_.size());
  std::vector<unsigned long long> counters(counters_.size());
  std::vector<unsigned> lines(lines_.size());
  unsigned lane_count = 0;
  if (!PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(status.data(), status_.get(), status_.bytes(), cudaMemcpyDeviceToHost)) ||
      !PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(counters.data(), counters_.get(), counters_.bytes(),
                                               cudaMemcpyDeviceToHost)) ||
      !PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(lines.data(), lines_.get(), lines_.bytes(), cudaMemcpyDeviceToHost)) ||
      !PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(&lane_count, lane_count_.get(), sizeof lane_count,
                                               cudaMemcpyDeviceToHost)))
    return Result::failure(error_);
  const unsigned bits = status[0];
  if (bits & kShape) return Result::failure("a launch's grid or block differs from the plan's");
  if (bits & kOpSlot) return Result::failure("a thread recorded more ops than its step plans");
  if (bits & kRow) return Result::failure("a kernel named a row the trace does not have");
  if (bits & kTooManyBarriers) return Result::failure("a kernel passed more barriers than its launch has steps");
  for (std::size_t l = 0; l < launch_first_.size(); ++l) {
    const int first = launch_first_[l];
    const int last = l + 1 < launch_first_.size() ? launch_first_[l + 1] - 1 : int(t_.steps.size()) - 1;
    const int reached = std::max(int(status[1 + l]), first);
    if (reached != last)
      return Result::failure("launch " + std::to_string(l) + " passed " + std::to_string(reached - first) +
                             " barriers, its plan " + std::to_string(last - first));
  }
  if (lane_count > kLaneCapacity)
    return Result::failure("the run's lanes made " + std::to_string(lane_count) +
                           " branches and shared accesses; a trace records at most " + std::to_string(kLaneCapacity));
  std::vector<std::int32_t> lanes(std::size_t(lane_count) * kLaneWords);
  if (lane_count &&
      !PRIMLAB_STEPPED_CHECK(*this, cudaMemcpy(lanes.data(), lane_records_.get(), lanes.size() * 4,
                                               cudaMemcpyDeviceToHost)))
    return Result::failure(error_);
  fold_warp_calls(lanes, t_);
  for (std::size_t s = 1; s < t_.steps.size(); ++s) {
    const unsigned long long* c = counters.data() + s * kNumCounters;
    Step& st = t_.steps[s];
    Counters& k = st.counters;
    k.adds = std::int64_t(c[kAdds]);
    k.global_read_bytes = std::int64_t(c[kGlobalRead]);
    k.global_write_bytes = std::int64_t(c[kGlobalWrite]);
    k.atomics = std::int64_t(c[kAtomics]);
    k.launches = st.barrier ? 0 : 1;
    st.source_lines.clear();
    for (int w = 0; w < kLineWords; ++w)
      for (unsigned bitsw = lines[s * kLineWords + std::size_t(w)]; bitsw; bitsw &= bitsw - 1)
        st.source_lines.push_back(w * 32 + __builtin_ctz(bitsw));
  }
  return {};
}

}  // namespace primlab::stepped
