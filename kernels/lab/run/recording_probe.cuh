// The stepped CUDA form: the algorithm's own kernels and host code, run once with a recording
// probe in place of NoProbe (kernels/util/probe.cuh). The probe writes the planned trace as the
// kernels run: each thread's operations, the touch flags and owners, the counters (measured the
// way the CPU reference emulates them, lab/run/cpu_run.h), the shared-memory accesses, and a
// snapshot of every row at each barrier and launch boundary. A step is one launch's work up to a
// barrier: probe.launch() starts the next launch's steps, probe.barrier() ends a step.
//
// Where the rows live. Global memory is the live state, rows x width words, whose rows the host
// driver hands to the algorithm as its arrays; a write that an op records is copied into the
// snapshots of the rest of the launch, and the live rows are copied again once the launch has
// finished (atomics race until then). Shared memory and registers are rows the kernel names with
// probe.on_chip() and probe.value(); each block copies its on-chip rows at every barrier.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab/model/forms.h"
#include "lab/model/trace.h"
#include "lab/run/warp_calls.h"
#include "primlab/device_buffer.h"
#include "primlab/status.h"

namespace primlab::stepped {

constexpr int kNumCounters = kNumCounts;

constexpr int kMaxRows = 16;       // rows a kernel names (RecordingProbe::rows maps them to the trace's)
constexpr int kMaxOnChip = 4;      // on-chip arrays one thread shows
constexpr int kLineWords = 64;     // a step's source-line bitmap: lines 0..2047 of a kernel file

// Errors the device side finds, as bits of RecordingProbe::status[0].
enum ProbeError : unsigned {
  kTooManyBarriers = 1u,  // a block passed more barriers than its launch has planned steps
  kOpSlot = 2u,           // an op slot beyond the step's planned ops per thread
  kShape = 4u,            // a launch's grid or block differs from the plan's
  kRow = 8u,              // a kernel named a row with no trace row
};

// What one planned step needs on the device.
struct StepSlot {
  std::int64_t op_begin = 0;
  std::int32_t ops_per_thread = 0;
  std::int32_t blocks = 0, threads = 0;
};

class StepRun;

// The recording probe: passed by value to every kernel of the stepped run; `step` and the on-chip
// rows are the thread's own (kernels take the probe by reference in their device functions).
struct RecordingProbe {
  // [The trace's device memory]
  std::uint32_t* state = nullptr;           // live global rows, rows x width
  std::uint32_t* values = nullptr;          // snapshots: steps x rows x width
  Op* ops = nullptr;
  const StepSlot* slots = nullptr;
  unsigned long long* counters = nullptr;   // steps x kNumCounters
  std::int32_t* lane_records = nullptr;     // kLaneWords per lane's part in a warp-wide call
  unsigned* lane_count = nullptr;
  unsigned lane_capacity = 0;
  unsigned* lines = nullptr;                // steps x kLineWords
  unsigned* status = nullptr;               // [0]: ProbeError bits; [1 + launch]: the last step reached
  std::int32_t width = 0;
  std::int64_t step_words = 0;
  std::uint32_t element_rows = 0;           // bit r: row r is in element space
  std::uint32_t live_rows = 0;              // bit r: row r is global memory, live in `state`
  ElemType type = ElemType::I32;
  // [This launch, set by launch()]
  std::int32_t launch_index = -1, first = 0, last = 0;
  std::int8_t rows[kMaxRows];               // the kernel's row r is the trace's rows[r] (-1: none),
  std::int32_t at[kMaxRows];                // from its element at[r] (a kernel run on part of a row)
  StepRun* run = nullptr;                   // host only
  // [The thread's own]
  std::int32_t step = 0;
  struct OnChip {
    const void* data;
    std::int32_t row, base, count, bytes;
  } chip[kMaxOnChip];
  std::int32_t chips = 0;

  // Host: starts the next planned launch (before each <<<...>>> of the algorithm's host code).
  __host__ void launch(cudaStream_t stream);

