// Histograms (the lecture, seed 004): one global atomicAdd per sample; per-block shared-memory
// histograms merged into the global bins with atomicAdd; the lecture's per-warp sub-histograms with
// the 5-bit thread tag and the write-and-check retry loop, partial histograms per block and a merge
// kernel; the same over the four bytes of each 32-bit word (the lecture's addWord: four addByte
// calls into 256 bins, the counter word (tag << 27) | count shown as one value). Plans, listings and
// CPU references.
//
// Bin rule: bin = x mod bins (int32: the non-negative remainder, so -1 falls in bins - 1; uint32:
// x % bins), 2 <= bins <= 256. Samples are processed grid-stride, one round of T = blocks x B samples
// a step; blocks are capped so that the per-block (per-warp) histograms stay small.
//
// Counters and the "this step" row. Global and shared atomicAdd count in `atomics` (shared ones also
// as shared accesses). A collision is a lane whose bin another live lane of the same warp updates in
// the same instruction (a group of k >= 2 lanes on one bin adds k): the GPU measures it with
// __match_any_sync on the bin, the CPU groups lanes the same way. The tag loop runs the lanes in
// step (__syncwarp between read, write and check), so each round exactly one pending lane per bin
// lands its write: a group of k lanes takes k rounds and k(k-1)/2 failed attempts (retries). Which
// lane lands first is not determined (hardware on the GPU, StepConfig::seed on the CPU), so the tag
// bits and the per-sample retries may differ between runs; bins, partial histograms, counts, the
// counters and the per-step totals of atomics, collisions and retries agree.
#include <algorithm>

#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {

constexpr std::int32_t kMaxBins = 256;
// Per-block (per-warp) histogram cells the grid may hold; more samples take more rounds.
constexpr std::int32_t kMaxPartialCells = 8192;

struct Geometry {
  std::int32_t n, block, bins, blocks, rounds;
  std::int64_t threads() const { return std::int64_t(blocks) * block; }
  std::int32_t warps() const { return (block + 31) / 32; }
};

Geometry geometry(const StepConfig& cfg) {
  Geometry g{cfg.n, cfg.block, cfg.bins, 0, 0};
  const std::int32_t cap = std::max(1, kMaxPartialCells / (g.warps() * g.bins));
  g.blocks = std::min(plan::div_up(g.n, g.block), cap);
  g.rounds = std::int32_t(plan::div_up(g.n, g.threads()));
  return g;
}

Result check_config(const StepConfig& cfg) {
  if (cfg.bins < 2 || cfg.bins > kMaxBins)
    return Result::failure("histogram bins must be between 2 and " + std::to_string(kMaxBins) + " (got " +
                           std::to_string(cfg.bins) + ")");
  if (cfg.type == ElemType::F32) return Result::failure("histograms take int32 or uint32 samples");
  return {};
}

// bin = x mod bins: the non-negative remainder for int32, x % bins for uint32.
std::int32_t bin_of(std::uint32_t x, ElemType t, std::int32_t bins) {
  if (t == ElemType::U32) return std::int32_t(x % std::uint32_t(bins));
  const std::int32_t b = std::int32_t(x) % bins;
  return b < 0 ? b + bins : b;
}

// Rows shared by the three histograms; the algorithm rows follow kStats.
enum Rows { kBin = kStdRows, kSame, kStats, kBins, kFirstAlgoRow };

// Lanes (first + l of block b) of a warp whose bins are given (-1: inactive): multiplicity of each
// lane's bin among the live lanes, and the collision count of the instruction.
int group_sizes(const std::int32_t* bins, int lanes, int* k) {
  int collisions = 0;
  for (int l = 0; l < lanes; ++l) {
    k[l] = 0;
    if (bins[l] < 0) continue;
    for (int m = 0; m < lanes; ++m) k[l] += bins[m] == bins[l];
    collisions += k[l] > 1;
  }
  return collisions;
}

