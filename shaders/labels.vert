// Value labels drawn from the trace buffers with a 3x5 pixel font: under each bar (u_mode 0) or
// inside each strip cell (u_mode 1). The number is formatted here, on the GPU.
uniform int u_mode;
uniform int u_row;
uniform float u_label_y;    // top of the labels under the bars, px
uniform float u_label_h;
flat out uvec2 v_text;      // up to 16 glyph codes, 4 bits each (0-9 digits, 10 '-', 11 '.', 15 none)
flat out int v_len;
out vec2 v_local;           // px inside the box
flat out vec2 v_box;
void put(inout uvec2 text, int pos, uint code) {
  if (pos < 8) text.x |= code << uint(4 * pos);
  else if (pos < 16) text.y |= code << uint(4 * (pos - 8));
}
void main() {
  int i = gl_InstanceID;
  int row = u_mode == 0 ? u_focus : u_row;
  float cw = cell_w(row);
  float x0 = u_bars.x + float(i) * cw, y0 = u_mode == 0 ? u_label_y : u_row_y[row];
  float h = u_mode == 0 ? u_label_h : u_strip_h;
  vec2 c = vec2(float(gl_VertexID == 1 || gl_VertexID == 2 || gl_VertexID == 4), float(gl_VertexID >= 2 && gl_VertexID <= 4));
  v_box = vec2(cw, h);
  v_local = c * v_box;
  v_local.y = h - v_local.y;
  gl_Position = to_ndc(vec2(x0, y0) + vec2(c.x * cw, (1.0 - c.y) * h));
  uint w = word(row, i);
  uvec2 text = uvec2(0u);
  int len = 0;
  if (!finite_value(row, w) || (u_row_elem[row] == 1 && i >= u_n)) { v_text = text; v_len = 0; return; }
  // digits of |v| (one decimal for floats that need it)
  bool neg;
  uint mag;
  int decimals = 0;
  if (u_row_type[row] == 1) {
    float f = uintBitsToFloat(w);
    neg = f < 0.0;
    float a = abs(f);
    if (a < 100000.0 && abs(a - round(a)) > 0.05) { decimals = 1; a *= 10.0; }
    mag = uint(min(round(a), 4.0e9));
  } else if (u_row_type[row] == 2) {
    neg = false;
    mag = w;
  } else {
    neg = int(w) < 0;
    mag = neg ? (~w + 1u) : w;
  }
  uint digits[12];
  int nd = 0;
  do { digits[nd++] = mag % 10u; mag /= 10u; } while (mag > 0u && nd < 11);
  if (decimals == 1 && nd == 1) digits[nd++] = 0u;
  if (neg) put(text, len++, 10u);
  for (int k = nd - 1; k >= 0; --k) {
    if (decimals == 1 && k == 0) put(text, len++, 11u);
    put(text, len++, digits[k]);
  }
  v_text = text;
  v_len = len;
}
