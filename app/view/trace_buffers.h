// TraceBuffers: a whole trace in OpenGL buffer objects (values: steps x rows x width words as a
// R32UI texture buffer; ops: slots as an RGBA32I texture buffer). The CPU backend fills them with
// glBufferSubData; the CUDA backend writes them through interop (interop/interop.h). Scrubbing
// changes a uniform and, once per step shown, two buffers of one step's size (its labels, formatted
// on the host, and its touch flags of every row) and the step's value ranges.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "lab/model/result.h"
#include "lab/model/trace.h"
#include "view/gl_object.h"

namespace primlab::view {

struct RowRange {
  float lo = 0.f, hi = 1.f;
};

// Owns its GL buffers and textures: move-only.
class TraceBuffers {
 public:
  // Sizes both buffers for a planned trace (contents undefined). A failure with a message on GL errors.
  Result allocate(const Trace& meta);
  // CPU backend: uploads the host trace's values and ops.
  Result upload(const Trace& t);
  // Reads the values and ops of the planned trace `meta` back to the host (for export and tests).
  void read_back(const Trace& meta, std::vector<std::uint32_t>& values, std::vector<Op>& ops) const;

  GLuint values_buffer() const { return values_buf_; }
  GLuint ops_buffer() const { return ops_buf_; }
  GLuint values_texture() const { return values_tex_; }
  GLuint ops_texture() const { return ops_tex_; }

  // Per-row value ranges over the whole trace (for bar heights and strip colours).
  std::vector<RowRange> ranges;

  // Makes `step` the prepared one: its words and ops (from the host trace, or read back from the
  // buffers when the CUDA backend filled them), its per-row ranges, its labels in the label buffer
  // and its touch flags of every row in the touch buffer. Does nothing when `step` is already
  // prepared.
  void prepare_step(const Trace& meta, int step);
  const std::vector<RowRange>& step_ranges() const { return step_ranges_; }
  GLuint labels_texture() const { return labels_tex_; }
  // The longest label of each row at the prepared step (the view draws a row's labels at one size).
  const std::vector<int>& label_chars() const { return label_chars_; }
  // The prepared step's labels as uploaded (rows x width texels), kept on the host so that the UI
  // and the tests can say where the view's value labels are (value_labels(), trace_view.h).
  const std::vector<std::array<std::uint32_t, 4>>& step_label_texels() const { return step_labels_; }
  GLuint touch_texture() const { return touch_tex_; }
  // The label buffer's texels (rows x width), read back (for tests).
  std::vector<std::array<std::uint32_t, 4>> read_labels() const;

 private:
  void release();
  GlObject values_buf_, values_tex_, ops_buf_, ops_tex_, labels_buf_, labels_tex_, touch_buf_, touch_tex_;
  std::size_t words_ = 0, slots_ = 0;
  int prepared_step_ = -1;
  std::vector<RowRange> step_ranges_;
  std::vector<int> label_chars_;
  std::vector<std::array<std::uint32_t, 4>> step_labels_;
};

// Ranges of each row of step `step` (`values`: its rows x width words); non-finite values and padding
// are left out, a row with no finite value gets 0..1. A tagged counter's value is its count.
std::vector<RowRange> step_ranges(const Trace& meta, int step, const std::uint32_t* values);
// The touch flags of one step for every row (rows x width words, kTouchRead | kTouchWrite): rows
// in element space copy the trace's touch row; the others (bins, block sums), which it does not
// cover, take them from the step's ops as the CPU reference marks element rows: the source is read,
// the destination written (and read by an add or an atomic). A row that shows another row's cells
// in another form (RowInfo::cells_of) takes that row's flags.
std::vector<std::uint32_t> step_touch(const Trace& meta, const std::uint32_t* values, const Op* ops, std::size_t count);

// Ranges of each row over all steps of a host trace (CPU backend).
std::vector<RowRange> host_ranges(const Trace& t);

}  // namespace primlab::view
