// Shared by every view shader (prepended after #version 330 core): the trace buffers, the layout
// of the view in pixels, and value fetching. Step s of the trace starts at s * u_step_words.
// Rows in element space show the window u_win of elements across the bars (zoom and pan); other
// rows (bins, block sums) always show their whole length.
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
uniform int u_row_type[16];       // 0 int32, 1 float, 2 uint32
uniform int u_row_len[16];
uniform int u_row_elem[16];       // 1: index i is element i
uniform vec2 u_range[16];         // value range of each row (this step's, or the whole trace's)
uniform float u_min_band_px;      // bands and boundary lines narrower than this are not drawn

uint word_at(int step, int row, int i) { return texelFetch(u_values, step * u_step_words + row * u_width + i).r; }
uint word(int row, int i) { return word_at(u_step, row, i); }
uint touch_at(int row, int i) { return texelFetch(u_touch, row * u_width + i).r; }

float num(int row, uint w) {
  int t = u_row_type[row];
  if (t == 1) return uintBitsToFloat(w);
  if (t == 2) return float(w);
  return float(int(w));
}

bool finite_value(int row, uint w) { return u_row_type[row] != 1 || (w & 0x7f800000u) != 0x7f800000u; }

vec4 to_ndc(vec2 px) { return vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0); }

bool is_nan(int row, uint w) { return u_row_type[row] == 1 && (w & 0x7fffffffu) > 0x7f800000u; }

float cell_w(int row) {
  return u_row_elem[row] == 1 ? u_bars.z / u_win.y : u_bars.z / float(max(u_row_len[row], 1));
}
float row_first(int row) { return u_row_elem[row] == 1 ? u_win.x : 0.0; }
float cell_left(int row, int i) { return u_bars.x + (float(i) - row_first(row)) * cell_w(row); }
float cell_x(int row, int i) { return cell_left(row, i) + 0.5 * cell_w(row); }
// The index (fractional) under pixel x of a row.
float index_at(int row, float x) { return row_first(row) + (x - u_bars.x) / cell_w(row); }

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
// Where an op's end sits: the top of a bar, or the middle of a strip cell.
vec2 anchor(int row, int i) {
  if (row == u_focus) return vec2(cell_x(row, i), bar_top(i) - 2.0);
  return vec2(cell_x(row, i), u_row_y[row] + 0.5 * u_strip_h);
}
