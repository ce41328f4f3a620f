// Arrow colour by operation kind (kOpColour from the palette, app/view/palette.h); those that
// touch the element under the mouse in kHovered. Arrows pass under the value labels: no arrow
// pixel falls inside a drawn label's box (and a pixel around it), so that a line never turns a
// digit into another.
flat in int v_kind;
flat in int v_hi;
in vec2 v_pos;
out vec4 frag;
bool under_label(vec2 px) {
  if (u_labels_on == 0) return false;
  Label l;
  if (px.y >= u_label_y && px.y < u_label_y + u_label_h &&
      label_of(u_focus, int(floor(index_at(u_focus, px.x))), true, l))
    return all(greaterThanEqual(px, l.origin - l.scale)) && all(lessThan(px, l.origin + l.size + l.scale));
  for (int r = 0; r < 16; ++r) {
    if (u_row_y[r] < 0.0 || px.y < u_row_y[r] || px.y >= u_row_y[r] + u_strip_h) continue;
    if (!label_of(r, int(floor(index_at(r, px.x))), false, l)) return false;
    return all(greaterThanEqual(px, l.origin - l.scale)) && all(lessThan(px, l.origin + l.size + l.scale));
  }
  return false;
}
void main() {
  if (under_label(vec2(gl_FragCoord.x, u_viewport.y - gl_FragCoord.y))) discard;
  vec3 c = kOpColour[clamp(v_kind, 0, kOpColour.length() - 1)];
  frag = vec4(v_hi == 1 ? kHovered : c, 0.9);
}