// Builds the shared layout of a histogram trace: rows up to kBins, width and step 0.
void common_rows(const StepConfig& cfg, const Geometry& g, Trace& t, std::int32_t width) {
  t.width = std::max({cfg.n, g.bins, width, 3});  // 3: the "this step" row
  t.elems_per_thread = 1;  // grid-stride: sample i is thread i mod T's (the bands are exact in round 0)
  plan::standard_rows(t, "x (input)", cfg.n, cfg.type);
  plan::add_row(t, "bin = x mod " + std::to_string(g.bins), RowKind::Index, cfg.n, ElemType::I32);
  plan::add_row(t, "lanes on the same bin (this instruction)", RowKind::Values, cfg.n, ElemType::I32);
  plan::add_row(t, "this step: atomics, collisions, retries", RowKind::Values, 3, ElemType::I32, false);
  plan::add_row(t, "bins", RowKind::Values, g.bins, ElemType::U32, false);
}

// Threads with a sample in round r.
std::int32_t round_active(const Geometry& g, std::int32_t r) {
  return std::int32_t(std::min<std::int64_t>(g.threads(), g.n - std::int64_t(r) * g.threads()));
}

// "Round r: " in plain words, with the slice of the input it covers.
std::string round_prose(const Geometry& g, std::int32_t r) {
  return "Round " + std::to_string(r) + " of the grid-stride loop covers " +
         std::to_string(std::min<std::int64_t>(std::int64_t(r + 1) * g.threads(), g.n) - std::int64_t(r) * g.threads()) +
         " samples: ";
}
std::string round_label(const Geometry& g, std::int32_t r, const std::string& what) {
  return "round " + std::to_string(r) + " (x[" + std::to_string(r * g.threads()) + ".." +
         std::to_string(std::min<std::int64_t>(std::int64_t(r + 1) * g.threads(), g.n) - 1) + "]): " + what;
}

// The CPU side common to the three: input and bin rows, stats reset per step.
struct HistRun {
  cpu::CpuRun run;
  const Geometry g;
  explicit HistRun(Trace& t, const StepConfig& cfg, const std::vector<std::uint32_t>& input)
      : run(t), g(geometry(cfg)) {
    std::copy(input.begin(), input.end(), run.row(kRowMain));
    for (std::int32_t i = 0; i < g.n; ++i) run.row(kBin)[i] = std::uint32_t(bin_of(input[i], cfg.type, g.bins));
  }
  void begin(std::size_t s) {
    run.begin(s);
    std::fill(run.row(kStats), run.row(kStats) + 3, 0u);
  }
  std::uint32_t& stat(int k) { return run.row(kStats)[k]; }

  // One warp-instruction of a round: the lanes' samples (element index or -1) and bins.
  struct Lanes {
    int lanes = 0;
    std::int32_t i[32], bin[32], k[32];
    std::int64_t thread[32];
    int paths[32];
  };
  // Walks round r warp by warp: fills the lanes, counts the i < n branch, the reads and collisions.
  template <class F>
  void round(const Step& st, std::int32_t r, F f) {
    cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
      Lanes w;
      w.lanes = lanes;
      for (int l = 0; l < lanes; ++l) {
        w.thread[l] = std::int64_t(b) * g.block + first + l;
        const std::int64_t i = std::int64_t(r) * g.threads() + w.thread[l];
        w.i[l] = i < g.n ? std::int32_t(i) : -1;
        w.paths[l] = w.i[l] >= 0;
        w.bin[l] = w.i[l] >= 0 ? std::int32_t(run.row(kBin)[w.i[l]]) : -1;
      }
      run.branch(w.paths, lanes);
      stat(1) += std::uint32_t(group_sizes(w.bin, lanes, w.k));
      for (int l = 0; l < lanes; ++l)
        if (w.i[l] >= 0) {
          run.row(kSame)[w.i[l]] = std::uint32_t(w.k[l]);
          run.count().global_read_bytes += 4;
        }
      f(b, first, w);
    });
  }
  // A block-stride loop `for (j = tid; j < count; j += B)` over `count` shared words, warp by warp:
  // f(thread, block, j, k) for each live j (iteration k); counts the branch and one shared access a
  // lane at word j.
  template <class F>
  void block_loop(const Step& st, std::int32_t count, F f) {
    cpu::block_stride_loop(run, st.launch, g.block, count, f);
  }
};

}  // namespace

