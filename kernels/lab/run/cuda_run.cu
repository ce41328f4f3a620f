// CudaRun: working state, op slots, counters and per-step snapshots of a traced CUDA run; and
// build_trace_cuda, which runs a stepper into device memory and copies the trace back.
#include <cstdio>

#include "lab/run/trace_device.cuh"

namespace primlab::traced {
namespace {

// Warp accesses one step may record (8 MiB of addresses); a step that makes more fails the trace.
constexpr unsigned kAccessCapacity = 1u << 16;

__global__ void prepare_step(std::uint32_t* touch, std::uint32_t* owner, std::int32_t width, Op* ops,
                             std::int64_t slots) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < width) {
    touch[i] = 0u;
    owner[i] = 0xffffffffu;
  }
  if (i < slots) ops[i] = Op{};
}

}  // namespace

std::vector<std::uint32_t> initial_state(const Trace& t, const std::vector<std::uint32_t>& input,
                                         std::initializer_list<int> input_rows) {
  std::vector<std::uint32_t> s(t.step_words(), 0u);
  for (int r : input_rows) std::copy(input.begin(), input.end(), s.begin() + std::size_t(r) * t.width);
  std::fill(s.begin() + std::size_t(kRowOwner) * t.width, s.begin() + std::size_t(kRowOwner + 1) * t.width,
            0xffffffffu);
  return s;
}

CudaRun::CudaRun(Trace& t, DeviceTraceView out) : t_(t), out_(out), launches_(t.steps.size(), 0) {
  try {
    state_.resize(t.step_words());
    counters_.resize(t.steps.size() * kNumCounters);
    access_addrs_.resize(std::size_t(kAccessCapacity) * 32);
    access_count_.resize(1);
  } catch (const DeviceError& e) {
    error_ = e.what();
    return;
  }
  check(cudaMemset(counters_.get(), 0, counters_.bytes()), __FILE__, __LINE__);
  check(cudaMemset(access_addrs_.get(), 0xff, access_addrs_.bytes()), __FILE__, __LINE__);
  check(cudaMemset(access_count_.get(), 0, access_count_.bytes()), __FILE__, __LINE__);
}

bool CudaRun::check(cudaError_t e, const char* file, int line) {
  if (!error_.empty()) return false;
  if (e == cudaSuccess) return true;
  cudaGetLastError();
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s:%d: %s", file, line, cudaGetErrorString(e));
  error_ = buf;
  return false;
}

bool CudaRun::upload_initial(const std::vector<std::uint32_t>& state0) {
  if (!ok()) return false;
  return check(cudaMemcpy(state_.get(), state0.data(), state0.size() * 4, cudaMemcpyHostToDevice), __FILE__,
               __LINE__) &&
         check(cudaMemcpy(out_.values, state_.get(), state_.bytes(), cudaMemcpyDeviceToDevice), __FILE__, __LINE__);
}

StepCtx CudaRun::begin(std::size_t s) {
  const Step& st = t_.steps[s];
  StepCtx c;
  c.state = state_.get();
  c.width = t_.width;
  for (std::size_t r = 0; r < t_.rows.size(); ++r)
    if (t_.rows[r].element_space) c.element_rows |= 1u << r;
  c.ops = out_.ops + st.op_begin;
  c.ops_per_thread = st.ops_per_thread;
  c.counters = counters_.get() + s * kNumCounters;
  c.access_addrs = access_addrs_.get();
  c.access_count = access_count_.get();
  c.access_capacity = kAccessCapacity;
  c.type = t_.type;
  if (!ok()) return c;
  const std::int64_t slots = st.op_count();
  const std::int64_t threads = std::max<std::int64_t>(slots, t_.width);
  if (threads > 0) {
    prepare_step<<<blocks_for(threads, 256), 256>>>(row(kRowTouch), row(kRowOwner), t_.width, c.ops, slots);
    check(cudaPeekAtLastError(), __FILE__, __LINE__);
  }
  return c;
}

bool CudaRun::end(std::size_t s, int launches) {
  launches_[s] = t_.steps[s].barrier ? 0 : launches;
  if (!check(cudaPeekAtLastError(), __FILE__, __LINE__)) return false;
  unsigned count = 0;
  if (!check(cudaMemcpy(&count, access_count_.get(), sizeof count, cudaMemcpyDeviceToHost), __FILE__, __LINE__))
    return false;
  if (count > kAccessCapacity) {
    error_ = "step " + std::to_string(s) + " made " + std::to_string(count) +
             " warp accesses to shared memory; the trace records at most " + std::to_string(kAccessCapacity);
    return false;
  }
  if (count > 0) {
    std::vector<std::int32_t> h(std::size_t(count) * 32);
    if (!check(cudaMemcpy(h.data(), access_addrs_.get(), h.size() * 4, cudaMemcpyDeviceToHost), __FILE__, __LINE__) ||
        !check(cudaMemset(access_addrs_.get(), 0xff, h.size() * 4), __FILE__, __LINE__) ||
        !check(cudaMemset(access_count_.get(), 0, sizeof count), __FILE__, __LINE__))
      return false;
    for (unsigned k = 0; k < count; ++k) record_access(t_.steps[s].accesses, h.data() + std::size_t(k) * 32, 32);
  }
  return check(cudaMemcpyAsync(out_.values + s * t_.step_words(), state_.get(), state_.bytes(),
                               cudaMemcpyDeviceToDevice),
               __FILE__, __LINE__);
}

Result CudaRun::finish() {
  if (!ok()) return Result::failure(error_);
  std::vector<unsigned long long> h(counters_.size());
  if (!check(cudaMemcpy(h.data(), counters_.get(), counters_.bytes(), cudaMemcpyDeviceToHost), __FILE__, __LINE__))
    return Result::failure(error_);
  for (std::size_t s = 1; s < t_.steps.size(); ++s) {
    const unsigned long long* c = h.data() + s * kNumCounters;
    Counters& k = t_.steps[s].counters;
    k.adds = std::int64_t(c[kAdds]);
    k.global_read_bytes = std::int64_t(c[kGlobalRead]);
    k.global_write_bytes = std::int64_t(c[kGlobalWrite]);
    k.shared_accesses = std::int64_t(c[kShared]);
    k.bank_conflict = std::int64_t(c[kConflict]);
    k.divergent_warps = std::int64_t(c[kDivergent]);
    k.atomics = std::int64_t(c[kAtomics]);
    k.launches = launches_[s];
  }
  return {};
}

}  // namespace primlab::traced

