// Shared by every view shader (prepended after #version 330 core): the trace buffers, the layout
// of the view in pixels, and value fetching. Step s of the trace starts at s * u_step_words.
// The focus row, and the rows of its index space, show the window u_win of its axis (zoom and
// pan); other rows show their whole axis. An element row's axis gives its n real elements one unit
// each and squeezes the padding after them (u_elems - u_n cells) into u_pad_k units a cell
// (app/view/view_window.h, Axis); other rows (bins, block sums) are one unit a cell.
uniform vec2 u_viewport;          // framebuffer size, px
uniform vec4 u_bars;              // bars area: x, y (top), w, h in px
uniform vec2 u_win;               // visible elements: first (fractional), count
uniform usamplerBuffer u_values;  // steps x rows x width words
uniform isamplerBuffer u_ops;     // op slots: thread, kind|rows, src, dst
uniform usamplerBuffer u_labels;  // the step's labels: rows x width texels of 16 ASCII bytes
uniform usamplerBuffer u_touch;   // the step's touch flags of every row: rows x width, 1 read | 2 written
uniform int u_width;              // row width
uniform int u_n;                  // real elements (>= n is padding)
uniform int u_step;
uniform int u_step_words;
uniform int u_focus;              // row drawn as bars
uniform int u_block;              // threads per block
uniform int u_ept;                // elements per thread (ownership bands)
uniform float u_row_y[16];        // top of each row's strip, px (< 0: not drawn)
uniform float u_strip_h;
uniform int u_row_type[16];       // 0 int32, 1 float, 2 uint32, 3 tagged counter (tag << 27) | count
uniform int u_row_win[16];        // 1: the row shows the window u_win, 0: its whole axis
uniform int u_elems;              // element rows' extent: u_n real elements, then padding
uniform float u_pad_k;            // units of one padding element (1: not squeezed)
uniform int u_row_pad_key[16];    // 1: a word equal to u_pad_key is padding (a sort's keys, wherever they move)
uniform uint u_pad_key;
uniform int u_pad_mode;           // padding: 0 the cells from u_pad_from on, 1 the pad key (u_row_pad_key), 2 none told
uniform int u_pad_from;
uniform int u_row_len[16];
uniform int u_row_elem[16];       // 1: index i is element i
uniform vec2 u_range[16];         // value range of each row (this step's, or the whole trace's)
uniform float u_min_band_px;      // bands and boundary lines narrower than this are not drawn
uniform int u_labels_on;          // value labels are drawn (arrows keep out of them)
uniform float u_label_y;          // top of the labels under the bars, px
uniform float u_label_h;
uniform int u_label_chars[16];    // the longest label of each row at this step

uint word_at(int step, int row, int i) { return texelFetch(u_values, step * u_step_words + row * u_width + i).r; }
uint word(int row, int i) { return word_at(u_step, row, i); }
uint touch_at(int row, int i) { return texelFetch(u_touch, row * u_width + i).r; }

float num(int row, uint w) {
  int t = u_row_type[row];
  if (t == 1) return uintBitsToFloat(w);
  if (t == 2) return float(w);
  if (t == 3) return float(w & 0x07FFFFFFu);  // a tagged counter's bar is its count
  return float(int(w));
}

bool finite_value(int row, uint w) { return u_row_type[row] != 1 || (w & 0x7f800000u) != 0x7f800000u; }

vec4 to_ndc(vec2 px) { return vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0); }

// Padding (lab/model/trace.h, is_padding): past n in an element row, or the pad key of a sort's key row.
bool padding_word(int row, int i, uint w) {
  if (u_row_elem[row] != 1) return false;
  if (u_pad_mode == 0) return i >= u_pad_from;
  return u_pad_mode == 1 && u_row_pad_key[row] == 1 && w == u_pad_key;
}
bool is_nan(int row, uint w) { return u_row_type[row] == 1 && (w & 0x7fffffffu) > 0x7f800000u; }

// A row's axis: units of cell edge i, and back.
bool padded_row(int row) { return u_row_elem[row] == 1 && u_elems > u_n; }
float row_units(int row) {
  return padded_row(row) ? float(u_n) + float(u_elems - u_n) * u_pad_k : float(max(u_row_len[row], 1));
}
float unit_of(int row, float i) { return padded_row(row) && i > float(u_n) ? float(u_n) + (i - float(u_n)) * u_pad_k : i; }
float cell_of(int row, float u) { return padded_row(row) && u > float(u_n) ? float(u_n) + (u - float(u_n)) / u_pad_k : u; }
vec2 row_win(int row) { return u_row_win[row] == 1 ? u_win : vec2(0.0, row_units(row)); }
// Pixels of one unit of a row: a real element's (or a bin's) width.
float cell_w(int row) { return u_bars.z / row_win(row).y; }
// Pixels of cell i (a padding element is narrower).
float cell_w_at(int row, int i) { return cell_w(row) * (padded_row(row) && i >= u_n ? u_pad_k : 1.0); }
float cell_left(int row, int i) { return u_bars.x + (unit_of(row, float(i)) - row_win(row).x) * cell_w(row); }
float cell_x(int row, int i) { return cell_left(row, i) + 0.5 * cell_w_at(row, i); }
// The index (fractional) under pixel x of a row.
float index_at(int row, float x) { return cell_of(row, row_win(row).x + (x - u_bars.x) / cell_w(row)); }
// Cells of a row: an element row ends at its own length (rows shorter than the padded extent hold
// nothing past it).
int row_cells(int row) { return u_row_elem[row] == 1 ? min(u_row_len[row], u_elems) : u_row_len[row]; }