// [SECTION] Global atomicAdd
Result plan_histogram_atomic(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Geometry g = geometry(cfg);
  t.title = "Histogram: global atomicAdd";
  const plan::Code code = plan::code(t, "histogram-atomic");  // histogram_timed.cu
  common_rows(cfg, g, t, 0);
  plan::initial_step(t, kBins);
  for (std::int32_t r = 0; r < g.rounds; ++r) {
    Step& st = plan::add_step(t, round_label(g, r, "atomicAdd(&bins[x[i] mod " + std::to_string(g.bins) + "], 1)"),
                              "count", code.line("count"), g.blocks, g.block, round_active(g, r), 1, kBins);
    st.barrier = r > 0;  // one kernel: the rounds are trips of its grid-stride loop
    st.explain = round_prose(g, r) + "each thread adds 1 to its sample's bin in global memory with atomicAdd. "
                 "Atomics on one address serialise, so lanes whose samples share a bin wait for each other.";
  }
  return {};
}

void cpu_histogram_atomic(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  HistRun h(t, cfg, input);
  h.run.snapshot_initial();
  std::uint32_t* bins = h.run.row(kBins);
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    h.begin(s);
    h.round(t.steps[s], std::int32_t(s - 1), [&](std::int32_t, std::int32_t, const HistRun::Lanes& w) {
      for (int l = 0; l < w.lanes; ++l) {
        if (w.i[l] < 0) continue;
        bins[w.bin[l]] += 1;
        h.run.op(w.thread[l], 0, OpKind::Atomic, kRowMain, w.i[l], kBins, w.bin[l]);
        h.run.count().atomics += 1;
        h.stat(0) += 1;
      }
    });
    h.run.end();
  }
}

// [SECTION] Per-block shared-memory histograms
namespace {
enum SharedRows { kBlockHist = kFirstAlgoRow };
}  // namespace

Result plan_histogram_shared(const StepConfig& cfg, Trace& t) {
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Geometry g = geometry(cfg);
  t.title = "Histogram: per-block shared-memory histograms";
  const plan::Code code = plan::code(t, "histogram-shared");  // histogram_timed.cu
  common_rows(cfg, g, t, g.blocks * g.bins);
  plan::add_row(t, "block histograms (shared, block-major)", RowKind::Values, g.blocks * g.bins, ElemType::U32, false);
  plan::initial_step(t, kBins);
  const std::int32_t iters = plan::div_up(g.bins, g.block);
  const std::int32_t active = g.blocks * std::min(g.block, g.bins);
  plan::add_step(t, "clear: sh_hist[b] = 0 in every block", "clear", code.line("clear"), g.blocks, g.block, active,
                 iters, kBlockHist)
      .explain = "Each block clears its own histogram in shared memory, a bin per thread.";
  // One kernel: clear, count and merge are __syncthreads() apart.
  for (std::int32_t r = 0; r < g.rounds; ++r) {
    Step& st =
        plan::add_step(t, round_label(g, r, "atomicAdd(&sh_hist[x[i] mod " + std::to_string(g.bins) + "], 1) in shared"),
                       "count", code.line("count"), g.blocks, g.block, round_active(g, r), 1, kBlockHist);
    st.barrier = true;
    st.explain = round_prose(g, r) + "each thread adds 1 to its sample's bin in its block's shared histogram. "
                 "Shared-memory atomics are fast, and collide only within one block.";
  }
  Step& merge = plan::add_step(t, "merge: atomicAdd(&bins[b], sh_hist[b]), one global atomic per bin and block", "merge",
                               code.line("merge"), g.blocks, g.block, active, iters, kBins);
  merge.barrier = true;
  merge.explain = "Each block adds its shared histogram into the global bins: one global atomic per bin and block, "
                  "instead of one per sample.";
  return {};
}

