// Block bands and warp outlines: one quad over the bars and strips; the fragment shader works out
// which thread owns the element under each pixel.
out vec2 v_px;
uniform vec4 u_area;  // x, y, w, h px
void main() {
  vec2 c = vec2(float(gl_VertexID == 1 || gl_VertexID == 2 || gl_VertexID == 4), float(gl_VertexID >= 2 && gl_VertexID <= 4));
  v_px = u_area.xy + c * u_area.zw;
  gl_Position = to_ndc(v_px);
}
