// radix-onesweep: one digit pass of the library's Onesweep radix sort, stepped. The plan follows
// the host code of radix_onesweep.cuh: the upfront histogram (one launch, two barriers) and the pass
// (one launch, six barriers); the CPU reference runs the library's kernels thread by thread, warp
// by warp, as the recording probe sees them (radix_onesweep_probe.cuh). Where the GPU's order
// decides (which tile publishes first, what a look-back finds), the CPU takes a fixed order: each
// step runs the tiles one after another, tile 0 first, so that every look-back finds its left
// neighbour's inclusive prefix at once.
#include "lab/algorithms/radix/onesweep/radix_onesweep.h"

#include <algorithm>
#include <string>
#include <vector>

#include "lab/model/listing.h"
#include "lab/model/plan.h"
#include "lab/run/cpu_run.h"
#include "lab/run/steppers.h"

namespace primlab::steppers {
namespace {
using namespace lab;

const char kListing[] = "radix-onesweep";

std::string str(std::int64_t v) { return std::to_string(v); }

// Lights every line of the listing whose tag is of the step's phase ("load" lights "load (count)").
void light(Step& st) {
  const listing::Listing* l = listing::find(kListing);
  if (!l) return;
  for (const listing::Tag& g : l->tags)
    if (g.name.substr(0, g.name.find(" (")) == st.phase)
      for (int line : g.lines)
        if (line != st.code_line) st.also_lit.push_back(line);
}

// How a warp ranks its keys (BlockRadixRank): all its keys have one digit; its first keys have at
// most kFewDigits digits (matched with __match_any_sync); in a pass with a hot digit, that digit's
// lanes by ballot and the others by peer masks; or peer masks in shared memory.
enum Path : int { kOneDigit, kFewDigits, kHotDigit, kMasks, kPaths };

// The pass's view of the keys: every tile's keys as the kernel loads them (flipped, padding
// ~0), their digits, the pass's hot digit and each warp's ranking path.
struct Keys {
  std::vector<std::uint32_t> k;      // tiles x tile, by key index
  std::int32_t hot = -1;             // onesweep_hot_digit
  std::vector<int> path;             // tiles x warps
};

Keys load_keys(const OnesweepShape& sh, const OsCodec& c, const std::vector<std::uint32_t>& in) {
  Keys ks;
  ks.k.assign(std::size_t(sh.width()), 0xffffffffu);
  for (std::int32_t i = 0; i < sh.n; ++i) ks.k[std::size_t(i)] = os_flip(in[std::size_t(i)], c.enc0, c.enc1);
  ks.hot = onesweep_hot_digit(sh, c, in);
  ks.path.assign(std::size_t(sh.tiles * sh.warps), kMasks);
  for (std::int32_t t = 0; t < sh.tiles; ++t)
    for (int w = 0; w < sh.warps; ++w) {
      bool one = true;
      std::vector<std::uint32_t> first;
      const std::uint32_t d0 = sh.digit(ks.k[std::size_t(sh.key_index(t, w, 0, 0))]);
      for (int l = 0; l < 32; ++l)
        for (int i = 0; i < kOsItems; ++i) {
          const std::uint32_t d = sh.digit(ks.k[std::size_t(sh.key_index(t, w, i, l))]);
          one &= d == d0;
          if (i == 0 && std::find(first.begin(), first.end(), d) == first.end()) first.push_back(d);
        }
      ks.path[std::size_t(t * sh.warps + w)] = one                                 ? kOneDigit
                                               : int(first.size()) <= kOsFewDigits ? kFewDigits
                                               : ks.hot >= 0                       ? kHotDigit
                                                                                   : kMasks;
    }
  return ks;
}

Result check(const StepConfig& cfg) {
  int bits = 0;
  while ((1 << bits) < cfg.bins) ++bits;
  if (cfg.digit_start < 0 || cfg.digit_start + bits > 32)
    return Result::failure("the digit, bits [" + str(cfg.digit_start) + ", " + str(cfg.digit_start + bits) +
                           "), must lie in the 32-bit key");
  if (cfg.bins > cfg.block)
    return Result::failure("the pass has one thread per digit: " + str(cfg.bins) + " digits need blocks of " +
                           str(cfg.bins) + " threads or more");
  return {};
}

// What the labels and the prose say of the input's keys: the warps of each ranking path, and the
// pass's hot digit (both empty without an input).
struct PathTexts {
  std::string paths, hot;
};
PathTexts path_texts(const OnesweepShape& sh, const StepConfig& cfg) {
  if (!cfg.input) return {};
  const Keys ks = load_keys(sh, os_codec(cfg.type, cfg.descending), *cfg.input);
  int count[kPaths] = {};
  for (int p : ks.path) ++count[p];
  return {" (warps: " + str(count[kOneDigit]) + " one digit, " + str(count[kFewDigits]) + " few digits, " +
              str(count[kHotDigit]) + " hot digit, " + str(count[kMasks]) + " peer masks)",
          ks.hot < 0 ? " This pass has no hot digit." : " This pass's hot digit is " + str(ks.hot) + "."};
}

const char kOrderNote[] =
    " The tiles run at once on the GPU, and its trace shows the order they took; the CPU reference runs them one "
    "after another, tile 0 first.";

}  // namespace

// [SECTION] The plan
Result plan_radix_onesweep(const StepConfig& cfg, Trace& t) {
  if (Result r = check(cfg); !r.ok()) return r;
  const OnesweepShape sh = onesweep_shape(cfg.n, cfg.block, cfg.bins, cfg.digit_start);
  const std::int32_t B = sh.block, W = sh.warps, S = sh.slots(), T = sh.tiles, HB = sh.hist_blocks;
  const std::string bits = "bits [" + str(sh.shift) + ", " + str(sh.shift + sh.bits) + ")";
  const bool flips = cfg.type != ElemType::U32 || cfg.descending;
  const PathTexts texts = path_texts(sh, cfg);
  t.title = "Onesweep digit pass (the library's kernels)";
  t.width = sh.width();
  t.elems_per_thread = kOsItems;
  const plan::Code code = plan::code(t, kListing);
  plan::standard_rows(t, "keys_out (the pass's output)", sh.n, cfg.type);
  plan::add_row(t, "keys_in", RowKind::Values, sh.n, cfg.type);
  plan::add_row(t, flips ? "k (the key's radix bits, flipped)" : "k (the key's radix bits)", RowKind::Bits,
                sh.width(), ElemType::U32);
  plan::add_row(t, "digit = (k >> " + str(sh.shift) + ") & " + str(sh.mask), RowKind::Values, sh.width(),
                ElemType::U32);
  plan::add_row(t, "peers (the warp's lanes with the key's digit)", RowKind::Bits, sh.width(), ElemType::U32);
  plan::add_row(t, "rank (the key's place in its tile)", RowKind::Values, sh.width(), ElemType::U32);
  plan::add_row(t, "s_keys (each tile in digit order, shared)", RowKind::Bits, sh.width(), ElemType::U32);
  plan::add_row(t, "hist (digits of all keys)", RowKind::Values, S, ElemType::U32, false);
  plan::add_row(t, "s_hist (each histogram block's, shared)", RowKind::Values, HB * S, ElemType::U32, false);
  plan::add_row(t, "s_warp counters [tile][warp][digit] (shared)", RowKind::Values, T * W * S, ElemType::U32, false);
  plan::add_row(t, "status flag [tile][digit] (look-back words): 0 none, 1 aggregate, 2 inclusive prefix",
                RowKind::Index, T * S, ElemType::I32, false);
  plan::add_row(t, "status value: the tile's count of the digit, or its inclusive prefix", RowKind::Values, T * S,
                ElemType::U32, false);
  plan::add_row(t, "s_base [tile][digit] (output start - tile start, shared)", RowKind::Values, T * S, ElemType::I32,
                false);
  plan::add_row(t, "published at event (the status word's last store, in run order)", RowKind::Index, T * S,
                ElemType::I32, false);
  plan::initial_step(t, kOsIn);

  auto step = [&](const std::string& label, const std::string& phase, std::int32_t blocks, std::int32_t threads,
                  std::int32_t active, int ops, int focus, bool barrier) -> Step& {
    Step& st = plan::add_step(t, label, phase, code.line(phase), blocks, threads, active, ops, focus);
    st.barrier = barrier;
    light(st);
    return st;
  };
  // [The histogram launch]
  const std::int32_t vecs = sh.n / kOsHistVec, tail = sh.n % kOsHistVec;
  const std::int32_t counting = std::max(std::min(vecs, kOsHistThreads), tail);
  step("histogram_kernel<<<" + str(HB) + ", " + str(kOsHistThreads) + ">>>: s_hist[i] = 0 for i < " +
           str(kOsHistWords),
       "hist clear", HB, kOsHistThreads, HB * kOsHistThreads, 1, kOsSHist, false)
      .explain = "The upfront histogram: the library's histogram_kernel counts the digit of every key before the pass "
                 "runs. Each block clears its s_hist, 256 counters for each of a 32-bit key's four 8-bit passes; this "
                 "sort has one pass, whose digit is " + bits + " (last_mask = " + str(sh.mask) + "). This row steps the histogram kernel's "
                 "way, which larger sorts take; the library's own sorts of a few tiles skip this kernel: their first "
                 "pass, launched cooperatively, counts every pass's digits itself and sums the tiles' counts after a "
                 "grid barrier (the COUNTS_ALL lines of the listing).";
  step("count: atomicAdd(&s_hist[digit(k)], 1) for every key (16-byte loads of 4 keys" +
           std::string(tail ? ", then the " + str(tail) + " left" : "") + "), k = the key's radix bits",
       "hist count", HB, kOsHistThreads, counting, kOsHistItems * kOsHistVec + 2, kOsSHist, true)
      .explain = std::string("Each thread loads up to ") + str(kOsHistItems) +
                 " 16-byte vectors of 4 keys, flips each key to its radix bits" +
                 (flips ? " (xor_by_top(key, enc0, enc1): the order of the keys becomes the unsigned order of the bits)"
                        : "") +
                 " and adds 1 to its digit's counter in shared memory; keys that do not fill a vector go one by one. "
                 "Lanes of a warp that hit one counter collide in the bank.";
  step("merge: atomicAdd(&hist[i], s_hist[i]) for each digit i with s_hist[i] != 0", "hist merge", HB,
       kOsHistThreads, HB * kOsRadix, 1, kOsHist, true)
      .explain = "Each block adds its non-zero counters to hist in global memory: the digit counts of all keys, which "
                 "the pass scans to find where each digit starts in the output.";
  // [The pass launch]
  const std::int32_t last_valid = sh.valid(T - 1);
  step("pass_kernel<<<" + str(T) + ", " + str(B) + ">>>: tile = blockIdx.x; ranker.clear(): the counters and the "
           "peer masks = 0; gcount = hist[d]",
       "clear", T, B, T * B, W + kOsItems + 1, kOsCounts, false)
      .explain = "The pass: one block a tile of " + str(sh.tile) + " keys (" + str(B) + " threads x " + str(kOsItems) +
                 " keys), " + str(T) + (T == 1 ? " tile" : " tiles") + ". Each block clears its counters, " + str(W) +
                 (W == 1 ? " row" : " rows") +
                 " of 256 (a row a warp, a word a digit), and the peer masks, which share the exchange buffer s_keys. "
                 "The row shows the " + str(S) + " digits of each warp that the block's " + str(B) +
                 " threads own: one thread per digit. Thread d also reads the digit's count over all keys (gcount = "
                 "hist[d]) now, so that the round trip overlaps the tile's.";
  step("load k[i] = keys_in[tile * " + str(sh.tile) + " + warp * " + str(32 * kOsItems) + " + i * 32 + lane]" +
           (flips ? " flipped" : "") + ", padding ~0; count_digits: atomicAdd(&wh[digit], ...)" + texts.paths,
       "load", T, B, T * B, 2 * kOsItems, kOsCounts, true)
      .explain = "Each warp loads " + str(32 * kOsItems) + " keys warp-striped (lane l holds keys l and l + 32)" +
                 (flips ? ", flipped to radix bits" : "") +
                 "; keys past n are padding ~0, whose digit is the largest, so they rank last. Then each warp counts "
                 "its digits into its row: a warp whose keys all share one digit adds " + str(32 * kOsItems) +
                 " at once (lane 0); a warp whose first keys hold at most " + str(kOsFewDigits) +
                 " digits groups equal digits with __match_any_sync (peers) and each group's first lane adds the "
                 "group; any other warp does one shared atomicAdd a key, except that in a pass with a hot digit (a "
                 "quarter of the keys or more: skewed keys) it groups that digit's lanes by a ballot and their first "
                 "lane adds them." + texts.hot;
  step("publish: to_warp_starts(d): counters[w][d] = the digit's start in warp w; status[tile][d] = tile == 0 ? "
           "inclusive | total : total + 1; warp scans of total and gcount",
       "publish", T, B, T * B, W + 1, kOsValue, true)
      .explain = "Thread d owns digit d. It walks its column of counters, turning the warps' counts into each warp's "
                 "start, and publishes the tile's count of d for the look-back at once: tile 0 as an inclusive prefix "
                 "(flag 2), every other tile as an aggregate (flag 1, stored as count + 1 so that 0 means not yet "
                 "published). Each warp scans total and gcount (the digit's count over all keys, read at the start)"
                 " with shuffles; lane 31 stores the warp's sums for the block." +
                 std::string(kOrderNote) + " The event numbers say in which order the words were published.";
  step("starts: tile_excl = the tile's keys with a digit below d, glob_excl = all keys with a digit below d; "
       "counters[w][d] += tile_excl",
       "starts", T, B, T * B, W, kOsCounts, true)
      .explain = "The scans finish: each thread adds the sums of the warps before its own, which gives tile_excl, "
                 "where digit d starts in the tile, and glob_excl, where it starts in the whole output. "
                 "add_tile_start adds tile_excl to the digit's counter of every warp: the counters now hold where each "
                 "warp's keys of each digit go in the tile.";
  step("rank: rank_keys: rank = counter + (the key's place among its peers); the group's last lane bumps the counter" +
           texts.paths,
       "rank", T, B, T * B, 2 * kOsItems, kOsRank, true)
      .explain = "Each key gets its place in the tile: its warp's counter of its digit plus the number of lanes below "
                 "it with the same digit (popc(peers & lanemask_lt)). The peers come from __match_any_sync (a warp of "
                 "few digits), from a ballot (the hot digit's lanes), or from shared memory: every lane ORs its bit "
                 "into its digit's mask word and reads the word back. The highest peer adds the group's size to the "
                 "counter, so the next keys of that digit rank after them. A warp of one digit needs no match: its "
                 "keys take the run from its counter in order.";
  step("look-back: s_keys[rank] = k; thread d sums the predecessors' words of digit d, " + str(kOsWindow) +
           " a round trip, back to an inclusive prefix; status = inclusive | (excl + total); s_base[d] = glob_excl + "
           "excl - tile_excl",
       "look-back", T, B, T * B, kOsItems + T + 1, kOsBase, true)
      .explain = "Each key moves to its place in the tile's exchange buffer s_keys. Then thread d looks back: it reads "
                 "the words of digit d of the " + str(kOsWindow) + " nearest predecessors at once, adds their counts "
                 "nearest first up to the first inclusive prefix (which ends the walk) or the first word not yet "
                 "published (it reads again), and publishes its own inclusive prefix, so that its successors can stop "
                 "here. The ops show which words each look-back added (an add) and which it read past the prefix "
                 "(a read). s_base[d] is where the tile's digit d starts in the output, less where it starts in the "
                 "tile." +
                 std::string(kOrderNote) +
                 " In that order every look-back finds its neighbour's inclusive prefix at once; on the GPU a tile may "
                 "add aggregates, or wait for a word not yet published. The look-back's loads are not counted: the "
                 "race decides how many there are.";
  step("scatter: keys_out[s_base[digit(s_keys[j])] + j] = s_keys[j]" + std::string(flips ? " unflipped" : "") +
           ", j = s * " + str(B) + " + tid for real keys",
       "scatter", T, B, (T - 1) * B + std::min(B, last_valid), kOsItems, kOsOut, true)
      .explain = "The keys leave in tile order: consecutive threads read consecutive words of s_keys and write "
                 "consecutive addresses of each digit's run in keys_out" +
                 std::string(flips ? ", flipped back to the key" : "") +
                 ". keys_out is the keys stably ordered by the digit: a whole sort runs one such pass per digit, "
                 "lowest first. The result is the same whatever order the tiles ran in.";
  return {};
}

// [SECTION] The CPU reference
namespace {

// The run's state beside the trace's rows: the registers and shared words the rows do not hold.
struct PassRun {
  const OnesweepShape& sh;
  const OsCodec codec;
  cpu::CpuRun& run;
  Keys ks;
  std::vector<std::uint32_t> s_hist;     // hist blocks x kOsHistWords
  std::vector<std::uint32_t> counts;     // tiles x warps x slots (the counters of the shown digits)
  std::vector<std::uint32_t> total, tile_excl, glob_excl, excl;  // tiles x slots, a digit's thread's registers
  std::vector<std::uint32_t> rank;       // by key index
  std::vector<std::uint32_t> status;     // tiles x slots: the look-back words
  std::uint32_t clock = 0;