void cpu_histogram_shared(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  HistRun h(t, cfg, input);
  h.run.snapshot_initial();
  const Geometry& g = h.g;
  std::uint32_t* bins = h.run.row(kBins);
  std::uint32_t* sh = h.run.row(kBlockHist);
  std::int32_t round = 0;
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    h.begin(s);
    const Step& st = t.steps[s];
    if (st.phase == "clear") {
      h.block_loop(st, g.bins, [&](std::int64_t thread, std::int32_t b, std::int32_t j, std::int32_t k) {
        sh[b * g.bins + j] = 0;
        h.run.op(thread, k, OpKind::Write, kBlockHist, -1, kBlockHist, b * g.bins + j);
      });
    } else if (st.phase == "count") {
      h.round(st, round++, [&](std::int32_t b, std::int32_t, const HistRun::Lanes& w) {
        std::int32_t a[32];
        for (int l = 0; l < w.lanes; ++l) a[l] = w.bin[l];
        h.run.shared_access(a, w.lanes);
        for (int l = 0; l < w.lanes; ++l) {
          if (w.i[l] < 0) continue;
          sh[b * g.bins + w.bin[l]] += 1;
          h.run.op(w.thread[l], 0, OpKind::Atomic, kRowMain, w.i[l], kBlockHist, b * g.bins + w.bin[l]);
          h.run.count().atomics += 1;
          h.stat(0) += 1;
        }
      });
    } else {
      h.block_loop(st, g.bins, [&](std::int64_t thread, std::int32_t b, std::int32_t j, std::int32_t k) {
        bins[j] += sh[b * g.bins + j];
        h.run.op(thread, k, OpKind::Atomic, kBlockHist, b * g.bins + j, kBins, j);
        h.run.count().atomics += 1;
        h.stat(0) += 1;
      });
    }
    h.run.end();
  }
}

// [SECTION] The lecture's per-warp sub-histograms with the 5-bit thread tag
namespace {
enum TagRows { kRetries = kFirstAlgoRow, kSubCount, kSubTag, kPartial, kSubWord };
constexpr std::int32_t kByteBins = 256;
constexpr int kBytesPerWord = 4;

// The byte histogram counts bytes into 256 bins; the word histogram x mod bins.
StepConfig tagged_config(const StepConfig& cfg, bool bytes) {
  StepConfig c = cfg;
  if (bytes) c.bins = kByteBins;
  return c;
}

std::uint32_t mix(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u);
  h = (h ^ (h >> 15)) * 0x85EBCA6Bu + c;
  h = (h ^ (h >> 13)) * 0xC2B2AE35u + d;
  return h ^ (h >> 16);
}
}  // namespace

Result plan_tagged(const StepConfig& given, Trace& t, bool bytes) {
  const StepConfig cfg = tagged_config(given, bytes);
  if (Result r = check_config(cfg); !r.ok()) return r;
  const Geometry g = geometry(cfg);
  const std::int32_t W = g.warps(), sub = g.blocks * W * g.bins;
  t.title = bytes ? "Histogram of bytes: addWord = four addByte into per-warp sub-histograms (lecture)"
                  : "Histogram: per-warp sub-histograms with the thread tag (lecture)";
  const plan::Code code = plan::code(t, "histogram-tagged");  // histogram_traced.cu
  common_rows(cfg, g, t, sub);
  if (bytes) t.rows[kBin].name = "bin = the byte of x this step adds";
  plan::add_row(t, "failed writes of the sample (retries)", RowKind::Values, cfg.n, ElemType::I32);
  plan::add_row(t, "warp sub-histograms: count (low 27 bits)", RowKind::Values, sub, ElemType::U32, false);
  plan::add_row(t, "warp sub-histograms: tag (lane of the last write)", RowKind::Index, sub, ElemType::U32, false);
  plan::add_row(t, "partial histograms (block-major)", RowKind::Values, g.blocks * g.bins, ElemType::U32, false);
  if (bytes)
    plan::add_row(t, "warp sub-histograms: the word (tag << 27) | count, as t<tag>|<count>", RowKind::TagCount, sub,
                  ElemType::U32, false);
  const int counters = bytes ? kSubWord : kSubCount;
  plan::initial_step(t, kBins);
  const std::int32_t ci = plan::div_up(W * g.bins, g.block);
  plan::add_step(t, "clear the " + std::to_string(W) + " warp sub-histograms of every block", "clear",
                 code.line("clear"), g.blocks, g.block, g.blocks * std::min(g.block, W * g.bins), ci, counters)
      .explain = "Each warp gets its own sub-histogram in shared memory, cleared here: no two warps ever write the "
                 "same bin, so no atomics are needed.";
  // One kernel: clear, count and the block merge are __syncthreads() apart; the merge kernel follows.
  for (std::int32_t r = 0; r < g.rounds; ++r) {
    for (int k = 0; k < (bytes ? kBytesPerWord : 1); ++k) {
      const std::string what = bytes ? "addByte(byte " + std::to_string(k) + " of x): read, tag | count+1, write, check, "
                                       "retry until it lands"
                                     : "addByte: read, tag | count+1, write, check, retry until it lands";
      Step& st = plan::add_step(t, round_label(g, r, what), "count", code.line("count"), g.blocks, g.block,
                                round_active(g, r), 1, counters);
      st.barrier = true;
      st.explain = round_prose(g, r) +
                   (bytes ? "each thread's word goes in as four bytes, one addByte each; this is byte " +
                                std::to_string(k) + " (bits " + std::to_string(8 * k) + "-" + std::to_string(8 * k + 7) +
                                "), its value the bin. "
                          : std::string()) +
                   "Lanes of a warp that hit one bin all write count+1 with their lane tag in the 5 high bits; one "
                   "write lands, each lane checks the tag and the losers retry, one by one.";
    }
  }
  Step& block_merge = plan::add_step(t, "block merge: partial[block][bin] = sum of the warps' counts (tag masked off)",
                                     "block merge", code.line("block merge"), g.blocks, g.block,
                                     g.blocks * std::min(g.block, g.bins), plan::div_up(g.bins, g.block) * W, kPartial);
  block_merge.barrier = true;
  block_merge.explain = "Each block sums its warps' counts bin by bin (tags masked off) into its partial histogram "
                        "in global memory.";
  plan::add_step(t, "merge kernel: bins[bin] = sum of the " + std::to_string(g.blocks) + " partial histograms", "merge",
                 code.line("merge"), 1, g.bins, g.bins, g.blocks, kBins)
      .explain = "A second kernel sums the " + std::to_string(g.blocks) +
                 " partial histograms, one thread per bin: the final counts, with no atomic anywhere.";
  return {};
}

