// Arrow colour by operation kind (kOpColour from the palette, app/view/palette.h); those that
// touch the element under the mouse in kHovered.
flat in int v_kind;
flat in int v_hi;
out vec4 frag;
void main() {
  vec3 c = kOpColour[clamp(v_kind, 0, kOpColour.length() - 1)];
  frag = vec4(v_hi == 1 ? kHovered : c, 0.9);
}