  // [Device calls, as kernels/util/probe.cuh lists them]
  __device__ void op(int slot, OpKind k, int src_row, std::int32_t src, int dst_row, std::int32_t dst,
                     int line = __builtin_LINE()) {
    record(slot, k, src_row, src, dst_row, dst, false, line);
  }
  // A compare-swap of keys `first_key` (receives the key that comes first) and `second_key`.
  __device__ void compare_swap(int slot, int row, std::int32_t first_key, std::int32_t second_key, bool swapped,
                               int line = __builtin_LINE()) {
    record(slot, OpKind::CompareSwap, row, first_key, row, second_key, swapped, line);
  }
  __device__ void count(Count c, unsigned long long v) const {
    atomicAdd(counters + std::int64_t(step) * kNumCounters + c, v);
  }
  // Warp-wide: each lane that reaches the call passes the path it takes; the lanes of a warp that
  // make the same call (the k-th time on this line in the step) and differ make the warp divergent.
  __device__ void branch(bool path, int line = __builtin_LINE()) const { lane_record(kBranchCall, line, path); }
  // Warp-wide: each lane passes the word address of its shared access, or -1 (a lane that takes part
  // in the call and accesses nothing: it still counts the call). The lanes of a warp that make the
  // same call are one warp access (counted, and its bank-conflict degree taken).
  __device__ void shared_access(std::int32_t word, int line = __builtin_LINE()) const {
    lane_record(kAccessCall, line, word < 0 ? -1 : word);
  }
  // Warp-collective: every live lane passes a key (a bin, an address; < 0: none); element i of the
  // kernel's row `row` gets the number of live lanes that passed the same key (the lanes that
  // update one bin in one instruction).
  __device__ void match(int row, std::int32_t i, std::int32_t key) {
    const unsigned same = __match_any_sync(__activemask(), key);
    if (key >= 0) value(row, i, __popc(same));
  }
  // `count` elements at `data` (shared memory, or a thread's registers) are elements
  // [base, base + count) of the kernel's row `row`.
  template <class T>
  __device__ void on_chip(int row, const T* data, std::int32_t base, std::int32_t count) {
    if (count > 0 && chips < kMaxOnChip) chip[chips++] = {data, row_of(row), base + at_of(row), count, int(sizeof(T))};
  }
  // Element i of the kernel's row `row` now holds v (a register's value).
  template <class T>
  __device__ void value(int row, std::int32_t i, T v) {
    static_assert(sizeof(T) <= 4, "a row holds 32-bit words");
    std::uint32_t w = 0;
    memcpy(&w, &v, sizeof(T));
    const int r = row_of(row);
    if (i >= 0) i += at_of(row);
    if (r >= 0 && i >= 0 && i < width) fill(r, i, w);
  }
  // After __syncthreads(): snapshots the block's on-chip rows and ends the step.
  __device__ void barrier() {
    snapshot(threadIdx.x, blockDim.x);
    __syncthreads();
    end_step(threadIdx.x == 0);
  }
  // After __syncwarp() in code that one warp runs: the same for the warp.
  __device__ void warp_barrier() {
    const unsigned live = __activemask();
    const int lane = threadIdx.x & 31;
    snapshot(__popc(live & ((1u << lane) - 1u)), __popc(live));
    __syncwarp(live);
    end_step(lane == __ffs(live) - 1);
  }
  template <class... A> __device__ void event(const A&...) const {}

