// One quad over u_area (px): the bands, bars, strips and overview are drawn per pixel by their
// fragment shaders, which work out the elements under each pixel column.
out vec2 v_px;
uniform vec4 u_area;  // x, y, w, h px
void main() {
  vec2 c = vec2(float(gl_VertexID == 1 || gl_VertexID == 2 || gl_VertexID == 4), float(gl_VertexID >= 2 && gl_VertexID <= 4));
  v_px = u_area.xy + c * u_area.zw;
  gl_Position = to_ndc(v_px);
}
