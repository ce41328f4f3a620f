// Value labels under each bar (u_mode 0) or inside each strip cell (u_mode 1): instance k is index
// u_base + k. The text is the step's label texel (16 ASCII bytes, formatted on the host as `trace`
// prints values: app/view/step_labels.h); common.glsl's label_of() says where it goes and whether
// it fits, and labels.frag draws it with a pixel font over its box.
uniform int u_mode;
uniform int u_row;
uniform int u_base;
flat out uvec4 v_text;
flat out int v_len;
flat out float v_scale;
flat out vec2 v_origin;     // the text's top left, px (y down)
void main() {
  int i = u_base + gl_InstanceID;
  int row = u_mode == 0 ? u_focus : u_row;
  Label l;
  if (!label_of(row, i, u_mode == 0, l)) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    v_text = uvec4(0u);
    v_len = 0;
    v_scale = 0.0;
    v_origin = vec2(0.0);
    return;
  }
  vec2 c = vec2(float(gl_VertexID == 1 || gl_VertexID == 2 || gl_VertexID == 4), float(gl_VertexID >= 2 && gl_VertexID <= 4));
  gl_Position = to_ndc(l.origin + vec2(c.x, 1.0 - c.y) * l.size);
  v_text = l.text;
  v_len = l.len;
  v_scale = l.scale;
  v_origin = l.origin;
}