  // [Helpers]
  __device__ int row_of(int kernel_row) const {
    const int r = kernel_row >= 0 && kernel_row < kMaxRows ? rows[kernel_row] : -1;
    if (r < 0) atomicOr(status, kRow);
    return r;
  }
  __device__ std::int32_t at_of(int kernel_row) const {
    return kernel_row >= 0 && kernel_row < kMaxRows ? at[kernel_row] : 0;
  }
  __device__ std::uint32_t* snapshot_row(int s, int r) const { return values + s * step_words + std::int64_t(r) * width; }
  // Element i of trace row r holds w from this step to the end of the launch.
  __device__ void fill(int r, std::int32_t i, std::uint32_t w) const {
    for (int s = step; s <= last; ++s) snapshot_row(s, r)[i] = w;
  }
  // The word element i of trace row r holds now, where this thread can read it.
  __device__ bool current(int r, std::int32_t i, std::uint32_t& w) const;
  // Records an op; the lanes that came in together leave together (record_op parts them on its
  // early returns), so that a warp-collective call that follows (warp_barrier, a library event
  // that the whole warp makes) sees the warp as the kernel left it.
  __device__ void record(int slot, OpKind k, int src_row, std::int32_t src, int dst_row, std::int32_t dst,
                         bool swapped, int line) {
    const unsigned entered = __activemask();
    record_op(slot, k, src_row, src, dst_row, dst, swapped, line);
    __syncwarp(entered);
  }
  __device__ void record_op(int slot, OpKind k, int src_row, std::int32_t src, int dst_row, std::int32_t dst,
                            bool swapped, int line);
  // A lane's part in a warp-wide call: StepRun::finish puts together the lanes of one warp that
  // made the same call for the same time in the step, as the CPU reference runs a warp, whether or
  // not the hardware ran those lanes side by side (a loop that lanes leave at different rounds
  // parts them). A thread's records take increasing slots, so their order is its program order.
  __device__ void lane_record(LaneCall call, int line, std::int32_t v) const {
    const unsigned slot = atomicAdd(lane_count, 1u);
    if (slot >= lane_capacity) return;
    std::int32_t* rec = lane_records + std::size_t(slot) * kLaneWords;
    rec[0] = step;
    rec[1] = std::int32_t(blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32);
    rec[2] = line * 2 + call;
    rec[3] = std::int32_t(std::uint32_t(v) << 5 | (threadIdx.x & 31));
  }
  __device__ void snapshot(int rank, int threads) const;
  __device__ void end_step(bool leader);
};

// [SECTION] The recording probe's device calls
// The next number of a run's publication counter, taken just before a look-back word is stored:
// the fences order this thread's loads before the number and the number before the store, so a
// tile that saw the word and then publishes its own takes a later number than the word's writer.
__device__ inline unsigned publication_number(unsigned* clock) {
  __threadfence();
  const unsigned n = atomicAdd(clock, 1u);
  __threadfence();
  return n;
}

__device__ inline bool RecordingProbe::current(int r, std::int32_t i, std::uint32_t& w) const {
  for (int c = 0; c < chips; ++c)
    if (chip[c].row == r && i >= chip[c].base && i < chip[c].base + chip[c].count) {
      const std::int32_t k = i - chip[c].base;
      if (chip[c].bytes == 4) w = static_cast<const volatile std::uint32_t*>(chip[c].data)[k];
      else if (chip[c].bytes == 2) w = static_cast<const volatile std::uint16_t*>(chip[c].data)[k];
      else w = static_cast<const volatile std::uint8_t*>(chip[c].data)[k];
      return true;
    }
  if (live_rows >> r & 1u) {
    w = static_cast<const volatile std::uint32_t*>(state)[std::int64_t(r) * width + i];
    return true;
  }
  return false;
}

// Writes the op slot, marks touch flags and owners on rows in element space, copies the words
// the op wrote into the rest of the launch's snapshots, and notes the source line. An op whose
// src and dst are both -1 records nothing, so a one-line `if (c) x += y;` records its op after
// the line with its indices set to -1 where c fails.
__device__ inline void RecordingProbe::record_op(int slot, OpKind k, int src_row, std::int32_t src, int dst_row,
                                                 std::int32_t dst, bool swapped, int line) {
  if (src < 0 && dst < 0) return;
  const StepSlot& ss = slots[step];
  if (slot < 0 || slot >= ss.ops_per_thread) {
    atomicOr(status, kOpSlot);
    return;
  }
  const int sr = row_of(src_row), dr = row_of(dst_row);
  if (sr < 0 || dr < 0) return;
  if (src >= 0) src += at_of(src_row);
  if (dst >= 0) dst += at_of(dst_row);
  const std::int64_t thread = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (thread == 0 && (gridDim.x != unsigned(ss.blocks) || blockDim.x != unsigned(ss.threads))) atomicOr(status, kShape);
  const std::int32_t packed = pack_kind(k, sr, dr) | (swapped ? kOpSwapped : 0);
  ops[ss.op_begin + thread * ss.ops_per_thread + slot] = Op{std::int32_t(thread), packed, src, dst};
  const OpEffect e = op_effect(packed);
  std::uint32_t* touch = snapshot_row(step, kRowTouch);
  std::uint32_t* owner = snapshot_row(step, kRowOwner);
  std::uint32_t w = 0;
  if (src >= 0 && (element_rows >> sr & 1u)) {
    atomicOr(touch + src, touch_bits(e.src_bits, sr));
    if (e.src_written) owner[src] = std::uint32_t(thread);
  }
  if (dst >= 0 && (element_rows >> dr & 1u)) {
    atomicOr(touch + dst, touch_bits(e.dst_bits, dr));
    if (e.dst_written) owner[dst] = std::uint32_t(thread);
  }
  if (src >= 0 && e.src_written && current(sr, src, w)) fill(sr, src, w);
  if (dst >= 0 && e.dst_written && current(dr, dst, w)) fill(dr, dst, w);
  if (line >= 0 && line < kLineWords * 32)
    atomicOr(lines + std::int64_t(step) * kLineWords + line / 32, 1u << (line % 32));
}

// Copies this block's on-chip rows into the snapshots from this step to the launch's end;
// `rank` of `threads` threads take part.
__device__ inline void RecordingProbe::snapshot(int rank, int threads) const {
  for (int c = 0; c < chips; ++c)
    for (std::int32_t k = rank; k < chip[c].count; k += threads) {
      std::uint32_t w = 0;
      if (current(chip[c].row, chip[c].base + k, w)) fill(chip[c].row, chip[c].base + k, w);
    }
}

__device__ inline void RecordingProbe::end_step(bool leader) {
  if (leader) {
    if (blockIdx.x == 0 && (gridDim.x != unsigned(slots[step].blocks) || blockDim.x != unsigned(slots[step].threads)))
      atomicOr(status, kShape);
    atomicMax(status + 1 + launch_index, unsigned(step + 1));
    if (step + 1 > last) atomicOr(status, kTooManyBarriers);
  }
  if (step < last) ++step;
}

// The host side of a stepped CUDA run: the live state, the trace memory, the plan's steps on the
// device, and the checks that the kernels ran as planned (launches, barriers, launch shapes).
class StepRun {
 public:
  // out: where the trace goes (device memory, or a mapped GL buffer). on_chip_rows: the rows
  // that are shared memory or registers (not live in the global state).
  StepRun(Trace& t, DeviceTraceView out, std::initializer_list<int> on_chip_rows = {});
  // Uploads step 0's state (rows x width words, built on the host from the input).
  bool upload_initial(const std::vector<std::uint32_t>& state0);
  // The live global row r, as the algorithm's array.
  std::uint32_t* row(int r) { return state_.get() + std::size_t(r) * t_.width; }
  template <class T> T* row_as(int r) { return reinterpret_cast<T*>(row(r)); }
  // The probe to hand to the algorithm's host code. `rows` maps the kernel's row numbers to the
  // trace's (identity where none is given), `at` where in them each starts (0: at element 0);
  // on_launch, if set, may change both per launch (a recursive host code whose levels run on
  // parts of one row).
  RecordingProbe& probe() { return probe_; }
  void map_rows(std::initializer_list<int> rows);  // and every row from element 0
  std::function<void(int launch, RecordingProbe&)> on_launch;
  // After the host code returns: the last launch's snapshot, the checks, counters and records
  // copied into the trace. `host_status` is what the host code returned.
  Result finish(Status host_status);

