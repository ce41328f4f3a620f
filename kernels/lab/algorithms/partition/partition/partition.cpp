// Radix partition (seed 003): a histogram of a bit-field digit with shared-memory atomicAdd, a
// prefix scan of the histogram into partition offsets, and the reorder; plans, listings and CPU
// references. Two variants:
//  - partition-atomic (the seed): the reorder takes its slot with atomicAdd on a per-partition
//    cursor, so the order inside a partition is whichever atomic lands first: not stable, not
//    deterministic (the CPU reference draws the order of each round's atomics from StepConfig::seed;
//    seed 0 keeps thread order). Offsets, the histogram and each partition's multiset are fixed.
//  - partition-stable: per-block histograms stored [digit][block], one scan over them, and each
//    block writes its tile in order (warps one after another, lanes ranked with __match_any_sync):
//    stable, deterministic, equal to a stable counting sort by digit.
// Partitions P = StepConfig::bins, a power of two from 2 to 4096; the digit is bits
// [digit_start, digit_start + log2 P) of the key's 32-bit pattern (int32 keys are not sign-flipped),
// extracted with PTX bfe.u32. Block b owns a tile of R x B consecutive keys, R rounds of B.
#include <algorithm>

#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {

constexpr std::int32_t kMaxParts = 4096;
// Per-block histogram cells the grid may hold; bigger inputs take more rounds per block.
constexpr std::int32_t kMaxBlockCells = 8192;

struct Geometry {
  std::int32_t n, block, parts, start, bits, blocks, rounds;
  std::int32_t tile() const { return rounds * block; }
};

Geometry geometry(const StepConfig& cfg) {
  Geometry g{cfg.n, cfg.block, cfg.bins, cfg.digit_start, plan::log2_floor(cfg.bins), 0, 0};
  const std::int32_t cap = std::max(1, kMaxBlockCells / g.parts);
  const std::int32_t blocks = std::min(plan::div_up(g.n, g.block), cap);
  g.rounds = plan::div_up(g.n, std::int64_t(blocks) * g.block);
  g.blocks = plan::div_up(g.n, g.tile());
  return g;
}

Result check_config(const StepConfig& cfg) {
  if (cfg.bins < 2 || cfg.bins > kMaxParts || (cfg.bins & (cfg.bins - 1)) != 0)
    return Result::failure("radix partition needs a power-of-two number of partitions (bins) from 2 to 4096 (got " +
                           std::to_string(cfg.bins) + ")");
  const int bits = plan::log2_floor(cfg.bins);
  if (cfg.digit_start < 0 || cfg.digit_start + bits > 32)
    return Result::failure("the digit, bits [" + std::to_string(cfg.digit_start) + ", " +
                           std::to_string(cfg.digit_start + bits) + "), must lie in the 32-bit key");
  if (cfg.type == ElemType::F32) return Result::failure("radix partition takes int32 or uint32 keys");
  return {};
}

std::uint32_t digit_of(std::uint32_t key, const Geometry& g) { return (key >> g.start) & ((1u << g.bits) - 1u); }

std::string digit_text(const Geometry& g) {
  return "bits [" + std::to_string(g.start) + ", " + std::to_string(g.start + g.bits) + ")";
}

std::uint32_t mix(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u);
  h = (h ^ (h >> 15)) * 0x85EBCA6Bu + c;
  h = (h ^ (h >> 13)) * 0xC2B2AE35u;
  return h ^ (h >> 16);
}

// Rows common to both variants; each adds its own after kDigit.
enum CommonRows { kDigit = kStdRows };

// The CPU side shared by both variants.
struct PartRun {
  cpu::CpuRun run;
  const Geometry g;
  PartRun(Trace& t, const StepConfig& cfg, const std::vector<std::uint32_t>& input) : run(t), g(geometry(cfg)) {
    std::copy(input.begin(), input.end(), run.row(kRowMain));
    for (std::int32_t i = 0; i < g.n; ++i) run.row(kDigit)[i] = digit_of(input[i], g);
  }
  std::uint32_t digit(std::int32_t i) { return run.row(kDigit)[i]; }

  // Key of block b, round r, thread tid (or -1 past n).
  std::int32_t key_index(std::int32_t b, std::int32_t r, std::int32_t tid) const {
    const std::int64_t i = std::int64_t(b) * g.tile() + std::int64_t(r) * g.block + tid;
    return i < g.n ? std::int32_t(i) : -1;
  }