  PassRun(const OnesweepShape& s, const OsCodec& c, cpu::CpuRun& r, const std::vector<std::uint32_t>& in)
      : sh(s), codec(c), run(r), ks(load_keys(s, c, in)) {
    const std::size_t slots = std::size_t(sh.tiles) * sh.slots();
    s_hist.assign(std::size_t(sh.hist_blocks) * kOsHistWords, 0u);
    counts.assign(slots * sh.warps, 0u);
    total.assign(slots, 0u);
    tile_excl.assign(slots, 0u);
    glob_excl.assign(slots, 0u);
    excl.assign(slots, 0u);
    rank.assign(std::size_t(sh.width()), 0u);
    status.assign(slots, 0u);
  }

  std::uint32_t* row(int r) { return run.row(r); }
  std::int32_t slot(std::int32_t t, std::int32_t d) const { return sh.slot(t, d); }
  std::int32_t counter(std::int32_t t, int w, std::int32_t d) const { return sh.counter(t, w, d); }
  std::int64_t thread(std::int32_t t, int w, int l) const { return std::int64_t(t) * sh.block + w * 32 + l; }
  void access(const std::int32_t* a) { run.shared_access(a, 32); }
  // A warp access in which every lane touches word base + f(lane).
  template <class F>
  void access_all(F f) {
    std::int32_t a[32];
    for (int l = 0; l < 32; ++l) a[l] = f(l);
    access(a);
  }
  void set_counter(std::int32_t t, int w, std::int32_t d, std::uint32_t v) {
    counts[std::size_t(counter(t, w, d))] = v;
    row(kOsCounts)[counter(t, w, d)] = v;
  }
  void publish(std::int32_t t, std::int32_t d, std::uint32_t word, int slot_no) {
    const std::int32_t i = slot(t, d);
    status[std::size_t(i)] = word;
    const bool inclusive = (word & kOsInclusive) != 0;
    row(kOsFlag)[i] = inclusive ? 2u : 1u;
    row(kOsValue)[i] = inclusive ? word & ~kOsInclusive : word - 1u;
    row(kOsEvent)[i] = clock++;
    run.op(thread(t, d / 32, d % 32), slot_no, OpKind::Write, kOsValue, -1, kOsValue, i);
    run.count().global_write_bytes += 4;
  }

