// The trace: one vocabulary for the CPU reference and the CUDA traced steppers (DESIGN.md).
// A trace is a list of steps taken at grid- or block-wide barriers. Each step holds the state of
// every row (the main array, touch flags, owners, and the algorithm's auxiliary arrays), the
// operations of the step, its launch shape and its counters. Values are raw 32-bit words, so a
// CPU and a CUDA trace compare bit for bit; the same flat layout is what the GL buffers hold.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model/result.h"

namespace primlab {

enum class ElemType : std::int32_t { I32 = 0, F32 = 1, U32 = 2 };
const char* elem_type_name(ElemType t);

// Kinds of operation a thread does in a step (stored as int32 for the GL buffers).
enum class OpKind : std::int32_t {
  None = 0,      // an unused slot: thread inactive in this step
  Read = 1,      // thread read src (dst unused, = src)
  Write = 2,     // thread wrote dst from a register or constant (src = -1)
  Add = 3,       // dst = dst + src (or dst = a + b: src is the partner operand)
  Move = 4,      // dst = src (copy, load to shared, scatter)
  CompareSwap = 5,
  Atomic = 6,    // atomic read-modify-write of dst (a histogram bin, an offset)
};
const char* op_kind_name(OpKind k);

// One operation; 16 bytes, the record layout of the GL ops buffer.
struct Op {
  std::int32_t thread = -1;  // global thread index (block * blockDim + threadIdx)
  std::int32_t kind = 0;     // OpKind
  std::int32_t src = -1;     // element index read (in the row's index space), -1 if none
  std::int32_t dst = -1;     // element index written, -1 if none
  bool operator==(const Op& o) const {
    return thread == o.thread && kind == o.kind && src == o.src && dst == o.dst;
  }
};
static_assert(sizeof(Op) == 16, "Op is the GL ops-buffer record");

// Op::kind packs the OpKind with the rows of its source and destination (bits 8-15, 16-23), so
// one op can move a value between rows (global array to shared memory, element to bin).
constexpr std::int32_t pack_kind(OpKind k, int src_row, int dst_row) {
  return std::int32_t(k) | (src_row << 8) | (dst_row << 16);
}
constexpr OpKind kind_of(std::int32_t packed) { return OpKind(packed & 0xff); }
constexpr int src_row_of(std::int32_t packed) { return (packed >> 8) & 0xff; }
constexpr int dst_row_of(std::int32_t packed) { return (packed >> 16) & 0xff; }
// Bit 24 of a CompareSwap's kind: the pair was out of order and swapped (both keys written).
constexpr std::int32_t kOpSwapped = 1 << 24;
constexpr bool swapped_of(std::int32_t packed) { return (packed & kOpSwapped) != 0; }

struct LaunchShape {
  std::int32_t blocks = 0;
  std::int32_t threads = 0;  // per block
  std::int32_t active = 0;   // threads that did work in this step
  std::int64_t launched() const { return std::int64_t(blocks) * threads; }
  bool operator==(const LaunchShape& o) const {
    return blocks == o.blocks && threads == o.threads && active == o.active;
  }
};

// A counter a kernel's probe adds to (probe.count). The shared accesses, bank conflicts and
// divergent warps come from probe.shared_access and probe.branch instead.
enum Count : int { kAdds, kGlobalRead, kGlobalWrite, kAtomics, kNumCounts };

// Counters of one step, measured by the executing backend.
struct Counters {
  std::int64_t adds = 0;                // arithmetic combine operations
  std::int64_t global_read_bytes = 0;
  std::int64_t global_write_bytes = 0;
  std::int64_t shared_accesses = 0;     // thread-level shared-memory loads and stores
  std::int64_t bank_conflict = 0;       // worst conflict degree of one warp access (1 = none)
  std::int64_t divergent_warps = 0;     // warp-branches where only some live lanes took the path
  std::int64_t atomics = 0;
  std::int64_t launches = 0;            // kernel launches the step starts (0: a barrier inside one)
  bool operator==(const Counters& o) const;
  Counters& operator+=(const Counters& o);  // bank_conflict takes the max
};

// Standard rows every trace has; algorithm rows follow.
enum StdRow : int { kRowMain = 0, kRowTouch = 1, kRowOwner = 2, kStdRows = 3 };
// Touch flags (row kRowTouch): two bits per row, for the first 16 rows: element i of row r was
// read (bit 2r) or written (bit 2r+1) in this step.
enum TouchBits : std::uint32_t { kTouchRead = 1u, kTouchWrite = 2u };
constexpr std::uint32_t touch_bits(std::uint32_t bits, int row) { return row < 16 ? bits << (2 * row) : 0u; }

// What an op does to its elements: the touch bits of src and dst, and whether the op's thread
// becomes their owner (the thread that wrote it in this step). A compare-swap reads both keys and
// writes both only when it swaps them; any other op reads src and writes dst.
struct OpEffect {
  std::uint32_t src_bits = 0, dst_bits = 0;
  bool src_written = false, dst_written = false;
};
constexpr OpEffect op_effect(std::int32_t packed) {
  const OpKind k = OpKind(packed & 0xff);
  if (k == OpKind::CompareSwap) {
    const bool swapped = (packed & (1 << 24)) != 0;
    const std::uint32_t bits = kTouchRead | (swapped ? kTouchWrite : 0u);
    return {bits, bits, swapped, swapped};
  }
  const bool rmw = k == OpKind::Add || k == OpKind::Atomic;
  return {kTouchRead, kTouchWrite | (rmw ? kTouchRead : 0u), false, true};
}

// TagCount: the lecture's tagged counter word, (tag << 27) | count, one value read as "t<tag>|<count>".
enum class RowKind : std::int32_t { Values = 0, Flags = 1, Index = 2, Bits = 3, TagCount = 4 };

struct RowInfo {
  std::string name;
  RowKind kind = RowKind::Values;
  std::int32_t length = 0;       // meaningful prefix of the row (<= width)
  ElemType type = ElemType::I32; // how to read its words
  bool element_space = true;     // index i is element i (touch flags and ownership apply)
  // Another form of the cells of row `cells_of` (-1: none), whose ops name that row: the tagged
  // words (tag << 27) | count of a row of counts.
  std::int32_t cells_of = -1;
};

// One warp-wide shared-memory access as the banks see it: the 4-byte word address of each lane in
// its block's shared memory (-1: the lane is inactive or absent), and how many warps of the step
// made exactly this access. Both backends record every access they count (CpuRun::shared_access,
// RecordingProbe::shared_access); a step keeps the distinct ones sorted by address, so the CPU and CUDA
// records compare bit for bit whatever order the warps ran in.
struct WarpAccess {
  std::array<std::int32_t, 32> addr;
  std::int32_t warps = 0;
  WarpAccess() { addr.fill(-1); }
  int degree() const;        // bank_conflict_degree of the access
  int active_lanes() const;
  bool operator==(const WarpAccess& o) const { return warps == o.warps && addr == o.addr; }
};
// Adds `warps` warps that made the access addrs[0, lanes) to a step's distinct accesses (kept
// sorted by address); an access with no active lane is not recorded.
void record_access(std::vector<WarpAccess>& step_accesses, const std::int32_t* addrs, int lanes,
                   std::int32_t warps = 1);
// The extra shared-memory wavefronts of the recorded accesses: the sum over warps of (degree - 1),
// what ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared counts.
std::int64_t extra_wavefronts(const std::vector<WarpAccess>& step_accesses);

struct Step {
  std::string label;   // "up-sweep d=2: x[k+3] += x[k+1]"
  std::string phase;   // "up-sweep", "down-sweep", "load", ...
  std::string explain; // the step in plain words: what moves where, and why
  bool barrier = false;  // the step continues the kernel of the step before, after a barrier
  int code_line = -1;  // line of Trace::code highlighted for this step
  std::vector<int> also_lit;  // lines of other tags the step runs too (each lights its tag's lines)
  int focus_row = 0;   // the row drawn as bars in this step
  LaunchShape launch;
  Counters counters;
  int ops_per_thread = 0;  // op slots per launched thread
  std::int64_t op_begin = 0;  // first op slot of this step in Trace::ops
  std::vector<WarpAccess> accesses;  // the step's distinct warp accesses to shared memory
  // View: where each band of the focus row starts, and the end (a virtual GPU's keys); empty: one
  // band per block of Trace::block x elems_per_thread elements.
  std::vector<std::int32_t> bands;
  // Stepped CUDA runs: the source lines (of the kernel's file) whose probe calls recorded this
  // step's ops; the listing maps them to the lines that ran. Empty on the CPU reference.
  std::vector<std::int32_t> source_lines;
  std::int64_t op_count() const { return launch.launched() * ops_per_thread; }
};

struct Trace {
  std::string algo;            // registry name
  std::string title;           // human name
  ElemType type = ElemType::I32;
  std::int32_t n = 0;          // real elements
  std::int32_t width = 0;      // row width (n, or n padded to a power of two)
  std::int32_t block = 0;      // threads per block
  std::int32_t elems_per_thread = 1;  // for drawing block/warp ownership
  std::vector<RowInfo> rows;
  std::vector<Step> steps;
  std::vector<std::uint32_t> values;  // steps x rows x width words
  std::vector<Op> ops;                // all steps' op slots, None where a thread was idle
  std::vector<std::string> code;      // the kernel listing
  std::vector<std::string> code_tags; // per listing line, its `// step:` tag ("" for none)
  // Per listing line, the kernel source lines it stands for (listing::Listing::sources).
  std::vector<std::vector<std::int32_t>> code_sources;
  bool network = false;               // view: also draw the comparator network of all steps (sorting networks)
  // A sorting network's padding: at step pad_step a kernel fills the buffer past n with the key that
  // sorts last, which then moves with the keys. Before pad_step the cells past n are padding; from it
  // on the pad key marks the padding wherever it is (in the key rows), unless the input holds that key
  // too (pad_key_in_input): then a pad cannot be told from a real key and none is marked.
  bool has_pad_key = false;
  std::uint32_t pad_key = 0;
  std::int32_t pad_step = 0;
  bool pad_key_in_input = false;
  // A block's shared memory word by word: the logical index each word holds, -1 for a padding
  // word that the addressing skips (the scan's conflict-free offsets). Empty: word w holds index w.
  std::vector<std::int32_t> shared_layout;