  // A block-stride loop over P shared counters, warp by warp: the branch, one shared access a
  // lane, f(thread, block, j, k).
  template <class F>
  void block_loop(const Step& st, std::int32_t count, F f) {
    cpu::block_stride_loop(run, st.launch, g.block, count, f);
  }

  // Shared-memory digit counting of every block's tile (after the clear): per round and warp the
  // i < n branch and the shared atomics; f(thread, block, round, i, digit) per key.
  template <class F>
  void count_tiles(const Step& st, F f) {
    cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      for (std::int32_t r = 0; r < g.rounds; ++r) {
        int paths[32];
        std::int32_t a[32], idx[32];
        for (int l = 0; l < lanes; ++l) {
          idx[l] = key_index(b, r, first + l);
          paths[l] = idx[l] >= 0;
          a[l] = idx[l] >= 0 ? std::int32_t(digit(idx[l])) : -1;
        }
        run.branch(paths, lanes);
        run.shared_access(a, lanes);
        for (int l = 0; l < lanes; ++l) {
          if (idx[l] < 0) continue;
          run.count().global_read_bytes += 4;
          run.count().atomics += 1;
          f(std::int64_t(b) * g.block + first + l, b, r, idx[l], digit(idx[l]));
        }
      }
    });
  }

  // prefixScan of L counts (row in_row) into offsets (row out_row) by one block of S threads.
  void scan(const Step& st, int in_row, int out_row, std::int32_t L) {
    const std::int32_t S = st.launch.threads, c = plan::div_up(L, S);
    const std::uint32_t* in = run.row(in_row);
    std::uint32_t* out = run.row(out_row);
    Counters& cn = run.count();
    std::vector<std::uint32_t> sh(std::size_t(S), 0u);
    auto lo = [&](std::int32_t t) { return std::min<std::int64_t>(std::int64_t(t) * c, L); };
    auto hi = [&](std::int32_t t) { return std::min<std::int64_t>(lo(t) + c, L); };
    auto chunk_branches = [&]() {
      cpu::for_each_warp(st.launch, [&](std::int32_t, std::int32_t first, int lanes) {
        for (std::int32_t j = 0; j < c; ++j) {
          int paths[32];
          for (int l = 0; l < lanes; ++l) paths[l] = lo(first + l) + j < hi(first + l);
          run.branch(paths, lanes);
        }
      });
    };
    chunk_branches();
    for (std::int32_t t = 0; t < S; ++t) {
      for (std::int64_t k = lo(t); k < hi(t); ++k) sh[std::size_t(t)] += in[k];
      cn.adds += hi(t) - lo(t);
      cn.global_read_bytes += 4 * (hi(t) - lo(t));
    }
    auto access = [&](auto addr) {
      cpu::for_each_warp(st.launch, [&](std::int32_t, std::int32_t first, int lanes) {
        std::int32_t a[32];
        for (int l = 0; l < lanes; ++l) a[l] = addr(first + l);
        run.shared_access(a, lanes);
      });
    };
    access([](std::int32_t t) { return t; });  // sh[t] = sum
    for (std::int32_t d = 1; d < S; d <<= 1) {
      cpu::for_each_warp(st.launch, [&](std::int32_t, std::int32_t first, int lanes) {
        int paths[32];
        for (int l = 0; l < lanes; ++l) paths[l] = first + l >= d;
        run.branch(paths, lanes);
      });
      access([d](std::int32_t t) { return t >= d ? t : -1; });
      access([d](std::int32_t t) { return t >= d ? t - d : -1; });
      access([d](std::int32_t t) { return t >= d ? t : -1; });
      const std::vector<std::uint32_t> old = sh;
      for (std::int32_t t = d; t < S; ++t) sh[std::size_t(t)] = old[std::size_t(t)] + old[std::size_t(t - d)];
      cn.adds += S - d;
    }
    access([](std::int32_t t) { return t > 0 ? t - 1 : -1; });
    chunk_branches();
    for (std::int32_t t = 0; t < S; ++t) {
      std::uint32_t acc = t > 0 ? sh[std::size_t(t - 1)] : 0u;
      for (std::int64_t k = lo(t); k < hi(t); ++k) {
        out[k] = acc;
        acc += in[k];
        run.op(t, std::int32_t(k - lo(t)), OpKind::Add, in_row, std::int32_t(k), out_row, std::int32_t(k));
      }
      cn.adds += hi(t) - lo(t);
      cn.global_read_bytes += 4 * (hi(t) - lo(t));
      cn.global_write_bytes += 4 * (hi(t) - lo(t));
    }
  }
};

