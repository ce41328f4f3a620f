// Which cells are padding, as the trace tells it (is_padding): past n where the padding stays put;
// in a sorting network, the cells past n until the pad kernel runs, then the key that sorts last
// wherever the network moves it, unless the input holds that key too (then none is told).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/model/trace_io.h"

using namespace primlab;

namespace {

Trace typed_trace(const char* algo, ElemType type, const std::string& typed, int block, bool descending = false) {
  const Algorithm* a = find_algorithm(algo);
  EXPECT_NE(a, nullptr) << algo;
  std::vector<std::uint32_t> in;
  EXPECT_TRUE(parse_input_list(typed, type, in).ok()) << typed;
  StepConfig cfg;
  cfg.n = std::int32_t(in.size());
  cfg.block = block;
  cfg.type = type;
  cfg.descending = descending;
  Trace t;
  const Result r = build_trace_cpu(*a, cfg, in, t);
  EXPECT_TRUE(r.ok()) << r.message();
  return t;
}

int padding_in_row(const Trace& t, int step, std::size_t row) {
  int k = 0;
  for (std::int32_t i = 0; i < t.rows[row].length; ++i) k += is_padding(t, step, row, i, t.row(std::size_t(step), row)[i]);
  return k;
}

TEST(Padding, BitonicPaddingFollowsThePadKeyThroughTheNetwork) {
  // 5 floats padded to 8 with +NaN (the key that sorts last ascending); the input has -NaN, not +NaN.
  const Trace t = typed_trace("bitonic-sort", ElemType::F32, "3 -nan -inf 1 2", 4);
  ASSERT_TRUE(t.has_pad_key);
  EXPECT_FALSE(t.pad_key_in_input);
  ASSERT_GT(t.pad_step, 0);
  EXPECT_EQ(t.steps[std::size_t(t.pad_step)].phase, "pad");
  EXPECT_TRUE(std::isnan(word_to_float(t.pad_key)));
  EXPECT_FALSE(std::signbit(word_to_float(t.pad_key)));
  // Before the pad kernel the buffer's tail is padding by place; the real keys (-nan among them) are not.
  for (std::int32_t i = 0; i < t.width; ++i)
    EXPECT_EQ(is_padding(t, 0, kRowMain, i, t.row(0, kRowMain)[i]), i >= t.n) << i;
  // From it on, exactly N - n cells of the keys are padding at every step, wherever they are; in the
  // shared tile, which the network sorts, the pads move among the real keys.
  const std::size_t shared = 3;
  ASSERT_TRUE(pads_by_key(t, shared)) << t.rows[shared].name;
  EXPECT_FALSE(pads_by_key(t, kRowOwner));
  bool moved = false;
  for (int s = t.pad_step; s < int(t.steps.size()); ++s) {
    EXPECT_EQ(padding_in_row(t, s, kRowMain), t.width - t.n) << "step " << s;
    const int in_tile = padding_in_row(t, s, shared);
    EXPECT_TRUE(in_tile == 0 || in_tile == t.width - t.n) << "step " << s << ": " << in_tile;
    for (std::int32_t i = 0; i < t.n; ++i) moved = moved || is_padding(t, s, shared, i, t.row(std::size_t(s), shared)[i]);
  }
  EXPECT_TRUE(moved) << "the network never moved a pad before n: this input tests nothing";
  // Sorted: the real keys first, -NaN first of all (what float-sort-specials shows), the pads last.
  const std::size_t last = t.steps.size() - 1;
  EXPECT_EQ(format_word(t.row(last, kRowMain)[0], ElemType::F32), "-nan");
  for (std::int32_t i = t.n; i < t.width; ++i) EXPECT_TRUE(is_padding(t, int(last), kRowMain, i, t.row(last, kRowMain)[i]));
}

TEST(Padding, APadKeyThatTheInputHoldsTooIsNotCalledPadding) {
  // INT32_MAX sorts last ascending: the input's own INT32_MAX cannot be told from a pad once they mix.
  const Trace t = typed_trace("bitonic-sort", ElemType::I32, "3 2147483647 1", 4);
  ASSERT_TRUE(t.has_pad_key);
  EXPECT_TRUE(t.pad_key_in_input);
  EXPECT_FALSE(is_padding(t, 0, kRowMain, 1, t.row(0, kRowMain)[1]));
  EXPECT_TRUE(is_padding(t, 0, kRowMain, 3, t.row(0, kRowMain)[3]));
  for (int s = t.pad_step; s < int(t.steps.size()); ++s) EXPECT_EQ(padding_in_row(t, s, kRowMain), 0) << "step " << s;
  // Descending, the pad key is INT32_MIN, which this input does not hold.
  const Trace d = typed_trace("bitonic-sort", ElemType::I32, "3 2147483647 1", 4, true);
  EXPECT_FALSE(d.pad_key_in_input);
  EXPECT_EQ(d.pad_key, 0x80000000u);
  EXPECT_EQ(padding_in_row(d, int(d.steps.size()) - 1, kRowMain), 1);
}

TEST(Padding, ElsewhereThePaddingIsTheCellsPastN) {
  const Trace t = typed_trace("scan-blelloch", ElemType::I32, "3 1 7 0 4", 4);
  EXPECT_FALSE(t.has_pad_key);
  EXPECT_EQ(element_extent(t), 8);
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    for (std::int32_t i = 0; i < t.width; ++i) EXPECT_EQ(is_padding(t, int(s), kRowMain, i, 0u), i >= t.n);
  // Rows of other index spaces (bins, block sums) have no padding.
  const Trace h = typed_trace("histogram-atomic", ElemType::I32, "1 2 3", 32);
  for (std::size_t r = kStdRows; r < h.rows.size(); ++r)
    if (!h.rows[r].element_space) EXPECT_FALSE(is_padding(h, 1, r, h.rows[r].length - 1, 0u));
}

TEST(Padding, TraceJsonSaysThePadKeyAndItsStep) {
  const Trace t = typed_trace("bitonic-sort", ElemType::I32, "5 4 3", 4);
  std::ostringstream o;
  write_trace_json(o, t, "cpu");
  EXPECT_NE(o.str().find("\"pad_key\": 2147483647"), std::string::npos);
  EXPECT_NE(o.str().find("\"pad_step\": " + std::to_string(t.pad_step)), std::string::npos);
  EXPECT_NE(o.str().find("\"pad_key_in_input\": false"), std::string::npos);
}

}  // namespace