  void hist_clear();
  void hist_count();
  void hist_merge();
  void clear();
  void load_count();
  void publish_scan();
  void starts();
  void rank_keys();
  void look_back();
  void scatter();
};

void PassRun::hist_clear() {
  for (std::int32_t b = 0; b < sh.hist_blocks; ++b)
    for (int w = 0; w < kOsHistThreads / 32; ++w)
      for (std::int32_t i0 = w * 32; i0 < kOsHistWords; i0 += kOsHistThreads) {
        access_all([&](int l) { return i0 + l; });
        for (int l = 0; l < 32; ++l) {
          const std::int32_t i = i0 + l;
          s_hist[std::size_t(b) * kOsHistWords + std::size_t(i)] = 0;
          if (i < sh.slots())
            run.op(std::int64_t(b) * kOsHistThreads + i, i / kOsHistThreads, OpKind::Write, kOsSHist, -1, kOsSHist,
                   b * sh.slots() + i);
        }
      }
}

void PassRun::hist_count() {
  const std::int32_t vecs = sh.n / kOsHistVec;
  const std::int32_t tail_begin = vecs * kOsHistVec;
  const std::int32_t chunk = kOsHistThreads * kOsHistItems;
  // One warp's call of the group `group`: lane l counted keys first[l] .. first[l] + count - 1.
  auto group = [&](std::int32_t b, int w, const std::int32_t* first, int count, int g) {
    for (int e = 0; e < count; ++e) {
      std::int32_t a[32];
      for (int l = 0; l < 32; ++l)
        a[l] = first[l] >= 0 ? std::int32_t(sh.digit(os_flip(row(kOsIn)[first[l] + e], codec.enc0, codec.enc1))) : -1;
      access(a);
      for (int l = 0; l < 32; ++l) {
        if (a[l] < 0) continue;
        ++s_hist[std::size_t(b) * kOsHistWords + std::size_t(a[l])];
        row(kOsSHist)[b * sh.slots() + a[l]] = s_hist[std::size_t(b) * kOsHistWords + std::size_t(a[l])];
        const int slot_no = g < kOsHistItems ? g * kOsHistVec + e : kOsHistItems * kOsHistVec + (g - kOsHistItems);
        run.op(std::int64_t(b) * kOsHistThreads + w * 32 + l, slot_no, OpKind::Atomic, kOsIn, first[l] + e, kOsSHist,
               b * sh.slots() + a[l]);
        run.count().atomics += 1;
        run.count().global_read_bytes += 4;
      }
    }
  };
  for (std::int32_t b = 0; b < sh.hist_blocks; ++b)
    for (int w = 0; w < kOsHistThreads / 32; ++w) {
      std::int32_t first[32];
      for (std::int32_t base = b * chunk; base < vecs; base += sh.hist_blocks * chunk)
        for (int i = 0; i < kOsHistItems; ++i) {
          for (int l = 0; l < 32; ++l) {
            const std::int32_t idx = base + i * kOsHistThreads + w * 32 + l;
            first[l] = idx < vecs ? idx * kOsHistVec : -1;
          }
          group(b, w, first, kOsHistVec, i);
        }
      // The scalar head (none: the rows are 16-byte aligned) and tail.
      for (int l = 0; l < 32; ++l) first[l] = -1;
      group(b, w, first, 1, kOsHistItems);
      for (int l = 0; l < 32; ++l) {
        const std::int32_t g = b * kOsHistThreads + w * 32 + l;
        first[l] = tail_begin + g < sh.n ? tail_begin + g : -1;
      }
      group(b, w, first, 1, kOsHistItems + 1);
    }
}

void PassRun::hist_merge() {
  std::uint32_t* hist = row(kOsHist);
  for (std::int32_t b = 0; b < sh.hist_blocks; ++b)
    for (int w = 0; w < kOsRadix / 32; ++w) {
      access_all([&](int l) { return w * 32 + l; });
      for (int l = 0; l < 32; ++l) {
        const std::int32_t i = w * 32 + l;
        const std::uint32_t c = s_hist[std::size_t(b) * kOsHistWords + std::size_t(i)];
        if (c == 0) continue;
        hist[i] += c;
        run.op(std::int64_t(b) * kOsHistThreads + i, 0, OpKind::Atomic, kOsSHist, b * sh.slots() + i, kOsHist, i);
        run.count().atomics += 1;
      }
    }
}

void PassRun::clear() {
  const std::int32_t row_words = sh.warps * kOsRadix, S = sh.slots();
  for (std::int32_t t = 0; t < sh.tiles; ++t)
    for (int w = 0; w < sh.warps; ++w)
      for (int masks = 0; masks < 2; ++masks)
        for (std::int32_t i0 = w * 32; i0 < row_words; i0 += sh.block) {
          access_all([&](int l) { return (masks ? sh.keys_word : 0) + i0 + l; });
          for (int l = 0; l < 32; ++l) {
            const std::int32_t i = i0 + l;
            if (!masks && i % kOsRadix < S) {
              set_counter(t, i / kOsRadix, i % kOsRadix, 0u);
              run.op(thread(t, w, l), i / kOsRadix, OpKind::Write, kOsCounts, -1, kOsCounts,
                     counter(t, i / kOsRadix, i % kOsRadix));
            }
            if (masks && i < sh.tile)
              run.op(thread(t, w, l), sh.warps + i / sh.block, OpKind::Write, kOsExchange, -1, kOsExchange,
                     t * sh.tile + i);
          }
        }
  // gcount = hist[d], thread d.
  for (std::int32_t t = 0; t < sh.tiles; ++t)
    for (std::int32_t d = 0; d < sh.block; ++d) {
      run.op(thread(t, d / 32, d % 32), sh.warps + kOsItems, OpKind::Read, kOsHist, d, kOsHist, d);
      run.count().global_read_bytes += 4;
    }
}

void PassRun::load_count() {
  for (std::int32_t t = 0; t < sh.tiles; ++t) {
    const std::int32_t valid = sh.valid(t);
    for (int w = 0; w < sh.warps; ++w) {
      // Load.
      for (int l = 0; l < 32; ++l)
        for (int i = 0; i < kOsItems; ++i) {
          const std::int32_t idx = sh.key_index(t, w, i, l), li = idx - t * sh.tile;
          const std::uint32_t k = ks.k[std::size_t(idx)];
          row(kOsKey)[idx] = k;
          row(kOsDigit)[idx] = sh.digit(k);
          run.op(thread(t, w, l), i, li < valid ? OpKind::Move : OpKind::Write, kOsIn, li < valid ? idx : -1, kOsKey,
                 idx);
          if (li < valid) run.count().global_read_bytes += 4;
        }
      // count_digits.
      const int path = ks.path[std::size_t(t * sh.warps + w)];
      auto digit_of = [&](int l, int i) { return std::int32_t(sh.digit(ks.k[std::size_t(sh.key_index(t, w, i, l))])); };
      if (path == kOneDigit) {
        const std::int32_t d0 = digit_of(0, 0);
        std::int32_t a[32];
        std::fill(a, a + 32, -1);
        a[0] = w * kOsRadix + d0;
        access(a);
        set_counter(t, w, d0, counts[std::size_t(counter(t, w, d0))] + 32u * kOsItems);
        run.op(thread(t, w, 0), kOsItems, OpKind::Atomic, kOsKey, sh.key_index(t, w, 0, 0), kOsCounts,
               counter(t, w, d0));
        run.count().atomics += 1;
        continue;
      }
      const std::int32_t hot = path == kHotDigit ? ks.hot : -1;
      for (int i = 0; i < kOsItems; ++i) {
        std::int32_t a[32];
        std::uint32_t peers[32];
        for (int l = 0; l < 32; ++l) {
          peers[l] = 0;
          for (int m = 0; m < 32; ++m) peers[l] |= std::uint32_t(digit_of(m, i) == digit_of(l, i)) << m;
        }
        for (int l = 0; l < 32; ++l) {
          const std::int32_t d = digit_of(l, i);
          // Few digits: every group's first lane adds the group; a hot digit: its group's first lane.
          const bool grouped = path == kFewDigits || d == hot;
          const bool adds = !grouped || __builtin_ctz(peers[l]) == l;
          a[l] = adds ? w * kOsRadix + d : -1;
          if (grouped) row(kOsPeers)[sh.key_index(t, w, i, l)] = peers[l];
          if (!adds) continue;
          const std::uint32_t amount = grouped ? std::uint32_t(__builtin_popcount(peers[l])) : 1u;
          set_counter(t, w, d, counts[std::size_t(counter(t, w, d))] + amount);
          run.op(thread(t, w, l), kOsItems + i, OpKind::Atomic, kOsKey, sh.key_index(t, w, i, l), kOsCounts,
                 counter(t, w, d));
          run.count().atomics += 1;
        }
        access(a);
      }
    }
  }
}

void PassRun::publish_scan() {
  for (std::int32_t t = 0; t < sh.tiles; ++t)
    for (int wd = 0; wd < sh.warps; ++wd) {
      // to_warp_starts, thread d = wd * 32 + lane: a read and a write of its column's word per warp row.
      for (int l = 0; l < 32; ++l) total[std::size_t(slot(t, wd * 32 + l))] = 0;
      for (int w = 0; w < sh.warps; ++w) {
        access_all([&](int l) { return w * kOsRadix + wd * 32 + l; });
        access_all([&](int l) { return w * kOsRadix + wd * 32 + l; });
        for (int l = 0; l < 32; ++l) {
          const std::int32_t d = wd * 32 + l;
          std::uint32_t& tot = total[std::size_t(slot(t, d))];
          const std::uint32_t c = counts[std::size_t(counter(t, w, d))];
          set_counter(t, w, d, tot);
          run.op(thread(t, wd, l), w, OpKind::Write, kOsCounts, -1, kOsCounts, counter(t, w, d));
          tot += c;
        }
      }
      for (int l = 0; l < 32; ++l) {
        const std::int32_t d = wd * 32 + l;
        const std::uint32_t tot = total[std::size_t(slot(t, d))];
        publish(t, d, t == 0 ? (kOsInclusive | tot) : tot + 1u, sh.warps);
      }
      // The warp scans' totals: lane 31 stores two words.
      for (int k = 0; k < 2; ++k) {
        std::int32_t a[32];
        std::fill(a, a + 32, -1);
        if (wd < 8) a[31] = sh.tmp_word + 8 * k + wd;
        access(a);
      }
    }
}

void PassRun::starts() {
  const std::uint32_t* hist = row(kOsHist);
  for (std::int32_t t = 0; t < sh.tiles; ++t) {
    // The exclusive scans over the digits, as the warp scans and the warps' totals give them.
    std::uint32_t tile_sum = 0, glob_sum = 0;
    for (std::int32_t d = 0; d < sh.slots(); ++d) {
      tile_excl[std::size_t(slot(t, d))] = tile_sum;
      glob_excl[std::size_t(slot(t, d))] = glob_sum;
      tile_sum += total[std::size_t(slot(t, d))];
      glob_sum += hist[d];
    }
    for (int wd = 0; wd < sh.warps; ++wd) {
      for (int w = 0; w < wd && wd < 8; ++w)
        for (int k = 0; k < 2; ++k) access_all([&](int) { return sh.tmp_word + 8 * k + w; });
      for (int w = 0; w < sh.warps; ++w) {
        access_all([&](int l) { return w * kOsRadix + wd * 32 + l; });
        access_all([&](int l) { return w * kOsRadix + wd * 32 + l; });
        for (int l = 0; l < 32; ++l) {
          const std::int32_t d = wd * 32 + l;
          set_counter(t, w, d, counts[std::size_t(counter(t, w, d))] + tile_excl[std::size_t(slot(t, d))]);
          run.op(thread(t, wd, l), w, OpKind::Add, kOsCounts, -1, kOsCounts, counter(t, w, d));
        }
      }
    }
  }
}

void PassRun::rank_keys() {
  for (std::int32_t t = 0; t < sh.tiles; ++t)
    for (int w = 0; w < sh.warps; ++w) {
      const int path = ks.path[std::size_t(t * sh.warps + w)];
      auto digit_of = [&](int l, int i) { return std::int32_t(sh.digit(ks.k[std::size_t(sh.key_index(t, w, i, l))])); };
      if (path == kOneDigit) {
        const std::int32_t d0 = digit_of(0, 0);
        access_all([&](int) { return w * kOsRadix + d0; });
        const std::uint32_t before = counts[std::size_t(counter(t, w, d0))];
        for (int l = 0; l < 32; ++l)
          for (int i = 0; i < kOsItems; ++i) {
            const std::int32_t idx = sh.key_index(t, w, i, l);
            rank[std::size_t(idx)] = before + std::uint32_t(i * 32 + l);
            row(kOsRank)[idx] = rank[std::size_t(idx)];
            run.op(thread(t, w, l), i, OpKind::Move, kOsCounts, counter(t, w, d0), kOsRank, idx);
          }
        continue;
      }
      for (int i = 0; i < kOsItems; ++i) {
        std::uint32_t peers[32];
        int leader[32];
        for (int l = 0; l < 32; ++l) {
          peers[l] = 0;
          for (int m = 0; m < 32; ++m) peers[l] |= std::uint32_t(digit_of(m, i) == digit_of(l, i)) << m;
          leader[l] = 31 - __builtin_clz(peers[l]);
        }
        // The lanes whose peers come from their digit's mask word (not from a match or a ballot).
        const std::int32_t hot = ks.hot;
        std::int32_t add[32], mask_word[32], leader_mask[32];
        bool any_masks = false;
        for (int l = 0; l < 32; ++l) {
          const bool masks = path == kMasks || (path == kHotDigit && digit_of(l, i) != hot);
          any_masks |= masks;
          mask_word[l] = masks ? sh.keys_word + w * kOsRadix + digit_of(l, i) : -1;
          add[l] = l == leader[l] ? w * kOsRadix + digit_of(l, i) : -1;
          leader_mask[l] = l == leader[l] ? mask_word[l] : -1;
          run.count().atomics += masks;
        }
        if (any_masks) {
          access(mask_word);  // atomicOr
          access(mask_word);  // the word read back
        }
        access(add);
        if (any_masks) access(leader_mask);  // the highest peer clears the word
        // The leaders bump their digits' counters; every lane's rank is the counter before the bump.
        std::uint32_t before[32];
        for (int l = 0; l < 32; ++l) before[l] = counts[std::size_t(counter(t, w, digit_of(l, i)))];
        for (int l = 0; l < 32; ++l) {
          const std::int32_t d = digit_of(l, i), idx = sh.key_index(t, w, i, l);
          rank[std::size_t(idx)] = before[l] + std::uint32_t(__builtin_popcount(peers[l] & ((1u << l) - 1u)));
          row(kOsRank)[idx] = rank[std::size_t(idx)];
          row(kOsPeers)[idx] = peers[l];
          run.op(thread(t, w, l), i, OpKind::Move, kOsCounts, counter(t, w, d), kOsRank, idx);
          if (l != leader[l]) continue;
          set_counter(t, w, d, before[l] + std::uint32_t(__builtin_popcount(peers[l])));
          run.op(thread(t, w, l), kOsItems + i, OpKind::Atomic, kOsKey, idx, kOsCounts, counter(t, w, d));
          run.count().atomics += 1;
        }
      }
    }
}

void PassRun::look_back() {
  const std::int32_t S = sh.slots();
  for (std::int32_t t = 0; t < sh.tiles; ++t) {
    // The exchange.
    for (int w = 0; w < sh.warps; ++w)
      for (int i = 0; i < kOsItems; ++i) {
        std::int32_t a[32];
        for (int l = 0; l < 32; ++l) {
          const std::int32_t idx = sh.key_index(t, w, i, l);
          const std::int32_t r = std::int32_t(rank[std::size_t(idx)]);
          a[l] = sh.keys_word + r;
          row(kOsExchange)[t * sh.tile + r] = ks.k[std::size_t(idx)];
          run.op(thread(t, w, l), i, OpKind::Move, kOsKey, idx, kOsExchange, t * sh.tile + r);
        }
        access(a);
      }
    // The look-back of each digit, in this fixed order: the predecessors have all published their
    // inclusive prefixes.
    for (std::int32_t d = 0; d < S; ++d) {
      const std::int32_t i = slot(t, d);
      std::uint32_t ex = 0;
      int ops = 0;
      if (t > 0) {
        std::int32_t left = t, nearest = t - 1;
        for (;;) {
          std::uint32_t v[kOsWindow];
          for (int w = 0; w < kOsWindow; ++w) v[w] = w < left ? status[std::size_t(slot(nearest - w, d))] : 0u;
          int folded = 0;
          bool inclusive = false;
          for (int w = 0; w < kOsWindow; ++w)
            if (folded == w && !inclusive && v[w] != 0) {
              inclusive = (v[w] & kOsInclusive) != 0;
              ex += inclusive ? v[w] & ~kOsInclusive : v[w] - 1u;
              folded = w + 1;
              run.op(thread(t, d / 32, d % 32), kOsItems + ops++, OpKind::Add, kOsValue, slot(nearest - w, d), kOsBase,
                     i);
            }
          if (inclusive) {
            for (int w = folded; w < std::min(kOsWindow, left); ++w)
              run.op(thread(t, d / 32, d % 32), kOsItems + ops++, OpKind::Read, kOsValue, slot(nearest - w, d),
                     kOsValue, slot(nearest - w, d));
            break;
          }
          nearest -= folded;
          left -= folded;
        }
        publish(t, d, kOsInclusive | (ex + total[std::size_t(i)]), kOsItems + sh.tiles - 1);
      }
      excl[std::size_t(i)] = ex;
      const std::uint32_t base = glob_excl[std::size_t(i)] + ex - tile_excl[std::size_t(i)];
      row(kOsBase)[i] = base;
      run.op(thread(t, d / 32, d % 32), kOsItems + sh.tiles, OpKind::Write, kOsBase, -1, kOsBase, i);
    }
    for (int wd = 0; wd < sh.warps; ++wd) access_all([&](int l) { return sh.base_word + wd * 32 + l; });
  }
}

void PassRun::scatter() {
  std::uint32_t* out = row(kOsOut);
  for (std::int32_t t = 0; t < sh.tiles; ++t) {
    const std::int32_t valid = sh.valid(t);
    for (int w = 0; w < sh.warps; ++w)
      for (int s = 0; s < kOsItems; ++s) {
        std::int32_t a[32], b[32];
        for (int l = 0; l < 32; ++l) {
          const std::int32_t j = s * sh.block + w * 32 + l;
          const std::uint32_t key = row(kOsExchange)[t * sh.tile + j];
          const std::uint32_t dg = sh.digit(key);
          a[l] = sh.keys_word + j;
          b[l] = sh.base_word + std::int32_t(dg);
          if (j >= valid) continue;
          const std::int32_t g = std::int32_t(row(kOsBase)[slot(t, std::int32_t(dg))] + std::uint32_t(j));
          out[g] = os_flip(key, codec.dec0, codec.dec1);
          run.op(thread(t, w, l), s, OpKind::Move, kOsExchange, t * sh.tile + j, kOsOut, g);
          run.count().global_write_bytes += 4;
        }
        access(a);
        access(b);
      }
  }
}

}  // namespace

void cpu_radix_onesweep(const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& t) {
  const OnesweepShape sh = onesweep_shape(cfg.n, cfg.block, cfg.bins, cfg.digit_start);
  cpu::CpuRun run(t);
  std::copy(input.begin(), input.end(), run.row(kOsIn));
  onesweep_unset_rows(run.row(0), t.width);
  run.snapshot_initial();
  PassRun p(sh, os_codec(cfg.type, cfg.descending), run, input);
  void (PassRun::*steps[])() = {&PassRun::hist_clear, &PassRun::hist_count, &PassRun::hist_merge,
                                &PassRun::clear,      &PassRun::load_count, &PassRun::publish_scan,
                                &PassRun::starts,     &PassRun::rank_keys,  &PassRun::look_back,
                                &PassRun::scatter};
  for (std::size_t s = 1; s < t.steps.size(); ++s) {
    run.begin(s);
    (p.*steps[s - 1])();
    run.end();
  }
}

}  // namespace primlab::steppers