void common_rows(const StepConfig& cfg, const Geometry& g, Trace& t, std::int32_t cells) {
  t.width = std::max({cfg.n, cells});
  // Block b owns the tile [b * R * B, (b + 1) * R * B): bands of R * B keys show the tiles (the keys of
  // one thread are strided by B inside its tile, which the contiguous ownership model cannot draw).
  t.elems_per_thread = g.rounds;
  plan::standard_rows(t, "keys", cfg.n, cfg.type);
  plan::add_row(t, "digit = bfe(key, " + std::to_string(g.start) + ", " + std::to_string(g.bits) + ")", RowKind::Index,
                cfg.n, ElemType::I32);
}

Step& scan_step(Trace& t, const Geometry&, std::int32_t L, const std::string& what, int line, int focus) {
  const std::int32_t S = std::min(t.block, L);
  return plan::add_step(t, what, "scan", line, 1, S, S, plan::div_up(L, S), focus);
}

}  // namespace

// [SECTION] partition-atomic: the seed's histogram, prefixScan and reorder with atomic offsets
namespace {
enum AtomicRows { kBlockHist = kDigit + 1, kHist, kOffsets, kFill, kOut };
}  // namespace

Result plan_partition_atomic(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Geometry g = geometry(cfg);
  const std::int32_t P = g.parts;
  t.title = "Radix partition with atomic offsets (seed 003, not stable)";
  const plan::Code code = plan::code(t, "partition-atomic");  // partition_traced.cu
  common_rows(cfg, g, t, std::max(g.blocks * P, P));
  plan::add_row(t, "block histograms (shared, block-major)", RowKind::Values, g.blocks * P, ElemType::U32, false);
  plan::add_row(t, "histogram", RowKind::Values, P, ElemType::U32, false);
  plan::add_row(t, "partition offsets (exclusive scan)", RowKind::Values, P, ElemType::U32, false);
  plan::add_row(t, "placed so far (atomic cursor)", RowKind::Values, P, ElemType::U32, false);
  plan::add_row(t, "output", RowKind::Values, cfg.n, cfg.type);
  plan::initial_step(t, kRowMain);
  const std::string dt = digit_text(g);
  plan::add_step(t, "histogram: atomicAdd(&sh_hist[digit], 1) in shared memory, digit = " + dt + " (bfe.u32)", "count",
                 code.line("count"), g.blocks, g.block, g.n, g.rounds, kBlockHist)
      .explain = "Each thread extracts its keys' digit with one bit-field extract and counts it in its block's "
                 "shared histogram with a shared-memory atomic.";
  const std::int32_t fi = plan::div_up(P, g.block);
  Step& flush = plan::add_step(t, "histogram: atomicAdd(&hist[d], sh_hist[d]), one global atomic per digit and block",
                               "flush", code.line("flush"), g.blocks, g.block, g.blocks * std::min(g.block, P), fi, kHist);
  flush.barrier = true;  // the same histogram kernel, after __syncthreads()
  flush.explain = "After a barrier, each block adds its counts into the global histogram: one global atomic per "
                  "digit and block.";
  scan_step(t, g, P, "prefix scan: offsets[d] = hist[0] + ... + hist[d-1]", code.line("scan"), kOffsets).explain =
      "An exclusive scan of the histogram gives each partition its first output position.";
  plan::add_step(t,
                 "reorder (not stable): out[offsets[d] + atomicAdd(&fill[d], 1)] = key; the order inside a partition "
                 "is the order the atomics land (CPU: StepConfig::seed; GPU: differs run to run)",
                 "reorder", code.line("reorder"), g.blocks, g.block, g.n, 2 * g.rounds, kOut)
      .explain = "Each key takes the next free slot of its partition with an atomic on the partition's cursor: "
                 "keys end up grouped by digit, but inside a partition in whatever order the atomics landed.";
  return {};
}

