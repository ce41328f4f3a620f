// Radix partition (seed 003): the plans (one step per launch of radix_partition.cuh's host code,
// and one per probe.barrier() inside a kernel) and the CPU references, which run the same launches
// warp by warp. partition-atomic's reorder takes its slots with atomics, so the order inside a
// partition is whichever atomic lands first: the CPU reference draws the order of each round's
// atomics from StepConfig::seed (seed 0 keeps thread order), the GPU's differs from run to run;
// the histogram, the offsets and each partition's multiset are fixed. partition-stable is
// deterministic: a stable counting sort by digit. Partitions P = StepConfig::bins, a power of two
// from 2 to 4096; the digit is bits [digit_start, digit_start + log2 P) of the key's bit pattern.
#include <algorithm>

#include "lab/algorithms/partition/radix_partition/radix_partition.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab;  // the rows and the grid

struct Geometry {
  std::int32_t n, block, parts, start, bits, blocks, rounds;
  std::int32_t tile() const { return rounds * block; }
};

Geometry geometry(const StepConfig& cfg) {
  const int bits = plan::log2_floor(cfg.bins);
  const PartitionGrid grid = partition_grid(cfg.n, cfg.block, bits);
  return {cfg.n, cfg.block, cfg.bins, cfg.digit_start, bits, grid.blocks, grid.rounds};
}

Result check_config(const StepConfig& cfg) {
  if (cfg.bins < 2 || cfg.bins > kPartitionMaxParts || (cfg.bins & (cfg.bins - 1)) != 0)
    return Result::failure("radix partition needs a power-of-two number of partitions (bins) from 2 to 4096 (got " +
                           std::to_string(cfg.bins) + ")");
  const int bits = plan::log2_floor(cfg.bins);
  if (cfg.digit_start < 0 || cfg.digit_start + bits > 32)
    return Result::failure("the digit, bits [" + std::to_string(cfg.digit_start) + ", " +
                           std::to_string(cfg.digit_start + bits) + "), must lie in the 32-bit key");
  if (cfg.type == ElemType::F32) return Result::failure("radix partition takes int32 or uint32 keys");
  return {};
}

std::string digit_text(const Geometry& g) {
  return "bits [" + std::to_string(g.start) + ", " + std::to_string(g.start + g.bits) + ")";
}

std::uint32_t mix(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u);
  h = (h ^ (h >> 15)) * 0x85EBCA6Bu + c;
  h = (h ^ (h >> 13)) * 0xC2B2AE35u;
  return h ^ (h >> 16);
}

// What the two variants' CPU references share: the keys, the grid, the kernels' loops over the
// P counters and over a tile, the histogram (count_tile) and the scan (scan_counts).
struct PartRun {
  cpu::CpuRun run;
  const Geometry g;
  PartRun(Trace& t, const StepConfig& cfg, const std::vector<std::uint32_t>& input) : run(t), g(geometry(cfg)) {
    std::copy(input.begin(), input.end(), run.row(kPartKeys));
  }
  std::uint32_t digit(std::int32_t i) { return (run.row(kPartKeys)[i] >> g.start) & ((1u << g.bits) - 1u); }

  // Key of block b, round r, thread tid (or -1 past n).
  std::int32_t key_index(std::int32_t b, std::int32_t r, std::int32_t tid) const {
    const std::int64_t i = std::int64_t(b) * g.tile() + std::int64_t(r) * g.block + tid;
    return i < g.n ? std::int32_t(i) : -1;
  }

  // The kernels' `for (base = 0; base < parts; base += blockDim.x)` over the P counters, warp by
  // warp: the branch d < parts and one shared access a lane; f(thread, block, d, iteration).
  template <class F>
  void parts_loop(const Step& st, F f) {
    cpu::block_stride_loop(run, st.launch, g.block, g.parts, f);
  }