  bool check(cudaError_t e, const char* file, int line);
  bool ok() const { return error_.empty(); }

 private:
  friend struct RecordingProbe;
  void start_launch(RecordingProbe& p, cudaStream_t stream);
  void copy_live_rows(int s, cudaStream_t stream);

  Trace& t_;
  DeviceTraceView out_;
  RecordingProbe probe_;
  std::vector<int> launch_first_;  // the first step of each planned launch
  DeviceBuffer<std::uint32_t> state_;
  DeviceBuffer<StepSlot> slots_;
  DeviceBuffer<unsigned long long> counters_;
  DeviceBuffer<std::int32_t> lane_records_;
  DeviceBuffer<unsigned> lane_count_;
  DeviceBuffer<unsigned> lines_;
  DeviceBuffer<unsigned> status_;
  int launch_ = -1;         // the launch started last
  int launch_last_ = 0;     // its last step
  cudaStream_t last_stream_ = nullptr;
  std::string error_;
};

// Builds a host state of rows x width words (zeros) with the given rows set to the input.
std::vector<std::uint32_t> initial_state(const Trace& t, const std::vector<std::uint32_t>& input,
                                         std::initializer_list<int> input_rows);

// Runs f(T{}) with T the C++ type of the trace's elements (int32, uint32 or float).
template <class F>
auto on_elem_type(ElemType t, F&& f) {
  if (t == ElemType::F32) return f(float{});
  if (t == ElemType::U32) return f(std::uint32_t{});
  return f(std::int32_t{});
}

#define PRIMLAB_STEPPED_CHECK(run, expr) (run).check((expr), __FILE__, __LINE__)

}  // namespace primlab::stepped
