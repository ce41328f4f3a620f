// The reductions' host loops as their plans, CPU references and stepped drivers see them. Every
// loop launches one pass after another over the partial sums of the pass before, until a pass has
// one block: pass k reads x (k = 0) or the workspace array buf[(k - 1) % 2] and writes
// buf[k % 2], or d_out in its last pass. A trace shows the kernel's own rows (shared memory,
// registers) after the standard ones, then buf[0] and buf[1] (two passes or more: the stepped
// driver hands them to the host code as its workspace), then d_out.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/listing.h"
#include "lab/model/plan.h"

namespace primlab::steppers::reduce {

struct Pass {
  std::int32_t len = 0;        // n, the elements the pass reduces (the input, then partial sums)
  std::int32_t blocks = 0;     // the grid
  std::int32_t threads = 0;    // b, the threads of a block
  std::int32_t per_block = 0;  // e, the elements a block covers
  int in_row = kRowMain, out_row = -1;
};

struct Layout {
  std::vector<Pass> passes;
  int buf[2] = {-1, -1};   // the workspace's arrays (-1 when one pass leaves no partial sums)
  int out = -1;            // d_out, the last row
  std::int32_t width = 0;  // the input, or the widest pass's blocks x per_block elements
};

// The passes of a host loop `for (b = block;; b = next(b))` whose blocks cover per_block(b)
// elements each, for a kernel that shows `own_rows` rows of its own.
template <class PerBlock, class Next>
Layout make_layout(std::int32_t n, std::int32_t block, int own_rows, PerBlock per_block, Next next) {
  Layout L;
  L.width = n;
  for (std::int32_t len = n, b = block;; b = next(b)) {
    Pass p;
    p.len = len;
    p.threads = b;
    p.per_block = per_block(b);
    p.blocks = plan::div_up(len, p.per_block);
    L.passes.push_back(p);
    L.width = std::max(L.width, p.blocks * p.per_block);
    if (p.blocks == 1) break;
    len = p.blocks;
  }
  int r = kStdRows + own_rows;
  if (L.passes.size() > 1) {
    L.buf[0] = r++;
    L.buf[1] = r++;
  }
  L.out = r;
  for (std::size_t k = 0; k < L.passes.size(); ++k) {
    Pass& p = L.passes[k];
    p.in_row = k == 0 ? kRowMain : L.buf[(k - 1) % 2];
    p.out_row = k + 1 == L.passes.size() ? L.out : L.buf[k % 2];
  }
  return L;
}

// [SECTION] The lecture's reductions (lecture/reduce_lecture.cuh): reduce_lecture's `variant`.
enum Variant : int { kReduce1 = 1, kReduce2, kReduce3, kReduce4, kReduce5, kShuffle };
// The stepped shuffle reduction's items per thread: the first add during the load, as reduce4's.
constexpr int kShuffleItems = 2;

inline std::int32_t lecture_per_block(int variant, std::int32_t b) {
  if (variant <= kReduce3) return b;
  return variant == kShuffle ? b * kShuffleItems : 2 * b;
}

// The tree kernels show sdata[]; the shuffle shows v, and s_warp[] where a block has several warps.
inline Layout lecture_layout(int variant, std::int32_t n, std::int32_t block) {
  const int own = variant == kShuffle && block > 32 ? 2 : 1;
  return make_layout(
      n, block, own, [variant](std::int32_t b) { return lecture_per_block(variant, b); },
      [](std::int32_t b) { return std::max(b, 2); });
}

// [SECTION] Harris's kernels 6 and 7 (reduce_passes.cuh): the same block in every pass.
inline Layout reduce6_layout(std::int32_t n, std::int32_t block) {
  return make_layout(n, block, 1, [](std::int32_t b) { return 2 * b; }, [](std::int32_t b) { return b; });
}

// reduce7's stepped items per thread (two a round of its loop): about log2(n), Brent's theorem.
inline std::int32_t reduce7_items(std::int32_t n) {
  return 2 * std::max(1, plan::div_up(plan::log2_floor(std::max(n, 1)), 2));
}
// reduce7 shows its registers `sum` and sdata[].
inline Layout reduce7_layout(std::int32_t n, std::int32_t block) {
  const std::int32_t rounds = reduce7_items(n) / 2;
  return make_layout(
      n, block, 2, [rounds](std::int32_t b) { return 2 * b * rounds; }, [](std::int32_t b) { return b; });
}

// [SECTION] Rows, labels and prose every reduction shares
// Adds buf[0], buf[1] and d_out (after the kernel's own rows, as the layout numbered them).
inline void add_partial_rows(Trace& t, const Layout& L, ElemType type) {
  if (L.buf[0] >= 0) {
    std::int32_t held[2] = {0, 0};
    for (const Pass& p : L.passes)
      for (int k = 0; k < 2; ++k)
        if (p.out_row == L.buf[k]) held[k] = std::max(held[k], p.blocks);
    plan::add_row(t, "buf[0]: partial sums, one per block", RowKind::Values, held[0], type, false);
    plan::add_row(t, held[1] ? "buf[1]: partial sums of the next pass" : "buf[1]: unused (the second pass writes d_out)",
                  RowKind::Values, held[1], type, false);
  }
  plan::add_row(t, "d_out: the sum", RowKind::Values, 1, type, false);
}

// "pass 2 (1 block over 8 partial sums): " before the labels of the passes after the first.
inline std::string pass_prefix(const Layout& L, std::size_t k) {
  if (k == 0) return "";
  const Pass& p = L.passes[k];
  return "pass " + std::to_string(k + 1) + " (" + std::to_string(p.blocks) + (p.blocks == 1 ? " block" : " blocks") +
         " over " + std::to_string(p.len) + " partial sums): ";
}
inline std::string pass_phase(std::size_t k) { return "pass " + std::to_string(k + 1); }

// Where a pass's write goes: the end of its write step's label.
inline std::string write_target(const Layout& L, std::size_t k) {
  const Pass& p = L.passes[k];
  if (p.out_row == L.out) return ": the sum";
  return ": " + std::to_string(p.blocks) + " partial sums in buf[" + std::to_string(p.out_row == L.buf[1]) + "]";
}

// The first step of a pass over partial sums says why the kernel runs again.
inline std::string pass_prose(const Layout& L, std::size_t k) {
  if (k == 0) return "";
  const Pass& p = L.passes[k];
  return "The host loop launches the kernel again, b = " + counted(p.threads, "thread") + " a block, over the " +
         counted(p.len, "partial sum") + " of the pass before. ";
}

inline std::string level_prose(int s) {
  const std::string S = std::to_string(s);
  return "Level s=" + S + ": " + (s == 1 ? std::string("thread 0 adds") : "the first " + S + " threads add") +
         " the element " + S + " above " + (s == 1 ? "it" : "them") +
         ". Neighbouring threads touch neighbouring words, so no bank conflict; the rest idle.";
}

inline std::string write_prose(const Layout& L, std::size_t k) {
  const Pass& p = L.passes[k];
  if (p.out_row == L.out) return "Thread 0 writes the block's sum to d_out: the total of the whole input.";
  return "Thread 0 of each block writes its block's partial sum to buf[" + std::to_string(p.out_row == L.buf[1]) +
         "]. Blocks cannot wait for each other, so the host loop launches the kernel again over these " +
         std::to_string(p.blocks) + " partial sums.";
}

// [SECTION] reduce6 and reduce7's unrolled tree (block_reduce_unrolled.cuh): a step per stride s
// lights its own `if (blockSize >= 2s)` line and the helper that line calls (tree_level, warp_line).
// The listing tags the helper's lines, then the four barrier levels (s = 512..64) "level" and the
// six warp lines (s = 32..1) "unrolled", largest stride first.
inline const listing::Tag* unrolled_tag(const plan::Code& code, bool warp) {
  if (const listing::Listing* l = listing::find(code.name))
    for (const listing::Tag& tag : l->tags)
      if (tag.name == (warp ? "unrolled" : "level")) return &tag;
  return nullptr;
}
// The `if (blockSize >= 2s)` line of stride s.
inline int unrolled_line(const plan::Code& code, bool warp, int s) {
  const listing::Tag* tag = unrolled_tag(code, warp);
  const int from_end = warp ? plan::log2_floor(s) : plan::log2_floor(s) - 6;
  if (!tag || from_end < 0 || from_end >= int(tag->lines.size())) return -1;
  return tag->lines[tag->lines.size() - 1 - std::size_t(from_end)];
}
// The first line of the helper that line calls.
inline int unrolled_helper_line(const plan::Code& code, bool warp) {
  const listing::Tag* tag = unrolled_tag(code, warp);
  return tag ? tag->lines.front() : -1;
}

inline std::string unrolled_label(bool warp, int s, int lanes) {
  const std::string S = std::to_string(s), head = "blockSize >= " + std::to_string(2 * s) + ": ";
  if (!warp) return head + "tree_level<" + S + ">: if (tid < " + S + ") sdata[tid] += sdata[tid + " + S + "], then a barrier";
  return head + "warp_line s=" + S + ": d[tid] = d[tid] + d[tid + " + S + "] in the " + std::to_string(lanes) +
         " lanes of warp 0, no barrier";
}

inline std::string unrolled_prose(int s) {
  return "Inside the last warp (s=" + std::to_string(s) +
         "): its lanes run in lockstep, so no __syncthreads() is needed; volatile shared memory keeps each read "
         "fresh and __syncwarp() orders the reads before the writes. Every lane adds, needed or not.";
}

}  // namespace primlab::steppers::reduce