void cpu_partition_atomic(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  PartRun h(t, cfg, input);
  h.run.snapshot_initial();
  const Geometry& g = h.g;
  const std::int32_t P = g.parts;
  std::uint32_t* sh = h.run.row(kBlockHist);
  std::uint32_t* hist = h.run.row(kHist);
  std::uint32_t* offsets = h.run.row(kOffsets);
  std::uint32_t* fill = h.run.row(kFill);
  std::uint32_t* out = h.run.row(kOut);
  const std::uint32_t* keys = h.run.row(kRowMain);
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    h.run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = h.run.count();
    if (st.phase == "count") {
      h.block_loop(st, P, [&](std::int64_t, std::int32_t b, std::int32_t j, std::int32_t) { sh[b * P + j] = 0; });
      h.count_tiles(st, [&](std::int64_t thread, std::int32_t b, std::int32_t r, std::int32_t i, std::uint32_t d) {
        sh[b * P + std::int32_t(d)] += 1;
        h.run.op(thread, r, OpKind::Atomic, kRowMain, i, kBlockHist, b * P + std::int32_t(d));
      });
    } else if (st.phase == "flush") {
      h.block_loop(st, P, [&](std::int64_t thread, std::int32_t b, std::int32_t j, std::int32_t k) {
        hist[j] += sh[b * P + j];
        h.run.op(thread, k, OpKind::Atomic, kBlockHist, b * P + j, kHist, j);
        c.atomics += 1;
      });
    } else if (st.phase == "scan") {
      h.scan(st, kHist, kOffsets, P);
    } else {
      // Each round's atomics land in an order drawn from the seed (0: thread order).
      for (std::int32_t r = 0; r < g.rounds; ++r) {
        cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
          int paths[32];
          for (int l = 0; l < lanes; ++l) paths[l] = h.key_index(b, r, first + l) >= 0;
          h.run.branch(paths, lanes);
        });
        std::vector<std::pair<std::uint32_t, std::int64_t>> order;  // (rank, thread)
        for (std::int64_t th = 0; th < std::int64_t(g.blocks) * g.block; ++th) {
          if (h.key_index(std::int32_t(th / g.block), r, std::int32_t(th % g.block)) < 0) continue;
          order.push_back({cfg.seed == 0 ? std::uint32_t(th) : mix(cfg.seed, std::uint32_t(r), std::uint32_t(th)), th});
        }
        std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& o : order) {
          const std::int64_t th = o.second;
          const std::int32_t i = h.key_index(std::int32_t(th / g.block), r, std::int32_t(th % g.block));
          const std::uint32_t d = h.digit(i);
          const std::uint32_t pos = offsets[d] + fill[d]++;
          out[pos] = keys[i];
          h.run.op(th, 2 * r, OpKind::Atomic, kRowMain, i, kFill, std::int32_t(d));
          h.run.op(th, 2 * r + 1, OpKind::Move, kRowMain, i, kOut, std::int32_t(pos));
          c.atomics += 1;
          c.global_read_bytes += 8;
          c.global_write_bytes += 4;
        }
      }
    }
    h.run.end();
  }
}

// [SECTION] partition-stable: per-block histograms [digit][block], one scan, in-order block writes
namespace {
enum StableRows { kCounts = kDigit + 1, kScanned, kSOut };
}  // namespace

Result plan_partition_stable(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Geometry g = geometry(cfg);
  const std::int32_t P = g.parts, L = P * g.blocks;
  t.title = "Stable radix partition (per-block histograms, scan over [digit][block])";
  const plan::Code code = plan::code(t, "partition-stable");  // partition_traced.cu
  common_rows(cfg, g, t, L);
  plan::add_row(t, "block histograms [digit][block]", RowKind::Values, L, ElemType::U32, false);
  plan::add_row(t, "offsets [digit][block] (exclusive scan)", RowKind::Values, L, ElemType::U32, false);
  plan::add_row(t, "output", RowKind::Values, cfg.n, cfg.type);
  plan::initial_step(t, kRowMain);
  plan::add_step(
      t, "block histograms: count the tile's digits " + digit_text(g) + " in shared memory, store counts[digit][block]",
      "count", code.line("count"), g.blocks, g.block, g.n, g.rounds, kCounts)
      .explain = "Each block counts the digits of its own tile and stores the counts digit-major, counts[digit][block], "
                 "so that one scan can order them by digit first, then by block.";
  scan_step(t, g, L, "prefix scan over [digit][block]: where block b's keys of digit d start", code.line("scan"),
            kScanned)
      .explain = "An exclusive scan over [digit][block] gives each block, for each digit, where its keys of that digit "
                 "start: after all smaller digits, and after the same digit of the blocks before it.";
  plan::add_step(t, "reorder (stable): each block writes its tile in order, warp after warp, lanes ranked by digit",
                 "reorder", code.line("reorder"), g.blocks, g.block, g.n, g.rounds, kSOut)
      .explain = "Each block writes its tile in input order: a key goes to its block's start for its digit plus the "
                 "number of equal digits before it in the tile, so equal digits keep their input order (stable).";
  return {};
}

