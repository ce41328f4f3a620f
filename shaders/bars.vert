// Bars (u_mode 0: one per element of the focus row) and cells (u_mode 1: one per index of row
// u_row, a strip). Everything comes from the trace buffers; nothing is read back to the host.
uniform int u_mode;
uniform int u_row;
flat out uint v_touch;
flat out int v_flags;     // 1 padding, 2 non-finite, 4 cell
out float v_heat;
out vec2 v_local;         // position inside the quad, 0..1
out vec2 v_size;          // quad size px
void main() {
  int i = gl_InstanceID;
  int row = u_mode == 0 ? u_focus : u_row;
  vec2 c = vec2(float(gl_VertexID == 1 || gl_VertexID == 2 || gl_VertexID == 4), float(gl_VertexID >= 2 && gl_VertexID <= 4));
  float cw = cell_w(row);
  float x0 = u_bars.x + float(i) * cw + (cw > 4.0 ? 1.0 : 0.0), x1 = u_bars.x + float(i + 1) * cw;
  uint w = word(row, i);
  bool fin = finite_value(row, w);
  float v = num(row, w);
  float y0, y1;
  if (u_mode == 0) {
    float base = value_y(0.0), top = fin ? value_y(v) : u_bars.y;
    y0 = min(base, top);
    y1 = max(base, top);
    if (y1 - y0 < 1.0) y1 = y0 + 1.0;
  } else {
    y0 = u_row_y[row];
    y1 = y0 + u_strip_h;
  }
  vec2 px = vec2(mix(x0, x1, c.x), mix(y1, y0, c.y));
  gl_Position = to_ndc(px);
  v_local = c;
  v_size = vec2(x1 - x0, y1 - y0);
  bool elem = u_row_elem[row] == 1;
  v_touch = elem && row < 16 ? (word(1, i) >> uint(2 * row)) & 3u : 0u;
  v_flags = (elem && i >= u_n ? 1 : 0) | (fin ? 0 : 2) | (u_mode == 1 ? 4 : 0);
  vec2 r = u_range[row];
  v_heat = r.y > r.x ? clamp((v - r.x) / (r.y - r.x), 0.0, 1.0) : 0.5;
}
