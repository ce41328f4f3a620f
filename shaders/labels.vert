// Value labels under each bar (u_mode 0) or inside each strip cell (u_mode 1): instance k is index
// u_base + k. The text is the step's label texel (16 ASCII bytes, formatted on the host as `trace`
// prints values: app/view/step_labels.h); labels.frag draws it with a pixel font where it fits.
uniform int u_mode;
uniform int u_row;
uniform int u_base;
uniform float u_label_y;    // top of the labels under the bars, px
uniform float u_label_h;
flat out uvec4 v_text;
flat out int v_len;
flat out vec2 v_origin;     // the box's top left, px (y down)
flat out vec2 v_box;
void main() {
  int i = u_base + gl_InstanceID;
  int row = u_mode == 0 ? u_focus : u_row;
  float cw = cell_w(row);
  float x0 = cell_left(row, i), y0 = u_mode == 0 ? u_label_y : u_row_y[row];
  float h = u_mode == 0 ? u_label_h : u_strip_h;
  vec2 c = vec2(float(gl_VertexID == 1 || gl_VertexID == 2 || gl_VertexID == 4), float(gl_VertexID >= 2 && gl_VertexID <= 4));
  v_box = vec2(cw, h);
  v_origin = vec2(x0, y0);
  gl_Position = to_ndc(vec2(x0, y0) + vec2(c.x * cw, (1.0 - c.y) * h));
  uvec4 text = i < u_width ? texelFetch(u_labels, row * u_width + i) : uvec4(0u);
  int len = 0;
  while (len < 16 && ((text[len / 4] >> uint(8 * (len % 4))) & 255u) != 0u) ++len;
  v_text = text;
  v_len = len;
}