void cpu_partition_stable(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  PartRun h(t, cfg, input);
  h.run.snapshot_initial();
  const Geometry& g = h.g;
  const std::int32_t P = g.parts, blocks = g.blocks, L = P * blocks;
  std::uint32_t* counts = h.run.row(kCounts);
  std::uint32_t* offsets = h.run.row(kScanned);
  std::uint32_t* out = h.run.row(kSOut);
  const std::uint32_t* keys = h.run.row(kRowMain);
  std::vector<std::uint32_t> sh(std::size_t(blocks) * P, 0u);
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    h.run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = h.run.count();
    if (st.phase == "count") {
      h.block_loop(st, P, [&](std::int64_t, std::int32_t b, std::int32_t j, std::int32_t) { sh[b * P + j] = 0; });
      h.count_tiles(st, [&](std::int64_t thread, std::int32_t b, std::int32_t r, std::int32_t i, std::uint32_t d) {
        sh[std::size_t(b * P) + d] += 1;
        h.run.op(thread, r, OpKind::Atomic, kRowMain, i, kCounts, std::int32_t(d) * blocks + b);
      });
      h.block_loop(st, P, [&](std::int64_t, std::int32_t b, std::int32_t j, std::int32_t) {
        counts[j * blocks + b] = sh[std::size_t(b * P + j)];
        c.global_write_bytes += 4;
      });
    } else if (st.phase == "scan") {
      h.scan(st, kCounts, kScanned, L);
    } else {
      h.block_loop(st, P, [&](std::int64_t, std::int32_t b, std::int32_t j, std::int32_t) {
        sh[std::size_t(b * P + j)] = offsets[j * blocks + b];
        c.global_read_bytes += 4;
      });
      // Round by round; inside a round the block's warps in order (for_each_warp's order).
      for (std::int32_t r = 0; r < g.rounds; ++r)
        cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
          std::int32_t idx[32], dg[32], a[32], wa[32];
          int paths[32], leader[32];
          for (int l = 0; l < lanes; ++l) {
            idx[l] = h.key_index(b, r, first + l);
            paths[l] = idx[l] >= 0;
            dg[l] = idx[l] >= 0 ? std::int32_t(h.digit(idx[l])) : -1;
          }
          h.run.branch(paths, lanes);
          std::int32_t rank[32], peers[32];
          for (int l = 0; l < lanes; ++l) {
            rank[l] = peers[l] = 0;
            for (int m = 0; m < lanes; ++m)
              if (dg[m] == dg[l]) {
                ++peers[l];
                rank[l] += m < l;
              }
            leader[l] = idx[l] >= 0 && rank[l] == 0;
            a[l] = dg[l];
            wa[l] = leader[l] ? dg[l] : -1;
          }
          h.run.shared_access(a, lanes);  // read cursor[d]
          h.run.branch(leader, lanes);
          h.run.shared_access(wa, lanes);  // the leader moves the cursor
          std::uint32_t* cursor = sh.data() + std::size_t(b) * P;
          for (int l = 0; l < lanes; ++l) {
            if (idx[l] < 0) continue;
            const std::uint32_t pos = cursor[dg[l]] + std::uint32_t(rank[l]);
            out[pos] = keys[idx[l]];
            h.run.op(std::int64_t(b) * g.block + first + l, r, OpKind::Move, kRowMain, idx[l], kSOut,
                     std::int32_t(pos));
            c.global_read_bytes += 4;
            c.global_write_bytes += 4;
          }
          for (int l = 0; l < lanes; ++l)
            if (leader[l]) cursor[dg[l]] += std::uint32_t(peers[l]);
        });
    }
    h.run.end();
  }
}

}  // namespace primlab::steppers
