// Device side of the trace: what a traced kernel records besides its own work (op slots, touch
// flags, owners, counters), measured the way the CPU reference emulates it (cpu/cpu_run.h).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/forms.h"
#include "primlab/device_buffer.h"
#include "lab/model/trace.h"

namespace primlab::traced {

enum CounterIndex : int { kAdds, kGlobalRead, kGlobalWrite, kShared, kConflict, kDivergent, kAtomics, kNumCounters };

// The largest v over the lanes in `live`. sm_80 has a warp reduction for it; older GPUs decide
// the answer bit by bit with one ballot per bit, which gives the same value.
__device__ inline unsigned warp_max(unsigned live, unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(live, v);
#else
  unsigned best = 0;
  for (int b = 31; b >= 0; --b) {
    const unsigned candidate = best | (1u << b);
    if (__ballot_sync(live, v >= candidate)) best = candidate;
  }
  return best;
#endif
}

__device__ inline std::uint32_t add_words(std::uint32_t a, std::uint32_t b, ElemType t) {
  if (t == ElemType::F32) return __float_as_uint(__fadd_rn(__uint_as_float(a), __uint_as_float(b)));
  return a + b;
}

// Passed by value to every traced kernel.
struct StepCtx {
  std::uint32_t* state = nullptr;       // rows x width: the working state of the step
  std::int32_t width = 0;
  std::uint32_t element_rows = 0;       // bit r set: row r is in element space
  Op* ops = nullptr;                    // this step's op slots
  int ops_per_thread = 0;
  unsigned long long* counters = nullptr;  // kNumCounters for this step
  std::int32_t* access_addrs = nullptr;    // 32 lane words per recorded warp access, -1 where idle
  unsigned* access_count = nullptr;        // warp accesses recorded in this step
  unsigned access_capacity = 0;
  ElemType type = ElemType::I32;

  __device__ std::uint32_t* row(int r) const { return state + std::size_t(r) * width; }

  __device__ void op(std::int64_t thread, int slot, OpKind k, int src_row, std::int32_t src, int dst_row,
                     std::int32_t dst) const {
    record(thread, slot, pack_kind(k, src_row, dst_row), src_row, src, dst_row, dst);
  }
  // A compare-swap of keys `first` (receives the key that comes first) and `second` in one row.
  __device__ void compare_swap(std::int64_t thread, int slot, int r, std::int32_t first, std::int32_t second,
                               bool swapped) const {
    record(thread, slot, pack_kind(OpKind::CompareSwap, r, r) | (swapped ? kOpSwapped : 0), r, first, r, second);
  }
  // Writes the op slot and marks touch flags and owners on rows whose index space is the elements'.
  __device__ void record(std::int64_t thread, int slot, std::int32_t packed, int src_row, std::int32_t src,
                         int dst_row, std::int32_t dst) const {
    ops[thread * ops_per_thread + slot] = Op{std::int32_t(thread), packed, src, dst};
    const OpEffect e = op_effect(packed);
    std::uint32_t* touch = row(kRowTouch);
    if (src >= 0 && (element_rows >> src_row & 1u)) {
      atomicOr(touch + src, touch_bits(e.src_bits, src_row));
      if (e.src_written) row(kRowOwner)[src] = std::uint32_t(thread);
    }
    if (dst >= 0 && (element_rows >> dst_row & 1u)) {
      atomicOr(touch + dst, touch_bits(e.dst_bits, dst_row));
      if (e.dst_written) row(kRowOwner)[dst] = std::uint32_t(thread);
    }
  }

  __device__ void count(CounterIndex i, unsigned long long v) const { atomicAdd(counters + i, v); }

  // Warp-collective: every live lane of the warp calls it, with the word address of its shared
  // access or -1. Counts the accesses and the worst number of distinct words in one bank, and
  // records the lanes' addresses (CudaRun::end folds them into the step's accesses).
  __device__ void shared_access(std::int32_t addr) const {
    const unsigned live = __activemask();
    const int lane = threadIdx.x & 31;
    const bool active = addr >= 0;
    const unsigned same_bank = __match_any_sync(live, active ? (addr & 31) : -1);
    const unsigned same_addr = __match_any_sync(live, addr);
    const unsigned leaders = __ballot_sync(live, active && (__ffs(same_addr) - 1) == lane);
    const unsigned degree = active ? __popc(same_bank & leaders) : 0u;
    const unsigned worst = warp_max(live, degree);
    const unsigned accesses = __popc(__ballot_sync(live, active));
    const int leader = __ffs(live) - 1;
    unsigned slot = 0;
    if (lane == leader) {
      if (accesses) atomicAdd(counters + kShared, accesses);
      atomicMax(counters + kConflict, (unsigned long long)worst);
      if (accesses) slot = atomicAdd(access_count, 1u);
    }
    slot = __shfl_sync(live, slot, leader);
    if (accesses && active && slot < access_capacity) access_addrs[std::size_t(slot) * 32 + lane] = addr;
  }

  // Warp-collective: every live lane calls it with the path it takes; a warp whose lanes differ
  // is counted divergent.
  __device__ void branch(int path) const {
    const unsigned live = __activemask();
    const unsigned same = __match_any_sync(live, path);
    if ((threadIdx.x & 31) == __ffs(live) - 1 && same != live) atomicAdd(counters + kDivergent, 1ull);
  }
};

// Runs a planned trace on the device: one working state, per-step op slots and counters, and a
// snapshot of the state into the trace memory after each step. Errors come back as text.
class CudaRun {
 public:
  CudaRun(Trace& t, DeviceTraceView out);
  // Uploads step 0's state (rows x width words, built on the host from the input).
  bool upload_initial(const std::vector<std::uint32_t>& state0);
  // Prepares step s (clears touch flags, owners, op slots) and returns its context.
  StepCtx begin(std::size_t s);
  // Snapshots the state into step s; counts `launches` algorithm launches for the step; adds the
  // warp accesses recorded since the last end() to the step's accesses.
  bool end(std::size_t s, int launches = 1);
  // Copies the counters back into the trace and synchronises; fails with the first error.
  Result finish();

  std::uint32_t* row(int r) { return state_.get() + std::size_t(r) * t_.width; }
  // Records a CUDA error (with file and line); later calls become no-ops.
  bool check(cudaError_t e, const char* file, int line);
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  Trace& t_;
  DeviceTraceView out_;
  DeviceBuffer<std::uint32_t> state_;
  DeviceBuffer<unsigned long long> counters_;
  DeviceBuffer<std::int32_t> access_addrs_;  // the current step's warp accesses, 32 words each
  DeviceBuffer<unsigned> access_count_;
  std::vector<int> launches_;
  std::string error_;
};

#define PRIMLAB_TRACED_CHECK(run, expr) (run).check((expr), __FILE__, __LINE__)

inline int blocks_for(std::int64_t threads, int block) { return int((threads + block - 1) / block); }

// Builds a host state of rows x width words (zeros) with the given rows set to the input.
std::vector<std::uint32_t> initial_state(const Trace& t, const std::vector<std::uint32_t>& input,
                                         std::initializer_list<int> input_rows);

}  // namespace primlab::traced
