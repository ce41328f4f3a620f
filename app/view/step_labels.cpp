// Formatting and packing the value labels of one step.
#include "view/step_labels.h"

#include <algorithm>

namespace primlab::view {

LabelTexel pack_label(const std::string& text) {
  LabelTexel t{0u, 0u, 0u, 0u};
  const std::size_t len = std::min<std::size_t>(text.size(), kLabelChars);
  for (std::size_t k = 0; k < len; ++k) t[k / 4] |= std::uint32_t(static_cast<unsigned char>(text[k])) << (8 * (k % 4));
  return t;
}

std::string unpack_label(const LabelTexel& texel) {
  std::string s;
  for (int k = 0; k < kLabelChars; ++k) {
    const char c = char((texel[std::size_t(k / 4)] >> (8 * (k % 4))) & 0xffu);
    if (!c) break;
    s += c;
  }
  return s;
}

int label_length(const LabelTexel& texel) {
  int n = 0;
  while (n < kLabelChars && ((texel[std::size_t(n / 4)] >> (8 * (n % 4))) & 0xffu) != 0u) ++n;
  return n;
}

std::vector<LabelTexel> step_labels(const Trace& meta, int step, const std::uint32_t* step_values) {
  std::vector<LabelTexel> out(meta.step_words(), LabelTexel{0u, 0u, 0u, 0u});
  for (std::size_t r = 0; r < meta.rows.size(); ++r) {
    if (r == kRowTouch || r == kRowOwner) continue;
    const RowInfo& row = meta.rows[r];
    const std::int32_t len = std::min(row.length, meta.width);
    const std::uint32_t* v = step_values + r * std::size_t(meta.width);
    for (std::int32_t i = 0; i < len; ++i)
      if (!is_padding(meta, step, r, i, v[i])) out[r * std::size_t(meta.width) + std::size_t(i)] = pack_label(format_cell(v[i], row));
  }
  return out;
}

}  // namespace primlab::view