// Bars include zero; a flat range gets height 1.
vec2 bar_range() {
  vec2 r = u_range[u_focus];
  float lo = min(r.x, 0.0), hi = max(r.y, 0.0);
  if (!(hi > lo)) hi = lo + 1.0;
  return vec2(lo, hi);
}
float value_y(float v) {
  vec2 r = bar_range();
  // Halved so that a range of +-3e38 does not overflow.
  float t = (0.5 * clamp(v, r.x, r.y) - 0.5 * r.x) / (0.5 * r.y - 0.5 * r.x);
  return u_bars.y + u_bars.w * (1.0 - t);
}
float bar_top(int i) {
  uint w = word(u_focus, i);
  if (!finite_value(u_focus, w)) return u_bars.y;
  float v = num(u_focus, w);
  return min(value_y(v), value_y(0.0));
}
float bar_bottom(int i) {
  uint w = word(u_focus, i);
  if (!finite_value(u_focus, w)) return u_bars.y + u_bars.w;
  return max(value_y(num(u_focus, w)), value_y(0.0));
}
float row_mid_y(int row) { return row == u_focus ? u_bars.y + 0.5 * u_bars.w : u_row_y[row] + 0.5 * u_strip_h; }
// Where an op's end sits, toward the other end at height `toward_y`: the top of a bar (an arc
// between bars, or an arrow from above), its foot (an arrow from a strip below), or the edge of a
// strip cell that faces the other end, so that arrowheads stay clear of the cell's label.
vec2 anchor(int row, int i, float toward_y) {
  if (row == u_focus)
    return vec2(cell_x(row, i), toward_y > u_bars.y + u_bars.w ? bar_bottom(i) + 1.0 : bar_top(i) - 2.0);
  float top = u_row_y[row];
  return vec2(cell_x(row, i), toward_y < top + 0.5 * u_strip_h ? top : top + u_strip_h);
}

// [SECTION] Value labels
// Label i of a row, as the label shaders draw it: its text (16 ASCII bytes) and length, and its box
// in px (app/view/trace_view.h, value_labels, is the host's copy). One pixel scale s for a whole row,
// from its longest label, so that one-digit and two-digit labels match; a row whose longest label
// does not fit its cell with a gap of 2 s + 2 px draws none, so that neighbours never run together
// into other numbers (zoom in for them). `band`: the focus row's labels under the bars, else the
// strip's. False when the label is empty, the row's labels do not fit, or the bars' edge would cut it.
struct Label {
  uvec4 text;
  int len;
  float scale;
  vec2 origin, size;  // px, y down
};
bool label_of(int row, int i, bool band, out Label l) {
  l.text = uvec4(0u);
  l.len = 0;
  l.scale = 0.0;
  l.origin = l.size = vec2(0.0);
  if (i < 0 || i >= u_width) return false;
  l.text = texelFetch(u_labels, row * u_width + i);
  while (l.len < 16 && ((l.text[l.len / 4] >> uint(8 * (l.len % 4))) & 255u) != 0u) ++l.len;
  if (l.len == 0) return false;
  float h = band ? u_label_h : u_strip_h, cw = cell_w_at(row, i);
  int longest = max(u_label_chars[row], l.len);
  // s (4 len - 1) px of glyphs and a gap of 2 s + 2 px: s (4 len + 1) + 2 px a label.
  float s = floor(min(h / 7.0, (cell_w(row) - 2.0) / float(4 * longest + 1)));
  if (s < 1.0 || s * float(4 * l.len + 1) + 2.0 > cw) return false;
  l.scale = s;
  l.size = vec2(4.0 * float(l.len) - 1.0, 5.0) * s;
  float y0 = band ? u_label_y : u_row_y[row];
  l.origin = floor(vec2(cell_left(row, i), y0) + 0.5 * (vec2(cw, h) - l.size) + 0.5);
  // Only whole labels: one that the bars' edge would cut (a zoomed window's first or last cell) is left out.
  return l.origin.x >= u_bars.x && l.origin.x + l.size.x <= u_bars.x + u_bars.z;
}