  // count_tile: each block clears its sh_hist, then counts its tile's digits with shared atomics
  // (per round and warp, the branch valid and the atomics' shared accesses); the digits are
  // registers, shown in their row.
  void count_tile(const Step& st) {
    std::uint32_t* sh_hist = run.row(kPartShared);
    parts_loop(st, [&](std::int64_t, std::int32_t b, std::int32_t d, std::int32_t) { sh_hist[b * g.parts + d] = 0; });
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
          const std::int32_t cell = b * g.parts + a[l];
          sh_hist[cell] += 1;
          run.op(std::int64_t(b) * g.block + first + l, r, OpKind::Atomic, kPartKeys, idx[l], kPartShared, cell);
          run.row(kPartDigit)[idx[l]] = std::uint32_t(a[l]);
          run.count().global_read_bytes += 4;
          run.count().atomics += 1;
        }
      }
    });
  }

  // scan_counts: one block of S threads scans the L counts of row in_row into row out_row.
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
  plan::add_row(t, "digit = bfe(key, " + std::to_string(g.start) + ", " + std::to_string(g.bits) + ") (registers)",
                RowKind::Index, cfg.n, ElemType::I32);
  plan::add_row(t, "sh_hist (shared): block b's counters at [" + std::to_string(g.parts) + " b, " +
                       std::to_string(g.parts) + " b + " + std::to_string(g.parts) + ")",
                RowKind::Values, g.blocks * g.parts, ElemType::U32, false);
}

std::string count_label(const char* kernel, const Geometry& g) {
  return std::string(kernel) + ": atomicAdd(&sh_hist[digit], 1) for each key of the block's tile, digit = bfe(key, " +
         std::to_string(g.start) + ", " + std::to_string(g.bits) + ") = " + digit_text(g);
}

std::string count_explain(const Geometry& g) {
  return "Each block clears its " + std::to_string(g.parts) + " shared counters sh_hist, then each thread takes one "
         "key of the block's tile per round (" + std::to_string(g.rounds) + (g.rounds == 1 ? " round" : " rounds") +
         "), extracts its digit with one bit-field extract and counts it with a shared-memory atomic.";
}

Step& scan_step(Trace& t, const plan::Code& code, std::int32_t L, const std::string& label) {
  const std::int32_t S = partition_scan_threads(L, t.block);
  Step& st = plan::add_step(t, label, "scan", code.line("scan"), 1, S, S, plan::div_up(L, S), kPartOffsets);
  st.also_lit = {code.line("scan (sum)"), code.line("scan (sums)")};
  return st;
}

}  // namespace

// [SECTION] partition-atomic: the seed's histogram, scan and reorder with atomic offsets
Result plan_partition_atomic(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Geometry g = geometry(cfg);
  const std::int32_t P = g.parts;
  t.title = "Radix partition with atomic offsets (seed 003, not stable)";
  const plan::Code code = plan::code(t, "partition-atomic");
  common_rows(cfg, g, t, std::max(g.blocks * P, P));
  plan::add_row(t, "hist: keys per digit", RowKind::Values, P, ElemType::U32, false);
  plan::add_row(t, "offsets: exclusive scan of hist", RowKind::Values, P, ElemType::U32, false);
  plan::add_row(t, "fill: keys placed so far (atomic cursors)", RowKind::Values, P, ElemType::U32, false);
  plan::add_row(t, "out", RowKind::Values, cfg.n, cfg.type);
  plan::initial_step(t, kPartKeys);
  plan::add_step(t, count_label("histogram_atomic", g), "count", code.line("count"), g.blocks, g.block, g.n, g.rounds,
                 kPartShared)
      .explain = count_explain(g);
  Step& flush = plan::add_step(t, "after __syncthreads(): atomicAdd(&hist[d], sh_hist[d]), one global atomic per digit d "
                                  "and block",
                               "flush", code.line("flush"), g.blocks, g.block, g.blocks * std::min(g.block, P),
                               plan::div_up(P, g.block), kPartCounts);
  flush.barrier = true;
  flush.explain = "After the barrier every block's counts are complete, and each block adds them into the global "
                  "histogram hist: one global atomic per digit and block.";
  scan_step(t, code, P, "scan_counts: offsets[d] = hist[0] + ... + hist[d - 1], one block of " +
                            counted(partition_scan_threads(P, g.block), "thread"))
      .explain = "An exclusive scan of the histogram gives each partition its first output position: each thread sums "
                 "its chunk of hist, the threads scan their sums in shared memory, and each writes its chunk's offsets.";
  plan::add_step(t,
                 "reorder_atomic (not stable): out[offsets[digit] + atomicAdd(&fill[digit], 1)] = key; the order inside "
                 "a partition is the order the atomics land (CPU: StepConfig::seed; GPU: differs run to run)",
                 "reorder", code.line("reorder"), g.blocks, g.block, g.n, 2 * g.rounds, kPartAtomicOut)
      .explain = "Each key takes the next free slot of its partition with an atomic on the partition's cursor fill: "
                 "keys end up grouped by digit, but inside a partition in whatever order the atomics landed.";
  return {};
}