Result plan_histogram_tagged(const StepConfig& cfg, Trace& t) { return plan_tagged(cfg, t, false); }
Result plan_histogram_tagged_bytes(const StepConfig& cfg, Trace& t) { return plan_tagged(cfg, t, true); }

void cpu_tagged(const StepConfig& given, const std::vector<std::uint32_t>& input, Trace& t, bool bytes) {
  const StepConfig cfg = tagged_config(given, bytes);
  HistRun h(t, cfg, input);
  h.run.snapshot_initial();
  const Geometry& g = h.g;
  const std::int32_t W = g.warps(), P = g.bins;
  std::uint32_t* cnt = h.run.row(kSubCount);
  std::uint32_t* tag = h.run.row(kSubTag);
  std::uint32_t* partial = h.run.row(kPartial);
  std::uint32_t* bins = h.run.row(kBins);
  std::int32_t count_step = 0;
  // The counter words as the byte histogram shows them, one value each.
  auto words = [&] {
    if (!bytes) return;
    for (std::int32_t j = 0; j < g.blocks * W * P; ++j) h.run.row(kSubWord)[j] = tag[j] << 27 | cnt[j];
  };
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    h.begin(s);
    const Step& st = t.steps[s];
    Counters& c = h.run.count();
    if (st.phase == "clear") {
      h.block_loop(st, W * P, [&](std::int64_t thread, std::int32_t b, std::int32_t j, std::int32_t k) {
        cnt[b * W * P + j] = 0;
        tag[b * W * P + j] = 0;
        h.run.op(thread, k, OpKind::Write, kSubCount, -1, kSubCount, b * W * P + j);
      });
      words();
    } else if (st.phase == "count") {
      const std::int32_t r = bytes ? count_step / kBytesPerWord : count_step;
      const int byte = count_step % kBytesPerWord;
      ++count_step;
      if (bytes) {  // this round's words show the byte this step adds
        const std::int64_t end = std::min<std::int64_t>(std::int64_t(r + 1) * g.threads(), g.n);
        for (std::int64_t i = std::int64_t(r) * g.threads(); i < end; ++i)
          h.run.row(kBin)[i] = (input[std::size_t(i)] >> (8 * byte)) & 0xFFu;
      }
      const std::uint32_t winner_round = std::uint32_t(bytes ? r * kBytesPerWord + byte : r);
      h.round(st, r, [&](std::int32_t b, std::int32_t first, const HistRun::Lanes& w) {
        const std::int32_t wbase = (first / 32) * P;  // this warp's sub-histogram in the block
        bool done[32];
        for (int l = 0; l < w.lanes; ++l) {
          done[l] = w.i[l] < 0;
          if (!done[l]) {
            h.run.row(kRetries)[w.i[l]] = 0;
            h.run.op(w.thread[l], 0, OpKind::Atomic, kRowMain, w.i[l], kSubCount, b * W * P + wbase + w.bin[l]);
          }
        }
        for (std::uint32_t iter = 0;; ++iter) {
          int paths[32];
          std::int32_t a[32];
          bool any = false;
          for (int l = 0; l < w.lanes; ++l) {
            paths[l] = !done[l];
            a[l] = done[l] ? -1 : wbase + w.bin[l];
            any = any || !done[l];
          }
          if (!any) break;
          h.run.branch(paths, w.lanes);
          for (int m = 0; m < 3; ++m) h.run.shared_access(a, w.lanes);  // read, write, check
          // Each bin written by pending lanes: one of them lands (chosen from the seed).
          bool pending[32];
          for (int l = 0; l < w.lanes; ++l) pending[l] = !done[l];
          for (int l = 0; l < w.lanes; ++l) {
            if (!pending[l]) continue;
            bool first_of_bin = true;
            for (int m = 0; m < l && first_of_bin; ++m) first_of_bin = !pending[m] || w.bin[m] != w.bin[l];
            if (!first_of_bin) continue;
            int group[32], k = 0;
            for (int m = l; m < w.lanes; ++m)
              if (pending[m] && w.bin[m] == w.bin[l]) group[k++] = m;
            const int win =
                group[mix(cfg.seed, std::uint32_t(b * 1024 + first) + winner_round * 7919u, iter, std::uint32_t(w.bin[l])) %
                      std::uint32_t(k)];
            const std::int32_t cell = b * W * P + wbase + w.bin[l];
            cnt[cell] = (cnt[cell] + 1) & 0x07FFFFFFu;
            tag[cell] = std::uint32_t((first + win) & 31);
            for (int m = 0; m < k; ++m) {
              if (group[m] == win) continue;
              h.run.row(kRetries)[w.i[group[m]]] += 1;
              h.stat(2) += 1;
            }
            done[win] = true;
          }
        }
      });
      words();
    } else if (st.phase == "block merge") {
      const std::int32_t iters = plan::div_up(P, g.block);
      cpu::for_each_warp(st.launch, [&](std::int32_t b, std::int32_t first, int lanes) {
        for (std::int32_t k = 0; k < iters; ++k) {
          int paths[32];
          for (int l = 0; l < lanes; ++l) paths[l] = first + l + k * g.block < P;
          h.run.branch(paths, lanes);
          for (std::int32_t wi = 0; wi < W; ++wi) {
            std::int32_t a[32];
            for (int l = 0; l < lanes; ++l) a[l] = paths[l] ? wi * P + first + l + k * g.block : -1;
            h.run.shared_access(a, lanes);
          }
          for (int l = 0; l < lanes; ++l) {
            const std::int32_t bin = first + l + k * g.block;
            if (bin >= P) continue;
            const std::int64_t thread = std::int64_t(b) * g.block + first + l;
            std::uint32_t sum = 0;
            for (std::int32_t wi = 0; wi < W; ++wi) {
              sum += cnt[b * W * P + wi * P + bin];
              h.run.op(thread, k * W + wi, OpKind::Add, kSubCount, b * W * P + wi * P + bin, kPartial, b * P + bin);
            }
            partial[b * P + bin] = sum;
            c.adds += W;
            c.global_write_bytes += 4;
          }
        }
      });
    } else {
      for (std::int32_t bin = 0; bin < P; ++bin) {
        std::uint32_t sum = 0;
        for (std::int32_t hb = 0; hb < g.blocks; ++hb) {
          sum += partial[hb * P + bin];
          h.run.op(bin, hb, OpKind::Add, kPartial, hb * P + bin, kBins, bin);
        }
        bins[bin] = sum;
        c.adds += g.blocks;
        c.global_read_bytes += 4 * g.blocks;
        c.global_write_bytes += 4;
      }
    }
    h.run.end();
  }
}

void cpu_histogram_tagged(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu_tagged(cfg, input, t, false);
}
void cpu_histogram_tagged_bytes(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  cpu_tagged(cfg, input, t, true);
}

}  // namespace primlab::steppers