  std::size_t step_words() const { return rows.size() * std::size_t(width); }
  std::uint32_t* row(std::size_t s, std::size_t r) { return values.data() + s * step_words() + r * width; }
  const std::uint32_t* row(std::size_t s, std::size_t r) const {
    return values.data() + s * step_words() + r * width;
  }
  // Allocates values and ops for the steps already planned (op_begin is filled in).
  void allocate();
  Counters totals(std::size_t upto_step) const;  // sum of counters of steps [0, upto_step]
};

// The element rows' extent: n real elements, then the padding that a kernel's tile or power of two
// adds (the longest element-space row; rows of other index spaces, such as bins, may be wider).
std::int32_t element_extent(const Trace& t);
// Whether `word` at index i of row `row` at step `step` is padding: past n in an element row, or,
// where the padding moves with the keys (Trace::has_pad_key), from the pad step on the pad key in a
// key row (element values of the trace's type) wherever it is, when no input key equals it.
bool is_padding(const Trace& t, int step, std::size_t row, std::int32_t i, std::uint32_t word);
// The rows whose padding is the pad key (Trace::has_pad_key): element rows of keys.
bool pads_by_key(const Trace& t, std::size_t row);

// The listing lines step s highlights: its code line and its also_lit lines, each with the lines
// next to it that carry the same `// step:` tag (a step that spans several statements), in order;
// empty when the step has no line.
std::vector<int> step_code_lines(const Trace& t, std::size_t s);

// Worst bank-conflict degree of one warp-wide shared-memory access: the most distinct 4-byte
// words that fall in one of the 32 banks (1 = conflict-free). addrs[l] < 0: lane l inactive.
int bank_conflict_degree(const std::int32_t* addrs, int lanes);

// Value words <-> numbers.
std::uint32_t to_word(float v);
float word_to_float(std::uint32_t w);
std::string format_word(std::uint32_t w, ElemType t);
// A word of a row as `trace` prints it and the view labels it (format_word, or "t<tag>|<count>").
std::string format_cell(std::uint32_t w, const RowInfo& row);
// "1 thread", "2 threads": a count and its noun, plural unless the count is one (`plural` when the
// noun does not take an s).
std::string counted(std::int64_t count, const std::string& noun, const std::string& plural = "");

// Ok when two traces are equal bit for bit, else fails with their first difference.
Result compare_traces(const Trace& a, const Trace& b, bool compare_ops = true);

}  // namespace primlab