void cpu_partition_atomic(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  PartRun h(t, cfg, input);
  h.run.snapshot_initial();
  const Geometry& g = h.g;
  const std::int32_t P = g.parts;
  const std::uint32_t* sh_hist = h.run.row(kPartShared);
  std::uint32_t* hist = h.run.row(kPartCounts);
  std::uint32_t* offsets = h.run.row(kPartOffsets);
  std::uint32_t* fill = h.run.row(kPartFill);
  std::uint32_t* out = h.run.row(kPartAtomicOut);
  const std::uint32_t* keys = h.run.row(kPartKeys);
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    h.run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = h.run.count();
    if (st.phase == "count") {
      h.count_tile(st);
    } else if (st.phase == "flush") {
      h.parts_loop(st, [&](std::int64_t thread, std::int32_t b, std::int32_t d, std::int32_t k) {
        hist[d] += sh_hist[b * P + d];
        h.run.op(thread, k, OpKind::Atomic, kPartShared, b * P + d, kPartCounts, d);
        c.atomics += 1;
      });
    } else if (st.phase == "scan") {
      h.scan(st, kPartCounts, kPartOffsets, P);
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
          h.run.op(th, 2 * r, OpKind::Atomic, kPartKeys, i, kPartFill, std::int32_t(d));
          h.run.op(th, 2 * r + 1, OpKind::Move, kPartKeys, i, kPartAtomicOut, std::int32_t(pos));
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
Result plan_partition_stable(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Geometry g = geometry(cfg);
  const std::int32_t P = g.parts, L = P * g.blocks;
  const std::string blocks = std::to_string(g.blocks);
  t.title = "Stable radix partition (per-block histograms, scan over [digit][block])";
  const plan::Code code = plan::code(t, "partition-stable");
  common_rows(cfg, g, t, L);
  plan::add_row(t, "counts[d * " + blocks + " + b]: block b's keys of digit d", RowKind::Values, L, ElemType::U32, false);
  plan::add_row(t, "offsets[d * " + blocks + " + b]: exclusive scan of counts", RowKind::Values, L, ElemType::U32, false);
  plan::add_row(t, "out", RowKind::Values, cfg.n, cfg.type);
  plan::initial_step(t, kPartKeys);
  plan::add_step(t, count_label("histogram_stable", g), "count", code.line("count"), g.blocks, g.block, g.n, g.rounds,
                 kPartShared)
      .explain = count_explain(g);
  Step& store = plan::add_step(t, "after __syncthreads(): counts[d * blocks + b] = sh_hist[d], digit-major (blocks = " +
                                      blocks + ")",
                               "store", code.line("store"), g.blocks, g.block, g.blocks * std::min(g.block, P),
                               plan::div_up(P, g.block), kPartCounts);
  store.barrier = true;
  store.explain = "After the barrier each block stores its counts digit-major, counts[d * blocks + b], so that one "
                  "scan can order them by digit first, then by block.";
  scan_step(t, code, L, "scan_counts over counts[digit][block]: offsets[d * blocks + b] = where block b's keys of "
                        "digit d start, one block of " + counted(partition_scan_threads(L, g.block), "thread"))
      .explain = "An exclusive scan over [digit][block] gives each block, for each digit, where its keys of that digit "
                 "start: after all smaller digits, and after the same digit of the blocks before it.";
  Step& reorder = plan::add_step(t, "reorder_stable: out[cursor[digit] + rank] = key, warp after warp; rank among the "
                                    "warp's lanes with the same digit (__match_any_sync)",
                                 "reorder", code.line("reorder"), g.blocks, g.block, g.n, g.rounds, kPartStableOut);
  reorder.also_lit = {code.line("reorder (rank)")};
  reorder.explain = "Each block loads its cursors from offsets and writes its tile in input order: a key goes to its "
                    "digit's cursor plus the number of equal digits before it in its warp, and the warp's first lane "
                    "of each digit moves the cursor on. Equal digits keep their input order (stable).";
  return {};
}

void cpu_partition_stable(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  PartRun h(t, cfg, input);
  h.run.snapshot_initial();
  const Geometry& g = h.g;
  const std::int32_t P = g.parts, blocks = g.blocks, L = P * blocks;
  const std::uint32_t* sh_hist = h.run.row(kPartShared);
  std::uint32_t* counts = h.run.row(kPartCounts);
  const std::uint32_t* offsets = h.run.row(kPartOffsets);
  std::uint32_t* out = h.run.row(kPartStableOut);
  const std::uint32_t* keys = h.run.row(kPartKeys);
  std::vector<std::uint32_t> cursor(std::size_t(blocks) * P, 0u);  // each block's, in shared memory
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    h.run.begin(s);
    const Step& st = t.steps[s];
    Counters& c = h.run.count();
    if (st.phase == "count") {
      h.count_tile(st);
    } else if (st.phase == "store") {
      h.parts_loop(st, [&](std::int64_t thread, std::int32_t b, std::int32_t d, std::int32_t k) {
        counts[d * blocks + b] = sh_hist[b * P + d];
        h.run.op(thread, k, OpKind::Move, kPartShared, b * P + d, kPartCounts, d * blocks + b);
        c.global_write_bytes += 4;
      });
    } else if (st.phase == "scan") {
      h.scan(st, kPartCounts, kPartOffsets, L);
    } else {
      h.parts_loop(st, [&](std::int64_t, std::int32_t b, std::int32_t d, std::int32_t) {
        cursor[std::size_t(b * P + d)] = offsets[d * blocks + b];
        c.global_read_bytes += 4;
      });
      // Round by round; inside a round the block's warps in order (for_each_warp's order).
      for (std::int32_t r = 0; r < g.rounds; ++r)
        cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
          std::int32_t idx[32], dg[32], wa[32];
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
            wa[l] = leader[l] ? dg[l] : -1;
          }
          h.run.shared_access(dg, lanes);  // read cursor[digit]
          h.run.branch(leader, lanes);
          h.run.shared_access(wa, lanes);  // the leader moves the cursor
          std::uint32_t* cur = cursor.data() + std::size_t(b) * P;
          for (int l = 0; l < lanes; ++l) {
            if (idx[l] < 0) continue;
            const std::uint32_t pos = cur[dg[l]] + std::uint32_t(rank[l]);
            out[pos] = keys[idx[l]];
            h.run.op(std::int64_t(b) * g.block + first + l, r, OpKind::Move, kPartKeys, idx[l], kPartStableOut,
                     std::int32_t(pos));
            c.global_read_bytes += 4;
            c.global_write_bytes += 4;
          }
          for (int l = 0; l < lanes; ++l)
            if (leader[l]) cur[dg[l]] += std::uint32_t(peers[l]);
        });
    }
    h.run.end();
  }
}

}  // namespace primlab::steppers
