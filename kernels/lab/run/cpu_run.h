// CpuRun: the CPU reference's side of a trace. It holds the state of one step (every row), records
// each thread's operations, and emulates the warp-level counters (bank-conflict degree,
// divergent warps) the way the CUDA steppers measure them, so both traces agree bit for bit.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lab/model/forms.h"
#include "lab/model/trace.h"

namespace primlab::cpu {

class CpuRun {
 public:
  explicit CpuRun(Trace& t) : t_(t), state_(t.step_words(), 0u) {}

  std::uint32_t* row(int r) { return state_.data() + std::size_t(r) * t_.width; }
  const Trace& trace() const { return t_; }

  // Step 0 holds the initial state (no ops, no counters).
  void snapshot_initial() {
    std::fill(row(kRowOwner), row(kRowOwner) + t_.width, 0xffffffffu);
    std::copy(state_.begin(), state_.end(), t_.values.begin());
    s_ = 0;
  }
  // Starts step s: clears touch flags and owners.
  void begin(std::size_t s) {
    s_ = s;
    std::fill(row(kRowTouch), row(kRowTouch) + t_.width, 0u);
    std::fill(row(kRowOwner), row(kRowOwner) + t_.width, 0xffffffffu);
    count().launches = step().barrier ? 0 : 1;
  }
  // Copies the state into step s.
  void end() { std::copy(state_.begin(), state_.end(), t_.values.begin() + s_ * t_.step_words()); }

  Counters& count() { return t_.steps[s_].counters; }
  const Step& step() const { return t_.steps[s_]; }

  // Records op slot `slot` of a global thread, and marks touch flags and the owner on rows whose
  // index space is the elements'.
  void op(std::int64_t thread, int slot, OpKind k, int src_row, std::int32_t src, int dst_row, std::int32_t dst) {
    record(thread, slot, pack_kind(k, src_row, dst_row), src_row, src, dst_row, dst);
  }
  // A compare-swap of keys `first` (receives the key that comes first) and `second` in one row.
  void compare_swap(std::int64_t thread, int slot, int r, std::int32_t first, std::int32_t second, bool swapped) {
    record(thread, slot, pack_kind(OpKind::CompareSwap, r, r) | (swapped ? kOpSwapped : 0), r, first, r, second);
  }

  // One warp-wide shared-memory access: addrs[l] is lane l's word address, < 0 when inactive.
  // Counted, and recorded in the step's accesses.
  void shared_access(const std::int32_t* addrs, int lanes) {
    int active = 0;
    for (int l = 0; l < lanes; ++l) active += addrs[l] >= 0;
    count().shared_accesses += active;
    count().bank_conflict = std::max<std::int64_t>(count().bank_conflict, bank_conflict_degree(addrs, lanes));
    record_access(t_.steps[s_].accesses, addrs, lanes);
  }
  // One warp-wide branch: a warp whose live lanes take different paths is divergent.
  void branch(const int* paths, int lanes) {
    for (int l = 1; l < lanes; ++l)
      if (paths[l] != paths[0]) {
        ++count().divergent_warps;
        return;
      }
  }

 private:
  void record(std::int64_t thread, int slot, std::int32_t packed, int src_row, std::int32_t src, int dst_row,
              std::int32_t dst) {
    const Step& st = t_.steps[s_];
    t_.ops[std::size_t(st.op_begin + thread * st.ops_per_thread + slot)] = Op{std::int32_t(thread), packed, src, dst};
    const OpEffect e = op_effect(packed);
    std::uint32_t* touch = row(kRowTouch);
    if (src >= 0 && t_.rows[src_row].element_space) {
      touch[src] |= touch_bits(e.src_bits, src_row);
      if (e.src_written) row(kRowOwner)[src] = std::uint32_t(thread);
    }
    if (dst >= 0 && t_.rows[dst_row].element_space) {
      touch[dst] |= touch_bits(e.dst_bits, dst_row);
      if (e.dst_written) row(kRowOwner)[dst] = std::uint32_t(thread);
    }
  }

  Trace& t_;
  std::vector<std::uint32_t> state_;
  std::size_t s_ = 0;
};

// Calls f(block, first_thread_in_block, lanes) for each warp of a launch.
template <class F>
void for_each_warp(const LaunchShape& l, F f) {
  for (std::int32_t b = 0; b < l.blocks; ++b)
    for (std::int32_t w = 0; w * 32 < l.threads; ++w) f(b, w * 32, std::min(32, l.threads - w * 32));
}

// The GPU's add: floats round to nearest, and a NaN result is the GPU's canonical NaN
// (0x7fffffff; x86 would give 0xffc00000 or propagate a payload); int32/uint32 wrap around.
// A block-stride loop `for (j = tid; j < count; j += block)` over `count` shared words, warp by
// warp: counts the loop's branch and one shared access a lane at word j, then calls
// f(global thread, block, j, iteration) for each live j.
template <class F>
void block_stride_loop(CpuRun& run, const LaunchShape& launch, std::int32_t block, std::int32_t count, F f) {
  const std::int32_t iters = (count + block - 1) / block;
  for_each_warp(launch, [&](std::int32_t b, std::int32_t first, int lanes) {
    for (std::int32_t k = 0; k < iters; ++k) {
      int paths[32];
      std::int32_t a[32];
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t j = first + l + k * block;
        paths[l] = j < count;
        a[l] = j < count ? j : -1;
      }
      run.branch(paths, lanes);
      run.shared_access(a, lanes);
      for (int l = 0; l < lanes; ++l) {
        const std::int32_t j = first + l + k * block;
        if (j < count) f(std::int64_t(b) * block + first + l, b, j, k);
      }
    }
  });
}

inline std::uint32_t add_words(std::uint32_t a, std::uint32_t b, ElemType t) {
  if (t != ElemType::F32) return a + b;
  const float r = word_to_float(a) + word_to_float(b);
  return r != r ? 0x7fffffffu : to_word(r);
}

}  // namespace primlab::cpu
