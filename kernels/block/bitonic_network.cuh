// The bitonic network in its all-ascending form: stage `size` starts with a flip (i against
// i ^ (size - 1)) and continues with half-cleaners (i against i + stride); every comparator
// puts the smaller key at the lower index. Padding keys (all ones, at the top indices) then
// never move, so any length sorts without padded memory. Block-level pieces live here: the
// shared-memory tile sort of the batched segments (register steps for strides below E,
// shared-memory steps above) and the register tiles of the one-array sort (namespace rt).
#pragma once
#include <cstdint>
#include <cstring>

namespace primlab::detail::bitonic {

template <bool PAIRS, class Bits, class VBits>
__device__ __forceinline__ void compare_exchange(Bits& ka, Bits& kb, VBits& va, VBits& vb) {
  if constexpr (PAIRS) {
    if (ka > kb) {
      const Bits t = ka; ka = kb; kb = t;
      const VBits u = va; va = vb; vb = u;
    }
  } else {
    const Bits lo = ka < kb ? ka : kb;
    const Bits hi = ka < kb ? kb : ka;
    ka = lo;
    kb = hi;
  }
}

// Each thread's E contiguous elements from shared memory (16-byte accesses) and back.
template <int E, class T>
__device__ __forceinline__ void load_contiguous(const T* s, T (&x)[E]) {
  static_assert((E * sizeof(T)) % 16 == 0, "16-byte chunks");
  uint4 tmp[E * sizeof(T) / 16];
  const uint4* src = reinterpret_cast<const uint4*>(s + threadIdx.x * E);
#pragma unroll
  for (int v = 0; v < int(E * sizeof(T) / 16); ++v) tmp[v] = src[v];
  memcpy(x, tmp, sizeof(tmp));
}
template <int E, class T>
__device__ __forceinline__ void store_contiguous(T* s, const T (&x)[E]) {
  uint4 tmp[E * sizeof(T) / 16];
  memcpy(tmp, x, sizeof(tmp));
  uint4* dst = reinterpret_cast<uint4*>(s + threadIdx.x * E);
#pragma unroll
  for (int v = 0; v < int(E * sizeof(T) / 16); ++v) dst[v] = tmp[v];
}

// Stages 2 .. min(E, P) entirely in registers (each thread sorts its E elements in chunks of P).
template <bool PAIRS, int E, class Bits, class VBits>
__device__ __forceinline__ void register_sort(Bits* sk, VBits* sv, unsigned P) {
  Bits x[E];
  VBits v[E];
  load_contiguous<E>(sk, x);
  if constexpr (PAIRS) load_contiguous<E>(sv, v);
#pragma unroll
  for (int size = 2; size <= E; size *= 2) {
    if (unsigned(size) <= P) {
#pragma unroll
      for (int stride = size / 2; stride > 0; stride /= 2) {
#pragma unroll
        for (int a = 0; a < E; ++a) {
          if ((a & stride) == 0) {
            const int b = stride == size / 2 ? (a ^ (size - 1)) : (a | stride);
            compare_exchange<PAIRS>(x[a], x[b], v[a], v[b]);
          }
        }
      }
    }
  }
  store_contiguous<E>(sk, x);
  if constexpr (PAIRS) store_contiguous<E>(sv, v);
}

// Half-cleaner strides E/2 .. 1 in registers.
template <bool PAIRS, int E, class Bits, class VBits>
__device__ __forceinline__ void register_merge(Bits* sk, VBits* sv) {
  Bits x[E];
  VBits v[E];
  load_contiguous<E>(sk, x);
  if constexpr (PAIRS) load_contiguous<E>(sv, v);
#pragma unroll
  for (int stride = E / 2; stride > 0; stride /= 2) {
#pragma unroll
    for (int a = 0; a < E; ++a)
      if ((a & stride) == 0) compare_exchange<PAIRS>(x[a], x[a | stride], v[a], v[a | stride]);
  }
  store_contiguous<E>(sk, x);
  if constexpr (PAIRS) store_contiguous<E>(sv, v);
}

// One step over the tile in shared memory: T / 2 comparators, E / 2 per thread.
template <bool PAIRS, int E, class Bits, class VBits>
__device__ __forceinline__ void shared_step(Bits* sk, VBits* sv, unsigned stride, bool flip, unsigned size) {
#pragma unroll
  for (int r = 0; r < E / 2; ++r) {
    const unsigned q = threadIdx.x + r * blockDim.x;
    const unsigned i = ((q & ~(stride - 1)) << 1) | (q & (stride - 1));
    const unsigned j = flip ? (i ^ (size - 1)) : (i | stride);
    const Bits a = sk[i], b = sk[j];
    if (a > b) {
      sk[i] = b;
      sk[j] = a;
      if constexpr (PAIRS) {
        const VBits t = sv[i];
        sv[i] = sv[j];
        sv[j] = t;
      }
    }
  }
}

// Sorts every P-aligned chunk of the tile (P a power of two, P <= tile). Synchronised on entry
// and on exit.
template <bool PAIRS, int E, class Bits, class VBits>
__device__ void tile_sort(Bits* sk, VBits* sv, unsigned P) {
  register_sort<PAIRS, E>(sk, sv, P);
  __syncthreads();
  for (unsigned size = 2 * E; size <= P; size *= 2) {
    shared_step<PAIRS, E>(sk, sv, size / 2, true, size);
    __syncthreads();
    for (unsigned stride = size / 4; stride >= unsigned(E); stride /= 2) {
      shared_step<PAIRS, E>(sk, sv, stride, false, size);
      __syncthreads();
    }
    register_merge<PAIRS, E>(sk, sv);
    __syncthreads();
  }
}

// [SECTION] register tiles (the one-array sort)
// A tile of 2^(LT + 4) elements held by 2^LT threads (LT = 8 or 9), 16 each, in one of two
// layouts:
//   blocked: thread t holds elements 16t .. 16t + 15 (register = index bits 0..3, lane = bits
//            4..8, warp = the bits above), so strides 1 .. 256 stay inside a warp: registers,
//            then shuffles, no barrier;
//   striped: thread t holds elements t + r 2^LT (register = index bits LT .. LT + 3), so the
//            strides from 2^LT up stay inside a thread; global loads and stores are coalesced.
// Shared memory only moves the tile between the two (XOR-swizzled: both layouts access it
// without bank conflicts for 4-byte keys). A third layout holding index bits 4..7 in registers,
// in place of the four shuffle steps, measured slower (tile merge 7.2 us against 6.0, H200).
// Every comparator takes the other element only when it is strictly better, so padding keys
// (all ones, at the top) never move.
namespace rt {

// LT (a template argument below): log2 of the threads per tile; the tile is 2^(LT + 4).
constexpr int kLogItems = 4;
constexpr int kItems = 1 << kLogItems;
constexpr int kLaneBits = kLogItems + 5;  // blocked: index bits below this stay in a warp
template <int LT>
constexpr int log_tile() {
  static_assert(LT >= kLaneBits - 1 && LT <= kLaneBits, "striped registers start at or below the blocked warp bits");
  return LT + kLogItems;
}

// Bank bits XORed with the row (i >> 5): a blocked access (stride 16) then meets 32 banks.
__device__ __forceinline__ unsigned swz(unsigned i) { return i ^ ((i >> 5) & 15); }

// Register half-cleaner over register bit B: r against r | 2^B, the smaller to r.
template <bool PAIRS, int B, class Bits, class VBits>
__device__ __forceinline__ void reg_clean(Bits (&k)[kItems], VBits (&v)[kItems]) {
#pragma unroll
  for (int r = 0; r < kItems; ++r)
    if ((r & (1 << B)) == 0) compare_exchange<PAIRS>(k[r], k[r | (1 << B)], v[r], v[r | (1 << B)]);
}
// Register flip of stage 2^(B+1): r against r ^ (2^(B+1) - 1).
template <bool PAIRS, int B, class Bits, class VBits>
__device__ __forceinline__ void reg_flip(Bits (&k)[kItems], VBits (&v)[kItems]) {
#pragma unroll
  for (int r = 0; r < kItems; ++r)
    if ((r & (1 << B)) == 0) compare_exchange<PAIRS>(k[r], k[r ^ ((2 << B) - 1)], v[r], v[r ^ ((2 << B) - 1)]);
}

// Keeps the smaller of (mine, other) when `upper` is false, else the larger; the other element
// replaces mine only when strictly better, so both sides of a comparator agree on equal keys.
template <bool PAIRS, class Bits, class VBits>
__device__ __forceinline__ void keep(Bits& k, VBits& v, Bits ok, VBits ov, bool upper) {
  if constexpr (PAIRS) {
    if (upper ? ok > k : ok < k) {
      k = ok;
      v = ov;
    }
  } else {
    const Bits lo = ok < k ? ok : k;
    const Bits hi = ok < k ? k : ok;
    k = upper ? hi : lo;
  }
}

// Blocked layout, a comparator across lanes: partner lane = lane ^ lane_mask. FLIP pairs my
// register r with the partner's 15 - r (the flip of a stage whose top bit is a lane bit).
template <bool PAIRS, bool FLIP, class Bits, class VBits>
__device__ __forceinline__ void lane_step(Bits (&k)[kItems], VBits (&v)[kItems], unsigned lane_mask, bool upper) {
  Bits ok[kItems];
  VBits ov[kItems];
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    const int src = FLIP ? kItems - 1 - r : r;
    ok[r] = __shfl_xor_sync(0xffffffffu, k[src], lane_mask);
    if constexpr (PAIRS) ov[r] = __shfl_xor_sync(0xffffffffu, v[src], lane_mask);
  }
#pragma unroll
  for (int r = 0; r < kItems; ++r) keep<PAIRS>(k[r], v[r], ok[r], ov[r], upper);
}

// Blocked layout: half-cleaners over index bits B .. 0.
template <bool PAIRS, int B, class Bits, class VBits>
__device__ __forceinline__ void warp_clean(Bits (&k)[kItems], VBits (&v)[kItems], unsigned lane) {
  if constexpr (B >= 0) {
    if constexpr (B >= kLogItems)
      lane_step<PAIRS, false>(k, v, 1u << (B - kLogItems), (lane >> (B - kLogItems)) & 1);
    else
      reg_clean<PAIRS, B>(k, v);
    warp_clean<PAIRS, B - 1>(k, v, lane);
  }
}

// Blocked layout: the whole stage 2^S (S <= kLaneBits), flip then half-cleaners.
template <bool PAIRS, int S, class Bits, class VBits>
__device__ __forceinline__ void warp_stage(Bits (&k)[kItems], VBits (&v)[kItems], unsigned lane) {
  if constexpr (S - 1 >= kLogItems)
    lane_step<PAIRS, true>(k, v, (1u << (S - kLogItems)) - 1, (lane >> (S - 1 - kLogItems)) & 1);
  else
    reg_flip<PAIRS, S - 1>(k, v);
  warp_clean<PAIRS, S - 2>(k, v, lane);
}

template <class T>
__device__ __forceinline__ void put_blocked(T* s, const T (&x)[kItems]) {
#pragma unroll
  for (int r = 0; r < kItems; ++r) s[swz(threadIdx.x * kItems + r)] = x[r];
}
template <class T>
__device__ __forceinline__ void get_blocked(const T* s, T (&x)[kItems]) {
#pragma unroll
  for (int r = 0; r < kItems; ++r) x[r] = s[swz(threadIdx.x * kItems + r)];
}
template <int LT, class T>
__device__ __forceinline__ void put_striped(T* s, const T (&x)[kItems]) {
#pragma unroll
  for (int r = 0; r < kItems; ++r) s[swz(threadIdx.x + (r << LT))] = x[r];
}
template <int LT, class T>
__device__ __forceinline__ void get_striped(const T* s, T (&x)[kItems]) {
#pragma unroll
  for (int r = 0; r < kItems; ++r) x[r] = s[swz(threadIdx.x + (r << LT))];
}

// Blocked -> striped and back (one barrier each way; the caller's previous reads of shared
// memory were of the positions it writes first, so no barrier is needed before).
template <bool PAIRS, int LT, class Bits, class VBits>
__device__ __forceinline__ void blocked_to_striped(Bits (&k)[kItems], VBits (&v)[kItems], Bits* sk, VBits* sv) {
  put_blocked(sk, k);
  if constexpr (PAIRS) put_blocked(sv, v);
  __syncthreads();
  get_striped<LT>(sk, k);
  if constexpr (PAIRS) get_striped<LT>(sv, v);
}
template <bool PAIRS, int LT, class Bits, class VBits>
__device__ __forceinline__ void striped_to_blocked(Bits (&k)[kItems], VBits (&v)[kItems], Bits* sk, VBits* sv) {
  put_striped<LT>(sk, k);
  if constexpr (PAIRS) put_striped<LT>(sv, v);
  __syncthreads();
  get_blocked(sk, k);
  if constexpr (PAIRS) get_blocked(sv, v);
}

// Striped layout: half-cleaners over index bits B .. LT (register bits).
template <bool PAIRS, int LT, int B, class Bits, class VBits>
__device__ __forceinline__ void striped_clean(Bits (&k)[kItems], VBits (&v)[kItems]) {
  if constexpr (B >= LT) {
    reg_clean<PAIRS, B - LT>(k, v);
    striped_clean<PAIRS, LT, B - 1>(k, v);
  }
}

// From the striped layout (strides 2^LT and up done) to the blocked one, with the
// half-cleaners of index bits LT - 1 .. 0 inside the warp. The caller's last reads of shared
// memory were its own striped positions.
template <bool PAIRS, int LT, class Bits, class VBits>
__device__ __forceinline__ void low_clean(Bits (&k)[kItems], VBits (&v)[kItems], Bits* sk, VBits* sv,
                                          unsigned lane) {
  striped_to_blocked<PAIRS, LT>(k, v, sk, sv);
  warp_clean<PAIRS, LT - 1>(k, v, lane);
}

// Stage 2^S with S > kLaneBits, from and back to the blocked layout: the flip reads each
// element's partner i ^ (2^S - 1) (another warp) from shared memory, the strides down to 2^LT
// run striped in registers, the rest in the warp.
template <bool PAIRS, int LT, int S, class Bits, class VBits>
__device__ __forceinline__ void block_stage(Bits (&k)[kItems], VBits (&v)[kItems], Bits* sk, VBits* sv,
                                            unsigned lane) {
  put_blocked(sk, k);
  if constexpr (PAIRS) put_blocked(sv, v);
  __syncthreads();
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    const unsigned i = threadIdx.x + (r << LT);
    const unsigned j = i ^ ((1u << S) - 1);
    k[r] = sk[swz(i)];
    VBits ov{};
    if constexpr (PAIRS) {
      v[r] = sv[swz(i)];
      ov = sv[swz(j)];
    }
    keep<PAIRS>(k[r], v[r], sk[swz(j)], ov, (i >> (S - 1)) & 1);
  }
  striped_clean<PAIRS, LT, S - 2>(k, v);
  __syncthreads();  // the flip read other threads' positions
  low_clean<PAIRS, LT>(k, v, sk, sv, lane);
}

// Stages 2^S .. 2^log_p of the tile sort (blocked layout in and out).
template <bool PAIRS, int LT, int S, class Bits, class VBits>
__device__ __forceinline__ void sort_stages(Bits (&k)[kItems], VBits (&v)[kItems], Bits* sk, VBits* sv, int log_p,
                                            unsigned lane) {
  if constexpr (S <= log_tile<LT>()) {
    if (S > log_p) return;
    if constexpr (S <= kLaneBits)
      warp_stage<PAIRS, S>(k, v, lane);
    else
      block_stage<PAIRS, LT, S>(k, v, sk, sv, lane);
    sort_stages<PAIRS, LT, S + 1>(k, v, sk, sv, log_p, lane);
  }
}

}  // namespace rt

}  // namespace primlab::detail::bitonic
